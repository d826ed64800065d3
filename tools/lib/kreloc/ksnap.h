/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ksnap.h - kreloc's relocation model: the core sections, the anchors and
 * every module record, read from the live debugfs files (debugfs.c) or from
 * a snapshot file (format in SNAPSHOT.md), and written back as a snapshot.
 *
 * Both readers parse each record with the same functions, and both accept
 * what a newer kreloc may add: extra columns, header keys and states they
 * do not know (kept as text; nothing unknown is ever used to resolve).
 */
#ifndef KRELOC_KSNAP_H
#define KRELOC_KSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../../../lib/kreloc_spec.h"

#define KSNAP_VERSION	3	/* written; every older version is read */
#define KSNAP_MAX_CORE	32
/*
 * Names as the kernel prints them, with their NUL: a symbol or any other
 * token up to KSYM_NAME_LEN (512 since v6.1, for Rust's long mangled
 * names), a module name up to MODULE_NAME_LEN.
 */
#define KSNAP_NAME_MAX	KRELOC_SPEC_NAME_MAX
#define KSNAP_MODNAME_MAX KRELOC_SPEC_MOD_MAX
#define KSNAP_STATE_MAX	16
#define KSNAP_BUILD_ID_MAX 64	/* bytes */

/* A hex value that may be unknown ('-'). */
struct kval {
	uint64_t v;
	int ok;
};

/* Room for a kval printed by kval_hex() or kval_dec(). */
#define KVAL_BUF 24
const char *kval_hex(char buf[KVAL_BUF], const struct kval *v);
const char *kval_dec(char buf[KVAL_BUF], const struct kval *v);

struct ks_core {
	char name[32];
	struct kval linked, runtime, size, offset;
	char status[KSNAP_STATE_MAX];	/* ok freed mismatch unknown, or newer */
};

struct ks_anchor {
	char *name;
	struct kval linked;
	char *section;
};

enum ks_kind { KS_REGION, KS_SECTION };

struct ks_mem {
	enum ks_kind kind;
	char *name;
	struct kval addr, size;
	char state[KSNAP_STATE_MAX];	/* live freed gone, or newer */
};

/* The clocks of kreloc's times (the module's state/stamp.c). */
enum ks_clock { KS_LOCAL, KS_MONO, KS_NR_CLOCKS };
/* A module record's events. */
enum ks_event { KS_LOAD, KS_INIT, KS_UNLOAD, KS_NR_EVENTS };

struct ks_mod {
	char *name;
	char state[KSNAP_STATE_MAX];	/* coming live going gone, or newer */
	struct kval text_base, text_size, load_gen, unload_gen;
	char *build_id;			/* hex, NULL if unknown */
	struct kval t[KS_NR_CLOCKS][KS_NR_EVENTS];	/* ns; version 3 */
	struct ks_mem *mem;
	size_t nr_mem, cap_mem;
};

struct ksnap {
	unsigned int version;		/* of the file read; KSNAP_VERSION when live */
	char *osrelease, *arch, *build_id, *endian, *abi;
	char *status, *init;		/* info STATUS= and INIT= */
	char *linked_source;		/* info LINKED_SOURCE=, NULL if unknown */
	char *kprobe_unique;		/* info KPROBE_UNIQUE=, NULL if unknown */
	struct kval generation, kerneloffset, ref_linked, ref_runtime;
	/* ns per clock (version 3): taken, module events stamped since, init freed by */
	struct kval taken[KS_NR_CLOCKS], since[KS_NR_CLOCKS], init_freed_by[KS_NR_CLOCKS];
	struct ks_core core[KSNAP_MAX_CORE];
	size_t nr_core;
	struct ks_anchor *anchors;
	size_t nr_anchors;
	struct ks_mod *mods;
	size_t nr_mods, cap_mods;
	int no_modules;			/* live: kreloc without module tracking */
	/*
	 * Read from a crash dump (vmcore.c; VMCORE_ keys): records left out
	 * because their memory in the dump was not whole, records kreloc had
	 * and could not publish, and the module whose event the crash cut
	 * short ("-": none, "*": several).  vmcore_torn.ok: from a dump.
	 */
	struct kval vmcore_torn, vmcore_unpublished;
	char *vmcore_busy;
};

