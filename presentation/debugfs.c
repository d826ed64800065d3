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
 * The same listener tells dump.c of every change, which it publishes for
 * crash dumps.  The text of every file but lookup is text.c's.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
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

static int kreloc_modules_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN BUILD_ID");
	seq_puts(m, " LOAD_LOCAL_NS INIT_LOCAL_NS UNLOAD_LOCAL_NS");
	seq_puts(m, " LOAD_MONO_NS INIT_MONO_NS UNLOAD_MONO_NS\n");
	kreloc_modules_for_each(kreloc_show_rec_line, m);
	return 0;
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

static void kreloc_records_dropped(const char *name, u64 gen, bool last)
{
	kreloc_mfiles_dropped(name, gen, last);
	kreloc_dump_dropped(name, gen);
}

static const struct kreloc_modules_listener kreloc_records_listener = {
	.added		= kreloc_mfiles_added,
	.dropped	= kreloc_records_dropped,
	.begin		= kreloc_dump_begin,
	.changed	= kreloc_dump_changed,
	.end		= kreloc_dump_end,
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
	kreloc_modules_listen(&kreloc_records_listener);
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
