// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - kreloc snapshot: save this boot's relocation for offline use.
 *
 * A snapshot holds the KASLR offset, which kptr_restrict exists to hide, so
 * the file is created 0600 whatever the umask, under a temporary name
 * opened O_CREAT|O_EXCL|O_NOFOLLOW (no pre-planted file or symlink is ever
 * written through), written, fsync'ed, renamed over the target and the
 * directory fsync'ed: a crash leaves the old file or the new one, never half.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include "main.h"
#include "debugfs.h"
#include "ksnap.h"

static const char snapshot_help[] =
	"Usage: kreloc snapshot [-o FILE]\n"
	"Save everything needed to resolve this boot's addresses later, on any\n"
	"machine: release, build id, arch, endianness, ELF ABI, core sections and\n"
	"offsets, anchors, every module record (live and unloaded) with its build\n"
	"id, regions and sections, generation.  Format: SNAPSHOT.md.  Default:\n"
	"stdout.  FILE is created mode 0600 and replaced atomically.\n";

/* Open a fresh temporary file beside path; its name goes to tmp. */
static int open_tmp(const char *path, char *tmp, size_t len)
{
	int i, fd;

	for (i = 0; i < 100; i++) {
		unsigned long long r;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r = (unsigned long long)getpid() * 1000003u + (unsigned int)i;
		if ((size_t)snprintf(tmp, len, "%s.%016llx.tmp", path, r) >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static int fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd, r = 0;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -1;
	if (fsync(fd) && errno != EINVAL)
		r = -1;
	close(fd);
	return r;
}

static int write_file(const struct ksnap *s, const char *out)
{
	char tmp[4200];
	FILE *f;
	int fd, e = 0;

	fd = open_tmp(out, tmp, sizeof(tmp));
	if (fd < 0) {
		e = errno;
		p_err("%s: cannot create a temporary file beside it: %s", out, strerror(e));
		return exit_for_errno(e);
	}
	/* The mode does not depend on the umask (which could only narrow it). */
	if (fchmod(fd, 0600))
		e = errno;
	f = e ? NULL : fdopen(fd, "w");
	if (!f) {
		e = e ? e : errno;
		close(fd);
		goto fail;
	}
	if (ksnap_write(s, f) || fflush(f) || fsync(fileno(f)))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno;
	if (e)
		goto fail;
	if (rename(tmp, out)) {
		e = errno;
		goto fail;
	}
	if (fsync_dir_of(out))
		p_warn("%s: fsync of its directory: %s", out, strerror(errno));
	return EXIT_OK;
fail:
	p_err("%s: %s", out, strerror(e));
	unlink(tmp);
	return exit_for_errno(e);
}

int do_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	char err[1024];
	struct ksnap s;
	int c, no_modules, ret;

	while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': fputs(snapshot_help, stdout); return EXIT_OK;
		default: return usage_err("snapshot", "bad option");
		}
	}
	if (optind != argc)
		return usage_err("snapshot", "unexpected argument '%s'", argv[optind]);
	ret = kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		return ret;
	}
	if (no_modules)
		p_warn("%s%s/modules missing: the snapshot has no module records (kreloc "
		       "without module tracking)", root, KRELOC_DEBUGFS_DIR);
	if (strcmp(s.status, "ok"))
		p_warn("STATUS=%s: sections without a published offset will not resolve",
		       s.status);
	if (!out || !strcmp(out, "-")) {
		if (ksnap_write(&s, stdout)) {
			p_err("stdout: %s", strerror(errno));
			ret = EXIT_FAIL;
		}
	} else {
		ret = write_file(&s, out);
	}
	ksnap_free(&s);
	return ret;
}
