// SPDX-License-Identifier: GPL-2.0
/*
 * Fault and delay hooks, compiled only into test builds
 * (make KRELOC_TEST_HOOKS=1).  Each is a module parameter:
 *
 *   test_fail_alloc=N     the Nth kreloc allocation from now fails (then 0);
 *                         writable at run time in /sys/module/kreloc/parameters
 *   test_fail_after=STEP  fail with ENOTRECOVERABLE after STEP: kreloc_init()
 *                         after params, the setup work after calls, core
 *                         or modules...
 *   test_fail_delay_ms=M  ...after sleeping M ms there
 *   test_scan_delay_ms=M  the initial module scan sleeps M ms once, holding
 *                         the first live module it met, before reading it
 *   test_scan_window_ms=M the setup sleeps M ms between kreloc's notifier and
 *                         its module scan, where a module loaded meanwhile
 *                         is both notified and on the kernel's list
 *   test_scan_state       0 before the scan, 1 while it sleeps, 2 after it,
 *                         3 while the setup sleeps before it
 *   test_call_decoy=1     kallsyms_show_value's static call is pointed at a
 *                         decoy, while info still names the real target (the
 *                         selftest of the call-site check must catch it)
 *   test_leak_offset=1    print the offset and a runtime address in dmesg
 *                         (the selftest of the dmesg check must catch it;
 *                         on ppc64 the offset is 0, the address leaks)
 *   test_kprobe_nosym=1   the bootstrap kprobe is taken to have landed in
 *                         vmalloc memory, where kallsyms has no symbol (the
 *                         dmesg selftest checks that no address is logged)
 *   test_no_iterators=1   the kallsyms iterators are not installed, as on a
 *                         kernel where they are not found (lookup must then
 *                         refuse to say a name is unique)
 *   test_module_list=image  find the head of the kernel's module list only
 *                         as the one node inside the kernel image, not
 *                         through kallsyms or the link-time data
 *   test_anchors_by_name=1  look every anchor up by name, without first
 *                         checking it where its section's delta puts it
 *                         or (5.10) walking kallsyms once for all of them
 *                         (make bench compares the two)
 *   test_dump_stall=NAME  a record of module NAME that changed sleeps
 *   test_dump_stall_ms=M  M ms (default 60000) before kreloc publishes it
 *                         for crash dumps, in the middle of the event,
 *                         which the crash dump test ends with a crash
 *   test_dump_state       1 while it sleeps, 2 after
 *   test_bench_lookup=R   (write at run time, test/bench.c) time R rounds
 *                         of kreloc_kprobe_lookup_name() and of the
 *                         kernel's kallsyms_lookup_name() over the anchor
 *                         names, in the kernel, and print both (make bench)
 *
 * A test build says so in modinfo (test_hooks) and in dmesg at every
 * load.  It also says in dmesg which modules the scan met, and how long
 * each step of init and of the setup took (kreloc_hook_mark(), for
 * profiling).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "base/hooks.h"

static unsigned int test_fail_alloc;
module_param(test_fail_alloc, uint, 0600);
MODULE_PARM_DESC(test_fail_alloc, "test: the Nth allocation from now fails");

static char *test_fail_after = "";
module_param(test_fail_after, charp, 0400);
MODULE_PARM_DESC(test_fail_after, "test: init fails after this step");

static unsigned int test_fail_delay_ms;
module_param(test_fail_delay_ms, uint, 0400);
MODULE_PARM_DESC(test_fail_delay_ms, "test: sleep before the injected init failure");

static unsigned int test_scan_delay_ms;
module_param(test_scan_delay_ms, uint, 0400);
MODULE_PARM_DESC(test_scan_delay_ms, "test: sleep inside the module scan");

static unsigned int test_scan_window_ms;
module_param(test_scan_window_ms, uint, 0400);
MODULE_PARM_DESC(test_scan_window_ms, "test: sleep between the notifier and the scan");

static int test_scan_state;
module_param(test_scan_state, int, 0444);
MODULE_PARM_DESC(test_scan_state, "test: 0 before the scan, 1 sleeping in it, 2 done, 3 before it");

static bool test_call_decoy;
module_param(test_call_decoy, bool, 0400);
MODULE_PARM_DESC(test_call_decoy, "test: point one static call at a decoy");

static bool test_leak_offset;
module_param(test_leak_offset, bool, 0400);
MODULE_PARM_DESC(test_leak_offset, "test: print the offset in dmesg");

static bool test_kprobe_nosym;
module_param(test_kprobe_nosym, bool, 0400);
MODULE_PARM_DESC(test_kprobe_nosym, "test: the kprobe lands where kallsyms has no symbol");

static bool test_no_iterators;
module_param(test_no_iterators, bool, 0400);
MODULE_PARM_DESC(test_no_iterators, "test: do not install the kallsyms iterators");

static char *test_module_list = "";
module_param(test_module_list, charp, 0400);
MODULE_PARM_DESC(test_module_list, "test: image: find the module list head only in the image");

static bool test_anchors_by_name;
module_param(test_anchors_by_name, bool, 0400);
MODULE_PARM_DESC(test_anchors_by_name, "test: look every anchor up by name");

static char *test_dump_stall = "";
module_param(test_dump_stall, charp, 0400);
MODULE_PARM_DESC(test_dump_stall, "test: sleep before publishing a changed record of this module");

static unsigned int test_dump_stall_ms = 60000;
module_param(test_dump_stall_ms, uint, 0400);
MODULE_PARM_DESC(test_dump_stall_ms, "test: how long (default 60000)");

static int test_dump_state;
module_param(test_dump_state, int, 0444);
MODULE_PARM_DESC(test_dump_state, "test: 1 while a record's publication sleeps, 2 after");

static DEFINE_SPINLOCK(kreloc_hook_lock);

MODULE_INFO(test_hooks, "fault and delay hooks of a test build, not for production");

void kreloc_hook_announce(void)
{
	pr_warn("test build: fault and delay hooks compiled in, not for production\n");
}

bool kreloc_hook_anchors_by_name(void)
{
	return test_anchors_by_name;
}

/*
 * Where kallsyms has no symbol: the middle of a vmalloc()ed page, freed
 * again before it is named (only its address is used; nothing is loaded
 * meanwhile).  A slab address (@nosym) is no such place on ppc64: the
 * direct map holds the freed init text, whose symbols kallsyms keeps, and
 * the slab may reuse those pages.  @nosym if vmalloc() fails.
 */
