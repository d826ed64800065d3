/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences, in one place.  Kbuild detects the features
 * from the target kernel's headers (KRELOC_HAVE_*); only kreloc_compat.c
 * and this header look at them.
 */
#ifndef _KRELOC_COMPAT_H
#define _KRELOC_COMPAT_H

#include <linux/types.h>
/* hex_to_bin(): in <linux/hex.h> on newer kernels, <linux/kernel.h> before. */
#ifdef KRELOC_HAVE_HEX_H
#include <linux/hex.h>
#else
#include <linux/kernel.h>
#endif

struct module;

/* Memory regions of a module, as kreloc names them. */
enum kreloc_region_type {
	KRELOC_R_TEXT,
	KRELOC_R_DATA,
	KRELOC_R_RODATA,
	KRELOC_R_RO_AFTER_INIT,
	KRELOC_R_INIT_TEXT,
	KRELOC_R_INIT_DATA,
	KRELOC_R_INIT_RODATA,
	KRELOC_NR_REGIONS,
};

struct kreloc_region {
	unsigned long base;
	unsigned long size;
};

/**
 * kreloc_compat_regions() - a module's memory regions
 * @mod:	the module (formed, not yet freed)
 * @r:		KRELOC_NR_REGIONS entries, filled in (size 0: region empty)
 *
 * v6.1 describes them as core_layout/init_layout with text/ro/ro_after_init
 * sizes; v6.4 and later as mod->mem[MOD_*].
 */
void kreloc_compat_regions(const struct module *mod, struct kreloc_region *r);

/* True once the module's init memory has been released (base cleared). */
bool kreloc_compat_init_released(const struct module *mod);

/**
 * kreloc_compat_count_symbol() - how many kallsyms symbols have a name
 * @mod:	"" for vmlinux and all modules, else only that module
 * @name:	the exact name
 *
 * kallsyms_lookup_name() answers the first of several symbols with one
 * name; this tells whether there were several.  The iterators are not
 * exported and their callbacks changed in v6.2/v6.4, hence here.
 *
 * Return: the count, or -EOPNOTSUPP if the kernel's iterators were not found.
 */
int kreloc_compat_count_symbol(const char *mod, const char *name);

/* An address kreloc_compat_core_lookup_all() gives a name seen twice. */
#define KRELOC_COMPAT_NOT_UNIQUE	(~0ULL)

/**
 * kreloc_compat_core_lookup_all() - vmlinux addresses of many names at once
 * @names:	the names (the anchors, then what init looks up besides)
 * @n:		how many
 * @addrs:	@n entries, set to each name's address in vmlinux's kallsyms:
 *		0 if it has none, KRELOC_COMPAT_NOT_UNIQUE if it has several
 *
 * v5.10 has neither a sorted name table nor kallsyms_on_each_match_symbol():
 * each kallsyms_lookup_name() walks every symbol, and the anchors that
 * cannot be checked at a guessed address (an alias listed before them) cost
 * one walk each.  There one walk over vmlinux's symbols answers them all;
 * a module's symbol is never an answer.
 *
 * Return: 0; -EOPNOTSUPP where names are looked up one by one (the kernel
 * has a faster way, or its iterator was not found); -ENOMEM.
 */
int kreloc_compat_core_lookup_all(const char * const *names, unsigned int n,
				  u64 *addrs);

/* Would kreloc_compat_core_lookup_all() walk (not -EOPNOTSUPP)? */
bool kreloc_compat_core_can_walk(void);

/**
 * kreloc_compat_vmcoreinfo_hex() - a hexadecimal value the kernel wrote
 * into its VMCOREINFO note for crash dump tools
 * @key:	e.g. "KERNELOFFSET"
 * @val:	set to the value
 *
 * The note's physical address is exported (paddr_vmcoreinfo_note()); v6.10
 * moved its declaration from crash_core.h to vmcore_info.h and the option
 * from CRASH_CORE to VMCORE_INFO.
 *
 * Return: 0, -EOPNOTSUPP if the kernel keeps no VMCOREINFO, -ENOENT if the
 * key is absent, another -errno if the note cannot be read or parsed.
 */
int kreloc_compat_vmcoreinfo_hex(const char *key, u64 *val);

/* Look up the iterators; call once after kreloc_ksym_init(). */
void kreloc_compat_init(void);

/**
 * kreloc_compat_is_endbr() - the kernel's is_endbr() test (x86_64)
 * @insn:	the first four bytes of a function
 *
 * Return: true for ENDBR64, ENDBR32 and the poison apply_seal_endbr()
 * writes over the ENDBR of a function whose address is never taken, as the
 * kernel's own test for the target's version; false without IBT.
 */
bool kreloc_compat_is_endbr(u32 insn);

#endif /* _KRELOC_COMPAT_H */
