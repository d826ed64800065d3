/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kcore.h - the core kernel's link-time symbols, from one of the files a
 * user has (a System.map, a /proc/kallsyms saved on any boot of the build,
 * an ELF vmlinux with a symbol table), the checks that tie such a file to
 * a snapshot's build, and the sorted table addresses are looked up in.
 * One kcore is read once and shared by the resolvers of every snapshot of
 * its build (files.c keeps them).
 */
#ifndef KRELOC_KCORE_H
#define KRELOC_KCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ksnap.h"
#include "ksymfile.h"
#include "../../sysmap.h"

/* Where the core kernel's link-time symbols come from. */
enum kres_map_kind {
	KRES_NONE,		/* none given: the build's vmlinux, found by build id */
	KRES_SYSTEM_MAP,	/* a System.map */
	KRES_KALLSYMS,		/* /proc/kallsyms saved on any boot of the same build */
	KRES_VMLINUX,		/* an ELF vmlinux with a symbol table (build id checked) */
};

/* The symbols relocated with the image, by link-time address, for lookups. */
struct kres_tab {
	uint64_t *addr;			/* sorted, unique */
	uint32_t *name_off, *name_len;	/* into pool, in address order */
	uint32_t *size;			/* st_size (a vmlinux's), or NULL for a map without sizes */
	char *pool;
	size_t nr;
	uint32_t *bucket;		/* about one symbol per bucket */
	size_t nbuckets;
	unsigned int shift;
	uint64_t base;
};

struct kcore {
	enum kres_map_kind kind;
	char *path;			/* the file read */
	int origin;			/* KRELOC_ORIGIN_* */
	struct sysmap map;		/* in the file's order, indexed by name */
	/* an ELF vmlinux's own facts */
	char build_id[KSF_BUILD_ID_HEX];	/* "" if it has none */
	char *release;			/* from linux_banner, or NULL */
	int is_rel;			/* ET_REL: a module, not a vmlinux */
	/* the lookup table of the first snapshot checked (others of the build share it) */
	struct kres_tab *tab;
	uint64_t tab_delta;
	int tab_abi_v1;
};

/* Read path as kind says.  Returns 0, or a negative errno with err set. */
int kcore_load(struct kcore *c, enum kres_map_kind kind, const char *path, char *err,
	       size_t errlen);
/* Take over an already parsed map (fuzzers, tests). */
int kcore_from_map(struct kcore *c, enum kres_map_kind kind, struct sysmap *map,
		   const char *name, char *err, size_t errlen);
void kcore_free(struct kcore *c);

/*
 * Is c of the snapshot's build?  A vmlinux: not a module, its build id
 * (when both have one), its _text, its linux_banner release, a symbol
 * table.  A System.map: not Debian's placeholder (its file name is only
 * a hint, named when the content differs).  Any map: nonzero addresses,
 * _text (arm64: _stext) at
 * REF_LINKED, and the snapshot's anchors (kres_check_map()).  Sets *delta
 * (a kallsyms of another boot: its addresses minus delta are link-time)
 * and *abi_v1 (ppc64 ELFv1 ranking).  Returns 0, or -ESTALE (another
 * build or release), -ENODATA (no symbols), -ENOMEM, with err set.
 */
int kcore_check(const struct kcore *c, const struct ksnap *s, uint64_t *delta, int *abi_v1,
		char *err, size_t errlen);

/* The lookup table of c's map moved by -delta.  Returns 0 or a negative errno with err. */
int kres_tab_build(struct kres_tab *t, const struct kcore *c, uint64_t delta, int abi_v1,
		   char *err, size_t errlen);
void kres_tab_free(struct kres_tab *t);
/* Index of the last symbol with addr <= x, or -1. */
long kres_find(const struct kres_tab *t, uint64_t x);

/* Symbols kept for nearest-symbol lookup: anything relocated with the image. */
bool kcore_keep(const struct sysmap_sym *s);

/*
 * Is map (its addresses minus delta: a kallsyms of another boot) the
 * link-time map of the snapshot's kernel?  The anchors the snapshot names
 * must agree in it: none elsewhere, none missing from a core section the
 * map has symbols in, at least one there.  map must be indexed
 * (sysmap_index()).  Returns 0, or -1 with err saying which anchors and
 * how many.
 */
int kres_check_map(const struct ksnap *s, const struct sysmap *map, uint64_t delta,
		   const char *name, char *err, size_t errlen);

/* Rank of a symbol among others at the same address (lower wins). */
int kres_rank(char type, const char *name, int abi_v1);

#endif
