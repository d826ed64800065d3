// SPDX-License-Identifier: GPL-2.0
/*
 * The text of kreloc's records, as the debugfs files show it (debugfs.c)
 * and as crash dumps carry it (dump.c): info, sections and anchors of the
 * core kernel, and each module record's line of modules and its
 * module/NAME@GEN file.  Documentation/ABI/testing/debugfs-kreloc is its
 * definition.
 */
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/utsname.h>
#include "base/base.h"
#include "compat/compat.h"
#include "kreloc_arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "presentation/presentation.h"

/**
 * kreloc_seq_num() - print one space-separated field of a debugfs line
 * @m:		the seq_file
 * @valid:	false prints "-" (unknown or not published)
 * @v:		the value
 * @hex:	"0x%llx" if true, else decimal
 */
static void kreloc_seq_num(struct seq_file *m, bool valid, unsigned long long v, bool hex)
{
	if (!valid)
		seq_puts(m, " -");
	else if (hex)
		seq_printf(m, " 0x%llx", v);
	else
		seq_printf(m, " %llu", v);
}

/* KEY_LOCAL_NS= and KEY_MONO_NS= lines of a stamp, nothing if unknown. */
static void kreloc_seq_stamp_keys(struct seq_file *m, const char *key,
				  const struct kreloc_stamp *s)
{
	if (!s->known)
		return;
	seq_printf(m, "%s_LOCAL_NS=%llu\n", key, s->ns[KRELOC_CLOCK_LOCAL]);
	seq_printf(m, "%s_MONO_NS=%llu\n", key, s->ns[KRELOC_CLOCK_MONO]);
}

int kreloc_info_show(struct seq_file *m, void *v)
{
	const struct kreloc_core *core = m->private;
	const struct kreloc_linked *l = core->linked;
	struct kreloc_stamp now, since, freed;
	unsigned int i, resolved = 0;

	kreloc_stamp_now(&now);
	kreloc_modules_since(&since);
	kreloc_stamp_init_freed(&freed);
	for (i = 0; i < l->nr_anchors; i++)
		resolved += !!core->runtime[i];

	seq_puts(m, "# kreloc core kernel relocation (Documentation/ABI/testing/debugfs-kreloc)\n");
	seq_printf(m, "FORMAT=%d\n", KRELOC_FORMAT);
	seq_printf(m, "OSRELEASE=%s\n", init_utsname()->release);
	seq_printf(m, "ARCH=%s\n", init_utsname()->machine);
	if (core->kernel_offset_valid)
		seq_printf(m, "KERNELOFFSET=0x%llx\n", core->kernel_offset);
	seq_printf(m, "REF_SYMBOL=%s\n", kreloc_arch_ref_symbol());
	if (core->ref_linked)
		seq_printf(m, "REF_LINKED=0x%llx\n", core->ref_linked);
	if (core->ref_runtime)
		seq_printf(m, "REF_RUNTIME=0x%llx\n", core->ref_runtime);
	seq_printf(m, "LINKED_SOURCE=%s\n", l->source_name);
	seq_printf(m, "LINKED_FILE=%s\n", l->source_file);
	seq_printf(m, "LINKED_RELEASE=%s\n", l->release);
	if (l->build_id)
		seq_printf(m, "LINKED_BUILD_ID=%*phN\n", l->build_id_len,
			   l->build_id);
	seq_printf(m, "STATUS=%s\n", core->ok ? "ok" : "mismatch");
	seq_printf(m, "INIT=%s\n", freed.known ? "freed" : "live");
	kreloc_seq_stamp_keys(m, "INIT_FREED_BY", &freed);
	if (core->build_id_len > 0)
		seq_printf(m, "BUILD_ID=%*phN\n", core->build_id_len,
			   core->build_id);
	else
		seq_puts(m, "BUILD_ID=\n");
	seq_printf(m, "ANCHORS=%u\n", l->nr_anchors);
	seq_printf(m, "ANCHORS_RESOLVED=%u\n", resolved);
	seq_printf(m, "KALLSYMS_LOOKUP_NAME=0x%lx\n",
		   kreloc_ksym_lookup_fn_addr());
	seq_printf(m, "ACCESS_CHECK=%s\n",
		   kreloc_show_value_exact() ? "kallsyms_show_value" : "cap_syslog");
	kreloc_call_show(m);
	seq_printf(m, "MODULE_LIST=%s\n", kreloc_modules_list_source());
	seq_printf(m, "MODULES_UNRECORDED=%u\n", kreloc_modules_unrecorded());
	seq_printf(m, "GENERATION=%llu\n", kreloc_modules_generation());
	seq_printf(m, "HISTORY_MAX=%u\n", kreloc_modules_history_max());
	kreloc_seq_stamp_keys(m, "SINCE", &since);
	kreloc_seq_stamp_keys(m, "NOW", &now);
	seq_printf(m, "KPROBE_UNIQUE=%s\n", kreloc_iter_count_rule());
	return 0;
}

