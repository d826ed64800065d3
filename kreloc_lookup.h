/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KRELOC_LOOKUP_H
#define _KRELOC_LOOKUP_H

#include <linux/fs.h>

unsigned long kreloc_kprobe_lookup_name(const char *name, unsigned int offset);

extern const struct file_operations kreloc_lookup_fops;

#endif /* _KRELOC_LOOKUP_H */
