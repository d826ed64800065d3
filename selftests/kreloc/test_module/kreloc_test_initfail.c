// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_initfail - a module for the debug-kernel churn
 * (rig/vm-debug.sh).  With fail=1 (the default) its ->init fails: the
 * kernel runs the COMING notifier, ->init, then the GOING notifier and frees
 * the module within the one finit_module() that returns the error.  With
 * fail=0 it loads; having no exit function, only a forced delete_module
 * (rmmod -f, CONFIG_MODULE_FORCE_UNLOAD) removes it.
 */
#include <linux/module.h>
#include <linux/init.h>

static bool fail = true;
module_param(fail, bool, 0400);
MODULE_PARM_DESC(fail, "make ->init fail (default 1)");

static int __init kreloc_test_initfail_init(void)
{
	return fail ? -ENODEV : 0;
}

module_init(kreloc_test_initfail_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: ->init fails, or no exit function");
