// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc - say exactly where the running kernel's image sits relative to
 * its link-time addresses.
 *
 * kreloc pairs link-time anchors, generated at build time from the
 * kernel's System.map or the vmlinux inside its image, with the runtime
 * addresses kallsyms gives for the same symbols, checks that each core
 * section's anchors agree, and publishes the per-section offsets, and a
 * record of every module, in /sys/kernel/debug/kreloc/.
 *
 * kreloc loads first at boot, so its ->init does only what cannot wait:
 * it registers the module notifier (from then on no module event is
 * missed) and creates the files.  Everything that needs the kernel's
 * symbols (the kprobe bootstrap, the anchors, the modules loaded before
 * kreloc) is the setup work, queued last; a file's open, and the exported
 * lookup, wait for it, and answer the errno it failed with if it did
 * (dmesg says why).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/workqueue.h>
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
 * The setup, in the order each step needs the one before: the kprobe
 * bootstrap (kallsyms_lookup_name), the kernel functions found by name,
 * the core kernel's
 * relocation and build id, then the modules that were loaded before the
 * notifier.  A step that fails ends the setup with its errno.
 */
static int kreloc_setup_steps(void)
{
	int ret;

	kreloc_hook_mark("setup start");
	ret = kreloc_ksym_init();
	if (!ret)
		ret = kreloc_hook_init_step(KRELOC_STEP_CALLS);
	if (ret)
		return ret;
	kreloc_iter_init();
	kreloc_hook_mark("kallsyms iterators");

	ret = kreloc_core_init(&kreloc_core);
	if (ret)
		return ret;
	kreloc_ksym_init_show_value();
	ret = kreloc_hook_init_step(KRELOC_STEP_CORE);
	if (ret)
		return ret;

	kreloc_hook_scan_window();
	ret = kreloc_modules_scan();
	if (!ret)
		ret = kreloc_hook_init_step(KRELOC_STEP_MODULES);
	return ret;
}

static void kreloc_setup(struct work_struct *work)
{
	int ret = kreloc_setup_steps();
	char name[KRELOC_ERRNAME_LEN];

	kreloc_ksym_prefill(NULL);
	if (ret)
		pr_err("setup failed (%s): every file answers it; see the messages before\n",
		       kreloc_errname(ret, name));
	kreloc_dump_setup_done(&kreloc_core, ret);
	kreloc_setup_done(ret);
	kreloc_hook_mark("setup done");
}

static DECLARE_WORK(kreloc_setup_work, kreloc_setup);

/*
 * The parameters are checked before anything; the files come last, once
 * nothing can fail any more (see kreloc_debugfs_init()).
 */
static int __init kreloc_init(void)
{
	int ret;

	if (disable) {
		pr_info("disabled by kreloc.disable\n");
		return -ECANCELED;
	}
	kreloc_hook_mark("start");
	kreloc_hook_announce();
	ret = kreloc_modules_check_params();
	if (!ret)
		ret = kreloc_hook_init_step(KRELOC_STEP_PARAMS);
	if (ret)
		return ret;

	ret = kreloc_modules_init();
	if (ret)
		return ret;
	ret = kreloc_dump_init();
	if (ret) {
		kreloc_modules_exit();
		return ret;
	}
	ret = kreloc_debugfs_init(&kreloc_core);
	if (ret) {
		kreloc_dump_exit();
		kreloc_modules_exit();
		return ret;
	}
	kreloc_hook_mark("notifier and files");
	queue_work(system_unbound_wq, &kreloc_setup_work);
	return 0;
}

static void __exit kreloc_exit(void)
{
	flush_work(&kreloc_setup_work);
	kreloc_debugfs_exit();
	kreloc_dump_exit();
	kreloc_modules_exit();
	kreloc_core_exit(&kreloc_core);
	kreloc_ksym_exit();
}

module_init(kreloc_init);
module_exit(kreloc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Runtime relocation of the kernel image and its modules");
MODULE_AUTHOR("kreloc developers");
