/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ko.h - finding the .ko file a module record was loaded from, under a
 * modules directory (plain, .ko.xz, .ko.zst or .ko.gz), by its identity:
 * the GNU build id the record carries.  A record without one (an older
 * snapshot) takes the only file of its name whose allocated sections are
 * exactly the record's; anything else gives no file rather than a guess.
 */
#ifndef KRELOC_KO_H
#define KRELOC_KO_H

#include <stdbool.h>
#include <stddef.h>
#include "../../kelf.h"
#include "ksnap.h"
#include "ksymfile.h"

struct ko_file {
	const char *path;		/* in the index */
	int state;			/* 0 not read, 1 parsed, -1 unreadable */
	char *err;			/* why it is unreadable (state -1), or NULL */
	int compressed;			/* xz/zstd/gzip: elf holds it unpacked */
	struct kelf elf;
	char build_id[KSF_BUILD_ID_HEX];	/* hex, "" if none */
};

struct ko_index {
	const char *dir;		/* NULL: no modules directory */
	struct ksf_index ix;		/* the .ko files under dir */
	struct ko_file *files;		/* one for each of ix.ko[] */
	size_t nr;
	bool indexed, warn;
};

/*
 * Read, decompress and parse k->path once (k->state: 0 not yet, 1 done,
 * -1 failed, the reason kept in k->err).  Returns k->state, with err set
 * when it failed now.
 */
int ko_file_parse(struct ko_file *k, char *err, size_t errlen);
/* Free what ko_file_parse() made of k. */
void ko_file_free(struct ko_file *k);

/* warn: print a warning for each candidate that cannot be read. */
void ko_index_init(struct ko_index *x, const char *dir, bool warn);
void ko_index_free(struct ko_index *x);

enum ko_why {
	KO_FOUND,
	KO_NONE,		/* no modules directory, or no file of that name in it */
	KO_OTHER_BUILD,		/* files of that name, none with the record's build id */
	KO_UNSURE,		/* no build id in the record, and not one file fits */
	KO_UNAVAILABLE,		/* not found locally, and debuginfod could not be asked */
	KO_CORRUPT,		/* files of that name (or fetched) that cannot be read, none usable */
};

/*
 * The one search for the .ko file of record m, parsed: the file with the
 * record's build id, wherever it is in the tree; for a record without one,
 * the only file of its name whose allocated sections are the record's.
 * Returns it (*w KO_FOUND; why then says how it was chosen when that is
 * worth a note, else ""), or NULL with *w and a one-line reason in why:
 * KO_CORRUPT when a file that could be the one cannot be read (the
 * reason is its own, truncated or not ELF), never "no file".
 */
struct ko_file *ko_find(struct ko_index *x, const struct ks_mod *m, enum ko_why *w, char *why,
			size_t whylen);
/* The one file named for m (parsed), if there is exactly one; else NULL. */
struct ko_file *ko_only(struct ko_index *x, const struct ks_mod *m);

#endif
