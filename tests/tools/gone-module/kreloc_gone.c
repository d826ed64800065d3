// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_gone - a module that is loaded and unloaded before a snapshot is
 * taken (tests/tools/capture-testdata.sh fleet): its record is the history
 * of a module no longer in the kernel, whose addresses kreloc must still
 * name from the .ko with its build id.  kreloc_gone_init() is init code,
 * kreloc_gone_work() and kreloc_gone_calls core text and data.
 */
#include <linux/init.h>
#include <linux/module.h>

static unsigned long kreloc_gone_calls;

/* Not inlined: a symbol of its own in .text. */
static noinline unsigned long kreloc_gone_work(unsigned long n)
{
	kreloc_gone_calls += n;
	return kreloc_gone_calls;
}

static int __init kreloc_gone_init(void)
{
	kreloc_gone_work(1);
	return 0;
}

static void __exit kreloc_gone_exit(void)
{
	kreloc_gone_work(2);
}

module_init(kreloc_gone_init);
module_exit(kreloc_gone_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc test helper: a module unloaded before the snapshot");
