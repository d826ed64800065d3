/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdbg.h - what `kreloc gdb` and `kreloc kallsyms` share: the vmlinux of a
 * snapshot's build, each module record's .ko placed at the recorded section
 * addresses.
 */
#ifndef KRELOC_KDBG_H
#define KRELOC_KDBG_H

#include <stdio.h>
#include "ksnap.h"
#include "ksymfile.h"
#include "ko.h"

/*
 * Check that vmlinux is the build the snapshot was taken of, with symbols:
 * its GNU build id (when both have one) and its _text must match, and it
 * must have a symbol table.  Returns 0 or -1 with err set.
 */
int kdbg_check_vmlinux(const struct ksymfile *v, const struct ksnap *s, char *err, size_t errlen);

/*
 * The single offset the whole image moved by (x86_64, ppc64): KERNELOFFSET,
 * which every published core section must agree with.  Returns 0, or -1
 * with err set when the snapshot publishes none.
 */
int kdbg_image_offset(const struct ksnap *s, uint64_t *off, char *err, size_t errlen);

enum kdbg_status { KDBG_OK, KDBG_MISSING, KDBG_COMPRESSED, KDBG_MISMATCH };

struct kdbg_mod {
	const struct ks_mod *m;
	enum kdbg_status status;
	char why[1024];			/* for KDBG_MISMATCH / KDBG_COMPRESSED / KDBG_MISSING */
	const char *path;		/* the .ko found, or NULL */
	char *gdb_path;			/* kdbg_gdb_file(): what gdb reads */
	struct ksymfile ko;		/* loaded when KDBG_OK (borrows x's parsed file) */
};

/*
 * Find m's .ko in x (ko_find(): by build id) and check it against the
 * record (release in its vermagic, its .modinfo name, the section layout).
 * want_syms also reads its symbols.  Sets d->status; returns it.  x must
 * outlive d.
 */
enum kdbg_status kdbg_place(struct kdbg_mod *d, const struct ks_mod *m, const struct ksnap *s,
			    struct ko_index *x, int want_syms);
/*
 * For gdb, which reads no compressed file: d->path itself, or for a
 * .ko.xz/.zst/.gz its unpacked copy in kreloc's cache (kcache.h).  Sets
 * d->gdb_path and returns 0, or sets d->status KDBG_COMPRESSED with the
 * reason and returns -1.
 */
int kdbg_gdb_file(struct kdbg_mod *d);
void kdbg_mod_free(struct kdbg_mod *d);


/* Is the record live at generation g (loaded at or before, not unloaded by then)? */
int kdbg_live_at(const struct ks_mod *m, uint64_t g);
int kdbg_is_loaded(const struct ks_mod *m);

/* "name": the generation, or null, into the invocation's JSON document. */
void kdbg_json_gen(const char *name, const struct kval *v);

#endif
