/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel version differences, in one place.  The rest of kreloc does not
 * test LINUX_VERSION_CODE.
 */
#ifndef _KRELOC_COMPAT_H
#define _KRELOC_COMPAT_H

#include <linux/types.h>

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

#endif /* _KRELOC_COMPAT_H */
