/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* debugfs.h - the kreloc module's files in /sys/kernel/debug/kreloc. */
#ifndef KRELOC_DEBUGFS_H
#define KRELOC_DEBUGFS_H

#include <stddef.h>
#include <stdint.h>
#include "ksnap.h"

#define KRELOC_DEBUGFS_DIR "/sys/kernel/debug/kreloc"

/*
 * Read the running kernel's model (info, sections, anchors, modules and
 * each record's module/NAME@LOAD_GEN) as one consistent moment: GENERATION
 * is read before and after, and everything again while it moves.  Live
 * modules without a BUILD_ID column get theirs from /sys/module/NAME/notes.
 * A missing `modules` file (kreloc without module tracking) sets
 * s->no_modules.  root (NULL or "" for /) stands for / (tests).  Returns 0,
 * or a negative errno with err set (-ENOENT kreloc not loaded, -EPERM or
 * -EACCES refused, saying why, -EBADMSG, -EAGAIN, -ENOMEM).
 */
int kreloc_live(struct ksnap *s, const char *root, char *err, size_t errlen);

/*
 * The parsers kreloc_live() reads the files with, for the same text read
 * elsewhere (a crash dump, vmcore.c).  kreloc_read_info(): info's
 * KEY=VALUE lines into the header (OSRELEASE, ARCH and STATUS required).
 * kreloc_read_table_file(): the lines of sections, anchors or modules into
 * s, or of a module/NAME@GEN file into s's last record.  Each returns 0,
 * or -1 with err set to "PATH:LINE: reason".
 */
int kreloc_read_info(struct ksnap *s, FILE *f, const char *path, char *err, size_t errlen);

enum kreloc_table_file {
	KRELOC_FILE_SECTIONS,
	KRELOC_FILE_ANCHORS,
	KRELOC_FILE_MODULES,
	KRELOC_FILE_MODULE,
};

int kreloc_read_table_file(struct ksnap *s, enum kreloc_table_file which, FILE *f,
			   const char *path, char *err, size_t errlen);

struct lookup_answer {
	uint64_t addr, probe;
	char module[64];		/* "" for the core kernel */
	char type[32];
};

/*
 * Ask the module's `lookup` file.  Returns 0 with *a filled, 1 if there is
 * no lookup file (an older kreloc: the caller may fall back), or a
 * negative errno with err: the kernel's own "ERR ENAME reason" line when
 * it gives one, and for EPERM whether lockdown or the caller's
 * credentials refused.
 */
int kreloc_lookup(const char *root, const char *spec, struct lookup_answer *a, char *err,
		  size_t errlen);

/* The bracketed mode of /sys/kernel/security/lockdown into mode ("" if unknown); 0 or -errno. */
int kreloc_lockdown(const char *root, char *mode, size_t len);

/*
 * Why the kernel answered EPERM/EACCES for path: kernel lockdown (with its
 * mode from /sys/kernel/security/lockdown) or credentials.  Returns why.
 */
const char *kreloc_eperm_reason(const char *root, const char *path, char *why, size_t len);

#endif
