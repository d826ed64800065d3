// SPDX-License-Identifier: GPL-2.0
/*
 * Relocation of the core kernel image.
 *
 * Each link-time anchor is paired with the runtime address of the same
 * symbol; the deltas are grouped per core section and must agree.  A group
 * whose anchors disagree, or any group at all when the build id of the
 * link-time source is not the running kernel's, is a mismatch and publishes
 * no offset.
 *
 * Nothing here prints an address or an offset: the kernel log is readable
 * by more than those kallsyms_show_value() lets see them.  A mismatch names
 * the anchors that disagree; the numbers are in debugfs "anchors".
 *
 * The link-time data (kreloc_linked_gen.h) is written at build time by
 * tools/kreloc-linkgen from the kernel's System.map, the vmlinux inside its
 * image, or the arch's link base (see the Makefile); it defines
 * KRELOC_GEN_* and the two tables.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/printk.h>
#include <linux/uaccess.h>
#include "base/base.h"
#include "compat/compat.h"
#include "arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "lib/kreloc_symstr.h"
#include "base/hooks.h"
#include "kreloc_linked_gen.h"

/* Report at most this many disagreeing anchors per group. */
#define KRELOC_MAX_REPORT	8

static const struct kreloc_core *kreloc_the_core;

static DECLARE_COMPLETION(kreloc_setup_completion);
static int kreloc_setup_err;

void kreloc_setup_done(int err)
{
	WRITE_ONCE(kreloc_setup_err, err);
	complete_all(&kreloc_setup_completion);
}

int kreloc_setup_wait(void)
{
	if (wait_for_completion_killable(&kreloc_setup_completion))
		return -EINTR;
	return READ_ONCE(kreloc_setup_err);
}

#ifdef KRELOC_GEN_HAVE_BUILD_ID
static const u8 kreloc_gen_build_id[] = { KRELOC_GEN_BUILD_ID };
#endif

static struct kreloc_linked kreloc_linked = {
	.source		= KRELOC_GEN_SOURCE,
	.source_name	= KRELOC_GEN_SOURCE_NAME,
	.source_file	= KRELOC_GEN_SOURCE_FILE,
	.release	= KRELOC_GEN_RELEASE,
#ifdef KRELOC_GEN_HAVE_BUILD_ID
	.build_id	= kreloc_gen_build_id,
	.build_id_len	= sizeof(kreloc_gen_build_id),
#endif
	.anchors	= kreloc_gen_anchors,
	.nr_anchors	= ARRAY_SIZE(kreloc_gen_anchors),
#ifdef KRELOC_GEN_MODULES_LINKED
	.modules	= KRELOC_GEN_MODULES_LINKED,
	.have_modules	= true,
#endif
};

/* The link-time data of the kernel kreloc was built for. */
const struct kreloc_linked *kreloc_linked_get(void)
{
	unsigned int g;

	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		kreloc_linked.sec[g] = kreloc_gen_sections[g];
#ifdef KRELOC_GEN_SOURCE_IS_ARCH
	/* Only the reference symbol at the arch's link base, if it has one. */
	kreloc_gen_anchors[0].name = kreloc_arch_ref_symbol();
	if (kreloc_arch_link_base(&kreloc_gen_anchors[0].linked)) {
		kreloc_linked.sec[KRELOC_TEXT].start = kreloc_gen_anchors[0].linked;
		kreloc_linked.sec[KRELOC_TEXT].known = true;
	} else {
		kreloc_linked.nr_anchors = 0;
	}
#endif
	return &kreloc_linked;
}

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

/**
 * kreloc_core_kernel_offset() - the published offset of the whole image
 * @off:	set to KERNELOFFSET
 *
 * Return: true if STATUS=ok (every anchor group agrees).
 */
bool kreloc_core_kernel_offset(u64 *off)
{
	const struct kreloc_core *core = kreloc_the_core;

	if (!core || !core->kernel_offset_valid)
		return false;
	*off = core->kernel_offset;
	return true;
}

/**
 * kreloc_core_image_bounds() - a stretch of the kernel image at run time
 * that holds all of its .data
 * @start:	set to the stretch's runtime start
 * @end:	set to its runtime end
 *
 * From the published offset (STATUS=ok only) and the architecture's own
 * answer, else, where the image moves as one and the link-time data knows
 * the data section, the link-time sections: each lies at its link-time
 * address plus the offset, whether or not an anchor of its own was found.
 *
 * Return: true if known.
 */
