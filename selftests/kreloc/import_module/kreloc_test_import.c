// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_import - a module that uses kreloc's export,
 * kreloc_kprobe_lookup_name(), from the namespace KRELOC it imports.
 * At load, and at every write to "again", it looks up @name and shows the
 * answer in "addr" (0400: root only), which the selftests compare with
 * kreloc's own lookup file.  kreloc_test_noimport is the same module
 * without the import, which the kernel must refuse.
 */
#include <linux/module.h>
#include <linux/init.h>
#include "policy/kreloc_export.h"

static char *name = "vfs_read";
module_param(name, charp, 0400);
MODULE_PARM_DESC(name, "the symbol looked up");

static unsigned long addr;
module_param(addr, ulong, 0400);
MODULE_PARM_DESC(addr, "kreloc_kprobe_lookup_name(name, 0)");

static int kreloc_test_again(const char *val, const struct kernel_param *kp)
{
	addr = kreloc_kprobe_lookup_name(name, 0);
	return 0;
}

static const struct kernel_param_ops kreloc_test_again_ops = {
	.set = kreloc_test_again,
};
module_param_cb(again, &kreloc_test_again_ops, NULL, 0200);
MODULE_PARM_DESC(again, "write anything: look @name up again");

static int __init kreloc_test_import_init(void)
{
	addr = kreloc_kprobe_lookup_name(name, 0);
	return 0;
}

static void __exit kreloc_test_import_exit(void)
{
}

module_init(kreloc_test_import_init);
module_exit(kreloc_test_import_exit);

#ifndef KRELOC_TEST_NO_IMPORT
KRELOC_IMPORT_NS();
#endif
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: a user of kreloc_kprobe_lookup_name()");
