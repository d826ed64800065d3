// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/kreloc/: info, sections,
 * anchors, modules, module/NAME and lookup.
 *
 * Every file is 0400 (lookup 0600) and additionally checks the opener's
 * credentials on open and on every read, like /sys/module/X/sections does;
 * a reader who may not see kernel addresses gets -EPERM instead of zeros.
 *
 * The files of module/ are this layer's too: state/modules.c tells it of
 * each record made and dropped (kreloc_modules_listen()), and it keeps one
 * file per record (NAME@LOAD_GEN) and one per name (NAME, the newest).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include "base/base.h"
#include "compat/compat.h"
#include "kreloc_arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "presentation/presentation.h"

static struct dentry *kreloc_dir, *kreloc_module_dir;
static const struct kreloc_core *kreloc_dbg_core;

/* debugfs files under module/: one per record, one per name. */
struct kreloc_mfile {
	struct list_head node;
	char name[MODULE_NAME_LEN + 24];
	struct dentry *dentry;
};

/* Only the modules' listener calls touch it, serialised by their event lock. */
static LIST_HEAD(kreloc_mfiles);

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

static int kreloc_info_show(struct seq_file *m, void *v)
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

static int kreloc_sections_show(struct seq_file *m, void *v)
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

static int kreloc_anchors_show(struct seq_file *m, void *v)
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

static void kreloc_show_rec_line(const struct kreloc_mrec *rec, void *data)
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

static int kreloc_modules_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN BUILD_ID");
	seq_puts(m, " LOAD_LOCAL_NS INIT_LOCAL_NS UNLOAD_LOCAL_NS");
	seq_puts(m, " LOAD_MONO_NS INIT_MONO_NS UNLOAD_MONO_NS\n");
	kreloc_modules_for_each(kreloc_show_rec_line, m);
	return 0;
}

static bool kreloc_is_percpu_section(const char *name)
{
	return !strcmp(name, ".data..percpu");
}

static void kreloc_show_rec(const struct kreloc_mrec *rec, void *data)
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

/* module/NAME and module/NAME@GEN: the record is looked up by file name. */
static int kreloc_module_show(struct seq_file *m, void *v)
{
	return kreloc_modules_with(m->file->f_path.dentry->d_name.name, kreloc_show_rec, m);
}

struct kreloc_file {
	const char *name;
	int (*show)(struct seq_file *m, void *v);
};

static const struct kreloc_file kreloc_files[] = {
	{ "info", kreloc_info_show },
	{ "sections", kreloc_sections_show },
	{ "anchors", kreloc_anchors_show },
	{ "modules", kreloc_modules_show },
};

static const struct kreloc_file kreloc_module_file = { NULL, kreloc_module_show };

static int kreloc_open(struct inode *inode, struct file *file)
{
	const struct kreloc_file *f;
	int ret;

	/* The setup's end, or its errno: the files exist before it is done. */
	ret = kreloc_setup_wait();
	if (ret)
		return ret;
	if (!kreloc_may_see_addresses(file))
		return -EPERM;
	f = inode->i_private;
	return single_open(file, f->show, (void *)kreloc_dbg_core);
}

static ssize_t kreloc_read(struct file *file, char __user *buf, size_t len,
			   loff_t *ppos)
{
	if (!kreloc_may_see_addresses(file))
		return -EPERM;
	return seq_read(file, buf, len, ppos);
}

