/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc.h - interfaces between the files of the kreloc module.
 */
#ifndef _KRELOC_H
#define _KRELOC_H

#include <linux/types.h>
#include "lib/kreloc_calc.h"
#include "lib/kreloc_note.h"

struct cred;
struct file;

#define KRELOC_FORMAT	1

/* kreloc_linked.c: link-time data generated at build time. */
enum kreloc_source {
	KRELOC_SRC_SYSTEM_MAP,
	KRELOC_SRC_VMLINUX,
	KRELOC_SRC_ARCH,
};

struct kreloc_linked {
	enum kreloc_source source;
	const char *source_name;	/* system.map | vmlinux | arch */
	const char *source_file;	/* the file it came from, or "" */
	const char *release;		/* KERNELRELEASE built against */
	const u8 *build_id;		/* NULL when the source has none */
	unsigned int build_id_len;
	struct kreloc_linked_section sec[KRELOC_NR_GROUPS];
	const struct kreloc_linked_anchor *anchors;
	unsigned int nr_anchors;
	u64 modules;			/* link-time address of "modules" */
	bool have_modules;
};

const struct kreloc_linked *kreloc_linked_get(void);

/* kreloc_ksym.c: runtime symbol addresses. */
int kreloc_ksym_init(void);
void kreloc_ksym_init_show_value(void);
void kreloc_ksym_exit(void);
#define KRELOC_KSYM_NR_INIT_NAMES	4
extern const char * const kreloc_ksym_init_names[KRELOC_KSYM_NR_INIT_NAMES];
void kreloc_ksym_prefill(const u64 *addrs);
unsigned long kreloc_ksym_lookup(const char *name);
unsigned long kreloc_ksym_code(const char *name);
unsigned long kreloc_ksym_lookup_fn_addr(void);
bool kreloc_may_see_addresses(const struct file *file);
bool kreloc_show_value_exact(void);

/* kreloc_buildid.c: the running kernel's build id. */
int kreloc_running_build_id(u8 *id);

/* kreloc_core.c: the core kernel's relocation, computed once at load. */
struct kreloc_core {
	const struct kreloc_linked *linked;
	u64 *runtime;			/* per anchor, 0 if not found */
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	u8 build_id[KRELOC_BUILD_ID_MAX];
	int build_id_len;		/* <= 0: unknown */
	bool build_id_mismatch;
	bool ok;			/* STATUS=ok */
	u64 ref_linked;			/* kreloc_arch_ref_symbol() */
	u64 ref_runtime;
	bool kernel_offset_valid;
	u64 kernel_offset;
};

int kreloc_core_init(struct kreloc_core *core);
void kreloc_core_exit(struct kreloc_core *core);
bool kreloc_init_freed(void);
const char *kreloc_core_section_of(unsigned long addr);
bool kreloc_core_kernel_offset(u64 *off);

/* kreloc_debugfs.c: the public interface. */
struct dentry;
int kreloc_debugfs_init(const struct kreloc_core *core);
void kreloc_debugfs_exit(void);
/* A file module/@name showing kreloc_modules_show_one(@name). */
struct dentry *kreloc_debugfs_module_file(const char *name);
void kreloc_debugfs_remove(struct dentry *dentry);
struct seq_file;
void kreloc_seq_num(struct seq_file *m, bool valid, unsigned long long v, bool hex);

/* An errno's name as the kernel's %pe prints it, without the '-'. */
#define KRELOC_ERRNAME_LEN	24
const char *kreloc_errname(int err, char *buf);

#endif /* _KRELOC_H */
