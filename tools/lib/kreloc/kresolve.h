/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kresolve.h - offline resolution of runtime addresses: the core kernel
 * through a snapshot's section offsets and a link-time symbol map, modules
 * through the snapshot's records and (optionally) their .ko symbol tables.
 */
#ifndef KRELOC_KRESOLVE_H
#define KRELOC_KRESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ksnap.h"
#include "ko.h"
#include "../sysmap.h"

struct kres_sym {
	uint64_t addr;
	const char *name;
};

struct kres_area {
	uint64_t lo, len, off;		/* runtime start, length, runtime - linked */
	const char *name;
};

struct kres_mrange {
	uint64_t lo, len;
	uint32_t mod, mem;
};

struct kres_modsyms {
	int loaded;
	struct kres_sym *syms;
	uint64_t *sec_lo;		/* start of each symbol's section */
	size_t nr;
	char *pool;
};


struct kres {
	const struct ksnap *snap;
	/* core */
	struct sysmap map;
	int have_map;
	uint64_t *addr;			/* sorted link-time addresses, unique */
	uint32_t *name_off, *name_len;	/* into pool, in address order */
	char *pool;
	size_t nr;
	uint32_t *bucket;
	size_t nbuckets;
	unsigned int shift;
	uint64_t base;
	struct kres_area area[KSNAP_MAX_CORE];
	size_t nr_area;
	/* modules */
	struct kres_mrange *mr;
	size_t nr_mr;
	uint64_t mr_maxlen;
	size_t **msec;			/* per record: section indexes sorted by address */
	size_t *nr_msec;
	struct kres_modsyms *msyms;
	struct ko_index ko;
	int warn;			/* print warnings to stderr */
};

struct kres_hit {
	const char *sym;		/* NULL: section/region relative */
	size_t sym_len;
	uint64_t off;
	const struct ks_mod *mod;	/* NULL for the core kernel */
	const char *section;
};

enum { KRES_UNKNOWN = 0, KRES_CORE = 1, KRES_MODULE = 2 };

/* Where the core kernel's link-time symbols come from. */
enum kres_map_kind {
	KRES_SYSTEM_MAP,	/* a System.map */
	KRES_KALLSYMS,		/* /proc/kallsyms saved on any boot of the same build */
	KRES_VMLINUX,		/* an ELF vmlinux with a symbol table (build id checked) */
};

/*
 * Set up from a snapshot.  map_path (may be NULL: modules only) is read as
 * kind says.  The map must be of the snapshot's kernel: its release (a
 * vmlinux's linux_banner, a "System.map-RELEASE" file name), build id (a
 * vmlinux's) and the snapshot's anchors are compared with it.  Returns 0,
 * or -1 with err set ("FILE:LINE: reason" for a malformed map).
 */
int kres_init(struct kres *r, const struct ksnap *s, const char *map_path,
	      enum kres_map_kind kind, const char *modules_dir, char *err, size_t errlen);
/* The same from an already parsed map (taken over by r; for tests/fuzzing). */
int kres_init_map(struct kres *r, const struct ksnap *s, struct sysmap *map,
		  enum kres_map_kind kind, const char *map_name, char *err, size_t errlen);
void kres_free(struct kres *r);
int kres_lookup(struct kres *r, uint64_t addr, struct kres_hit *h);
/* The same for a link-time address of the core kernel (vmlinux:0x...). */
int kres_lookup_linked(struct kres *r, uint64_t linked, struct kres_hit *h);
/*
 * Why addr (a runtime address, or with linked a link-time one) did not
 * resolve, in a few words: in no section or record, in a section without
 * a published offset, a link-time address given as a runtime one (with
 * the vmlinux: form to use)...  Returns buf.
 */
const char *kres_why(const struct kres *r, uint64_t addr, bool linked, char *buf, size_t len);

/*
 * Is map (its addresses minus delta: a kallsyms of another boot) the
 * link-time map of the snapshot's kernel?  The anchors the snapshot names
 * must agree in it: none elsewhere, none missing from a core section the
 * map has symbols in, at least one there.  Returns 0, or -1 with err
 * saying which anchors and how many.
 */
int kres_check_map(const struct ksnap *s, struct sysmap *map, uint64_t delta, const char *name,
		   char *err, size_t errlen);

/* Rank of a symbol among others at the same address (lower wins). */
int kres_rank(char type, const char *name, int abi_v1);
/* Index of the last symbol with addr <= x in a sorted array, or -1. */
long kres_find(const struct kres *r, uint64_t x);

#endif
