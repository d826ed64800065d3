// SPDX-License-Identifier: GPL-2.0
/* kcache.c - the cache of unpacked modules, keyed by build id. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kcache.h"
#include "main.h"
#include "ofile.h"

/* a + "/" + b + suffix, malloc'ed; NULL without memory. */
static char *join(const char *a, const char *b, const char *suffix)
{
	size_t n = strlen(a) + strlen(b) + strlen(suffix) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s%s", a, b, suffix);
	return p;
}

/* mkdir -m 0700 (if missing); it must then be a directory of ours. */
static int own_dir(const char *path, bool strict, char *err, size_t errlen)
{
	struct stat st;

	if (mkdir(path, 0700) && errno != EEXIST)
		return cli_seterr(err, errlen, "%s: %s", path, strerror(errno));
	if (lstat(path, &st))
		return cli_seterr(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_seterr(err, errlen, "%s: not a directory", path);
	/* Nobody else may put a file where gdb will read it. */
	if (strict && (st.st_uid != geteuid() || (st.st_mode & 022)))
		return cli_seterr(err, errlen, "%s: not a private directory of yours "
				    "(owner %u, mode %03o)", path, (unsigned int)st.st_uid,
				    (unsigned int)(st.st_mode & 0777));
	return 0;
}

/* Does path (a regular file of ours) hold exactly data[0..len)? */
static bool holds(const char *path, const unsigned char *data, size_t len)
{
	unsigned char buf[65536];
	struct stat st;
	size_t off = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (size_t)st.st_size != len) {
		close(fd);
		return false;
	}
	while (off < len && (n = read(fd, buf, sizeof(buf))) > 0) {
		if ((size_t)n > len - off || memcmp(buf, data + off, (size_t)n))
			break;
		off += (size_t)n;
	}
	close(fd);
	return off == len;
}

char *kcache_module(const char *build_id, const char *name, const unsigned char *data,
		    size_t len, char *err, size_t errlen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *base = NULL, *dir = NULL, *path = NULL, *kdir = NULL, *kodir = NULL;
	struct ofile o;
	bool bad;

	if (!build_id || !*build_id || strspn(build_id, "0123456789abcdef") != strlen(build_id)) {
		cli_seterr(err, errlen, "%s: no build id to keep its unpacked copy by", name);
		return NULL;
	}
	/* The XDG base directory spec: a relative XDG_CACHE_HOME is ignored. */
	if (xdg && *xdg == '/')
		base = strdup(xdg);
	else if (home && *home == '/')
		base = join(home, ".cache", "");
	if (!base) {
		cli_seterr(err, errlen, "no cache directory for unpacked modules (set "
			     "XDG_CACHE_HOME or HOME)");
		return NULL;
	}
	kdir = join(base, "kreloc", "");
	kodir = kdir ? join(kdir, "ko", "") : NULL;
	dir = kodir ? join(kodir, build_id, "") : NULL;
	path = dir ? join(dir, name, ".ko") : NULL;
	if (!path) {
		cli_seterr(err, errlen, "out of memory");
		goto out;
	}
	if (own_dir(base, false, err, errlen) || own_dir(kdir, true, err, errlen) ||
	    own_dir(kodir, true, err, errlen) || own_dir(dir, true, err, errlen))
		goto fail;
	if (holds(path, data, len))
		goto out;
	if (ofile_open(&o, path, err, errlen))
		goto fail;
	bad = fwrite(data, 1, len, o.f) != len;
	if (ofile_commit(&o, bad, err, errlen)) {
		if (bad)
			cli_seterr(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		goto fail;
	}
	goto out;
fail:
	free(path);
	path = NULL;
out:
	free(base);
	free(kdir);
	free(kodir);
	free(dir);
	return path;
}
