/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kresolve.h - offline resolution of runtime addresses: the core kernel
 * through a snapshot's section offsets and a link-time symbol table
 * (kcore.h), modules through the snapshot's records and their .ko symbol
 * tables, each read when an address first falls in it (kdbg_place()).
 *
 * Lookups may run in several threads at once: a record's file is loaded
 * under r->lock and published with a release store of its ready flag,
 * which lookups read with an acquire load; nothing else changes after
 * kres_init().
 */
#ifndef KRELOC_KRESOLVE_H
#define KRELOC_KRESOLVE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kcore.h"
#include "kdbg.h"
#include "ksnap.h"

struct kreloc_files;

struct kres_sym {
	uint64_t addr, size;
	const char *name;
};

struct kres_area {
	uint64_t lo, len, off;		/* runtime start, length, runtime - linked */
	uint64_t size;			/* the core section's SIZE, 0 if unknown */
	const char *name;
};

struct kres_mrange {
	uint64_t lo, len;
	uint32_t mod, mem;
	/*
	 * When the range held the record's memory, per clock: [from, until],
	 * 0 and UINT64_MAX where kreloc did not see it begin or end.
	 */
	uint64_t from[KS_NR_CLOCKS], until[KS_NR_CLOCKS];
};

/* A time window [lo, hi] in one of kreloc's clocks. */
struct kres_when {
	enum ks_clock clock;
	uint64_t lo, hi;
};

/* A module record's file and its symbols by address, once an address fell in it. */
struct kres_mod {
	atomic_int ready;		/* 1: the fields below are set (release/acquire) */
	struct kdbg_mod d;
	struct kres_sym *syms;
	uint64_t *sec_lo;		/* start of each symbol's section */
	size_t nr;
	uint64_t *mem_size;		/* each region's and section's size (the .ko's for a
					 * section the record has none of), 0 if unknown */
};

struct kres {
	const struct ksnap *snap;
	struct kreloc_files *files;	/* a reference */
	/* core */
	struct kcore *core;		/* the files' own; NULL: no core symbols */
	const struct kres_tab *tab;	/* core's table, or own_tab */
	struct kres_tab *own_tab;
	uint64_t delta;			/* a kallsyms of another boot: its address - link-time */
	struct kcore *own_core;		/* kres_init_map() */
	struct kres_area area[KSNAP_MAX_CORE];
	size_t nr_area;
	/* modules */
	struct kres_mrange *mr;
	size_t nr_mr;
	uint64_t mr_maxlen;
	size_t **msec;			/* per record: section indexes sorted by address */
	size_t *nr_msec;
	struct kres_mod *mods;
	pthread_mutex_t lock;		/* loading a record's file */
};

struct kres_hit {
	const char *sym;		/* NULL: section/region relative */
	size_t sym_len;
	uint64_t off;
	const struct ks_mod *mod;	/* NULL for the core kernel */
	long mod_index;			/* -1 for the core kernel */
	const char *section;
	const char *note;		/* why a module address has no symbol, or NULL */
	uint64_t sym_size;		/* 0: unknown */
	uint64_t section_size;		/* 0: unknown */
	/* Past the end of the symbol before (sym NULL then): it, and addr - its start. */
	const char *past;
	uint64_t past_off, past_size;
	/*
	 * Module records that held the address (at the time asked, or ever):
	 * 1, or more when the lookup answers KRES_UNKNOWN for ambiguity.
	 */
	unsigned int candidates;
};

enum { KRES_UNKNOWN = 0, KRES_CORE = 1, KRES_MODULE = 2 };

/*
 * Set up from a snapshot, with files (referenced).  The core kernel's
 * symbols: path read as kind (KRES_NONE: the build's vmlinux by build id),
 * checked against the snapshot (kcore_check()); none with modules_only.
 * Returns 0, or a negative errno with err set; kres_free() either way.
 */
int kres_init(struct kres *r, const struct ksnap *s, struct kreloc_files *files,
	      enum kres_map_kind kind, const char *path, bool modules_only, char *err,
	      size_t errlen);
/* The same from an already parsed map (taken over; NULL: modules only), no files (tests, fuzzers). */
int kres_init_map(struct kres *r, const struct ksnap *s, struct sysmap *map,
		  enum kres_map_kind kind, const char *map_name, char *err, size_t errlen);
void kres_free(struct kres *r);

/*
 * The record holding addr at time w (NULL: at any time).  Several: they
 * are counted in h->candidates and KRES_UNKNOWN is answered, never one of
 * them alone.
 */
int kres_lookup(const struct kres *r, uint64_t addr, const struct kres_when *w,
		struct kres_hit *h);
/* Each module record holding addr at w (NULL: ever), resolved; fn's nonzero value stops. */
int kres_candidates(const struct kres *r, uint64_t addr, const struct kres_when *w,
		    int (*fn)(void *ctx, const struct kres_hit *h), void *ctx);
/* The same for a link-time address of the core kernel (vmlinux:0x...). */
int kres_lookup_linked(const struct kres *r, uint64_t linked, struct kres_hit *h);
/*
 * Why addr (a runtime address, or with linked a link-time one) did not
 * resolve, in a few words: in no section or record, in a section without
 * a published offset, a link-time address given as a runtime one (with
 * the vmlinux: form to use)...  Returns buf.
 */
const char *kres_why(const struct kres *r, uint64_t addr, bool linked, const struct kres_when *w,
		     char *buf, size_t len);

/* Why an address past the end of the symbol, or the sections, before it has no symbol. */
extern const char kres_past_symbol[], kres_past_sections[];

/* Record i's file, found and read once (thread-safe); NULL without files. */
const struct kres_mod *kres_module(const struct kres *r, size_t i);

#endif
