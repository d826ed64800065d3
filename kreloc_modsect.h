/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KRELOC_MODSECT_H
#define _KRELOC_MODSECT_H

#include <linux/types.h>

struct module;

struct kreloc_msect {
	const char *name;	/* kstrdup'ed */
	unsigned long addr;
};

/**
 * kreloc_modsect_copy() - copy a module's ELF section addresses
 * @mod:	a module past mod_sysfs_setup() and not yet torn down
 * @out:	set to a kmalloc'ed array, to be freed with kreloc_modsect_free()
 *
 * Return: the number of sections, or a negative errno (-EPROTO if the
 * layout of mod->sect_attrs is not the one kreloc knows).
 */
int kreloc_modsect_copy(const struct module *mod, struct kreloc_msect **out);
void kreloc_modsect_free(struct kreloc_msect *s, unsigned int n);

#endif /* _KRELOC_MODSECT_H */