bool kreloc_core_image_bounds(u64 *start, u64 *end)
{
	const struct kreloc_core *core = kreloc_the_core;
	u64 lo = U64_MAX, hi = 0;
	unsigned int g;

	if (!core || !core->kernel_offset_valid)
		return false;
	if (kreloc_arch_image_bounds(core->kernel_offset, start, end))
		return true;
	if (!kreloc_arch_single_delta() || !core->linked->sec[KRELOC_DATA].known ||
	    !core->linked->sec[KRELOC_DATA].size)
		return false;
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct kreloc_linked_section *s = &core->linked->sec[g];

		if (!s->known || !s->size)
			continue;
		lo = min(lo, s->start);
		hi = max(hi, s->start + s->size);
	}
	if (lo >= hi)
		return false;
	*start = lo + core->kernel_offset;
	*end = hi + core->kernel_offset;
	return true;
}

static void kreloc_report_mismatch(const struct kreloc_core *core,
				   unsigned int g)
{
	const struct kreloc_linked *l = core->linked;
	const struct kreloc_group_result *r = &core->res[g];
	const char *ref = NULL;
	unsigned int i, n = 0;
	u64 ref_delta = 0;

	pr_err("section %s: anchors disagree, no offset published (numbers in debugfs anchors)\n",
	       kreloc_group_name(g));
	for (i = 0; i < l->nr_anchors && n < KRELOC_MAX_REPORT; i++) {
		u64 delta;

		if (l->anchors[i].group != g || !core->runtime[i])
			continue;
		delta = core->runtime[i] - l->anchors[i].linked;
		if (!ref) {
			ref = l->anchors[i].name;
			ref_delta = delta;
		} else if (delta != ref_delta) {
			pr_err("  %s disagrees with %s\n", l->anchors[i].name, ref);
			n++;
		}
	}
	if (r->nr_found - r->nr_agree > n)
		pr_err("  ... %u of %u anchors disagree in all\n",
		       r->nr_found - r->nr_agree, r->nr_found);
}

/* The running kernel's GNU build id, from its .notes section. */
#define KRELOC_NOTES_MAX	65536

static int kreloc_copy_build_id(const void *notes, size_t len, u8 *id)
{
	const u8 *bid;
	int n = kreloc_note_build_id(notes, len, false, &bid);

	if (n > 0)
		memcpy(id, bid, n);
	return n;
}

/*
 * Is @addr the start of a symbol of vmlinux?  sprint_symbol() (a search
 * by address) must find one there at offset 0, and no module: the check
 * anchors found by name pass.  Which of several aliases it names does not
 * matter.  @buf holds KSYM_SYMBOL_LEN bytes.
 */
static bool kreloc_core_vmlinux_symbol(unsigned long addr, char *buf)
{
	const char *plus;
	u64 off, size;

	sprint_symbol(buf, addr);
	plus = strrchr(buf, '+');
	return !strchr(buf, '[') && strncmp(buf, "0x", 2) && plus &&
	       !kreloc_symstr_offset_size(plus + 1, &off, &size) && !off;
}

/*
 * The running kernel's GNU build id, read from no file: a path would be
 * resolved in the mount namespace of whoever loads kreloc, where
 * /sys/kernel/notes may be anything.
 *   - The .notes section, __start_notes..__stop_notes, where kallsyms has
 *     both (KALLSYMS_ALL), each checked to be a vmlinux symbol, read
 *     without faulting, and parsed as notes.
 *   - Else the BUILD-ID line the kernel writes into its VMCOREINFO note
 *     from the same vmlinux_build_id (kernel/crash_core.c since v5.9,
 *     vmcore_info.c since v6.10): Debian's arm64 and ppc64el 6.1, which
 *     lack KALLSYMS_ALL, have it.
 * Return: the id's length, or <= 0 if unknown; -ENOMEM.
 */
