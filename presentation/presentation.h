/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /sys/kernel/debug/kreloc/, the public
 * interface (debugfs.c, and lookup_file.c for "lookup"), and the text of
 * its files (text.c).  It owns every file, module/ included.  The same
 * text is left where crash dumps carry it (dump.c).  Below it: policy/,
 * state/, symbols/, kreloc_arch/, compat/, base/.
 */
#ifndef _KRELOC_PRESENTATION_H
#define _KRELOC_PRESENTATION_H

#include <linux/fs.h>
#include <linux/types.h>

struct kreloc_core;
struct kreloc_mrec;
struct seq_file;

/* Create the files; the last step of kreloc's init (nothing fails after). */
int kreloc_debugfs_init(const struct kreloc_core *core);
void kreloc_debugfs_exit(void);

extern const struct file_operations kreloc_lookup_fops;

/*
 * text.c: the text of info, sections and anchors (m->private: the core),
 * of a record's line of modules and of its module/NAME@GEN file (@data:
 * the seq_file), as debugfs.c shows them and dump.c publishes them.
 */
int kreloc_info_show(struct seq_file *m, void *v);
int kreloc_sections_show(struct seq_file *m, void *v);
int kreloc_anchors_show(struct seq_file *m, void *v);
void kreloc_show_rec_line(const struct kreloc_mrec *rec, void *data);
void kreloc_show_rec(const struct kreloc_mrec *rec, void *data);

/*
 * dump.c: the records where a crash dump carries them.  kreloc_dump_init()
 * before the files (it fails only with -ENOMEM), kreloc_dump_exit() after
 * them; kreloc_dump_setup_done() at the setup's end.  The others are the
 * modules' listener's (kreloc_modules_listen()), called by debugfs.c's.
 */
int kreloc_dump_init(void);
void kreloc_dump_exit(void);
void kreloc_dump_setup_done(const struct kreloc_core *core, int err);
void kreloc_dump_begin(const char *name);
void kreloc_dump_changed(const char *name, u64 load_gen);
void kreloc_dump_dropped(const char *name, u64 load_gen);
void kreloc_dump_end(void);

#endif /* _KRELOC_PRESENTATION_H */
