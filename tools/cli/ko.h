/* SPDX-License-Identifier: GPL-2.0 */
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
#include "../kelf.h"
#include "ksnap.h"
#include "ksymfile.h"

struct ko_file {
	const char *path;		/* in the index */
	int state;			/* 0 not read, 1 parsed, -1 unreadable */
	struct kelf elf;
	char build_id[2 * KSNAP_BUILD_ID_MAX + 1];	/* hex, "" if none */
};

struct ko_index {
	const char *dir;
	struct ksf_index ix;		/* the .ko files under dir */
	struct ko_file *files;		/* one for each of ix.ko[] */
	size_t nr;
	bool indexed, warn;
};

void ko_index_init(struct ko_index *x, const char *dir, bool warn);
void ko_index_free(struct ko_index *x);
/*
 * The parsed .ko of record m, or NULL (with a warning saying why when
 * x->warn: none of that name, none of that build id, or no way to tell).
 */
const struct ko_file *ko_find(struct ko_index *x, const struct ks_mod *m);

#endif
