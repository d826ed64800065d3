// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* decompress.c - xz, zstd and gzip through liblzma, libzstd and zlib. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef KRELOC_HAVE_LZMA
#include <lzma.h>
#endif
#ifdef KRELOC_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef KRELOC_HAVE_ZLIB
#include <zlib.h>
#endif
#include "decompress.h"
#include "ksnap.h"	/* ksnap_seterr */

enum kdc_format kdc_detect(const unsigned char *p, size_t n)
{
	static const unsigned char xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };
	static const unsigned char zst[] = { 0x28, 0xb5, 0x2f, 0xfd };

	if (n >= sizeof(xz) && !memcmp(p, xz, sizeof(xz)))
		return KDC_XZ;
	if (n >= sizeof(zst) && !memcmp(p, zst, sizeof(zst)))
		return KDC_ZSTD;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return KDC_GZIP;
	return KDC_PLAIN;
}

const char *kdc_name(enum kdc_format f)
{
	static const char *const names[] = { "plain", "xz", "zstd", "gzip" };

	return (unsigned int)f < sizeof(names) / sizeof(names[0]) ? names[f] : "unknown";
}

bool kdc_supported(enum kdc_format f)
{
	switch (f) {
	case KDC_PLAIN:
		return true;
#ifdef KRELOC_HAVE_LZMA
	case KDC_XZ:
		return true;
#endif
#ifdef KRELOC_HAVE_ZSTD
	case KDC_ZSTD:
		return true;
#endif
#ifdef KRELOC_HAVE_ZLIB
	case KDC_GZIP:
		return true;
#endif
	default:
		return false;
	}
}

/* A growing output buffer. */
struct obuf {
	unsigned char *p;
	size_t len, cap;
};

/* Make room for at least one more chunk; -1 past KDC_MAX_OUT or without memory. */
static int grow(struct obuf *o)
{
	size_t cap = o->cap ? o->cap * 2 : 1 << 20;
	unsigned char *n;

	if (o->cap >= KDC_MAX_OUT)
		return -1;
	if (cap > KDC_MAX_OUT)
		cap = KDC_MAX_OUT;
	n = realloc(o->p, cap);
	if (!n)
		return -1;
	o->p = n;
	o->cap = cap;
	return 0;
}

#ifdef KRELOC_HAVE_LZMA
static const char *unxz(const unsigned char *in, size_t n, struct obuf *o)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return "liblzma: cannot start the decoder";
	s.next_in = in;
	s.avail_in = n;
	do {
		if (o->len == o->cap && grow(o)) {
			lzma_end(&s);
			return "decompressed size too large";
		}
		s.next_out = o->p + o->len;
		s.avail_out = o->cap - o->len;
		r = lzma_code(&s, LZMA_FINISH);
		o->len = o->cap - s.avail_out;
	} while (r == LZMA_OK);
	lzma_end(&s);
	return r == LZMA_STREAM_END ? NULL : "corrupt or truncated xz data";
}
#endif

#ifdef KRELOC_HAVE_ZSTD
static const char *unzstd(const unsigned char *in, size_t n, struct obuf *o)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t r = 1;

	if (!d)
		return "libzstd: cannot start the decoder";
	while (ib.pos < ib.size || r) {
		ZSTD_outBuffer ob;

		if (o->len == o->cap && grow(o)) {
			ZSTD_freeDStream(d);
			return "decompressed size too large";
		}
		ob.dst = o->p + o->len;
		ob.size = o->cap - o->len;
		ob.pos = 0;
		r = ZSTD_decompressStream(d, &ob, &ib);
		o->len += ob.pos;
		if (ZSTD_isError(r)) {
			ZSTD_freeDStream(d);
			return "corrupt zstd data";
		}
		if (ib.pos == ib.size && r && ob.pos < ob.size) {
			ZSTD_freeDStream(d);
			return "truncated zstd data";
		}
	}
	ZSTD_freeDStream(d);
	return NULL;
}
#endif

#ifdef KRELOC_HAVE_ZLIB
static const char *ungzip(const unsigned char *in, size_t n, struct obuf *o)
{
	z_stream s;
	int r;

	if (n > UINT32_MAX)
		return "gzip data too large";
	memset(&s, 0, sizeof(s));
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK)
		return "zlib: cannot start the decoder";
	s.next_in = (unsigned char *)in;
	s.avail_in = (uInt)n;
	for (;;) {
		uInt room;

		if (o->len == o->cap && grow(o)) {
			inflateEnd(&s);
			return "decompressed size too large";
		}
		room = (uInt)(o->cap - o->len);	/* the cap is below 4 GiB */
		s.next_out = o->p + o->len;
		s.avail_out = room;
		r = inflate(&s, Z_NO_FLUSH);
		o->len += room - s.avail_out;
		if (r == Z_STREAM_END)
			break;
		if ((r != Z_OK && r != Z_BUF_ERROR) || (s.avail_out && !s.avail_in)) {
			inflateEnd(&s);
			return r == Z_OK || r == Z_BUF_ERROR ? "truncated gzip data" :
				"corrupt gzip data";
		}
	}
	inflateEnd(&s);
	return NULL;
}
#endif

static int read_all(const char *path, struct obuf *o, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return ksnap_seterr(err, errlen, "%s: %s", path, strerror(errno));
	for (;;) {
		if (o->len == o->cap && grow(o)) {
			fclose(f);
			return ksnap_seterr(err, errlen, "%s: too large or out of memory", path);
		}
		n = fread(o->p + o->len, 1, o->cap - o->len, f);
		o->len += n;
		if (!n)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		return ksnap_seterr(err, errlen, "%s: read error", path);
	}
	fclose(f);
	return 0;
}

int kdc_read_file(const char *path, unsigned char **out, size_t *len, enum kdc_format *fmt,
		  char *err, size_t errlen)
{
	struct obuf in = { NULL, 0, 0 }, o = { NULL, 0, 0 };
	enum kdc_format f;
	const char *why = "not supported";

	*out = NULL;
	*len = 0;
	if (read_all(path, &in, err, errlen)) {
		free(in.p);
		return -1;
	}
	f = kdc_detect(in.p, in.len);
	if (fmt)
		*fmt = f;
	if (f == KDC_PLAIN) {
		*out = in.p;
		*len = in.len;
		return 0;
	}
	if (!kdc_supported(f)) {
		free(in.p);
		return ksnap_seterr(err, errlen, "%s: %s-compressed, but this kreloc was built "
				    "without %s support (see kreloc version)", path, kdc_name(f),
				    kdc_name(f));
	}
	switch (f) {
#ifdef KRELOC_HAVE_LZMA
	case KDC_XZ:
		why = unxz(in.p, in.len, &o);
		break;
#endif
#ifdef KRELOC_HAVE_ZSTD
	case KDC_ZSTD:
		why = unzstd(in.p, in.len, &o);
		break;
#endif
#ifdef KRELOC_HAVE_ZLIB
	case KDC_GZIP:
		why = ungzip(in.p, in.len, &o);
		break;
#endif
	default:
		break;
	}
	free(in.p);
	if (why) {
		free(o.p);
		return ksnap_seterr(err, errlen, "%s: %s", path, why);
	}
	*out = o.p;
	*len = o.len;
	return 0;
}
