// SPDX-License-Identifier: GPL-2.0
/*
 * Every module's regions and ELF sections, from the
 * moment it is formed until after it is gone.
 *
 * A module notifier records a module at MODULE_STATE_COMING (its init
 * regions exist while ->init runs), completes the record at LIVE (the
 * per-section addresses exist by then, and ->init has returned, after which
 * the kernel frees the init regions), and moves it to a bounded history at
 * GOING.  The record turns "gone" once the module has left the kernel's
 * module list.  Modules that were live before kreloc are found on that list
 * by kreloc's setup work, after its ->init (kreloc_scan_modules() says why
 * that is safe); one that goes before the scan meets it is recorded as it
 * goes.
 *
 * Locking: kreloc_mod_lock protects the records, the lists and the
 * generation; readers take only it.  kreloc_event_lock serialises the
 * events told to the listener (the presentation, which creates and removes
 * a file per record) and is taken outside kreloc_mod_lock, never by
 * readers, so removing a file (which waits for its readers) cannot
 * deadlock.  The kernel's module list is only walked under RCU, holding
 * none of kreloc's locks but kreloc_mod_lock.
 *
 * Records exist before anybody is told of them: a listener set by
 * kreloc_modules_listen() is first told of every record made until then
 * (by the scan or by notifiers), then of each new one.  A record whose
 * content changes is marked dirty under kreloc_mod_lock; before an event
 * ends the listener is told of each dirty one (kreloc_tell_end()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/kallsyms.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "base/base.h"
#include "kreloc_arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "base/hooks.h"

static unsigned int history = 64;
module_param(history, uint, 0444);
MODULE_PARM_DESC(history, "unloaded modules kept in the history (default 64)");

#define KRELOC_HISTORY_LIMIT	4096
#define KRELOC_REAP_DELAY	msecs_to_jiffies(20)
#define KRELOC_REAP_TRIES	500

static DEFINE_MUTEX(kreloc_mod_lock);
static DEFINE_MUTEX(kreloc_event_lock);
static LIST_HEAD(kreloc_live);		/* coming, live: load order */
static LIST_HEAD(kreloc_history);	/* going, gone: unload order */
static unsigned int kreloc_nr_history;
static u64 kreloc_gen;
/* When the notifier was registered: every event after it is stamped. */
static struct kreloc_stamp kreloc_since;
/* Modules left unrecorded for want of memory. */
static atomic_t kreloc_modules_lost = ATOMIC_INIT(0);

/* The kernel's module list, found at load (see kreloc_find_module_list). */
static struct list_head *kreloc_module_list;
static const char *kreloc_module_list_how = "none";
/* Who is told of module events.  Under kreloc_event_lock. */
static const struct kreloc_modules_listener *kreloc_listener;

static void kreloc_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(kreloc_reap_work, kreloc_reap);
static unsigned int kreloc_reap_tries;

static const char * const kreloc_region_names[KRELOC_NR_REGIONS] = {
	[KRELOC_R_TEXT]		= "text",
	[KRELOC_R_DATA]		= "data",
	[KRELOC_R_RODATA]	= "rodata",
	[KRELOC_R_RO_AFTER_INIT] = "ro_after_init",
	[KRELOC_R_INIT_TEXT]	= "init.text",
	[KRELOC_R_INIT_DATA]	= "init.data",
	[KRELOC_R_INIT_RODATA]	= "init.rodata",
};

static const char * const kreloc_mstate_names[] = {
	[KRELOC_M_COMING]	= "coming",
	[KRELOC_M_LIVE]		= "live",
	[KRELOC_M_GOING]	= "going",
	[KRELOC_M_GONE]		= "gone",
};

const char *kreloc_region_name(unsigned int r)
{
	return r < KRELOC_NR_REGIONS ? kreloc_region_names[r] : "?";
}

const char *kreloc_mstate_name(enum kreloc_mstate state)
{
	return state < ARRAY_SIZE(kreloc_mstate_names) ? kreloc_mstate_names[state] : "?";
}

static bool kreloc_region_is_init(unsigned int r)
{
	return r == KRELOC_R_INIT_TEXT || r == KRELOC_R_INIT_DATA ||
	       r == KRELOC_R_INIT_RODATA;
}

void kreloc_modules_since(struct kreloc_stamp *s)
{
	mutex_lock(&kreloc_mod_lock);
	*s = kreloc_since;
	mutex_unlock(&kreloc_mod_lock);
}

