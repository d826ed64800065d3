/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksnap.h - kreloc's relocation model: the core sections and every module
 * record, read from the live debugfs files or from a snapshot file (format in
 * SNAPSHOT.md), and written back as a snapshot.
 */
#ifndef KRELOC_KSNAP_H
#define KRELOC_KSNAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KSNAP_VERSION	1
#define KSNAP_MAX_CORE	32
#define KSNAP_NAME_MAX	128	/* longest name/token accepted */

/* A hex value that may be unknown ('-'). */
struct kval {
	uint64_t v;
	int ok;
};

struct ks_core {
	char name[32];
	struct kval linked, runtime, size, offset;
	char status[16];		/* ok freed mismatch unknown */
};

enum ks_kind { KS_REGION, KS_SECTION };

struct ks_mem {
	enum ks_kind kind;
	char *name;
	struct kval addr, size;
	char state[16];			/* live freed gone */
};

struct ks_mod {
	char *name;
	char state[16];			/* coming live going gone */
	struct kval text_base, text_size, load_gen, unload_gen;
	struct ks_mem *mem;
	size_t nr_mem, cap_mem;
};

struct ksnap {
	unsigned int version;
	char *osrelease, *arch, *build_id, *endian, *abi;
	char *status, *init;		/* info STATUS= and INIT= */
	struct kval generation, kerneloffset, ref_linked, ref_runtime;
	struct ks_core core[KSNAP_MAX_CORE];
	size_t nr_core;
	struct ks_mod *mods;
	size_t nr_mods, cap_mods;
};

/* Format a one-line reason into err (len bytes); returns -1. */
int ksnap_seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void ksnap_free(struct ksnap *s);

/*
 * Parse a snapshot.  Returns 0, or -1 with err set to "NAME:LINE: reason"
 * (the snapshot is freed then).
 */
int ksnap_read(struct ksnap *s, FILE *f, const char *name, char *err, size_t errlen);
int ksnap_load(struct ksnap *s, const char *path, char *err, size_t errlen);
/* Write a snapshot; returns 0 or -1 (errno set by stdio). */
int ksnap_write(const struct ksnap *s, FILE *f);

/*
 * Read the running kernel's model from ROOT/sys/kernel/debug/kreloc (ROOT
 * "" for the real system).  Returns 0; -1 with err set if kreloc is not
 * loaded or a file is unreadable or malformed.  A missing `modules` file
 * (kreloc without module tracking) leaves no module records and sets
 * *no_modules.
 */
int ksnap_live(struct ksnap *s, const char *root, int *no_modules, char *err, size_t errlen);

/* Parsers shared by both readers. */
int ksnap_parse_hex(const char *tok, struct kval *v);	/* "0x.." or "-" */
int ksnap_parse_dec(const char *tok, struct kval *v);	/* "N" or "-" */
/* Split line (modified) into at most max blank-separated tokens; returns count or -1 if more. */
int ksnap_split(char *line, char **tok, int max);

const struct ks_core *ksnap_core(const struct ksnap *s, const char *name);
/* "little"/"big" for a `uname -m`, or NULL if unknown. */
const char *ksnap_arch_endian(const char *arch);
/* The ELF ABI name for the snapshot: "v1"/"v2" on ppc64, else "-". */
const char *ksnap_abi(const char *arch, int kallsyms_has_dot_text);

#endif
