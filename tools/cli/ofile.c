// SPDX-License-Identifier: GPL-2.0
/* ofile.c - output files: atomic replacement, in-place devices, refusals. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "main.h"
#include "ofile.h"

/* Why kreloc will not write to a file of this type, or NULL. */
static const char *refused(mode_t m)
{
	if (S_ISLNK(m))
		return "is a symbolic link: kreloc neither writes through one nor replaces it "
		       "(name the file itself, or - for standard output)";
	if (S_ISDIR(m))
		return "is a directory";
	if (S_ISBLK(m))
		return "is a block device: kreloc does not write to one";
	if (S_ISSOCK(m))
		return "is a socket";
	if (!S_ISREG(m) && !S_ISCHR(m) && !S_ISFIFO(m))
		return "is not a regular file, a character device or a FIFO";
	return NULL;
}

static int open_inplace(struct ofile *o, const struct stat *st, char *err, size_t errlen)
{
	struct stat now;
	int fd;

	fd = open(o->path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return cli_seterr(err, errlen, "%s: %s", o->path, strerror(errno));
	/* Still the same file (nothing swapped in since lstat). */
	if (fstat(fd, &now) || now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    (now.st_mode & S_IFMT) != (st->st_mode & S_IFMT)) {
		close(fd);
		return cli_seterr(err, errlen, "%s: changed while kreloc opened it", o->path);
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		return cli_seterr(err, errlen, "%s: %s", o->path, strerror(errno));
	}
	o->kind = OFILE_INPLACE;
	return 0;
}

static int open_replace(struct ofile *o, char *err, size_t errlen)
{
	char *dcopy = strdup(o->path), *bcopy = strdup(o->path);
	int fd = -1, e;

	if (!dcopy || !bcopy || asprintf(&o->tmp, "%s/.%s.XXXXXX", dirname(dcopy),
					 basename(bcopy)) < 0) {
		free(dcopy);
		free(bcopy);
		o->tmp = NULL;
		return cli_seterr(err, errlen, "out of memory");
	}
	free(dcopy);
	free(bcopy);
	/* A random name, created O_EXCL (a planted file or link fails it), 0600. */
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		cli_seterr(err, errlen, "%s: cannot create a temporary file beside it: %s", o->path,
		       strerror(e));
		goto fail;
	}
	/* The mode does not depend on the umask (which could only narrow it). */
	if (fchmod(fd, 0600)) {
		cli_seterr(err, errlen, "%s: %s", o->tmp, strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		cli_seterr(err, errlen, "%s: %s", o->tmp, strerror(errno));
		goto fail;
	}
	o->kind = OFILE_REPLACE;
	return 0;
fail:
	if (fd >= 0) {
		close(fd);
		unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

int ofile_open(struct ofile *o, const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *why;
	size_t n;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->kind = OFILE_STDOUT;
		return 0;
	}
	o->path = path;
	n = strlen(path);
	if (!n)
		return cli_seterr(err, errlen, "empty output file name");
	if (path[n - 1] == '/')
		return cli_seterr(err, errlen, "%s: names a directory, not a file", path);
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return cli_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return open_replace(o, err, errlen);
	}
	why = refused(st.st_mode);
	if (why)
		return cli_seterr(err, errlen, "%s %s", path, why);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return open_inplace(o, &st, err, errlen);
	/* A regular file is replaced only when the caller could write it. */
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS))
		return cli_seterr(err, errlen, "%s: %s: kreloc replaces only a file you may write",
			      path, strerror(errno));
	return open_replace(o, err, errlen);
}

/* fsync the directory holding path, so that the rename is on disk too. */
static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return;
	/* Some file systems cannot sync a directory (EINVAL): the data is synced. */
	(void)fsync(fd);
	close(fd);
}

int ofile_commit(struct ofile *o, bool failed, char *err, size_t errlen)
{
	int e = 0;

	switch (o->kind) {
	case OFILE_STDOUT:
		if (fflush(stdout) || ferror(stdout))
			e = errno ? errno : EIO;
		if (e && !failed)
			return cli_seterr(err, errlen, "standard output: %s", strerror(e));
		return failed || e ? -1 : 0;
	case OFILE_INPLACE:
		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
		if (fclose(o->f) && !e)
			e = errno;
		o->f = NULL;
		if (e && !failed)
			return cli_seterr(err, errlen, "%s: %s", o->path, strerror(e));
		return failed || e ? -1 : 0;
	case OFILE_REPLACE:
		break;
	}
	if (!failed && (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!failed && !e && rename(o->tmp, o->path))
		e = errno;
	if (failed || e) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		if (failed)
			return -1;
		return cli_seterr(err, errlen, "%s: %s", o->path, strerror(e));
	}
	free(o->tmp);
	o->tmp = NULL;
	sync_dir(o->path);
	return 0;
}
