// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_anchor - functions named like the section markers kreloc
 * uses as anchors (in kreloc_test_anchor_decoys.c, which includes no
 * header that declares the real ones).  Where kallsyms lists no data
 * symbols for vmlinux (no KALLSYMS_ALL, Debian ppc64el),
 * kallsyms_lookup_name("_sdata") finds this module's _sdata instead;
 * kreloc must refuse such an answer.
 */
#include <linux/module.h>
#include <linux/init.h>

static int __init kreloc_anchor_init(void)
{
	return 0;
}

static void __exit kreloc_anchor_exit(void)
{
}

module_init(kreloc_anchor_init);
module_exit(kreloc_anchor_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc selftest helper: functions named like anchors");