u64 kreloc_modules_generation(void)
{
	u64 gen;

	mutex_lock(&kreloc_mod_lock);
	gen = kreloc_gen;
	mutex_unlock(&kreloc_mod_lock);
	return gen;
}

unsigned int kreloc_modules_history_max(void)
{
	return history;
}

static void kreloc_mrec_free(struct kreloc_mrec *rec)
{
	if (rec->nr_sects > 0)
		kreloc_modsect_free(rec->sects, rec->nr_sects);
	kfree(rec);
}

/*
 * A record of @mod's regions.  @init: its init regions exist and cannot be
 * released while we read them (a notifier at COMING or LIVE); otherwise
 * only the core regions are taken.
 */
static struct kreloc_mrec *kreloc_mrec_new(struct module *mod, bool init)
{
	struct kreloc_mrec *rec = kreloc_zalloc(sizeof(*rec));
	unsigned int r;

	if (!rec)
		return NULL;
	rec->mod = mod;
	strscpy(rec->name, mod->name, sizeof(rec->name));
	kreloc_compat_regions(mod, rec->regions);
	rec->init_seen = init && !kreloc_compat_init_released(mod);
	if (!rec->init_seen)
		for (r = 0; r < KRELOC_NR_REGIONS; r++)
			if (kreloc_region_is_init(r))
				rec->regions[r].size = 0;
	rec->nr_sects = -ENOENT;
	rec->dirty = true;
	return rec;
}

/* Caller holds kreloc_mod_lock. */
static struct kreloc_mrec *kreloc_find_live(const struct module *mod)
{
	struct kreloc_mrec *rec;

	list_for_each_entry(rec, &kreloc_live, node)
		if (rec->mod == mod)
			return rec;
	return NULL;
}

/*
 * A new module at the address of a going one means the old one was freed.
 * Caller holds kreloc_mod_lock.
 */
static void kreloc_mark_reused(const struct module *mod)
{
	struct kreloc_mrec *rec;

	list_for_each_entry(rec, &kreloc_history, node) {
		if (rec->state == KRELOC_M_GOING && rec->mod == mod) {
			rec->state = KRELOC_M_GONE;
			rec->mod = NULL;
			rec->dirty = true;
			kreloc_gen++;
		}
	}
}

/*
 * At COMING no live record can belong to @mod: the initial scan records
 * only live modules.  One that matches is left from a module that was
 * freed at this address without kreloc seeing it go, so retire it rather
 * than let the new module fill it under the old name.  Caller holds
 * kreloc_mod_lock.
 */
static void kreloc_retire_stale(const struct module *mod)
{
	struct kreloc_mrec *rec, *tmp;

	list_for_each_entry_safe(rec, tmp, &kreloc_live, node) {
		if (rec->mod != mod)
			continue;
		pr_warn("record of %s was left live; its module is gone\n", rec->name);
		rec->state = KRELOC_M_GONE;
		rec->mod = NULL;
		rec->init_freed = true;
		rec->unload_gen = ++kreloc_gen;
		rec->dirty = true;
		list_move_tail(&rec->node, &kreloc_history);
		kreloc_nr_history++;
	}
}

/* Is @name still used by some record?  Caller holds kreloc_mod_lock. */
static bool kreloc_name_in_use(const char *name)
{
	struct kreloc_mrec *rec;

	list_for_each_entry(rec, &kreloc_live, node)
		if (!strcmp(rec->name, name))
			return true;
	list_for_each_entry(rec, &kreloc_history, node)
		if (!strcmp(rec->name, name))
			return true;
	return false;
}

/* Tell the listener of a new record.  Caller holds kreloc_event_lock. */
static void kreloc_tell_added(const char *name, u64 gen)
{
	if (kreloc_listener && kreloc_listener->added)
		kreloc_listener->added(name, gen);
}

/* An event begins: nothing has changed yet.  Caller holds kreloc_event_lock. */
static void kreloc_tell_begin(const char *name)
{
	if (kreloc_listener && kreloc_listener->begin)
		kreloc_listener->begin(name);
}

/* Caller holds kreloc_mod_lock. */
static struct kreloc_mrec *kreloc_first_dirty(void)
{
	struct kreloc_mrec *rec;

	list_for_each_entry(rec, &kreloc_live, node)
		if (rec->dirty)
			return rec;
	list_for_each_entry(rec, &kreloc_history, node)
		if (rec->dirty)
			return rec;
	return NULL;
}

