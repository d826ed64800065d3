// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_dupname - a module with a function named like one vmlinux
 * has exactly once, vfs_write (in kreloc_test_dupname_fn.c, which includes
 * no header that declares the real one).  While it is loaded, a kprobe on
 * "vfs_write" without a module is ambiguous to a kernel whose
 * kprobe_events counts vmlinux and every module together, and not to one
 * that counts vmlinux alone when vmlinux has the name: the lookup
 * selftest and the CLI's tests check that kreloc says what the kernel says.
 */
#include <linux/module.h>
#include <linux/init.h>

static int __init kreloc_dupname_init(void)
{
	return 0;
}

static void __exit kreloc_dupname_exit(void)
{
}

module_init(kreloc_dupname_init);
module_exit(kreloc_dupname_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: a function named like a vmlinux function");
