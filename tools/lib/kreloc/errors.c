// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* errors.c - kreloc_errmsg() (per thread) and the print callback. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static _Thread_local char errmsg[KR_ERR_MAX];

/*
 * The callback is set once, before threads use the library (kreloc.h);
 * a pair read racily could mismatch fn and ctx, so they change together
 * under no lock only by that rule.
 */
static kreloc_print_fn_t print_fn;
static void *print_ctx;

KRELOC_API const char *kreloc_errmsg(void)
{
	return errmsg;
}

int kr_fail_msg(int err, const char *msg)
{
	if (msg != errmsg)
		snprintf(errmsg, sizeof(errmsg), "%s", msg && *msg ? msg : strerror(err));
	return -err;
}

int kr_fail(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errmsg, sizeof(errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

void kr_ok(void)
{
	errmsg[0] = '\0';
}

int kr_stopped(int ret)
{
	if (ret < 0)
		return kr_fail(-ret, "the callback stopped the walk with %d (%s)", ret, strerror(-ret));
	return kr_fail(ECANCELED, "the callback stopped the walk with %d", ret);
}

int kr_null(const char *fn, const char *what)
{
	return kr_fail(EINVAL, "%s: no %s (NULL)", fn, what);
}

/* Options structs are small: a larger sz is not a size. */
#define KR_OPTS_MAX 4096

int kr_opts_valid(const void *opts, size_t lib_size, const char *type)
{
	const unsigned char *p = opts;
	size_t sz, i;

	if (!opts)
		return 0;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(size_t) || sz > KR_OPTS_MAX)
		return kr_fail(EINVAL, "struct %s: sz is %zu, not a size: declare it with "
			       "KRELOC_OPTS(%s, ...), which sets sz", type, sz, type);
	for (i = lib_size; i < sz; i++)
		if (p[i])
			return kr_fail(EINVAL, "struct %s: byte %zu is set, past the %zu bytes this "
				       "libkreloc %s knows: an option of a newer one, which it "
				       "cannot honour", type, i, lib_size, kreloc_version());
	return 0;
}

KRELOC_API kreloc_print_fn_t kreloc_set_print(kreloc_print_fn_t fn, void *ctx)
{
	kreloc_print_fn_t old = print_fn;

	print_fn = fn;
	print_ctx = ctx;
	return old;
}

void kr_print(enum kreloc_print_level level, const char *fmt, ...)
{
	char msg[KR_ERR_MAX];
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	print_fn(level, msg, print_ctx);
}

int kr_path_in(char *buf, size_t len, const char *root, const char *rel)
{
	if ((size_t)snprintf(buf, len, "%s%s", root ? root : "", rel) < len)
		return 0;
	/* Never a path cut short: an empty one fails to open. */
	buf[0] = '\0';
	errno = ENAMETOOLONG;
	return -1;
}
