// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_mod - a module whose __init function publishes its own
 * address, so the selftests can check that kreloc recorded the module's
 * init.text region while ->init ran (the kernel forgets it right after).
 *
 * With scramble_sections=1 it swaps the first two entries of its own
 * section attribute list before kreloc reads it (kreloc does at the LIVE
 * notification, after ->init): a layout kreloc must refuse.  sysfs, whose
 * files exist by then, is not affected; the swap is undone at unload.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/sysfs.h>

static unsigned long init_addr;
module_param(init_addr, ulong, 0400);
MODULE_PARM_DESC(init_addr, "address of this module's init function");

static bool scramble_sections;
module_param(scramble_sections, bool, 0400);
MODULE_PARM_DESC(scramble_sections, "swap the first two section attributes while loaded");

static void kreloc_test_scramble(void)
{
#ifdef CONFIG_KALLSYMS
	/* Every layout of struct module_sect_attrs begins with the group. */
	struct attribute_group *grp = (void *)THIS_MODULE->sect_attrs;
	struct bin_attribute **b;

	if (!scramble_sections || !grp || !grp->bin_attrs)
		return;
	b = (struct bin_attribute **)grp->bin_attrs;
	if (b[0] && b[1])
		swap(b[0], b[1]);
#endif
}

static int __init kreloc_test_init(void)
{
	/* ppc64 ELFv1: a function pointer is a descriptor; take the code. */
	void *code = dereference_function_descriptor(kreloc_test_init);

	init_addr = (unsigned long)code;
	kreloc_test_scramble();
	return 0;
}

static void __exit kreloc_test_exit(void)
{
	kreloc_test_scramble();
}

module_init(kreloc_test_init);
module_exit(kreloc_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: publishes its init function's address");