/* Format a one-line reason into err (len bytes); returns -1. */
int ksnap_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void ksnap_free(struct ksnap *s);

/*
 * Parse a snapshot (any version up to KSNAP_VERSION).  Returns 0, or a
 * negative errno with err set to "NAME:LINE: reason" (the snapshot is
 * freed then): -EBADMSG malformed, -EPROTONOSUPPORT a newer format,
 * -ENOMEM, or the stream's (or for ksnap_load() fopen's) errno.
 */
int ksnap_read(struct ksnap *s, FILE *f, const char *name, char *err, size_t errlen);
int ksnap_load(struct ksnap *s, const char *path, char *err, size_t errlen);
/* Write a snapshot of version KSNAP_VERSION; returns 0 or -1 (errno set by stdio). */
int ksnap_write(const struct ksnap *s, FILE *f);

/*
 * Record parsers shared by both readers.  tok[] holds the columns of a
 * debugfs line (a snapshot line without its keyword); columns past the
 * known ones are ignored.  Each returns NULL or a one-line reason.
 */
const char *ksnap_add_core(struct ksnap *s, char **tok, int n);
const char *ksnap_add_anchor(struct ksnap *s, const char *name, const char *linked,
			     const char *section);
const char *ksnap_add_module(struct ksnap *s, char **tok, int n);
/* *ignored is set for a KIND this reader does not know (the line is skipped). */
const char *ksnap_add_mem(struct ks_mod *m, char **tok, int n, bool *ignored);
/* A header value (info KEY=VALUE, snapshot KEY VALUE); unknown keys are ignored. */
const char *ksnap_set_header(struct ksnap *s, const char *key, const char *value);
/* Fill defaults after reading ("-" for unknown strings); NULL or a reason. */
const char *ksnap_finish(struct ksnap *s);

int ksnap_parse_hex(const char *tok, struct kval *v);	/* "0x.." or "-" */
int ksnap_parse_dec(const char *tok, struct kval *v);	/* "N" or "-" */
/* Split line (modified) into at most max blank-separated tokens; returns count or -1 if more. */
int ksnap_split(char *line, char **tok, int max);

const struct ks_core *ksnap_core(const struct ksnap *s, const char *name);
/* A module record's section of that name with an address, or NULL. */
const struct ks_mem *ksnap_mod_section(const struct ks_mod *m, const char *name);
/*
 * When region k of record m held the record's memory, in clock c: [*from,
 * *until], 0 and UINT64_MAX where kreloc did not see it begin or end.  An
 * init region ends when ->init is done; an end kreloc did not see is, at
 * the latest, the load of a later record into any of its memory (the
 * loader does not hand out memory twice).
 */
void ksnap_mem_life(const struct ksnap *s, const struct ks_mod *m, const struct ks_mem *k,
		    enum ks_clock c, uint64_t *from, uint64_t *until);

/* A core section whose offset is published (STATUS ok or freed). */
bool ksnap_core_usable(const struct ks_core *c);

/* A core section's link-time area [lo, hi); runtime = link-time + off. */
struct ks_area {
	uint64_t lo, hi, off;
	const char *name;
};

/*
 * The areas of the usable core sections (room for KSNAP_MAX_CORE), in
 * snapshot order; returns how many.  An area runs from its section's start
 * to the next core section's start, the highest one to its start + SIZE.
 * SIZE is not the bound: it depends on the link-time source (System.map
 * markers or the vmlinux ELF section) and leaves out what the kernel links
 * between the sections and moves with them, such as x86's .exit.text after
 * .init.data, whose functions /proc/kallsyms lists.
 */
size_t ksnap_core_areas(const struct ksnap *s, struct ks_area *a);
/* "little"/"big" for a `uname -m`, or NULL if unknown. */
const char *ksnap_arch_endian(const char *arch);
/* The ELF ABI name for the snapshot: "v1"/"v2" on ppc64, else "-". */
const char *ksnap_abi(const char *arch, int kallsyms_has_dot_text);

#endif
