// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's entry point inside the kernel, compiled only
 * into test builds (make KRELOC_TEST_HOOKS=1): test_bench_lookup=R times
 * R rounds of kreloc_kprobe_lookup_name() and of the kernel's
 * kallsyms_lookup_name() over the anchor names and prints both.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include "symbols/symbols.h"
#include "state/state.h"
#include "policy/policy.h"

/* The cost of one lookup, both ways, over the anchor names. */
static int kreloc_bench_lookup(const char *val, const struct kernel_param *kp)
{
	const struct kreloc_linked *l = kreloc_linked_get();
	unsigned int rounds, r, i, n = 0;
	u64 t0, t_kreloc, t_kernel;
	int ret = kstrtouint(val, 0, &rounds);

	if (ret || !rounds || !l->nr_anchors)
		return ret ?: -EINVAL;
	/*
	 * Both orders, so that neither one warms the caches for the other.
	 * Where kallsyms is searched linearly (5.10) R rounds take tens of
	 * seconds: yield between calls, on both sides alike.
	 */
	t0 = ktime_get_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < l->nr_anchors; i++) {
			n += !!kreloc_kprobe_lookup_name(l->anchors[i].name, 0);
			cond_resched();
		}
	t_kreloc = ktime_get_ns() - t0;
	t0 = ktime_get_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < l->nr_anchors; i++) {
			n += !!kreloc_ksym_lookup(l->anchors[i].name);
			cond_resched();
		}
	t_kernel = ktime_get_ns() - t0;
	t0 = ktime_get_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < l->nr_anchors; i++) {
			n += !!kreloc_kprobe_lookup_name(l->anchors[i].name, 0);
			cond_resched();
		}
	t_kreloc += ktime_get_ns() - t0;
	t0 = ktime_get_ns();
	for (r = 0; r < rounds; r++)
		for (i = 0; i < l->nr_anchors; i++) {
			n += !!kreloc_ksym_lookup(l->anchors[i].name);
			cond_resched();
		}
	t_kernel += ktime_get_ns() - t0;
	pr_info("test: bench lookup: %u names x %u rounds x 2, %u found: kreloc_kprobe_lookup_name %llu ns, kallsyms_lookup_name %llu ns per call\n",
		l->nr_anchors, rounds, n, div_u64(t_kreloc, 2 * rounds * l->nr_anchors),
		div_u64(t_kernel, 2 * rounds * l->nr_anchors));
	return 0;
}

static const struct kernel_param_ops kreloc_bench_ops = {
	.set = kreloc_bench_lookup,
};
module_param_cb(test_bench_lookup, &kreloc_bench_ops, NULL, 0200);
MODULE_PARM_DESC(test_bench_lookup, "test: time R rounds of lookups (make bench)");
