// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_test_bugs - the negative controls of the debug-kernel run
 * (rig/vm-debug.sh, boot "controls").  Loaded with bug=NAME, its ->init
 * commits one bug of that kind, so that the kernel prints its report and
 * the run can show that its checks see each kind:
 *
 *   sleep    might_sleep() with preemption off (DEBUG_ATOMIC_SLEEP)
 *   ubsan    a shift by more than the width of int (UBSAN)
 *   list     a list entry deleted twice (DEBUG_LIST)
 *   odebug   a timer freed while pending (DEBUG_OBJECTS)
 *   rcu      rcu_dereference() outside a read-side section (PROVE_RCU)
 *   lockdep  two mutexes taken in both orders (PROVE_LOCKING; lockdep is
 *            off after its first report)
 *   kasan    a read after kfree() (KASAN; taints, which turns lockdep off)
 *   leak     three allocations whose pointers are dropped (kmemleak)
 *
 * ->init then fails, so nothing of the module stays loaded.  Only the
 * debug-kernel run loads it.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>

static char *bug = "";
module_param(bug, charp, 0400);
MODULE_PARM_DESC(bug, "the bug ->init commits: sleep, ubsan, list, odebug, rcu, lockdep, kasan, leak");

/* A parameter, so that the compiler cannot see the shift is too wide. */
static int width = 40;
module_param(width, int, 0400);
MODULE_PARM_DESC(width, "bug=ubsan shifts 1 by this many bits");

static DEFINE_MUTEX(kreloc_bug_a);
static DEFINE_MUTEX(kreloc_bug_b);
static int __rcu *kreloc_bug_rcu;
static struct list_head kreloc_bug_head = LIST_HEAD_INIT(kreloc_bug_head);
static struct list_head kreloc_bug_entry;
/* The only reference to the leaked objects, in memory freed with the module. */
static void *kreloc_bug_leaked;

static void kreloc_bug_timer(struct timer_list *t)
{
}

static int kreloc_bug_commit(void)
{
	if (!strcmp(bug, "sleep")) {
		preempt_disable();
		might_sleep();
		preempt_enable();
	} else if (!strcmp(bug, "ubsan")) {
		pr_info("1 << %d = %d\n", width, 1 << width);
	} else if (!strcmp(bug, "list")) {
		list_add(&kreloc_bug_entry, &kreloc_bug_head);
		list_del(&kreloc_bug_entry);
		list_del(&kreloc_bug_entry);
	} else if (!strcmp(bug, "odebug")) {
		struct timer_list *t = kmalloc(sizeof(*t), GFP_KERNEL);

		if (!t)
			return -ENOMEM;
		timer_setup(t, kreloc_bug_timer, 0);
		mod_timer(t, jiffies + 100 * HZ);
		kfree(t);
	} else if (!strcmp(bug, "rcu")) {
		pr_info("rcu pointer %d\n", rcu_dereference(kreloc_bug_rcu) ? 1 : 0);
	} else if (!strcmp(bug, "lockdep")) {
		mutex_lock(&kreloc_bug_a);
		mutex_lock(&kreloc_bug_b);
		mutex_unlock(&kreloc_bug_b);
		mutex_unlock(&kreloc_bug_a);
		mutex_lock(&kreloc_bug_b);
		mutex_lock(&kreloc_bug_a);
		mutex_unlock(&kreloc_bug_a);
		mutex_unlock(&kreloc_bug_b);
	} else if (!strcmp(bug, "kasan")) {
		char *p = kmalloc(32, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		kfree(p);
		pr_info("read after free: %d\n", READ_ONCE(p[3]));
	} else if (!strcmp(bug, "leak")) {
		int i;

		for (i = 0; i < 3; i++) {
			WRITE_ONCE(kreloc_bug_leaked, kmalloc(128, GFP_KERNEL));
			if (!READ_ONCE(kreloc_bug_leaked))
				return -ENOMEM;
		}
	} else {
		return -EINVAL;
	}
	return 0;
}

static int __init kreloc_test_bugs_init(void)
{
	int ret = kreloc_bug_commit();

	pr_info("bug=%s committed (%d)\n", bug, ret);
	return ret ? ret : -EAGAIN;
}

module_init(kreloc_test_bugs_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc debug-kernel run: one bug of each kind the checks must see");
