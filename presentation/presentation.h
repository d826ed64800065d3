/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /sys/kernel/debug/kreloc/, the public
 * interface (debugfs.c, and lookup_file.c for "lookup").  It owns every
 * file, module/ included.  Below it: policy/, state/, symbols/, arch/,
 * compat/, base/.
 */
#ifndef _KRELOC_PRESENTATION_H
#define _KRELOC_PRESENTATION_H

#include <linux/fs.h>

struct kreloc_core;

/* Create the files; the last step of kreloc's init (nothing fails after). */
int kreloc_debugfs_init(const struct kreloc_core *core);
void kreloc_debugfs_exit(void);

extern const struct file_operations kreloc_lookup_fops;

#endif /* _KRELOC_PRESENTATION_H */
