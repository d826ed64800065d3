/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * files.h - struct kreloc_files: where a snapshot's kernel files are
 * found, and what was read of them, kept by build id for every resolver
 * that shares it.  Local files first (a given map or vmlinux, the modules
 * directory, with default_paths the places distributions install a
 * vmlinux with symbols), then debuginfod (fetch.h) by build id.  One lock
 * guards the caches, the modules index and the debuginfod client.
 */
#ifndef KRELOC_FILES_H
#define KRELOC_FILES_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "kcore.h"
#include "ko.h"

struct kfetch;

/* A module fetched by build id (or the reason it could not be). */
struct kfetched {
	char build_id[KSF_BUILD_ID_HEX];
	int err;			/* 0, or a negative errno */
	bool cut_short;			/* err is a prefetch's bound, not the server's */
	char *why;
	int origin;
	char *path;
	struct ko_file ko;		/* parsed when err is 0 (ko.path is path) */
};

/* A core kernel symbol source (or the reason there is none), by key. */
struct kcore_ent {
	char *key;			/* "KIND:PATH" for a given file, "id:HEX" by build id */
	int err;
	char *why;
	struct kcore *core;
};

struct kreloc_files {
	pthread_mutex_t lock;
	atomic_int refs;
	char *modules_dir;
	bool debuginfod, default_paths;
	struct ko_index ko;		/* the local .ko files */
	struct kfetch *fetch;		/* NULL without debuginfod */
	struct kfetched **mods;
	size_t nr_mods;
	struct kcore_ent *cores;
	size_t nr_cores;
};

/* Returns 0, or a negative errno with err set. */
int files_new(const struct kreloc_files_opts *opts, struct kreloc_files **out, char *err,
	      size_t errlen);
void files_get(struct kreloc_files *f);
void files_put(struct kreloc_files *f);

/*
 * The core kernel's symbols for snapshot s: path read as kind, or for
 * KRES_NONE the vmlinux of its build id (default paths, then debuginfod).
 * Read once per key; *core stays f's.  Returns 0, or a negative errno
 * with why (-ENOENT: not found, naming the build id; a debuginfod
 * server's error when it could not be asked).
 */
int files_core(struct kreloc_files *f, const struct ksnap *s, enum kres_map_kind kind,
	       const char *path, struct kcore **core, char *why, size_t whylen);

/*
 * The lookup table of core for (delta, abi_v1): the one core keeps when
 * it is for those (the first snapshot's; the others of its build share
 * it), else a new one into *own (the caller frees it).
 */
int files_core_tab(struct kreloc_files *f, struct kcore *core, uint64_t delta, int abi_v1,
		   const struct kres_tab **tab, struct kres_tab **own, char *err, size_t errlen);

/*
 * The .ko of record m: ko_find() in the modules directory, else by its
 * build id from debuginfod.  Returns the parsed file (f's) with *origin,
 * or NULL with *w, a one-line reason in why and, for KO_UNAVAILABLE, the
 * server's error in *err.
 */
struct ko_file *files_find_ko(struct kreloc_files *f, const struct ks_mod *m, enum ko_why *w,
			      int *origin, int *err, char *why, size_t whylen);
/* ko_only() under f's lock. */
struct ko_file *files_only_ko(struct kreloc_files *f, const struct ks_mod *m);

#endif
