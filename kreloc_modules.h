/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc_modules.h - records of every module from formation to after
 * unload.
 */
#ifndef _KRELOC_MODULES_H
#define _KRELOC_MODULES_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include "kreloc_compat.h"
#include "kreloc_modsect.h"
#include "lib/kreloc_note.h"

enum kreloc_mstate {
	KRELOC_M_COMING,	/* formed, ->init may be running */
	KRELOC_M_LIVE,
	KRELOC_M_GOING,		/* unloading or failed, memory not yet freed */
	KRELOC_M_GONE,		/* freed: history */
};

struct kreloc_mrec {
	struct list_head node;
	struct module *mod;	/* only while not GONE */
	char name[MODULE_NAME_LEN];
	enum kreloc_mstate state;
	u64 load_gen, unload_gen;
	struct kreloc_region regions[KRELOC_NR_REGIONS];
	bool init_freed;	/* ->init has returned */
	bool init_seen;		/* init regions were recorded before release */
	int nr_sects;		/* < 0: errno, sections unknown */
	struct kreloc_msect *sects;
	u8 build_id[KRELOC_BUILD_ID_MAX];	/* of the .ko, read with the sections */
	int build_id_len;
};

int kreloc_modules_check_params(void);
int kreloc_modules_init(void);
void kreloc_modules_publish(void);
void kreloc_modules_exit(void);
const char *kreloc_modules_list_source(void);
unsigned int kreloc_modules_unrecorded(void);

u64 kreloc_modules_generation(void);
unsigned int kreloc_modules_history_max(void);

/* seq_file printers, called with no lock held; they lock as needed. */
void kreloc_modules_show_list(struct seq_file *m);
/* @spec: "NAME" (newest record) or "NAME@LOAD_GEN"; -ENOENT if none. */
int kreloc_modules_show_one(struct seq_file *m, const char *spec);

const char *kreloc_region_name(unsigned int r);
const char *kreloc_modules_region_of(unsigned long addr);

#endif /* _KRELOC_MODULES_H */
