// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc - say exactly where the running kernel's image sits relative to
 * its link-time addresses.
 *
 * At load time kreloc pairs link-time anchors, generated at build time from
 * the kernel's System.map or the vmlinux inside its image, with the runtime
 * addresses kallsyms gives for the same symbols, checks that each core
 * section's anchors agree, and publishes the per-section offsets in
 * /sys/kernel/debug/kreloc/.
 */
#include <linux/module.h>
#include <linux/init.h>
#include "kreloc.h"
#include "base/hooks.h"

static struct kreloc_core kreloc_core;

/*
 * kreloc.disable=1 on the kernel command line keeps the initramfs hooks
 * from loading kreloc; kmod's modprobe also hands it to the module, which
 * then declines to load, whoever asks.
 */
static bool disable;
module_param(disable, bool, 0444);
MODULE_PARM_DESC(disable, "do not load (kreloc.disable=1 on the kernel command line)");

/*
 * Every step that can fail comes before the debugfs files exist (see
 * kreloc_debugfs_init()); the parameters are checked before anything.
 */
static int __init kreloc_init(void)
{
	int ret;

	if (disable) {
		pr_info("kreloc: disabled by kreloc.disable\n");
		return -ECANCELED;
	}
	kreloc_hook_mark("start");
	ret = kreloc_modules_check_params();
	if (!ret)
		ret = kreloc_hook_init_step(KRELOC_STEP_PARAMS);
	if (ret)
		return ret;

	ret = kreloc_ksym_init();
	if (ret)
		return ret;
	ret = kreloc_hook_init_step(KRELOC_STEP_CALLS);
	if (ret)
		goto err_ksym;
	kreloc_iter_init();
	kreloc_hook_mark("kallsyms iterators");

	ret = kreloc_core_init(&kreloc_core);
	if (ret)
		goto err_ksym;
	kreloc_ksym_init_show_value();
	ret = kreloc_hook_init_step(KRELOC_STEP_CORE);
	if (ret)
		goto err_core;

	ret = kreloc_modules_init();
	if (!ret)
		ret = kreloc_modules_scan();
	if (ret)
		goto err_modules;
	ret = kreloc_hook_init_step(KRELOC_STEP_MODULES);
	if (ret)
		goto err_modules;
	kreloc_ksym_prefill(NULL);

	/* Last: from here on nothing fails. */
	ret = kreloc_debugfs_init(&kreloc_core);
	if (ret)
		goto err_modules;
	kreloc_hook_mark("debugfs files");
	return 0;

err_modules:
	kreloc_modules_exit();
err_core:
	kreloc_core_exit(&kreloc_core);
err_ksym:
	kreloc_ksym_exit();
	return ret;
}

static void __exit kreloc_exit(void)
{
	kreloc_debugfs_exit();
	kreloc_modules_exit();
	kreloc_core_exit(&kreloc_core);
	kreloc_ksym_exit();
}

module_init(kreloc_init);
module_exit(kreloc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Runtime relocation of the kernel image and its modules");
MODULE_AUTHOR("kreloc developers");
