/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * internal.h - what libkreloc's files share and do not export: the error
 * and warning plumbing behind the public API.  Inside the library a
 * failing function writes a one-line reason into a caller's buffer
 * (ksnap_seterr()); the public entry points turn that into a negative
 * errno and the thread's kreloc_errmsg() (kr_fail()).  Nothing here prints.
 */
#ifndef KRELOC_INTERNAL_H
#define KRELOC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <kreloc/kreloc.h>
#include "ksnap.h"

/* Room for one reason. */
#define KR_ERR_MAX 1536

/* Set the thread's message (printf-style); returns -err (err > 0). */
int kr_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with the message as it is. */
int kr_fail_msg(int err, const char *msg);
/* Forget the thread's message (a call that succeeded). */
void kr_ok(void);
/*
 * A walk a callback stopped with nonzero ret: what the call returns, ret
 * when negative, else -ECANCELED (never a count), with the message.
 */
int kr_stopped(int ret);
/* -EINVAL with "FN: no WHAT": a pointer argument the caller must give was NULL. */
int kr_null(const char *fn, const char *what);
/*
 * An options struct as libbpf's OPTS_VALID() takes it: NULL (none), or sz
 * at least sizeof(size_t) and no nonzero byte past the lib_size bytes this
 * library knows (an option it cannot honour).  0, or -EINVAL with the
 * reason.
 */
int kr_opts_valid(const void *opts, size_t lib_size, const char *type);
#define KR_OPTS_VALID(o, type) kr_opts_valid(o, sizeof(struct type), #type)

/* One-line reason into err (ksnap_seterr()), and -e: return kr_seterr(EINVAL, err, len, ...); */
#define kr_seterr(e, err, len, ...) (ksnap_seterr(err, len, __VA_ARGS__), -(e))

/* A message to the caller's print callback, if it set one. */
void kr_print(enum kreloc_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define kr_warn(...) kr_print(KRELOC_WARN, __VA_ARGS__)
#define kr_info(...) kr_print(KRELOC_INFO, __VA_ARGS__)

/* ROOT + rel into buf; 0, or -1 (ENAMETOOLONG, buf "") if it does not fit. */
int kr_path_in(char *buf, size_t len, const char *root, const char *rel);

#endif
