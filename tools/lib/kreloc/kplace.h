/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kplace.h - place a module's .ko at the section addresses of one kreloc
 * module record.  kplace_check() tells whether the file is the module that
 * was loaded (its section sizes must fit the recorded layout exactly as the
 * kernel's loader packs them); kplace_type() gives a symbol the type letter
 * /proc/kallsyms shows.  Pure logic: no I/O, no libelf.
 */
#ifndef KRELOC_KPLACE_H
#define KRELOC_KPLACE_H

#include <stddef.h>
#include <stdint.h>
#include "ksnap.h"

/* One section header of the .ko, as the file has it. */
struct kplace_sec {
	const char *name;
	uint32_t type;			/* SHT_* */
	uint64_t flags;			/* SHF_* */
	uint64_t size, align;
};

/*
 * Check that the .ko whose section headers are secs[0..nr) is the module
 * recorded in m.  Every section the record lists must exist in the file,
 * every section the loader would have placed must be in the record, and
 * the file's section sizes must fit the recorded addresses: within one
 * region, each section ends before the next one starts, the gap is only
 * the next one's alignment (or the padding to a page boundary of `page`
 * bytes where the loader starts a new group), and the last one ends inside
 * the region.  Returns 0, or -1 with a one-line reason in why.
 */
int kplace_check(const struct kplace_sec *secs, size_t nr, const struct ks_mod *m,
		 uint64_t page, char *why, size_t whylen);

/* The loader's page size to assume for a `uname -m`. */
uint64_t kplace_page(const char *arch);

/*
 * Did section k of record m hold the module's code or data for the whole
 * life of the record (or until the snapshot)?  Init sections did not,
 * unless ->init is still running: their memory went back to the kernel
 * when it returned.  An unloaded record shows every section `gone`, so
 * init sections are told by the init.* region they lie in (or, outside
 * any region, by their .init name) and count only while that region is
 * `live`.
 */
int kplace_section_placed(const struct ks_mod *m, const struct ks_mem *k);

enum kplace_shn { KPLACE_SHN_UNDEF, KPLACE_SHN_ABS, KPLACE_SHN_OTHER, KPLACE_SHN_SEC };

/*
 * The /proc/kallsyms type letter of a module symbol, as the kernel's
 * elf_type() gives it (sec is the symbol's section for KPLACE_SHN_SEC;
 * KPLACE_SHN_ABS also stands for the per-CPU section), upper case when
 * the module exports the symbol (kernel/kallsyms.c s_show()).
 */
char kplace_type(const struct kplace_sec *sec, enum kplace_shn shn, unsigned int bind,
		 unsigned int stt, int exported);

/*
 * Sections the kernel keeps no placement for although the file marks them
 * SHF_ALLOC (.modinfo, __versions, the per-CPU section), and sections whose
 * size the arch loader sets (ppc64 .stubs, arm64 .plt, ...).
 */
int kplace_unplaced(const char *name);
int kplace_arch_sized(const char *name);

#endif