static int kreloc_running_build_id(u8 *id)
{
	unsigned long start = kreloc_ksym_lookup("__start_notes");
	unsigned long stop = kreloc_ksym_lookup("__stop_notes");
	void *notes = NULL;
	char *buf = NULL;
	int n = -ENOENT;

	if (start && stop && stop > start && stop - start <= KRELOC_NOTES_MAX) {
		buf = kreloc_zalloc(KSYM_SYMBOL_LEN);
		notes = kreloc_zalloc(stop - start);
		if (!buf || !notes) {
			n = -ENOMEM;
			goto out;
		}
		if (kreloc_core_vmlinux_symbol(start, buf) &&
		    kreloc_core_vmlinux_symbol(stop, buf) &&
		    !copy_from_kernel_nofault(notes, (void *)start, stop - start))
			n = kreloc_copy_build_id(notes, stop - start, id);
	}
	if (n <= 0)
		n = kreloc_compat_vmcoreinfo_bytes("BUILD-ID", id, KRELOC_BUILD_ID_MAX);
out:
	kfree(notes);
	kfree(buf);
	return n;
}

static int kreloc_check_build_id(struct kreloc_core *core)
{
	const struct kreloc_linked *l = core->linked;

	core->build_id_len = kreloc_running_build_id(core->build_id);
	if (core->build_id_len == -ENOMEM)
		return -ENOMEM;
	if (!l->build_id)
		return 0;
	if (core->build_id_len <= 0) {
		pr_warn("running kernel's build id unknown; relying on anchors alone\n");
		return 0;
	}
	if (core->build_id_len != l->build_id_len ||
	    memcmp(core->build_id, l->build_id, l->build_id_len)) {
		pr_err("build id of %s (%*phN) is not the running kernel's (%*phN): refusing its addresses\n",
		       l->source_file, l->build_id_len, l->build_id,
		       core->build_id_len, core->build_id);
		core->build_id_mismatch = true;
	}
	return 0;
}

/*
 * Is anchor @name the vmlinux symbol at @addr?  sprint_symbol() (a binary
 * search by address) must name it there at offset 0, and no module.
 */
static bool kreloc_core_is_at(const char *name, unsigned long addr, char *buf)
{
	u64 off;

	sprint_symbol(buf, addr);
	return !strchr(buf, '[') && !kreloc_symstr_offset(buf, name, &off) && !off;
}

/*
 * Runtime address of anchor @name in vmlinux, or 0.
 *
 * First at @guess, its link-time address plus the delta its section showed
 * so far: kallsyms_lookup_name() searches linearly on v6.1 (v6.2 sorted
 * the names), and asking it for every anchor was most of kreloc's load time
 * there.  Anchors are names that occur once, so a symbol of that name at
 * offset 0 of @guess is the one kallsyms_lookup_name() would return.
 *
 * Else by name.  kallsyms_lookup_name() falls back to the modules' symbols,
 * so an anchor missing from vmlinux's kallsyms (no KALLSYMS_ALL) could
 * resolve to a module symbol of the same name: sprint_symbol() names the
 * module ("[mod]") and such an answer is refused.  @buf holds
 * KSYM_SYMBOL_LEN bytes.
 */
static u64 kreloc_core_resolve(const char *name, u64 guess, char *buf)
{
	unsigned long addr;
	char *mod;

	if (guess && !kreloc_hook_anchors_by_name() && kreloc_core_is_at(name, guess, buf))
		return guess;
	addr = kreloc_ksym_lookup(name);
	if (!addr) {
		pr_info("anchor %s not in kallsyms, skipped\n", name);
		return 0;
	}
	sprint_symbol(buf, addr);
	mod = strchr(buf, '[');
	if (mod) {
		pr_info("anchor %s is only a symbol of module %.*s, skipped\n", name,
			(int)strcspn(mod + 1, "] "), mod + 1);
		return 0;
	}
	return addr;
}

/*
 * Where names cost a walk of kallsyms each (v5.10), one walk for the
 * anchors and for what init looks up later (kreloc_ksym_prefill()).
 * Return: 0 with core->runtime[] set from the walk, or -errno.
 */
