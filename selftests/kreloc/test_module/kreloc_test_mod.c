// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_mod - a module whose __init function publishes its own
 * address, so the selftests can check that kreloc recorded the module's
 * init.text region while ->init ran (the kernel forgets it right after).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/kallsyms.h>

static unsigned long init_addr;
module_param(init_addr, ulong, 0400);
MODULE_PARM_DESC(init_addr, "address of this module's init function");

static int __init kreloc_test_init(void)
{
	/* ppc64 ELFv1: a function pointer is a descriptor; take the code. */
	void *code = dereference_function_descriptor(kreloc_test_init);

	init_addr = (unsigned long)code;
	return 0;
}

static void __exit kreloc_test_exit(void)
{
}

module_init(kreloc_test_init);
module_exit(kreloc_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: publishes its init function's address");
