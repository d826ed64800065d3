/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * fetch.h - files by GNU build id from debuginfod servers, through
 * libdebuginfod (elfutils), which is loaded with dlopen() when first asked
 * for: libkreloc neither needs it installed nor links it, so the tool
 * works without it and only this feature says it is missing.  The client
 * honours DEBUGINFOD_URLS, DEBUGINFOD_CACHE_PATH, DEBUGINFOD_TIMEOUT, ...
 * (debuginfod-client-config(7)); a file fetched once is in the cache, and
 * the next run finds it there with the server gone.
 */
#ifndef KRELOC_FETCH_H
#define KRELOC_FETCH_H

#include <stddef.h>
#include <stdint.h>

struct kfetch;

/* 1 if debuginfod can be used (compiled in, libdebuginfod.so.1 loads); else 0 with why. */
int kfetch_available(char *why, size_t len);

/*
 * A client for the servers of DEBUGINFOD_URLS; NULL with why when it is
 * unset or the library cannot be loaded.  One thread at a time.
 */
struct kfetch *kfetch_new(char *why, size_t len);
void kfetch_free(struct kfetch *f);

/* Is the file at path what the caller needs (e.g. it has a symbol table)?  Else why. */
typedef int (*kfetch_usable_t)(const char *path, void *ctx, char *why, size_t len);

/*
 * The file with build id hex (what names it in messages: "vmlinux",
 * "vfat.ko"): the server's executable, else its debuginfo, the first that
 * usable accepts (NULL: any).  Returns 0 with *path (malloc'ed, in the
 * client's cache) and *origin (KRELOC_ORIGIN_EXECUTABLE or _DEBUGINFO);
 * -ENOENT when no server has a usable one (why names the build id and what
 * was asked); or the error of a server that could not be asked
 * (-ECONNREFUSED, -ETIME, -EHOSTUNREACH, ...): the client then gives that
 * error for every later request without asking, so a run with the server
 * down or stuck waits for it once.
 */
int kfetch_get(struct kfetch *f, const char *hex, const char *what, kfetch_usable_t usable,
	       void *ctx, char **path, int *origin, char *why, size_t whylen);

/* Is err one of a server that could not be asked (not "no such file")? */
int kfetch_unavailable(int err);

/*
 * A bound on this thread's requests (CLOCK_MONOTONIC ns, 0: none), for
 * kreloc_resolver_prefetch(): a request in flight when it passes is
 * abandoned (libdebuginfod's progress callback), none is made after, and
 * each fails with -ETIME (the client is not marked dead: a later request
 * without a bound asks again).  kfetch_expired() says whether the bound
 * stopped any since it was set.
 */
void kfetch_set_deadline(uint64_t ns);
int kfetch_expired(void);
uint64_t kfetch_now(void);

#endif