static int kreloc_core_walk(struct kreloc_core *core)
{
	const struct kreloc_linked *l = core->linked;
	unsigned int n = l->nr_anchors + KRELOC_KSYM_NR_INIT_NAMES, i;
	const char **names;
	u64 *addrs;
	int ret = -ENOMEM;

	if (!kreloc_iter_core_can_walk())
		return -EOPNOTSUPP;
	names = kreloc_zalloc_array(n, sizeof(*names));
	addrs = kreloc_zalloc_array(n, sizeof(*addrs));
	if (!names || !addrs)
		goto out;
	for (i = 0; i < l->nr_anchors; i++)
		names[i] = l->anchors[i].name;
	for (i = 0; i < KRELOC_KSYM_NR_INIT_NAMES; i++)
		names[l->nr_anchors + i] = kreloc_ksym_init_names[i];
	ret = kreloc_iter_core_lookup_all(names, n, addrs);
	if (ret)
		goto out;
	memcpy(core->runtime, addrs, l->nr_anchors * sizeof(*addrs));
	kreloc_ksym_prefill(addrs + l->nr_anchors);
out:
	kfree(names);
	kfree(addrs);
	return ret;
}

/* Anchor @name's answer from the walk of kreloc_iter_core_lookup_all(). */
static u64 kreloc_core_walked(const char *name, u64 addr)
{
	if (addr == KRELOC_ITER_NOT_UNIQUE) {
		pr_info("anchor %s is not unique in kallsyms, skipped\n", name);
		return 0;
	}
	if (!addr)
		pr_info("anchor %s not in kallsyms, skipped\n", name);
	return addr;
}

int kreloc_core_init(struct kreloc_core *core)
{
	const struct kreloc_linked *l = kreloc_linked_get();
	u64 delta[KRELOC_NR_GROUPS];
	bool any = false, walked;
	unsigned int i, g;
	char *buf;
	int bad;
	u64 off;

	memset(core, 0, sizeof(*core));
	core->linked = l;
	core->runtime = kreloc_zalloc_array(max(l->nr_anchors, 1U), sizeof(*core->runtime));
	buf = kreloc_zalloc(KSYM_SYMBOL_LEN);
	if (!core->runtime || !buf) {
		kfree(core->runtime);
		kfree(buf);
		return -ENOMEM;
	}

	/*
	 * Where names cost a walk of kallsyms each, one walk for all of them
	 * (a test build's test_anchors_by_name=1 asks each name instead).
	 */
	walked = !kreloc_hook_anchors_by_name() && !kreloc_core_walk(core);
	for (i = 0; i < l->nr_anchors; i++) {
		const struct kreloc_linked_anchor *a = &l->anchors[i];

		if (walked)
			core->runtime[i] = kreloc_core_walked(a->name, core->runtime[i]);
		else
			core->runtime[i] = kreloc_core_resolve(a->name, any ?
							       a->linked + delta[a->group] : 0,
							       buf);
		if (!strcmp(a->name, kreloc_arch_ref_symbol())) {
			core->ref_linked = a->linked;
			core->ref_runtime = core->runtime[i];
		}
		if (!core->runtime[i])
			continue;
		/* The first delta seen is every section's first guess. */
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (!any || g == a->group)
				delta[g] = core->runtime[i] - a->linked;
		any = true;
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
		pr_err("sections moved by different deltas on an architecture that relocates by one (numbers in debugfs anchors)\n");
		bad++;
	}

	kfree(buf);
	kreloc_hook_mark("anchors: lookup and sprint_symbol");
	if (kreloc_check_build_id(core)) {
		kreloc_core_exit(core);
		return -ENOMEM;
	}
	if (core->build_id_mismatch) {
		for (g = 0; g < KRELOC_NR_GROUPS; g++)
			if (core->res[g].status == KRELOC_OK)
				core->res[g].status = KRELOC_MISMATCH;
		bad++;
	}

	kreloc_hook_mark("build id");
	core->ok = !bad && core->ref_runtime &&
		   core->res[KRELOC_TEXT].status == KRELOC_OK &&
		   core->ref_runtime - core->ref_linked ==
		   core->res[KRELOC_TEXT].offset;

	if (core->ok && kreloc_arch_kaslr_offset(&off) &&
	    off != core->res[KRELOC_TEXT].offset) {
		pr_err("the kernel's own offset disagrees with the anchors: refusing\n");
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
	pr_info("%u anchors from %s, status %s\n", l->nr_anchors, l->source_name,
		core->ok ? "ok" : "mismatch");
	if (kreloc_hook_leak_offset())
		pr_info("test: offset 0x%llx, reference symbol at 0x%llx\n",
			core->kernel_offset, core->ref_runtime);
	return 0;
}

void kreloc_core_exit(struct kreloc_core *core)
{
	kreloc_the_core = NULL;
	kfree(core->runtime);
	core->runtime = NULL;
}
