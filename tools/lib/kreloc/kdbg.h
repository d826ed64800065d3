/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kdbg.h - a module record's .ko, found and checked (kdbg_place()), which
 * lookups, kallsyms and debuggers share; the image offset a debugger
 * loads vmlinux at; module records over time.
 */
#ifndef KRELOC_KDBG_H
#define KRELOC_KDBG_H

#include "ksnap.h"
#include "ksymfile.h"
#include "ko.h"

struct kreloc_files;

/*
 * The single offset the whole image moved by (x86_64, ppc64): KERNELOFFSET,
 * which every published core section must agree with.  Returns 0, or -1
 * with err set when the snapshot publishes none.
 */
int kdbg_image_offset(const struct ksnap *s, uint64_t *off, char *err, size_t errlen);

enum kdbg_status { KDBG_OK, KDBG_MISSING, KDBG_MISMATCH, KDBG_UNAVAILABLE, KDBG_CORRUPT };

struct kdbg_mod {
	const struct ks_mod *m;
	enum kdbg_status status;
	int err;			/* KDBG_UNAVAILABLE: the server's error */
	char why[1024];			/* the reason, or "" */
	const char *path;		/* the .ko found, or NULL */
	int origin;			/* KRELOC_ORIGIN_* */
	const struct ko_file *file;	/* the parsed file (the files' own) */
	struct ksymfile ko;		/* loaded when KDBG_OK (borrows file's image) */
};

/*
 * Find m's .ko (files_find_ko(): by build id, locally then from
 * debuginfod) and check it against the record: its .modinfo name and the
 * release in its vermagic (a debuginfo file chosen by build id may lack
 * .modinfo), its section layout (kplace_check()), a symbol table.  Sets
 * d->status and returns it.  files must outlive d.
 */
enum kdbg_status kdbg_place(struct kdbg_mod *d, const struct ks_mod *m, const struct ksnap *s,
			    struct kreloc_files *files);
void kdbg_mod_free(struct kdbg_mod *d);

/* Is the record live at generation g (loaded at or before, not unloaded by then)? */
int kdbg_live_at(const struct ks_mod *m, uint64_t g);
int kdbg_is_loaded(const struct ks_mod *m);

#endif
