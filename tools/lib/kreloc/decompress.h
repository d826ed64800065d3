/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * decompress.h - read a file that may be xz, zstd or gzip compressed
 * (modules as distributions ship them: Debian 7.x only has .ko.xz), with
 * liblzma, libzstd and zlib.  Each library is optional at build time
 * (KRELOC_HAVE_LZMA, KRELOC_HAVE_ZSTD, KRELOC_HAVE_ZLIB); without one, its
 * format is an error that names the missing feature.
 */
#ifndef KRELOC_DECOMPRESS_H
#define KRELOC_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>

enum kdc_format { KDC_PLAIN, KDC_XZ, KDC_ZSTD, KDC_GZIP };

/* The format the data starts with (by magic number). */
enum kdc_format kdc_detect(const unsigned char *p, size_t n);
const char *kdc_name(enum kdc_format f);
bool kdc_supported(enum kdc_format f);

/*
 * Read PATH whole, decompressed if it is compressed.  Returns 0 with a
 * malloc'ed *out of *len bytes and the format it was in (*fmt, if fmt is
 * not NULL), or -1 with err set.  Output is capped (KDC_MAX_OUT) so a
 * hostile file cannot exhaust memory.
 */
#define KDC_MAX_OUT ((size_t)1 << 30)
int kdc_read_file(const char *path, unsigned char **out, size_t *len, enum kdc_format *fmt,
		  char *err, size_t errlen);

#endif