/*
 * Tell the listener of every record changed since it was last told, then
 * that the event has ended.  Caller holds kreloc_event_lock, not
 * kreloc_mod_lock; a record is freed only under the former, so its name
 * stays while the listener reads it.
 */
static void kreloc_tell_end(void)
{
	struct kreloc_mrec *rec;

	for (;;) {
		mutex_lock(&kreloc_mod_lock);
		rec = kreloc_first_dirty();
		if (rec)
			rec->dirty = false;
		mutex_unlock(&kreloc_mod_lock);
		if (!rec)
			break;
		if (kreloc_listener && kreloc_listener->changed)
			kreloc_listener->changed(rec->name, rec->load_gen);
	}
	if (kreloc_listener && kreloc_listener->end)
		kreloc_listener->end();
}

/*
 * Drop the oldest history records beyond the bound, telling the listener.
 * Caller holds kreloc_event_lock, not kreloc_mod_lock.
 */
static void kreloc_trim_history(void)
{
	struct kreloc_mrec *rec;
	bool last;

	for (;;) {
		mutex_lock(&kreloc_mod_lock);
		if (kreloc_nr_history <= history) {
			mutex_unlock(&kreloc_mod_lock);
			return;
		}
		rec = list_first_entry(&kreloc_history, struct kreloc_mrec, node);
		list_del(&rec->node);
		kreloc_nr_history--;
		kreloc_gen++;
		last = !kreloc_name_in_use(rec->name);
		mutex_unlock(&kreloc_mod_lock);

		if (kreloc_listener && kreloc_listener->dropped)
			kreloc_listener->dropped(rec->name, rec->load_gen, last);
		kreloc_mrec_free(rec);
	}
}

/* Record @mod at COMING. */
static void kreloc_mod_coming(struct module *mod)
{
	struct kreloc_mrec *rec;
	struct kreloc_stamp now;
	u64 gen;

	kreloc_stamp_now(&now);
	rec = kreloc_mrec_new(mod, true);
	if (!rec) {
		atomic_inc(&kreloc_modules_lost);
		pr_warn_ratelimited("out of memory recording module %s\n", mod->name);
		return;
	}
	rec->state = KRELOC_M_COMING;
	rec->t_load = now;
	mutex_lock(&kreloc_event_lock);
	kreloc_tell_begin(mod->name);
	mutex_lock(&kreloc_mod_lock);
	kreloc_mark_reused(mod);
	kreloc_retire_stale(mod);
	gen = ++kreloc_gen;
	rec->load_gen = gen;
	list_add_tail(&rec->node, &kreloc_live);
	mutex_unlock(&kreloc_mod_lock);
	kreloc_tell_added(mod->name, gen);
	kreloc_trim_history();
	kreloc_tell_end();
	mutex_unlock(&kreloc_event_lock);
}

static void kreloc_mod_live(struct module *mod)
{
	struct kreloc_mrec *rec, *unseen = NULL;
	struct kreloc_msect *sects;
	struct kreloc_stamp now;
	bool added = false;
	int n;

	kreloc_stamp_now(&now);
	/* The module cannot be freed while its LIVE notification runs. */
	n = kreloc_modsect_copy(mod, &sects);

	mutex_lock(&kreloc_event_lock);
	kreloc_tell_begin(mod->name);
	mutex_lock(&kreloc_mod_lock);
	rec = kreloc_find_live(mod);
	if (!rec) {
		/*
		 * Its COMING went unseen (kreloc was loading, or out of
		 * memory): record it now, init regions and all, for they are
		 * released only after this notifier.  The event lock, held
		 * throughout, keeps the scan from recording it meanwhile.
		 */
		mutex_unlock(&kreloc_mod_lock);
		unseen = kreloc_mrec_new(mod, true);
		mutex_lock(&kreloc_mod_lock);
		if (unseen) {
			kreloc_mark_reused(mod);
			kreloc_retire_stale(mod);
			rec = unseen;
			unseen = NULL;
			rec->load_gen = ++kreloc_gen;
			list_add_tail(&rec->node, &kreloc_live);
			added = true;
		} else {
			atomic_inc(&kreloc_modules_lost);
			pr_warn_ratelimited("out of memory recording module %s\n", mod->name);
		}
	}
	if (rec) {
		rec->state = KRELOC_M_LIVE;
		/* ->init has returned; do_init_module() frees init memory next. */
		rec->init_freed = true;
		rec->t_init = now;
		if (rec->nr_sects > 0)
			kreloc_modsect_free(rec->sects, rec->nr_sects);
		rec->nr_sects = n;
		rec->sects = n > 0 ? sects : NULL;
		rec->build_id_len = kreloc_modsect_build_id(rec->sects, n, rec->build_id);
		rec->dirty = true;
		sects = NULL;
		kreloc_gen++;
	}
	mutex_unlock(&kreloc_mod_lock);
	/* A live record moves or goes only under the event lock, held here. */
	if (added) {
		kreloc_tell_added(rec->name, rec->load_gen);
		kreloc_trim_history();
	}
	kreloc_tell_end();
	mutex_unlock(&kreloc_event_lock);
	if (sects && n > 0)
		kreloc_modsect_free(sects, n);
}

