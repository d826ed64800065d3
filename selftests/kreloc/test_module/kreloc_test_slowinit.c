// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_slowinit - a module whose ->init waits until the test
 * writes its "release" parameter (at most 60 s), then returns the errno
 * given as "result" (default EBUSY: the load fails and the kernel frees
 * the module).  The race selftest uses it to make kreloc's initial module
 * scan meet a module that dies while the scan runs.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/jiffies.h>

static DECLARE_COMPLETION(kreloc_slow_release);

static int result = EBUSY;
module_param(result, int, 0400);
MODULE_PARM_DESC(result, "errno ->init returns once released (0: load)");

static int kreloc_slow_set(const char *val, const struct kernel_param *kp)
{
	complete(&kreloc_slow_release);
	return 0;
}

static const struct kernel_param_ops kreloc_slow_ops = {
	.set = kreloc_slow_set,
};
module_param_cb(release, &kreloc_slow_ops, NULL, 0200);
MODULE_PARM_DESC(release, "write anything: ->init returns");

static int __init kreloc_slow_init(void)
{
	wait_for_completion_killable_timeout(&kreloc_slow_release, 60 * HZ);
	return -result;
}

static void __exit kreloc_slow_exit(void)
{
}

module_init(kreloc_slow_init);
module_exit(kreloc_slow_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: an ->init that waits, then fails");
