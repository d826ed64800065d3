/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcache.h - kreloc's private cache of unpacked modules, for tools that
 * cannot read a .ko.xz/.ko.zst/.ko.gz themselves (gdb's add-symbol-file):
 *   ${XDG_CACHE_HOME:-$HOME/.cache}/kreloc/ko/BUILD_ID/NAME.ko
 * Keyed by the module's GNU build id, so each build is unpacked once and
 * two builds never share a file.  The directories are created 0700 and
 * must be the caller's and writable by nobody else; files go through
 * ofile.c (0600, atomic) and are rewritten when they do not hold exactly
 * the module's bytes.
 */
#ifndef KRELOC_KCACHE_H
#define KRELOC_KCACHE_H

#include <stddef.h>

/*
 * The cache file of module NAME with build id BUILD_ID (hex) holding
 * data[0..len), written unless it already holds exactly that.  Returns a
 * malloc'ed path, or NULL with a one-line reason in err.
 */
char *kcache_module(const char *build_id, const char *name, const unsigned char *data,
		    size_t len, char *err, size_t errlen);

#endif