static void kreloc_mod_going(struct module *mod)
{
	struct kreloc_mrec *rec, *unseen = NULL;
	struct kreloc_msect *sects = NULL;
	struct kreloc_stamp now;
	bool added = false;
	int n = -ENOENT;

	kreloc_stamp_now(&now);
	mutex_lock(&kreloc_event_lock);
	kreloc_tell_begin(mod->name);
	mutex_lock(&kreloc_mod_lock);
	rec = kreloc_find_live(mod);
	if (!rec || rec->nr_sects < 0) {
		/*
		 * A load that failed after sysfs setup still has its sections.
		 * A module kreloc has no record of was loaded before kreloc's
		 * notifier and not (yet) met by the scan: it is recorded now,
		 * as it goes, with its core regions and sections.
		 */
		mutex_unlock(&kreloc_mod_lock);
		n = kreloc_modsect_copy(mod, &sects);
		if (!rec)
			unseen = kreloc_mrec_new(mod, false);
		mutex_lock(&kreloc_mod_lock);
		rec = kreloc_find_live(mod);
		if (!rec && unseen) {
			rec = unseen;
			unseen = NULL;
			rec->load_gen = ++kreloc_gen;
			list_add_tail(&rec->node, &kreloc_live);
			added = true;
		} else if (!rec) {
			atomic_inc(&kreloc_modules_lost);
			pr_warn_ratelimited("out of memory recording module %s\n", mod->name);
		}
	}
	if (rec) {
		if (rec->nr_sects < 0 && n > 0) {
			rec->nr_sects = n;
			rec->sects = sects;
			rec->build_id_len = kreloc_modsect_build_id(sects, n, rec->build_id);
			sects = NULL;
		}
		/* A failed ->init: its init memory goes with the rest. */
		if (rec->state == KRELOC_M_COMING && rec->init_seen)
			rec->t_init = now;
		rec->state = KRELOC_M_GOING;
		rec->init_freed = true;
		rec->t_unload = now;
		rec->unload_gen = ++kreloc_gen;
		rec->dirty = true;
		list_move_tail(&rec->node, &kreloc_history);
		kreloc_nr_history++;
	}
	mutex_unlock(&kreloc_mod_lock);
	/* Only kreloc_trim_history(), below and under this lock, frees it. */
	if (added)
		kreloc_tell_added(rec->name, rec->load_gen);
	if (unseen)
		kreloc_mrec_free(unseen);
	if (sects)
		kreloc_modsect_free(sects, n);
	kreloc_trim_history();
	kreloc_tell_end();
	mutex_unlock(&kreloc_event_lock);
	if (rec) {
		kreloc_reap_tries = 0;
		mod_delayed_work(system_wq, &kreloc_reap_work, KRELOC_REAP_DELAY);
	}
}

/*
 * The kernel's module list is RCU-protected: walking it with preemption
 * disabled is what module_kallsyms_lookup_name() does, and needs neither
 * the unexported module_mutex nor KALLSYMS_ALL.
 */
static bool kreloc_on_module_list(const struct module *mod, const char *name)
{
	struct module *m;
	bool found = false;

	preempt_disable();
	list_for_each_entry_rcu(m, kreloc_module_list, list) {
		if (m == mod && m->state == MODULE_STATE_GOING &&
		    !strcmp(m->name, name)) {
			found = true;
			break;
		}
	}
	preempt_enable();
	return found;
}

/*
 * Turn going records into gone once their module has left the list.  The
 * event lock orders this change with the others told to the listener;
 * nobody holding it waits for this work.
 */
