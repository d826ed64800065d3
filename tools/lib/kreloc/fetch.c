// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fetch.c - debuginfod through libdebuginfod.so.1, loaded with dlopen().
 *
 * Why dlopen and not a link: libdebuginfod pulls in libcurl and its TLS
 * stack, which a tool reading local snapshots does not need and which a
 * static build (the test VMs' CLI) cannot carry; elfutils' own libdwfl
 * loads it the same way.  The header is still needed at build time
 * (Debian libdebuginfod-dev) for the prototypes, so a build without it
 * has no debuginfod at all (KRELOC_HAVE_DEBUGINFOD unset).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "fetch.h"

int kfetch_unavailable(int err)
{
	return err < 0 && err != -ENOENT && err != -ENOMEM;
}

/* The calling thread's bound (prefetch's): the progress callback runs in it. */
static _Thread_local uint64_t deadline;
static _Thread_local int expired;

uint64_t kfetch_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void kfetch_set_deadline(uint64_t ns)
{
	deadline = ns;
	expired = 0;
}

int kfetch_expired(void)
{
	return expired;
}

#ifdef KRELOC_HAVE_DEBUGINFOD
#include <dlfcn.h>
#include <pthread.h>
#include <elfutils/debuginfod.h>

static struct {
	pthread_once_t once;
	void *handle;
	char why[256];
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_end) *end;
	__typeof__(debuginfod_find_executable) *find_executable;
	__typeof__(debuginfod_find_debuginfo) *find_debuginfo;
	__typeof__(debuginfod_set_progressfn) *set_progressfn;	/* optional */
} dl = { .once = PTHREAD_ONCE_INIT };

static void dl_load(void)
{
	const char *e;

	dl.handle = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!dl.handle) {
		e = dlerror();
		snprintf(dl.why, sizeof(dl.why), "%s (install libdebuginfod1)",
			 e ? e : DEBUGINFOD_SONAME ": cannot be loaded");
		return;
	}
	dl.begin = (__typeof__(dl.begin))dlsym(dl.handle, "debuginfod_begin");
	dl.end = (__typeof__(dl.end))dlsym(dl.handle, "debuginfod_end");
	dl.find_executable = (__typeof__(dl.find_executable))dlsym(dl.handle,
								   "debuginfod_find_executable");
	dl.find_debuginfo = (__typeof__(dl.find_debuginfo))dlsym(dl.handle,
								 "debuginfod_find_debuginfo");
	dl.set_progressfn = (__typeof__(dl.set_progressfn))dlsym(dl.handle,
								 "debuginfod_set_progressfn");
	if (!dl.begin || !dl.end || !dl.find_executable || !dl.find_debuginfo) {
		snprintf(dl.why, sizeof(dl.why), "%s lacks the debuginfod_find_* functions",
			 DEBUGINFOD_SONAME);
		dlclose(dl.handle);
		dl.handle = NULL;
	}
}

int kfetch_available(char *why, size_t len)
{
	pthread_once(&dl.once, dl_load);
	if (!dl.handle)
		snprintf(why, len, "debuginfod: %s", dl.why);
	return dl.handle != NULL;
}

struct kfetch {
	debuginfod_client *client;
	char *urls;
	int dead;			/* the error of a server that could not be asked */
	char dead_why[512];
};

static int past_deadline(void)
{
	if (deadline && kfetch_now() >= deadline)
		expired = 1;
	return expired;
}

/* libdebuginfod calls it while a request is in flight (in our thread): nonzero abandons it. */
static int progress(debuginfod_client *c, long a, long b)
{
	(void)c;
	(void)a;
	(void)b;
	return past_deadline();
}

/*
 * elfutils before 0.190 records an abandoned request as "no such file"
 * (an empty file in its cache, believed for cache_miss_s): take back the
 * one this request made, so the next run asks again.  The cache is where
 * the client puts it: DEBUGINFOD_CACHE_PATH, an existing
 * ~/.debuginfod_client_cache, else $XDG_CACHE_HOME or ~/.cache.
 */
static void forget_miss(const char *hex, const char *kind, time_t since)
{
	const char *env = getenv(DEBUGINFOD_CACHE_PATH_ENV_VAR), *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	char root[2048], path[2300];
	struct stat st;

	snprintf(root, sizeof(root), "%s/.debuginfod_client_cache", home ? home : "/");
	if (env && *env)
		snprintf(root, sizeof(root), "%s", env);
	else if (stat(root, &st))
		snprintf(root, sizeof(root), "%s%s/debuginfod_client", xdg && *xdg ? xdg : home ? home : "",
			 xdg && *xdg ? "" : "/.cache");
	snprintf(path, sizeof(path), "%s/%s/%s", root, hex, kind);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && !st.st_size && st.st_mtime >= since)
		unlink(path);
}

struct kfetch *kfetch_new(char *why, size_t len)
{
	const char *urls = getenv(DEBUGINFOD_URLS_ENV_VAR);
	struct kfetch *f;

