// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_modsect.c - per-ELF-section addresses of a module.
 *
 * The kernel keeps them only in mod->sect_attrs, whose type is private to
 * kernel/module/sysfs.c (the source of /sys/module/X/sections/).  Its
 * layout, unchanged from v5.8 to v6.13, is mirrored here and *validated*
 * before use: the attribute group must be named "sections", be NULL
 * terminated after nsections entries, and its bin_attrs[i] must point at
 * attrs[i].battr, with a name on each.  Anything else is refused (-EPROTO)
 * and no section is published, rather than reading a changed structure.
 *
 * Reading the kernel structure instead of the sysfs files (as systemtap
 * does) avoids depending on the reader's credentials (sysfs prints zeros
 * to a reader kallsyms_show_value() refuses) and works from the module
 * notifier.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include "kreloc_modsect.h"
#include "kreloc_alloc.h"
#include "lib/kreloc_note.h"

struct kreloc_sect_attr {
	struct bin_attribute battr;
	unsigned long address;
};

struct kreloc_sect_attrs {
	struct attribute_group grp;
	unsigned int nsections;
	struct kreloc_sect_attr attrs[];
};

#define KRELOC_MAX_SECTIONS	4096

static bool kreloc_sect_attrs_valid(const struct kreloc_sect_attrs *sa)
{
	unsigned int i;

	if (!sa->grp.name || strcmp(sa->grp.name, "sections") ||
	    !sa->grp.bin_attrs || sa->nsections > KRELOC_MAX_SECTIONS)
		return false;
	for (i = 0; i < sa->nsections; i++) {
		if (sa->grp.bin_attrs[i] != &sa->attrs[i].battr ||
		    !sa->attrs[i].battr.attr.name)
			return false;
	}
	return !sa->grp.bin_attrs[sa->nsections];
}

void kreloc_modsect_free(struct kreloc_msect *s, unsigned int n)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < n; i++)
		kfree(s[i].name);
	kfree(s);
}

int kreloc_modsect_copy(const struct module *mod, struct kreloc_msect **out)
{
	const struct kreloc_sect_attrs *sa;
	struct kreloc_msect *s;
	unsigned int i;

	*out = NULL;
#ifdef CONFIG_KALLSYMS
	sa = (const struct kreloc_sect_attrs *)READ_ONCE(mod->sect_attrs);
#else
	sa = NULL;
#endif
	if (!sa)
		return -ENOENT;
	if (!kreloc_sect_attrs_valid(sa)) {
		pr_warn_once("unknown layout of module section attributes, sections not recorded\n");
		return -EPROTO;
	}
	s = kreloc_zalloc_array(max(sa->nsections, 1U), sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < sa->nsections; i++) {
		s[i].name = kreloc_strdup(sa->attrs[i].battr.attr.name);
		s[i].addr = sa->attrs[i].address;
		if (!s[i].name) {
			kreloc_modsect_free(s, i);
			return -ENOMEM;
		}
	}
	*out = s;
	return sa->nsections;
}

int kreloc_modsect_build_id(const struct kreloc_msect *s, int n, u8 *id)
{
	/* Elf_Nhdr, "GNU\0", and a build id of up to KRELOC_BUILD_ID_MAX bytes. */
	u32 note[(12 + 4 + KRELOC_BUILD_ID_MAX) / 4];
	const u8 *bid;
	size_t len;
	int i, r;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, ".note.gnu.build-id"))
			break;
	if (i >= n || copy_from_kernel_nofault(note, (void *)s[i].addr, 12))
		return 0;
	len = 12 + ALIGN(note[0], 4) + ALIGN(note[1], 4);
	if (len > sizeof(note) ||
	    copy_from_kernel_nofault(note, (void *)s[i].addr, len))
		return 0;
	r = kreloc_note_build_id(note, len, false, &bid);
	if (r <= 0)
		return 0;
	memcpy(id, bid, r);
	return r;
}
