// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_crash - a module whose timer fires after its exit: a use after
 * unload, made on purpose for the crash dump test (rig/vm-vmcore.sh).
 *
 * Its ->init starts a kernel thread that calls kreloc_crash_outer() ->
 * kreloc_crash_middle() -> kreloc_crash_inner(), which sleeps on a timer
 * (schedule_timeout()) for delay_ms.  Its ->exit forgets the thread, so the
 * module is freed while the thread sleeps in it.  When the timer fires,
 * the thread returns into kreloc_crash_inner()'s freed text: an
 * instruction fetch fault at an address of the unloaded module, with the
 * return addresses into kreloc_crash_middle() and kreloc_crash_outer()
 * still on its stack.  Every function is a symbol of its own, and calls
 * the next with work left after the call, so none is inlined or
 * tail-called away.
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

static unsigned int delay_ms = 15000;
module_param(delay_ms, uint, 0444);
MODULE_PARM_DESC(delay_ms, "how long after load the thread wakes (default 15000)");

static unsigned long kreloc_crash_calls;

static noinline __noclone unsigned long kreloc_crash_inner(unsigned long n)
{
	schedule_timeout_uninterruptible(msecs_to_jiffies(delay_ms));
	/* The thread returns here after the module is gone. */
	WRITE_ONCE(kreloc_crash_calls, kreloc_crash_calls + n);
	return READ_ONCE(kreloc_crash_calls);
}

static noinline __noclone unsigned long kreloc_crash_middle(unsigned long n)
{
	unsigned long r = kreloc_crash_inner(n + 1);

	WRITE_ONCE(kreloc_crash_calls, r + n);
	return r + 1;
}

static int kreloc_crash_outer(void *arg)
{
	unsigned long r = kreloc_crash_middle(1);

	WRITE_ONCE(kreloc_crash_calls, r + 2);
	return 0;
}

static int __init kreloc_crash_init(void)
{
	struct task_struct *t = kthread_run(kreloc_crash_outer, NULL, "kreloc_crash");

	return PTR_ERR_OR_ZERO(t);
}

/* The bug on purpose: the thread is neither stopped nor waited for. */
static void __exit kreloc_crash_exit(void)
{
}

module_init(kreloc_crash_init);
module_exit(kreloc_crash_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc test helper: a thread whose timer fires after the module's exit");