unsigned long kreloc_hook_kprobe_addr(unsigned long addr, const void *nosym)
{
	void *p;

	if (!test_kprobe_nosym)
		return addr;
	p = vmalloc(PAGE_SIZE);
	if (!p)
		return (unsigned long)nosym;
	addr = (unsigned long)p + PAGE_SIZE / 2;
	vfree(p);
	return addr;
}

bool kreloc_hook_no_iterators(void)
{
	return test_no_iterators;
}

const char *kreloc_hook_module_list(void)
{
	return strcmp(test_module_list, "image") ? NULL : test_module_list;
}

bool kreloc_hook_fail_alloc(void)
{
	bool fail = false;

	spin_lock(&kreloc_hook_lock);
	if (test_fail_alloc && !--test_fail_alloc)
		fail = true;
	spin_unlock(&kreloc_hook_lock);
	if (fail)
		pr_info("test: allocation failure injected\n");
	return fail;
}

int kreloc_hook_init_step(const char *step)
{
	if (strcmp(step, test_fail_after))
		return 0;
	if (test_fail_delay_ms)
		msleep(test_fail_delay_ms);
	pr_info("test: fails after step %s\n", step);
	return -ENOTRECOVERABLE;
}

void kreloc_hook_scan(const char *modname, bool live)
{
	pr_info("test: scan meets %s (%s)\n", modname, live ? "live" : "skipped");
	if (!live || !test_scan_delay_ms || test_scan_state)
		return;
	WRITE_ONCE(test_scan_state, 1);
	msleep(test_scan_delay_ms);
	pr_info("test: scan resumes after %u ms\n", test_scan_delay_ms);
}

void kreloc_hook_scan_done(void)
{
	WRITE_ONCE(test_scan_state, 2);
}

void kreloc_hook_scan_window(void)
{
	if (!test_scan_window_ms)
		return;
	WRITE_ONCE(test_scan_state, 3);
	pr_info("test: the setup sleeps %u ms before the module scan\n", test_scan_window_ms);
	msleep(test_scan_window_ms);
	WRITE_ONCE(test_scan_state, 0);
}

void kreloc_hook_dump_changed(const char *name)
{
	if (!*test_dump_stall || strcmp(name, test_dump_stall) || test_dump_state)
		return;
	pr_info("test: the record of %s waits %u ms to be published\n", name, test_dump_stall_ms);
	WRITE_ONCE(test_dump_state, 1);
	msleep(test_dump_stall_ms);
	WRITE_ONCE(test_dump_state, 2);
}

bool kreloc_hook_call_decoy(void)
{
	return test_call_decoy;
}

bool kreloc_hook_leak_offset(void)
{
	return test_leak_offset;
}

/* Time since the previous mark (the first one starts the clock). */
void kreloc_hook_mark(const char *what)
{
	static ktime_t last;
	ktime_t now = ktime_get();

	if (last)
		pr_info("test: time %s %lld us\n", what, ktime_us_delta(now, last));
	last = now;
}
