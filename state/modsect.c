// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ELF-section addresses of a module.
 *
 * The kernel keeps them only in mod->sect_attrs, whose type is private to
 * kernel/module/sysfs.c (the source of /sys/module/X/sections/).  It has
 * had two layouts, both mirrored here:
 *
 *   v5.8 .. v6.13  { grp; nsections; { bin_attribute battr; address; }[] }
 *   v6.14 ..       { grp; bin_attribute attrs[]; }, the address in
 *                  attrs[i].private (commit d8959b947a8d)
 *
 * Being private, no header tells which one a kernel has (and a distribution
 * may backport the change), so the layout is recognised at run time and
 * *validated* before anything is read: the attribute group must be named
 * "sections", its NULL-terminated bin_attrs[i] must point at attrs[i] for
 * every i, and each entry must have a name and the sysfs mode 0400.  The
 * two layouts cannot both pass (attrs[0] sits at a different offset in
 * each; with no section at all both mean "no sections").  Anything else is
 * refused (-EPROTO) and no section is published, rather than reading a
 * changed structure.
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
#include "base/base.h"
#include "state/state.h"
#include "lib/kreloc_note.h"

/* v5.8 .. v6.13 */
struct kreloc_sect_attr_v1 {
	struct bin_attribute battr;
	unsigned long address;
};

struct kreloc_sect_attrs_v1 {
	struct attribute_group grp;
	unsigned int nsections;
	struct kreloc_sect_attr_v1 attrs[];
};

/* v6.14 and later */
struct kreloc_sect_attrs_v2 {
	struct attribute_group grp;
	struct bin_attribute attrs[];
};

enum kreloc_sect_layout { KRELOC_SECT_V1, KRELOC_SECT_V2 };

#define KRELOC_MAX_SECTIONS	4096

static const struct bin_attribute *kreloc_sect_battr(const void *sa,
						     enum kreloc_sect_layout l,
						     unsigned int i)
{
	if (l == KRELOC_SECT_V2)
		return &((const struct kreloc_sect_attrs_v2 *)sa)->attrs[i];
	return &((const struct kreloc_sect_attrs_v1 *)sa)->attrs[i].battr;
}

static unsigned long kreloc_sect_addr(const void *sa, enum kreloc_sect_layout l,
				      unsigned int i)
{
	if (l == KRELOC_SECT_V2)
		return (unsigned long)kreloc_sect_battr(sa, l, i)->private;
	return ((const struct kreloc_sect_attrs_v1 *)sa)->attrs[i].address;
}

/*
 * The number of sections if @sa has layout @l, else -EPROTO: the group's
 * NULL-terminated bin_attrs[] lists exactly the layout's attributes, in
 * order, each named and mode 0400, and (v1) as many as nsections says.
 */
static int kreloc_sect_count(const void *sa, enum kreloc_sect_layout l)
{
	const struct attribute_group *grp = sa;
	const struct bin_attribute *b;
	unsigned int i;

	if (!grp->name || strcmp(grp->name, "sections") || !grp->bin_attrs)
		return -EPROTO;
	for (i = 0; grp->bin_attrs[i]; i++) {
		b = kreloc_sect_battr(sa, l, i);
		if (i == KRELOC_MAX_SECTIONS || grp->bin_attrs[i] != b ||
		    !b->attr.name || b->attr.mode != 0400)
			return -EPROTO;
	}
	if (l == KRELOC_SECT_V1 &&
	    ((const struct kreloc_sect_attrs_v1 *)sa)->nsections != i)
		return -EPROTO;
	return i;
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
	enum kreloc_sect_layout l = KRELOC_SECT_V1;
	struct kreloc_msect *s;
	const void *sa;
	int i, n;

	*out = NULL;
#ifdef CONFIG_KALLSYMS
	sa = READ_ONCE(mod->sect_attrs);
#else
	sa = NULL;
#endif
	if (!sa)
		return -ENOENT;
	n = kreloc_sect_count(sa, l);
	if (n < 0) {
		l = KRELOC_SECT_V2;
		n = kreloc_sect_count(sa, l);
	}
	if (n < 0) {
		pr_warn_ratelimited("%s: unknown layout of the module's section attributes, sections not recorded\n",
				    mod->name);
		return n;
	}
	s = kreloc_zalloc_array(max(n, 1), sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s[i].name = kreloc_strdup(kreloc_sect_battr(sa, l, i)->attr.name);
		s[i].addr = kreloc_sect_addr(sa, l, i);
		if (!s[i].name) {
			kreloc_modsect_free(s, i);
			return -ENOMEM;
		}
	}
	*out = s;
	return n;
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