static const struct file_operations kreloc_fops = {
	.owner		= THIS_MODULE,
	.open		= kreloc_open,
	.read		= kreloc_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * Module files come and go while they may be open.  Without debugfs's
 * proxy a read after removal reaches kreloc_module_show(), which finds no
 * record and answers -ENOENT instead of the proxy's -EIO.  That is safe:
 * i_private is static and fops->owner pins kreloc while a file is open.
 */
static void kreloc_mfile_add(const char *name)
{
	struct kreloc_mfile *f;

	list_for_each_entry(f, &kreloc_mfiles, node)
		if (!strcmp(f->name, name))
			return;
	/* Out of memory: the record stays in "modules", without its file. */
	f = kreloc_zalloc(sizeof(*f));
	if (!f)
		return;
	strscpy(f->name, name, sizeof(f->name));
	f->dentry = debugfs_create_file_unsafe(f->name, 0400, kreloc_module_dir,
					       (void *)&kreloc_module_file, &kreloc_fops);
	list_add_tail(&f->node, &kreloc_mfiles);
}

static void kreloc_mfile_del(const char *name)
{
	struct kreloc_mfile *f;

	list_for_each_entry(f, &kreloc_mfiles, node) {
		if (!strcmp(f->name, name)) {
			list_del(&f->node);
			debugfs_remove(f->dentry);
			kfree(f);
			return;
		}
	}
}

/* A new record: its NAME@GEN file, and NAME if no record had the name. */
static void kreloc_mfiles_added(const char *name, u64 gen)
{
	char buf[MODULE_NAME_LEN + 24];

	kreloc_mfile_add(name);
	snprintf(buf, sizeof(buf), "%s@%llu", name, gen);
	kreloc_mfile_add(buf);
}

static void kreloc_mfiles_dropped(const char *name, u64 gen, bool last)
{
	char buf[MODULE_NAME_LEN + 24];

	snprintf(buf, sizeof(buf), "%s@%llu", name, gen);
	kreloc_mfile_del(buf);
	if (last)
		kreloc_mfile_del(name);
}

static const struct kreloc_modules_listener kreloc_mfiles_listener = {
	.added		= kreloc_mfiles_added,
	.dropped	= kreloc_mfiles_dropped,
};

/*
 * Publish the files: the last step of kreloc's init, after every step that
 * can fail.  A file opened while a module's init runs pins nothing (the
 * module is COMING, try_module_get() succeeds, and a failing init frees
 * the module whatever its count), so no file may exist before init can no
 * longer fail.  Nothing here fails once the directory exists.  An open
 * waits until kreloc's setup work is done.
 */
int kreloc_debugfs_init(const struct kreloc_core *core)
{
	struct dentry *d;
	unsigned int i;

	kreloc_dbg_core = core;
	kreloc_dir = debugfs_create_dir("kreloc", NULL);
	if (IS_ERR(kreloc_dir))
		return PTR_ERR(kreloc_dir);
	/*
	 * kreloc is its files: loading without one of them would look like
	 * success to a tool that then finds nothing (fault injection made
	 * "info" fail to appear while the load succeeded).
	 */
	for (i = 0; i < ARRAY_SIZE(kreloc_files); i++) {
		d = debugfs_create_file(kreloc_files[i].name, 0400, kreloc_dir,
					(void *)&kreloc_files[i], &kreloc_fops);
		if (IS_ERR(d))
			goto fail;
	}
	d = debugfs_create_dir("module", kreloc_dir);
	if (IS_ERR(d))
		goto fail;
	kreloc_module_dir = d;
	/* Written and read: the only file that is not 0400. */
	d = debugfs_create_file("lookup", 0600, kreloc_dir, NULL, &kreloc_lookup_fops);
	if (IS_ERR(d))
		goto fail;
	kreloc_modules_listen(&kreloc_mfiles_listener);
	return 0;
fail:
	debugfs_remove_recursive(kreloc_dir);
	kreloc_dir = NULL;
	kreloc_module_dir = NULL;
	return PTR_ERR(d);
}

void kreloc_debugfs_exit(void)
{
	struct kreloc_mfile *f, *tmp;

	kreloc_modules_listen(NULL);
	debugfs_remove_recursive(kreloc_dir);
	kreloc_dir = NULL;
	list_for_each_entry_safe(f, tmp, &kreloc_mfiles, node) {
		list_del(&f->node);
		kfree(f);
	}
}