static void kreloc_reap(struct work_struct *work)
{
	struct kreloc_mrec *rec;
	bool pending = false;

	mutex_lock(&kreloc_event_lock);
	kreloc_tell_begin(NULL);
	mutex_lock(&kreloc_mod_lock);
	list_for_each_entry(rec, &kreloc_history, node) {
		if (rec->state != KRELOC_M_GOING)
			continue;
		if (kreloc_module_list && kreloc_on_module_list(rec->mod, rec->name) &&
		    kreloc_reap_tries < KRELOC_REAP_TRIES) {
			pending = true;
			continue;
		}
		rec->state = KRELOC_M_GONE;
		rec->mod = NULL;
		rec->dirty = true;
		kreloc_gen++;
	}
	mutex_unlock(&kreloc_mod_lock);
	kreloc_tell_end();
	mutex_unlock(&kreloc_event_lock);
	if (pending) {
		kreloc_reap_tries++;
		schedule_delayed_work(&kreloc_reap_work, KRELOC_REAP_DELAY);
	}
}

static int kreloc_mod_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;

	switch (action) {
	case MODULE_STATE_COMING:
		kreloc_mod_coming(mod);
		break;
	case MODULE_STATE_LIVE:
		kreloc_mod_live(mod);
		break;
	case MODULE_STATE_GOING:
		kreloc_mod_going(mod);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block kreloc_mod_nb = {
	.notifier_call = kreloc_mod_notify,
};

/* Walk from this module's node; true if it reaches @head. */
static bool kreloc_list_reaches(const struct list_head *head)
{
	const struct list_head *p;
	unsigned int n = 0;
	bool found = false;

	rcu_read_lock();
	for (p = rcu_dereference(list_next_rcu(&THIS_MODULE->list));
	     p != &THIS_MODULE->list && n < 100000;
	     p = rcu_dereference(list_next_rcu(p)), n++) {
		if (p == head) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * The one node of this module's list that lies inside the kernel image,
 * or 0.  Every other node is the list member of a struct module, which
 * lives in module memory, forming or not; the head, "modules", is a
 * variable of the image's .data, which the bounds hold whole.  Two nodes
 * inside (or none) mean the bounds are wrong, and nothing is taken.
 */
static unsigned long kreloc_list_node_in_image(void)
{
	const struct list_head *p;
	unsigned long head = 0;
	unsigned int n = 0, inside = 0;
	u64 start, end;

	if (!kreloc_core_image_bounds(&start, &end))
		return 0;
	rcu_read_lock();
	for (p = rcu_dereference(list_next_rcu(&THIS_MODULE->list));
	     p != &THIS_MODULE->list && n < 100000;
	     p = rcu_dereference(list_next_rcu(p)), n++) {
		if ((unsigned long)p >= start && (unsigned long)p < end) {
			head = (unsigned long)p;
			inside++;
		}
	}
	rcu_read_unlock();
	return inside == 1 ? head : 0;
}

/*
 * Find the head of the kernel's module list (kernel/module/main.c
 * "modules") exactly, or not at all:
 *   - kallsyms has it where it lists data symbols (KALLSYMS_ALL), and
 *     sprint_symbol() must then say "modules+0x0/..." of vmlinux;
 *   - else the link-time data may have it (a System.map), and on an
 *     architecture that moves the image by one delta it sits at the linked
 *     address plus the published offset;
 *   - else it is the one node of this module's list inside a stretch of
 *     the kernel image that holds all of .data, where "modules" is
 *     (kreloc_core_image_bounds(): the published offset, and the arch's
 *     answer or the link-time sections), which is what Debian's arm64 and
 *     ppc64el 6.1 need: no KALLSYMS_ALL, and a placeholder System.map.
 * Any way, walking the list from this module must reach it.  Guessing
 * (e.g. the one node no module's memory holds: __module_address() also
 * says "no module" for a module still forming) is not good enough, because
 * the scan would walk from a wrong head.
 */
static bool kreloc_find_module_list(void)
{
	const struct kreloc_linked *l = kreloc_linked_get();
	const char *force = kreloc_hook_module_list();
	unsigned long head = 0;
	const char *how = "kallsyms";
	char *buf;
	u64 off;

	if (!force)
		head = kreloc_ksym_lookup("modules");
	if (head) {
		buf = kreloc_zalloc(KSYM_SYMBOL_LEN);
		if (!buf)
			return false;
		sprint_symbol(buf, head);
		if (strncmp(buf, "modules+0x0/", 12) || strchr(buf, '['))
			head = 0;
		kfree(buf);
	}
	if (!head && !force && l->have_modules && kreloc_arch_single_delta() &&
	    kreloc_core_kernel_offset(&off)) {
		head = l->modules + off;
		how = "linked";
	}
	if (!head) {
		head = kreloc_list_node_in_image();
		how = "image";
	}
	if (!head || !kreloc_list_reaches((void *)head))
		return false;
	kreloc_module_list = (struct list_head *)head;
	kreloc_module_list_how = how;
	return true;
}

const char *kreloc_modules_list_source(void)
{
	return kreloc_module_list_how;
}

/*
 * Record the modules that were live before kreloc, each under its own name
 * and with numbers it cannot lose while they are read.
 *
 * try_module_get() would not do: a module whose ->init fails, and one
 * removed with rmmod -f (CONFIG_MODULE_FORCE_UNLOAD), are freed whatever
 * their reference count.  What holds instead (kernel/module/main.c of
 * v5.10, v6.1, v6.12 and v7.x alike):
 *   - every path that frees a module that ever was LIVE, delete_module()
 *     (forced or not; it requires LIVE), first sets it GOING and then
 *     calls the GOING notifiers, free_module() only after them;
 *   - kreloc's notifier is registered before the scan, and its GOING
 *     handler takes kreloc_mod_lock (and kreloc_event_lock before it),
 *     which the scan holds throughout; so a
 *     module the scan saw LIVE cannot be freed, nor its sect_attrs torn
 *     down (mod_sysfs_teardown() in free_module()), until the scan is done;
 *   - the state is set GOING before the notifier chain runs (and the chain
 *     runs under the notifier rwsem that register_module_notifier() also
 *     takes): a GOING chain that began before kreloc registered has
 *     finished, and its GOING is visible, by the time the scan looks.
 *     So LIVE seen under kreloc_mod_lock means kreloc's GOING handler has
 *     not yet run for that module, and will wait for the lock.
 * The module stays on the list too (list_del_rcu() is in free_module()), so
 * the walk can leave RCU to read it and resume from its node.
 *
 * A module the notifier has recorded already is skipped: the notifier
 * was registered in ->init, the scan runs later in the setup work, and a
 * module loaded in between is on the list too.  So is kreloc itself, which
 * may be LIVE by then: the notifier sees its own LIVE (registered before
 * it) and records it whole, init regions included, whatever the timing.
 *
 * COMING modules are skipped.  One can be freed without any GOING
 * notification to kreloc: when an earlier COMING notifier fails,
 * blocking_notifier_call_chain_robust() sends GOING only to the notifiers
 * that saw COMING, and load_module() then frees it (bug_cleanup); and its
 * sect_attrs can be torn down while it is still COMING (sysfs_cleanup).
 * If it goes LIVE, kreloc_mod_live() records it then, init regions and
 * all (they are released only after the LIVE notifiers).  UNFORMED and
 * GOING modules are skipped for the same reasons.
 *
 * Only the core regions of a scanned module are recorded: a module that
 * went LIVE just before kreloc registered may be releasing its init
 * regions at this very moment (do_init_module() after the LIVE chain).
 *
 * Return: 0, or -ENOMEM (nothing recorded then).
 */
static int kreloc_scan_modules(void)
{
	struct module *mod = list_entry(kreloc_module_list, struct module, list);
	struct kreloc_mrec *rec, *tmp, *first = NULL;
	LIST_HEAD(found);
	bool live;
	int ret = 0;

	mutex_lock(&kreloc_event_lock);
	kreloc_tell_begin(NULL);
	mutex_lock(&kreloc_mod_lock);
	for (;;) {
		live = false;
		rcu_read_lock();
		list_for_each_entry_continue_rcu(mod, kreloc_module_list, list) {
			/* kreloc itself: its own LIVE notification records it. */
			live = mod != THIS_MODULE &&
			       READ_ONCE(mod->state) == MODULE_STATE_LIVE;
			if (live)
				break;
			kreloc_hook_scan(mod->name, false);
		}
		rcu_read_unlock();
		if (!live)
			break;
		/*
		 * Recorded already: it was loaded after kreloc's notifier was
		 * registered, and its COMING or LIVE came before the scan.
		 */
		if (kreloc_find_live(mod)) {
			kreloc_hook_scan(mod->name, false);
			continue;
		}
		/* Pinned by kreloc_mod_lock from here on (see above). */
		kreloc_hook_scan(mod->name, true);
		rec = kreloc_mrec_new(mod, false);
		if (!rec) {
			ret = -ENOMEM;
			break;
		}
		rec->state = KRELOC_M_LIVE;
		rec->init_freed = true;
		rec->nr_sects = kreloc_modsect_copy(mod, &rec->sects);
		if (rec->nr_sects == -ENOMEM) {
			kreloc_mrec_free(rec);
			ret = -ENOMEM;
			break;
		}
		rec->build_id_len = kreloc_modsect_build_id(rec->sects, rec->nr_sects,
							    rec->build_id);
		/* The kernel's list is newest first: record oldest first. */
		list_add(&rec->node, &found);
	}
	list_for_each_entry_safe(rec, tmp, &found, node) {
		if (ret) {
			list_del(&rec->node);
			kreloc_mrec_free(rec);
			continue;
		}
		rec->load_gen = ++kreloc_gen;
		first = first ?: rec;
		list_move_tail(&rec->node, &kreloc_live);
	}
	mutex_unlock(&kreloc_mod_lock);
	/* The live list changes only under kreloc_event_lock, held here. */
	rec = first;
	if (rec)
		list_for_each_entry_from(rec, &kreloc_live, node)
			kreloc_tell_added(rec->name, rec->load_gen);
	kreloc_tell_end();
	mutex_unlock(&kreloc_event_lock);
	kreloc_hook_scan_done();
	return ret;
}

int kreloc_modules_check_params(void)
{
	if (history > KRELOC_HISTORY_LIMIT) {
		pr_err("history=%u: at most %u\n", history, KRELOC_HISTORY_LIMIT);
		return -EINVAL;
	}
	return 0;
}

/*
 * Start recording: the notifier, which needs nothing of the kernel's
 * symbols.  The modules that were there before it are recorded by
 * kreloc_modules_scan().
 */
int kreloc_modules_init(void)
{
	struct kreloc_stamp freed;
	int ret;

	kreloc_stamp_now(&kreloc_since);
	kreloc_stamp_init_freed(&freed);
	ret = register_module_notifier(&kreloc_mod_nb);
	if (!ret)
		kreloc_hook_mark("register_module_notifier");
	return ret;
}

/*
 * Record the modules loaded before kreloc_modules_init(), once the core
 * kernel's relocation is known (the list head may be found through it).
 * Return: 0 or -ENOMEM (nothing recorded then).
 */
int kreloc_modules_scan(void)
{
	int ret;

	if (!kreloc_find_module_list()) {
		pr_warn("kernel module list not found exactly: modules loaded before kreloc are not recorded\n");
		return 0;
	}
	kreloc_hook_mark("module list head");
	ret = kreloc_scan_modules();
	kreloc_hook_mark("module scan");
	return ret;
}

void kreloc_modules_listen(const struct kreloc_modules_listener *l)
{
	struct kreloc_mrec *rec;

	mutex_lock(&kreloc_event_lock);
	kreloc_listener = l;
	if (l) {
		kreloc_tell_begin(NULL);
		/* Every record is news to a new listener. */
		mutex_lock(&kreloc_mod_lock);
		list_for_each_entry(rec, &kreloc_live, node)
			rec->dirty = true;
		list_for_each_entry(rec, &kreloc_history, node)
			rec->dirty = true;
		mutex_unlock(&kreloc_mod_lock);
		/* The lists change only under the event lock, held here. */
		list_for_each_entry(rec, &kreloc_live, node)
			kreloc_tell_added(rec->name, rec->load_gen);
		list_for_each_entry(rec, &kreloc_history, node)
			kreloc_tell_added(rec->name, rec->load_gen);
		kreloc_tell_end();
	}
	mutex_unlock(&kreloc_event_lock);
}

unsigned int kreloc_modules_count(void)
{
	const struct kreloc_mrec *rec;
	unsigned int n;

	mutex_lock(&kreloc_mod_lock);
	n = kreloc_nr_history;
	list_for_each_entry(rec, &kreloc_live, node)
		n++;
	mutex_unlock(&kreloc_mod_lock);
	return n;
}

unsigned int kreloc_modules_unrecorded(void)
{
	return atomic_read(&kreloc_modules_lost);
}

void kreloc_modules_exit(void)
{
	struct kreloc_mrec *rec, *tmp;

	unregister_module_notifier(&kreloc_mod_nb);
	cancel_delayed_work_sync(&kreloc_reap_work);
	mutex_lock(&kreloc_mod_lock);
	list_for_each_entry_safe(rec, tmp, &kreloc_live, node) {
		list_del(&rec->node);
		kreloc_mrec_free(rec);
	}
	list_for_each_entry_safe(rec, tmp, &kreloc_history, node) {
		list_del(&rec->node);
		kreloc_mrec_free(rec);
	}
	kreloc_nr_history = 0;
	mutex_unlock(&kreloc_mod_lock);
}

void kreloc_modules_for_each(kreloc_mrec_fn fn, void *data)
{
	const struct kreloc_mrec *rec;

	mutex_lock(&kreloc_mod_lock);
	list_for_each_entry(rec, &kreloc_live, node)
		fn(rec, data);
	list_for_each_entry(rec, &kreloc_history, node)
		fn(rec, data);
	mutex_unlock(&kreloc_mod_lock);
}

int kreloc_mrec_region_of(const struct kreloc_mrec *rec, unsigned long addr)
{
	int r;

	for (r = 0; r < KRELOC_NR_REGIONS; r++)
		if (rec->regions[r].size && addr >= rec->regions[r].base &&
		    addr - rec->regions[r].base < rec->regions[r].size)
			return r;
	return -1;
}

const char *kreloc_mrec_mem_state(const struct kreloc_mrec *rec, int region)
{
	if (rec->state == KRELOC_M_GONE)
		return "gone";
	if (region >= 0 && kreloc_region_is_init(region) && rec->init_freed)
		return "freed";
	/*
	 * Outside every recorded region: init memory of a module that was
	 * loaded and initialised before kreloc (its init regions were never
	 * seen).  Per-CPU data has its own area and lives on.
	 */
	if (region < 0 && rec->init_freed && !rec->init_seen)
		return "freed";
	return "live";
}

/* The record @spec names.  Caller holds kreloc_mod_lock. */
static const struct kreloc_mrec *kreloc_find_spec(const char *spec)
{
	const struct kreloc_mrec *rec, *found = NULL;
	char name[MODULE_NAME_LEN];
	const char *at = strchr(spec, '@');
	unsigned long long gen = 0;
	size_t len = at ? at - spec : strlen(spec);

	if (len >= sizeof(name) || (at && kstrtoull(at + 1, 10, &gen)))
		return NULL;
	memcpy(name, spec, len);
	name[len] = '\0';
	/* Newest first: the live list, then the history from its end. */
	list_for_each_entry(rec, &kreloc_live, node)
		if (!strcmp(rec->name, name) && (!at || rec->load_gen == gen))
			found = rec;
	if (found)
		return found;
	list_for_each_entry_reverse(rec, &kreloc_history, node)
		if (!strcmp(rec->name, name) && (!at || rec->load_gen == gen))
			return rec;
	return NULL;
}

int kreloc_modules_with(const char *spec, kreloc_mrec_fn fn, void *data)
{
	const struct kreloc_mrec *rec;

	mutex_lock(&kreloc_mod_lock);
	rec = kreloc_find_spec(spec);
	if (rec)
		fn(rec, data);
	mutex_unlock(&kreloc_mod_lock);
	return rec ? 0 : -ENOENT;
}

/**
 * kreloc_modules_region_of() - which loaded module region holds an address
 * @addr:	runtime address
 *
 * A module's freed init regions no longer hold it: a module loaded later
 * may sit in that memory (seen on arm64: dummy's text where vfat's
 * init.text had been), so only live regions count.
 *
 * Return: the region name ("text", "init.text", ...) or NULL.
 */
const char *kreloc_modules_region_of(unsigned long addr)
{
	const struct kreloc_mrec *rec;
	const char *type = NULL;
	int r;

	mutex_lock(&kreloc_mod_lock);
	list_for_each_entry(rec, &kreloc_live, node) {
		for (r = 0; r < KRELOC_NR_REGIONS && !type; r++)
			if (rec->regions[r].size && addr >= rec->regions[r].base &&
			    addr - rec->regions[r].base < rec->regions[r].size &&
			    !(kreloc_region_is_init(r) && rec->init_freed))
				type = kreloc_region_names[r];
		if (type)
			break;
	}
	mutex_unlock(&kreloc_mod_lock);
	return type;
}