int kreloc_sections_show(struct seq_file *m, void *v)
{
	const struct kreloc_core *core = m->private;
	const struct kreloc_linked *l = core->linked;
	bool freed = kreloc_init_freed();
	unsigned int g;

	seq_puts(m, "# NAME LINKED RUNTIME SIZE OFFSET STATUS\n");
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct kreloc_linked_section *s = &l->sec[g];
		const struct kreloc_group_result *r = &core->res[g];
		bool ok = r->status == KRELOC_OK && s->known;
		const char *status = kreloc_status_name(ok ? KRELOC_OK :
					r->status == KRELOC_OK ? KRELOC_UNKNOWN :
					r->status);

		if (ok && freed && (g == KRELOC_INIT_TEXT || g == KRELOC_INIT_DATA))
			status = "freed";
		seq_puts(m, kreloc_group_name(g));
		kreloc_seq_num(m, s->known, s->start, true);
		kreloc_seq_num(m, ok, s->start + r->offset, true);
		kreloc_seq_num(m, s->known && s->size, s->size, true);
		kreloc_seq_num(m, ok, r->offset, true);
		seq_printf(m, " %s\n", status);
	}
	return 0;
}

int kreloc_anchors_show(struct seq_file *m, void *v)
{
	const struct kreloc_core *core = m->private;
	const struct kreloc_linked *l = core->linked;
	unsigned int i;

	seq_puts(m, "# SYMBOL LINKED RUNTIME DELTA SECTION\n");
	for (i = 0; i < l->nr_anchors; i++) {
		const struct kreloc_linked_anchor *a = &l->anchors[i];
		u64 rt = core->runtime[i];

		seq_printf(m, "%s 0x%llx", a->name, a->linked);
		kreloc_seq_num(m, rt, rt, true);
		kreloc_seq_num(m, rt, rt - a->linked, true);
		seq_printf(m, " %s\n", kreloc_group_name(a->group));
	}
	return 0;
}

void kreloc_show_rec_line(const struct kreloc_mrec *rec, void *data)
{
	const struct kreloc_region *text = &rec->regions[KRELOC_R_TEXT];
	const struct kreloc_stamp *t[] = { &rec->t_load, &rec->t_init, &rec->t_unload };
	struct seq_file *m = data;
	unsigned int c, i;

	seq_printf(m, "%s %s", rec->name, kreloc_mstate_name(rec->state));
	kreloc_seq_num(m, text->size, text->base, true);
	kreloc_seq_num(m, text->size, text->size, true);
	kreloc_seq_num(m, true, rec->load_gen, false);
	kreloc_seq_num(m, rec->unload_gen, rec->unload_gen, false);
	if (rec->build_id_len)
		seq_printf(m, " %*phN", rec->build_id_len, rec->build_id);
	else
		seq_puts(m, " -");
	for (c = 0; c < KRELOC_NR_CLOCKS; c++)
		for (i = 0; i < ARRAY_SIZE(t); i++)
			kreloc_seq_num(m, t[i]->known, t[i]->ns[c], false);
	seq_putc(m, '\n');
}

static bool kreloc_is_percpu_section(const char *name)
{
	return !strcmp(name, ".data..percpu");
}

void kreloc_show_rec(const struct kreloc_mrec *rec, void *data)
{
	char err[KRELOC_ERRNAME_LEN];
	struct seq_file *m = data;
	int r, i;

	seq_printf(m, "# module %s state %s load_gen %llu unload_gen ", rec->name,
		   kreloc_mstate_name(rec->state), rec->load_gen);
	kreloc_seq_num(m, rec->unload_gen, rec->unload_gen, false);
	seq_putc(m, '\n');
	if (!rec->init_seen)
		seq_puts(m, "# init regions not recorded: initialised before kreloc was loaded\n");
	seq_puts(m, "# KIND NAME ADDRESS SIZE STATE\n");
	for (r = 0; r < KRELOC_NR_REGIONS; r++) {
		const struct kreloc_region *reg = &rec->regions[r];

		if (!reg->size)
			continue;
		seq_printf(m, "region %s 0x%lx 0x%lx %s\n", kreloc_region_name(r),
			   reg->base, reg->size, kreloc_mrec_mem_state(rec, r));
	}
	if (rec->nr_sects < 0)
		seq_printf(m, "# sections unknown (%s)\n", kreloc_errname(rec->nr_sects, err));
	for (i = 0; i < rec->nr_sects; i++) {
		const struct kreloc_msect *s = &rec->sects[i];

		seq_printf(m, "section %s 0x%lx - %s\n", s->name, s->addr,
			   kreloc_is_percpu_section(s->name) ? "live" :
			   kreloc_mrec_mem_state(rec, kreloc_mrec_region_of(rec, s->addr)));
	}
}