	if (!kfetch_available(why, len))
		return NULL;
	if (!urls || !*urls) {
		snprintf(why, len, "debuginfod: DEBUGINFOD_URLS is not set (the servers to ask)");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f)
		f->urls = strdup(urls);
	if (f && f->urls)
		f->client = dl.begin();
	/*
	 * Our callback, also in place of the one DEBUGINFOD_PROGRESS sets
	 * (which would print): nonzero abandons the request at the bound.
	 */
	if (f && f->client && dl.set_progressfn)
		dl.set_progressfn(f->client, progress);
	if (!f || !f->client) {
		snprintf(why, len, "debuginfod: cannot start a client (out of memory)");
		kfetch_free(f);
		return NULL;
	}
	return f;
}

void kfetch_free(struct kfetch *f)
{
	if (!f)
		return;
	if (f->client)
		dl.end(f->client);
	free(f->urls);
	free(f);
}

/* The client's errors in words: a timeout names the setting that bounds it. */
static void say_err(char *buf, size_t len, int err)
{
	const char *t = getenv(DEBUGINFOD_TIMEOUT_ENV_VAR);

	if (err == -ETIME || err == -ETIMEDOUT)
		snprintf(buf, len, "no answer in time (%s=%s)", DEBUGINFOD_TIMEOUT_ENV_VAR,
			 t && *t ? t : "unset: libdebuginfod's 90 s");
	else
		snprintf(buf, len, "%s", strerror(-err));
}

int kfetch_get(struct kfetch *f, const char *hex, const char *what, kfetch_usable_t usable,
	       void *ctx, char **path, int *origin, char *why, size_t whylen)
{
	static const char *const kinds[] = { "executable", "debuginfo" };
	char unusable[2][512] = { "", "" }, e[160];
	int k, fd;

	*path = NULL;
	if (f->dead) {
		snprintf(why, whylen, "debuginfod (%s): not asked for %s build id %s: %s", f->urls,
			 what, hex, f->dead_why);
		return f->dead;
	}
	for (k = 0; k < 2; k++) {
		time_t since = time(NULL);
		char *p = NULL;

		if (past_deadline()) {
			snprintf(why, whylen, "debuginfod (%s): not asked for %s build id %s: the "
				 "prefetch's time ran out", f->urls, what, hex);
			return -ETIME;
		}
		fd = k == 0 ? dl.find_executable(f->client, (const unsigned char *)hex, 0, &p) :
			      dl.find_debuginfo(f->client, (const unsigned char *)hex, 0, &p);
		if (fd < 0 && expired) {
			free(p);
			forget_miss(hex, kinds[k], since);
			snprintf(why, whylen, "debuginfod (%s): asking for %s build id %s: the "
				 "prefetch's time ran out", f->urls, what, hex);
			return -ETIME;
		}
		if (fd >= 0) {
			close(fd);
			if (!usable || usable(p, ctx, unusable[k], sizeof(unusable[k]))) {
				*path = p;
				*origin = k == 0 ? KRELOC_ORIGIN_EXECUTABLE : KRELOC_ORIGIN_DEBUGINFO;
				kr_info("%s (build id %s): debuginfod %s %s", what, hex, kinds[k], p);
				return 0;
			}
			free(p);
			continue;
		}
		free(p);
		if (fd == -ENOENT)
			continue;
		/* Not "no such file": the server could not be asked.  Ask it no more. */
		say_err(e, sizeof(e), fd);
		f->dead = fd;
		snprintf(f->dead_why, sizeof(f->dead_why), "asking for %s build id %s: %s", what,
			 hex, e);
		snprintf(why, whylen, "debuginfod (%s): %s", f->urls, f->dead_why);
		return fd;
	}
	snprintf(why, whylen, "debuginfod (%s) has no %s with build id %s (asked for the "
		 "executable and the debuginfo)%s%s%s%s", f->urls, what, hex,
		 unusable[0][0] ? "; its executable: " : "", unusable[0],
		 unusable[1][0] ? "; its debuginfo: " : "", unusable[1]);
	return -ENOENT;
}

#else /* !KRELOC_HAVE_DEBUGINFOD */

int kfetch_available(char *why, size_t len)
{
	snprintf(why, len, "debuginfod: this libkreloc was built without it (no libdebuginfod-dev)");
	return 0;
}

struct kfetch *kfetch_new(char *why, size_t len)
{
	kfetch_available(why, len);
	return NULL;
}

void kfetch_free(struct kfetch *f)
{
	(void)f;
}

int kfetch_get(struct kfetch *f, const char *hex, const char *what, kfetch_usable_t usable,
	       void *ctx, char **path, int *origin, char *why, size_t whylen)
{
	(void)f; (void)hex; (void)what; (void)usable; (void)ctx; (void)origin;
	*path = NULL;
	snprintf(why, whylen, "debuginfod: not built in");
	return -ENOSYS;
}

#endif
