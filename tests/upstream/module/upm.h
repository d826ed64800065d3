/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of the upstream target's two test modules (upa.c, upb.c): one
 * CPU kept busy in the module's init text for init_ms, and in its core
 * text for as long as a write to spin_ms asks.  UPM_PREFIX names every
 * function, so the two modules share no symbol name: a sample named with
 * the other module's function is caught.
 */
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#define UPM_FN(x)	__PASTE(__PASTE(UPM_PREFIX, _), x)

static unsigned int init_ms;
module_param(init_ms, uint, 0400);
MODULE_PARM_DESC(init_ms, "How long init keeps the CPU busy, in ms");

/* Mostly in the module: ktime_get() once per 4096 rounds. */
#define UPM_SPIN(ms)							\
	do {								\
		ktime_t end = ktime_add_ms(ktime_get(), (ms));		\
		unsigned int i;						\
									\
		do {							\
			for (i = 0; i < 4096; i++)			\
				cpu_relax();				\
		} while (ktime_before(ktime_get(), end));		\
	} while (0)

static noinline void UPM_FN(text_spin)(unsigned int ms)
{
	UPM_SPIN(ms);
}

static int UPM_FN(spin_set)(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	UPM_FN(text_spin)(ms);
	return 0;
}

static const struct kernel_param_ops UPM_FN(spin_ops) = {
	.set = UPM_FN(spin_set),
};
module_param_cb(spin_ms, &UPM_FN(spin_ops), NULL, 0200);
MODULE_PARM_DESC(spin_ms, "Writing N keeps the writer's CPU busy in the module's text for N ms");

static noinline void __init UPM_FN(init_spin)(unsigned int ms)
{
	UPM_SPIN(ms);
}

static int __init UPM_FN(init)(void)
{
	UPM_FN(init_spin)(init_ms);
	return 0;
}

static void __exit UPM_FN(exit)(void)
{
}

/* (module_init() names its argument unexpanded: expand it first.) */
#define UPM_MODULE_INIT(fn)	module_init(fn)
#define UPM_MODULE_EXIT(fn)	module_exit(fn)
UPM_MODULE_INIT(UPM_FN(init));
UPM_MODULE_EXIT(UPM_FN(exit));
MODULE_LICENSE("GPL");
