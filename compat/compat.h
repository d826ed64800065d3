/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences, in one place.  Kbuild
 * detects the features from the target kernel's headers (KRELOC_HAVE_*);
 * only compat/ looks at them.  This layer calls nothing of kreloc's but
 * base/: the kernel functions whose prototypes changed between versions
 * (the kallsyms iterators) are called from symbols/, which knows them by
 * name.
 */
#ifndef _KRELOC_COMPAT_H
#define _KRELOC_COMPAT_H

#include <linux/types.h>

/*
 * Export @sym to GPL modules in the symbol namespace KRELOC.  The
 * namespace of EXPORT_SYMBOL_NS_GPL() is a string literal since v6.13
 * (commit cdd30ebb1b9f, "module: Convert symbol namespace to string
 * literal"), a bare word before, which the macro stringified (with #ns up
 * to v5.x, which expands no macro, so the word is spelt out here); Kbuild
 * tells which from the target's <linux/export.h> (KRELOC_HAVE_NS_WORD).
 * Importers need neither form: see KRELOC_IMPORT_NS() in
 * policy/kreloc_export.h.
 */
#ifdef KRELOC_HAVE_NS_WORD
#define KRELOC_EXPORT_NS_GPL(sym)	EXPORT_SYMBOL_NS_GPL(sym, KRELOC)
#else
#define KRELOC_EXPORT_NS_GPL(sym)	EXPORT_SYMBOL_NS_GPL(sym, "KRELOC")
#endif

struct module;
struct notifier_block;

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

/* True once the core kernel has freed its init sections. */
bool kreloc_init_freed(void);

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

/*
 * The same for a hex byte string (BUILD-ID): the number of bytes put in
 * @out (at most @max), or the errors above (-EINVAL for a malformed value).
 */
int kreloc_compat_vmcoreinfo_bytes(const char *key, u8 *out, size_t max);

/**
 * kreloc_compat_panic_notifier() - be told of panic(), or no longer
 * @nb:		the notifier, called in panic() before the kernel stops
 * @on:		true to register @nb, false to unregister it
 *
 * panic_notifier_list is in <linux/panic_notifier.h> since v5.14, in
 * <linux/kernel.h> before.
 *
 * Return: 0 or the notifier chain's -errno.
 */
int kreloc_compat_panic_notifier(struct notifier_block *nb, bool on);

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
