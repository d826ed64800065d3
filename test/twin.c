// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's twin of kreloc.ko (make KRELOC_BENCH_TWIN=1 on the command
 * line): every object of kreloc but kreloc_main.o, and an ->init that does
 * nothing.  Built the same way as kreloc.ko (same kbuild, same BTF), its
 * load costs what the module loader spends on a module of kreloc's size:
 * reading, relocating, its symbol table, Debian 13's split-BTF relocation.
 * Next to it, kreloc's load shows what kreloc's own ->init costs.
 */
#include <linux/module.h>
#include <linux/init.h>

static int __init kreloc_twin_init(void)
{
	return 0;
}

static void __exit kreloc_twin_exit(void)
{
}

module_init(kreloc_twin_init);
module_exit(kreloc_twin_exit);

MODULE_INFO(bench_twin, "kreloc's objects with an empty init, for make bench");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("make bench: a module of kreloc's size that does nothing");
