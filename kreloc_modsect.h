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

/**
 * kreloc_modsect_build_id() - the GNU build id of a loaded module
 * @s:		its sections, from kreloc_modsect_copy()
 * @n:		their number (<= 0: none)
 * @id:		KRELOC_BUILD_ID_MAX bytes for the id
 *
 * Reads the note in the module's own ".note.gnu.build-id" section, which
 * must still be in memory (the module is live or going), without faulting.
 *
 * Return: the length of the id, or 0 if there is none.
 */
int kreloc_modsect_build_id(const struct kreloc_msect *s, int n, u8 *id);

#endif /* _KRELOC_MODSECT_H */
