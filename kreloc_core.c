// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_core.c - relocation of the core kernel image.
 *
 * Each link-time anchor is paired with the runtime address of the same
 * symbol; the deltas are grouped per core section and must agree.  A group
 * whose anchors disagree, or any group at all when the build id of the
 * link-time source is not the running kernel's, is a mismatch and publishes
 * no offset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/printk.h>
#include "kreloc.h"
#include "kreloc_arch/kreloc_arch.h"

/* Report at most this many disagreeing anchors per group. */
#define KRELOC_MAX_REPORT	8

static const struct kreloc_core *kreloc_the_core;

/**
 * kreloc_core_section_of() - which core section holds a runtime address
 * @addr:	runtime address
 *
 * Return: the section name if its offset is published and it holds @addr,
 * else NULL.
 */
const char *kreloc_core_section_of(unsigned long addr)
{
	const struct kreloc_core *core = kreloc_the_core;
	unsigned int g;

	if (!core)
		return NULL;
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct kreloc_linked_section *s = &core->linked->sec[g];
		u64 start;

		if (core->res[g].status != KRELOC_OK || !s->known || !s->size)
			continue;
		start = s->start + core->res[g].offset;
		if (addr >= start && addr - start < s->size)
			return kreloc_group_name(g);
	}
	return NULL;
}

bool kreloc_init_freed(void)
{
	return system_state >= SYSTEM_FREEING_INITMEM;
}

static void kreloc_report_mismatch(const struct kreloc_core *core,
				   unsigned int g)
{
	const struct kreloc_linked *l = core->linked;
	const struct kreloc_group_result *r = &core->res[g];
	unsigned int i, n = 0;
	bool first = true;
	u64 ref = 0;

	pr_err("section %s: anchors disagree, no offset published\n",
	       kreloc_group_name(g));
	for (i = 0; i < l->nr_anchors && n < KRELOC_MAX_REPORT; i++) {
		u64 delta;

		if (l->anchors[i].group != g || !core->runtime[i])
			continue;
		delta = core->runtime[i] - l->anchors[i].linked;
		if (first) {
			ref = delta;
			first = false;
			pr_err("  %s linked 0x%llx runtime 0x%llx delta 0x%llx (reference)\n",
			       l->anchors[i].name, l->anchors[i].linked,
			       core->runtime[i], delta);
		} else if (delta != ref) {
			pr_err("  %s linked 0x%llx runtime 0x%llx delta 0x%llx disagrees\n",
			       l->anchors[i].name, l->anchors[i].linked,
			       core->runtime[i], delta);
			n++;
		}
	}
	if (r->nr_found - r->nr_agree > n)
		pr_err("  ... %u of %u anchors disagree in all\n",
		       r->nr_found - r->nr_agree, r->nr_found);
}

static void kreloc_check_build_id(struct kreloc_core *core)
{
	const struct kreloc_linked *l = core->linked;

	core->build_id_len = kreloc_running_build_id(core->build_id);
	if (!l->build_id)
		return;
	if (core->build_id_len <= 0) {
		pr_warn("running kernel's build id unknown; relying on anchors alone\n");
		return;
	}
	if (core->build_id_len != l->build_id_len ||
	    memcmp(core->build_id, l->build_id, l->build_id_len)) {
		pr_err("build id of %s (%*phN) is not the running kernel's (%*phN): refusing its addresses\n",
		       l->source_file, l->build_id_len, l->build_id,
		       core->build_id_len, core->build_id);
		core->build_id_mismatch = true;
	}
}

int kreloc_core_init(struct kreloc_core *core)
{
	const struct kreloc_linked *l = kreloc_linked_get();
	unsigned int i, g;
	int bad;
	u64 off;

	memset(core, 0, sizeof(*core));
	core->linked = l;
	core->runtime = kcalloc(max(l->nr_anchors, 1U), sizeof(*core->runtime),
				GFP_KERNEL);
	if (!core->runtime)
		return -ENOMEM;

	for (i = 0; i < l->nr_anchors; i++) {
		core->runtime[i] = kreloc_ksym_lookup(l->anchors[i].name);
		if (!core->runtime[i])
			pr_info("anchor %s not in kallsyms, skipped\n",
				l->anchors[i].name);
		if (!strcmp(l->anchors[i].name, kreloc_arch_ref_symbol())) {
			core->ref_linked = l->anchors[i].linked;
			core->ref_runtime = core->runtime[i];
		}
	}

	bad = kreloc_calc_groups(l->anchors, core->runtime, l->nr_anchors,
				 core->res);
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		if (core->res[g].status == KRELOC_MISMATCH)
			kreloc_report_mismatch(core, g);
	/* The arch base is one anchor by nature; files must corroborate. */
	if (kreloc_calc_require(core->res, l->source == KRELOC_SRC_ARCH ? 1 : 2))
		pr_info("sections resting on a single anchor are not published\n");

	if (bad && kreloc_arch_single_delta()) {
		/*
		 * The image moves as a whole: disagreement anywhere means the
		 * link-time data is not this kernel's, so trust none of it.
		 */
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (core->res[g].status == KRELOC_OK)
				core->res[g].status = KRELOC_MISMATCH;
	} else if (kreloc_arch_single_delta() && !kreloc_calc_single_delta(core->res)) {
		pr_err("sections moved by different deltas on an architecture that relocates by one:\n");
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (core->res[g].nr_found)
				pr_err("  %s delta 0x%llx\n",
				       kreloc_group_name(g), core->res[g].offset);
		bad++;
	}

	kreloc_check_build_id(core);
	if (core->build_id_mismatch) {
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (core->res[g].status == KRELOC_OK)
				core->res[g].status = KRELOC_MISMATCH;
		bad++;
	}

	core->ok = !bad && core->ref_runtime &&
		   core->res[KRELOC_TEXT].status == KRELOC_OK &&
		   core->ref_runtime - core->ref_linked ==
		   core->res[KRELOC_TEXT].offset;

	if (core->ok && kreloc_arch_kaslr_offset(&off) &&
	    off != core->res[KRELOC_TEXT].offset) {
		pr_err("kernel reports offset 0x%llx, anchors say 0x%llx: refusing\n",
		       off, core->res[KRELOC_TEXT].offset);
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (core->res[g].status == KRELOC_OK)
				core->res[g].status = KRELOC_MISMATCH;
		core->ok = false;
	}

	/* A number kreloc is not sure of is not published. */
	if (core->ok) {
		core->kernel_offset_valid = true;
		core->kernel_offset = core->ref_runtime - core->ref_linked;
	}
	kreloc_the_core = core;
	pr_info("%u anchors from %s, status %s, offset %s0x%llx\n",
		l->nr_anchors, l->source_name, core->ok ? "ok" : "mismatch",
		core->ok ? "" : "unpublished ", core->ok ? core->kernel_offset : 0);
	return 0;
}

void kreloc_core_exit(struct kreloc_core *core)
{
	kreloc_the_core = NULL;
	kfree(core->runtime);
	core->runtime = NULL;
}
