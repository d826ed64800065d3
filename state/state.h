/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kreloc knows: the relocation of the core kernel
 * (core.c, with its link-time data and the running kernel's build id) and
 * a record of every module from formation to after unload (modules.c,
 * with each module's ELF sections from modsect.c).  Below it: symbols/,
 * kreloc_arch/, compat/, base/.  It tells the presentation above it of module
 * events through a listener, never by calling up.
 */
#ifndef _KRELOC_STATE_H
#define _KRELOC_STATE_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/types.h>
#include "compat/compat.h"
#include "lib/kreloc_calc.h"
#include "lib/kreloc_note.h"

/* --- core.c: the core kernel ------------------------------------------ */

#define KRELOC_FORMAT	1

/* Link-time data generated at build time (kreloc_linked_gen.h). */
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

/* The core kernel's relocation, computed once by kreloc_core_init(). */
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

/*
 * kreloc's setup (kreloc_main.c) runs after its ->init, in a work item.
 * kreloc_setup_done() says it has ended, with 0 or the errno it failed
 * with; kreloc_setup_wait() waits for that (killable) and returns it, or
 * -EINTR.  Everything that reads the state waits first.
 */
void kreloc_setup_done(int err);
int kreloc_setup_wait(void);
void kreloc_core_exit(struct kreloc_core *core);
const char *kreloc_core_section_of(unsigned long addr);
bool kreloc_core_kernel_offset(u64 *off);
bool kreloc_core_image_bounds(u64 *start, u64 *end);

/* --- stamp.c: when things happened -------------------------------------- */

/* The clocks of a stamp (stamp.c says why these two). */
enum kreloc_clock {
	KRELOC_CLOCK_LOCAL,	/* local_clock(): perf's default, ftrace's "perf" */
	KRELOC_CLOCK_MONO,	/* CLOCK_MONOTONIC: perf -k monotonic, ftrace's "mono" */
	KRELOC_NR_CLOCKS,
};

struct kreloc_stamp {
	u64 ns[KRELOC_NR_CLOCKS];
	bool known;		/* false: kreloc did not see it happen */
};

/* Read every clock now. */
void kreloc_stamp_now(struct kreloc_stamp *s);
/* The same from any context, panic() included. */
void kreloc_stamp_now_atomic(struct kreloc_stamp *s);
void kreloc_stamp_init_freed(struct kreloc_stamp *s);

/* --- modsect.c: a module's ELF sections --------------------------------- */

struct kreloc_msect {
	const char *name;	/* kstrdup'ed */
	unsigned long addr;
};

/**
 * kreloc_modsect_copy() - copy a module's ELF section addresses
 * @mod:	a module past mod_sysfs_setup() and not yet torn down
 * @out:	set to a kmalloc'ed array, to be freed with kreloc_modsect_free()
 *
 * Return: the number of sections, or a negative errno (-EPROTO if the
 * layout of mod->sect_attrs is not the one kreloc knows).
 */
int kreloc_modsect_copy(const struct module *mod, struct kreloc_msect **out);
void kreloc_modsect_free(struct kreloc_msect *s, unsigned int n);

/**
 * kreloc_modsect_build_id() - the GNU build id of a loaded module
 * @s:		its sections, from kreloc_modsect_copy()
 * @n:		their number (<= 0: none)
 * @id:		KRELOC_BUILD_ID_MAX bytes for the id
 *
 * Reads the note in the module's own ".note.gnu.build-id" section, which
 * must still be in memory (the module is live or going), without faulting.
 *
 * Return: the length of the id, or 0 if there is none.
 */
int kreloc_modsect_build_id(const struct kreloc_msect *s, int n, u8 *id);

/* --- modules.c: every module, from formation to after unload ------------ */

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
	/*
	 * When its memory changed: formed (COMING), init done (->init
	 * returned, its init memory freed right after; or failed), unloaded
	 * (GOING).  Not known for what kreloc did not see happen.
	 */
	struct kreloc_stamp t_load, t_init, t_unload;
	bool dirty;		/* changed since the listener was last told */
};

int kreloc_modules_check_params(void);
int kreloc_modules_init(void);
int kreloc_modules_scan(void);
void kreloc_modules_exit(void);
const char *kreloc_modules_list_source(void);
unsigned int kreloc_modules_unrecorded(void);
/* How many records there are, live and history. */
unsigned int kreloc_modules_count(void);

u64 kreloc_modules_generation(void);
/* When kreloc began recording module events (its notifier's registration). */
void kreloc_modules_since(struct kreloc_stamp *s);
unsigned int kreloc_modules_history_max(void);

/*
 * The presentation's view of module events, delivered in order: a record
 * named @name was made (@load_gen is its generation), or one was dropped
 * from the history (@last: no record of @name is left).  Called with the
 * modules' event lock held, never the records' lock: a listener may wait
 * for readers that read records.
 *
 * Each event is framed by begin() (@name: the module it is about, NULL
 * for several) before any record changes, and end() after the listener
 * was told everything; in between, changed() names each record whose
 * content changed (a new one too, after added()), which the listener may
 * read back with kreloc_modules_with().  Every member may be NULL.
 */
struct kreloc_modules_listener {
	void (*added)(const char *name, u64 load_gen);
	void (*dropped)(const char *name, u64 load_gen, bool last);
	void (*begin)(const char *name);
	void (*changed)(const char *name, u64 load_gen);
	void (*end)(void);
};

/* Tell @l (NULL: nobody) of every event from now, after every record so far. */
void kreloc_modules_listen(const struct kreloc_modules_listener *l);

/*
 * Call @fn on every record, live ones in load order then the history in
 * unload order (kreloc_modules_for_each()), or on the one @spec names,
 * "NAME" (the newest) or "NAME@LOAD_GEN" (kreloc_modules_with(): -ENOENT
 * if none), with the records' lock held.
 */
typedef void (*kreloc_mrec_fn)(const struct kreloc_mrec *rec, void *data);
void kreloc_modules_for_each(kreloc_mrec_fn fn, void *data);
int kreloc_modules_with(const char *spec, kreloc_mrec_fn fn, void *data);

const char *kreloc_mstate_name(enum kreloc_mstate state);
const char *kreloc_region_name(unsigned int r);
/* Which region of @rec holds @addr, or -1. */
int kreloc_mrec_region_of(const struct kreloc_mrec *rec, unsigned long addr);
/* "live", "freed" or "gone": memory of @rec's @region (-1: outside all). */
const char *kreloc_mrec_mem_state(const struct kreloc_mrec *rec, int region);
const char *kreloc_modules_region_of(unsigned long addr);

#endif /* _KRELOC_STATE_H */
