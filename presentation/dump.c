// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc's records where a crash dump carries them: the text of info,
 * sections, anchors and of every module record, in memory that a reader of
 * an ELF vmcore (QEMU's dump-guest-memory, /proc/vmcore, makedumpfile -E)
 * finds without kreloc.ko's debug info.  The layout is lib/kreloc_dump.h;
 * Documentation/vmcore.md says why it is so and not in VMCOREINFO.
 *
 * One descriptor, page-aligned in the direct map (a kmalloc() of
 * PAGE_SIZE is aligned to it), points by physical address to a table of
 * slots, and each slot to a blob: a header with a crc, then the text the
 * debugfs files show.  A blob is written whole before a slot points to it
 * (smp_store_release()) and never changed after; the blob it replaces is
 * freed once no slot points to it.  So wherever the kernel stops, each
 * slot of the dump holds a whole blob, the one before the change or the
 * one after, never a half-written one.  begin() and end() of a module
 * event raise and clear desc->busy, so a reader knows when the crash hit
 * while kreloc was recording one and which module it was about.  Slot 0
 * holds info, 1 sections, 2 anchors (written once kreloc's setup is done),
 * the others a record each.
 *
 * The module events come from state/modules.c through the presentation's
 * listener (debugfs.c), with the modules' event lock held; the setup's end
 * from kreloc_main.c.  kreloc_dump_lock orders them; it is taken after the
 * event lock and before the records' lock.  The panic notifier takes no
 * lock: it writes two stamps and a flag, each a single store.
 *
 * Memory: a blob per record (its text, a few KB at most: about 50 bytes
 * per section), a table of 8 bytes per record, replaced by one twice its
 * size when full.  An allocation that fails leaves the record out of the
 * dump, never a stale version of it in: at the end of each event
 * desc->unpublished says how many records kreloc has that the dump does
 * not, and a reader says so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "base/base.h"
#include "compat/compat.h"
#include "kreloc_arch/arch.h"
#include "state/state.h"
#include "presentation/presentation.h"
#include "lib/kreloc_dump.h"
#include "base/hooks.h"

/* Slots of the core kernel's text; records take the others. */
enum { KRELOC_SLOT_INFO, KRELOC_SLOT_SECTIONS, KRELOC_SLOT_ANCHORS, KRELOC_SLOTS_CORE };

#define KRELOC_DUMP_FIRST_SLOTS	64
/* The text of a blob is formatted here first, then copied at its size. */
#define KRELOC_DUMP_SCRATCH	4096

/* What this side knows of a slot. */
struct kreloc_dslot {
	struct kreloc_dump_blob *blob;	/* NULL: empty */
	u64 load_gen;			/* of the record; 0 for none */
};

static DEFINE_MUTEX(kreloc_dump_lock);
static struct kreloc_dump_desc *kreloc_desc;
static struct kreloc_dump_table *kreloc_table;
static struct kreloc_dslot *kreloc_dslots;
static const struct kreloc_core *kreloc_dump_core;
static char *kreloc_scratch;
static size_t kreloc_scratch_len;
/* What the published info said: it is written again when one changes. */
static u64 kreloc_info_gen = U64_MAX;
static unsigned int kreloc_info_unrecorded;
static bool kreloc_info_init_freed;

static u32 kreloc_crc(const void *head, size_t head_len, const void *tail, size_t tail_len)
{
	u32 crc = crc32_le(~0U, head, head_len);

	return crc32_le(crc, tail, tail_len) ^ ~0U;
}

static u64 *kreloc_slot_words(struct kreloc_dump_table *t)
{
	return (u64 *)(t + 1);
}

/*
 * Format with @show into the scratch buffer, grown until the text fits;
 * then a blob of the text's size.  Caller holds kreloc_dump_lock.
 * Return: the blob, or NULL (out of memory, or larger than a reader takes).
 */
static struct kreloc_dump_blob *kreloc_blob_new(u16 type, int (*show)(struct seq_file *m, void *v),
						void *priv)
{
	struct kreloc_dump_blob *b;
	struct seq_file m;

	for (;;) {
		if (!kreloc_scratch) {
			kreloc_scratch = kreloc_zalloc(kreloc_scratch_len);
			if (!kreloc_scratch)
				return NULL;
		}
		memset(&m, 0, sizeof(m));
		m.buf = kreloc_scratch;
		m.size = kreloc_scratch_len;
		m.private = priv;
		if (show(&m, priv) < 0)
			return NULL;
		if (!seq_has_overflowed(&m))
			break;
		if (kreloc_scratch_len >= KRELOC_DUMP_BLOB_MAX)
			return NULL;
		kfree(kreloc_scratch);
		kreloc_scratch = NULL;
		kreloc_scratch_len *= 2;
	}
	b = kreloc_zalloc(sizeof(*b) + m.count);
	if (!b)
		return NULL;
	memcpy(b + 1, kreloc_scratch, m.count);
	b->magic = KRELOC_DUMP_BLOB_MAGIC;
	b->type = type;
	b->self = virt_to_phys(b);
	b->generation = kreloc_modules_generation();
	b->len = m.count;
	return b;
}

static void kreloc_blob_seal(struct kreloc_dump_blob *b)
{
	b->crc = kreloc_crc(b, KRELOC_DUMP_BLOB_CRC_LEN, b + 1, b->len);
}

/*
 * Point slot @i at @b (NULL: empty it) and free the blob it held.  @b is
 * whole before the slot points to it.  Caller holds kreloc_dump_lock.
 */
static void kreloc_slot_set(u32 i, struct kreloc_dump_blob *b, u64 load_gen)
{
	struct kreloc_dump_blob *old = kreloc_dslots[i].blob;

	/* The blob's bytes are in memory before the slot points to them. */
	smp_store_release(&kreloc_slot_words(kreloc_table)[i], b ? (u64)virt_to_phys(b) : 0);
	kreloc_dslots[i].blob = b;
	kreloc_dslots[i].load_gen = b ? load_gen : 0;
	kfree(old);
}

static struct kreloc_dump_table *kreloc_table_new(u32 nr)
{
	struct kreloc_dump_table *t = kreloc_zalloc(sizeof(*t) + nr * sizeof(u64));

	if (!t)
		return NULL;
	t->magic = KRELOC_DUMP_TABLE_MAGIC;
	t->nr_slots = nr;
	t->self = virt_to_phys(t);
	t->crc = kreloc_crc(t, KRELOC_DUMP_TABLE_CRC_LEN, NULL, 0);
	return t;
}

/*
 * A slot for a record: the one it has, a free one, or one of a table twice
 * the size, which replaces the old one whole.  Caller holds
 * kreloc_dump_lock.  Return: the slot, or 0 (none: out of memory).
 */
static u32 kreloc_slot_for(u64 load_gen)
{
	u32 i, nr = kreloc_table->nr_slots, free = 0;
	struct kreloc_dump_table *t, *old = kreloc_table;
	struct kreloc_dslot *s;

	for (i = KRELOC_SLOTS_CORE; i < nr; i++) {
		if (kreloc_dslots[i].blob && kreloc_dslots[i].load_gen == load_gen)
			return i;
		if (!kreloc_dslots[i].blob && !free)
			free = i;
	}
	if (free)
		return free;
	t = kreloc_table_new(nr * 2);
	s = kreloc_zalloc_array(nr * 2, sizeof(*s));
	if (!t || !s) {
		kfree(t);
		kfree(s);
		return 0;
	}
	memcpy(kreloc_slot_words(t), kreloc_slot_words(old), nr * sizeof(u64));
	memcpy(s, kreloc_dslots, nr * sizeof(*s));
	/* Every slot of the new table is set before the descriptor names it. */
	smp_store_release(&kreloc_desc->table, (u64)virt_to_phys(t));
	kreloc_table = t;
	kfree(kreloc_dslots);
	kreloc_dslots = s;
	memzero_explicit(old, sizeof(*old));
	kfree(old);
	return nr;
}

/* The record's slot, or 0.  Caller holds kreloc_dump_lock. */
static u32 kreloc_slot_of(u64 load_gen)
{
	u32 i;

	for (i = KRELOC_SLOTS_CORE; i < kreloc_table->nr_slots; i++)
		if (kreloc_dslots[i].blob && kreloc_dslots[i].load_gen == load_gen)
			return i;
	return 0;
}

/* What one record's blob is made of, under the records' lock. */
struct kreloc_rec_text {
	struct seq_file *m;
	u16 list;
	u64 key;
};

static void kreloc_rec_show(const struct kreloc_mrec *rec, void *data)
{
	struct kreloc_rec_text *t = data;

	kreloc_show_rec_line(rec, t->m);
	kreloc_show_rec(rec, t->m);
	if (rec->state == KRELOC_M_COMING || rec->state == KRELOC_M_LIVE) {
		t->list = KRELOC_DUMP_LIVE;
		t->key = rec->load_gen;
	} else {
		t->list = KRELOC_DUMP_HISTORY;
		t->key = rec->unload_gen;
	}
}

struct kreloc_rec_spec {
	char spec[MODULE_NAME_LEN + 24];
	struct kreloc_rec_text t;
	int err;		/* -ENOENT: no such record (any more) */
};

static int kreloc_rec_blob_show(struct seq_file *m, void *v)
{
	struct kreloc_rec_spec *r = v;

	r->t.m = m;
	r->err = kreloc_modules_with(r->spec, kreloc_rec_show, &r->t);
	return r->err;
}

/**
 * kreloc_dump_changed() - publish a record's text anew
 * @name:	its module's name
 * @load_gen:	its LOAD_GEN
 *
 * Called by the modules' listener, with their event lock held.
 */
void kreloc_dump_changed(const char *name, u64 load_gen)
{
	struct kreloc_dump_blob *b;
	struct kreloc_rec_spec r = {};
	u32 i;

	snprintf(r.spec, sizeof(r.spec), "%s@%llu", name, load_gen);
	mutex_lock(&kreloc_dump_lock);
	kreloc_hook_dump_changed(name);
	if (!kreloc_desc)
		goto out;
	b = kreloc_blob_new(KRELOC_DUMP_RECORD, kreloc_rec_blob_show, &r);
	i = b ? kreloc_slot_for(load_gen) : kreloc_slot_of(load_gen);
	if (b && i) {
		b->list = r.t.list;
		b->key = r.t.key;
		kreloc_blob_seal(b);
		kreloc_slot_set(i, b, load_gen);
		goto out;
	}
	/* Out of memory: no version of the record rather than an old one. */
	kfree(b);
	if (i)
		kreloc_slot_set(i, NULL, 0);
	if (r.err != -ENOENT)
		pr_warn_ratelimited("out of memory: the record of %s is left out of crash dumps\n",
				    name);
out:
	mutex_unlock(&kreloc_dump_lock);
}

/**
 * kreloc_dump_dropped() - a record left the history: its blob goes
 * @name:	its module's name
 * @load_gen:	its LOAD_GEN
 */
void kreloc_dump_dropped(const char *name, u64 load_gen)
{
	u32 i;

	mutex_lock(&kreloc_dump_lock);
	if (kreloc_desc) {
		i = kreloc_slot_of(load_gen);
		if (i)
			kreloc_slot_set(i, NULL, 0);
	}
	mutex_unlock(&kreloc_dump_lock);
}

/**
 * kreloc_dump_begin() - a module event begins: the records may change
 * @name:	the module it is about, NULL for several
 */
void kreloc_dump_begin(const char *name)
{
	mutex_lock(&kreloc_dump_lock);
	if (kreloc_desc) {
		strscpy(kreloc_desc->busy_name, name ?: "", sizeof(kreloc_desc->busy_name));
		/* The name is whole before busy says to read it. */
		smp_store_release(&kreloc_desc->busy, 1);
	}
	mutex_unlock(&kreloc_dump_lock);
}

/* Publish core text into slot @i.  Caller holds kreloc_dump_lock. */
static bool kreloc_core_blob(u32 i, u16 type, int (*show)(struct seq_file *m, void *v))
{
	struct kreloc_dump_blob *b = kreloc_blob_new(type, show, (void *)kreloc_dump_core);

	if (!b)
		return false;
	kreloc_blob_seal(b);
	kreloc_slot_set(i, b, 0);
	return true;
}

/*
 * info and sections again if what they show of the module events changed
 * (GENERATION, MODULES_UNRECORDED, the core kernel's init freed); if that
 * fails, the old ones stay, and it is tried again at the next event:
 * desc->generation is the reader's GENERATION.  anchors, written once,
 * too if it could not be.  Caller holds kreloc_dump_lock.
 */
static void kreloc_refresh_info(void)
{
	u64 gen = kreloc_modules_generation();
	unsigned int lost = kreloc_modules_unrecorded();
	bool freed = kreloc_init_freed();

	if (!kreloc_dump_core)
		return;
	if (!kreloc_dslots[KRELOC_SLOT_ANCHORS].blob)
		kreloc_core_blob(KRELOC_SLOT_ANCHORS, KRELOC_DUMP_ANCHORS, kreloc_anchors_show);
	if (gen == kreloc_info_gen && lost == kreloc_info_unrecorded &&
	    freed == kreloc_info_init_freed)
		return;
	if (!kreloc_core_blob(KRELOC_SLOT_INFO, KRELOC_DUMP_INFO, kreloc_info_show) ||
	    !kreloc_core_blob(KRELOC_SLOT_SECTIONS, KRELOC_DUMP_SECTIONS, kreloc_sections_show))
		return;
	kreloc_info_gen = gen;
	kreloc_info_unrecorded = lost;
	kreloc_info_init_freed = freed;
}

/* Records kreloc has and the dump has not.  Caller holds kreloc_dump_lock. */
static u32 kreloc_unpublished(void)
{
	unsigned int n = kreloc_modules_count();
	u32 i;

	for (i = KRELOC_SLOTS_CORE; i < kreloc_table->nr_slots && n; i++)
		n -= !!kreloc_dslots[i].blob;
	return n;
}

/**
 * kreloc_dump_end() - a module event has been told whole
 */
void kreloc_dump_end(void)
{
	mutex_lock(&kreloc_dump_lock);
	if (kreloc_desc) {
		kreloc_refresh_info();
		WRITE_ONCE(kreloc_desc->unpublished, kreloc_unpublished());
		WRITE_ONCE(kreloc_desc->generation, kreloc_modules_generation());
		/* The event's blobs and generation are in before busy clears. */
		smp_store_release(&kreloc_desc->busy, 0);
	}
	mutex_unlock(&kreloc_dump_lock);
}

/**
 * kreloc_dump_setup_done() - kreloc's setup has ended
 * @core:	the core kernel's relocation, valid if @err is 0
 * @err:	0 or the errno the setup failed with (a reader reports it)
 *
 * Out of memory here, the core kernel's text is written at a later event.
 */
void kreloc_dump_setup_done(const struct kreloc_core *core, int err)
{
	mutex_lock(&kreloc_dump_lock);
	if (kreloc_desc) {
		if (!err) {
			kreloc_dump_core = core;
			kreloc_refresh_info();
			if (!kreloc_dslots[KRELOC_SLOT_INFO].blob ||
			    !kreloc_dslots[KRELOC_SLOT_SECTIONS].blob ||
			    !kreloc_dslots[KRELOC_SLOT_ANCHORS].blob)
				pr_warn("out of memory: crash dumps hold the core kernel's relocation only after the next module event\n");
		}
		WRITE_ONCE(kreloc_desc->generation, kreloc_modules_generation());
		/* The core kernel's blobs are in before setup says so. */
		smp_store_release(&kreloc_desc->setup, err);
	}
	mutex_unlock(&kreloc_dump_lock);
}

/* When the kernel panicked: the time a snapshot from its dump was taken. */
static int kreloc_dump_panic(struct notifier_block *nb, unsigned long action, void *data)
{
	/* Pairs with kreloc_dump_init()'s release. */
	struct kreloc_dump_desc *d = smp_load_acquire(&kreloc_desc);
	struct kreloc_stamp now;

	if (!d)
		return NOTIFY_DONE;
	kreloc_stamp_now_atomic(&now);
	WRITE_ONCE(d->panic_ns[0], now.ns[KRELOC_CLOCK_LOCAL]);
	WRITE_ONCE(d->panic_ns[1], now.ns[KRELOC_CLOCK_MONO]);
	/* The stamps are in before the flag that says they are. */
	smp_store_release(&d->panicked, 1);
	return NOTIFY_DONE;
}

static struct notifier_block kreloc_dump_panic_nb = {
	.notifier_call = kreloc_dump_panic,
};

/**
 * kreloc_dump_init() - the descriptor and an empty table
 *
 * Before the listener is set: module records are published from then on.
 *
 * Return: 0 or -ENOMEM.
 */
int kreloc_dump_init(void)
{
	struct kreloc_dump_desc *d;
	int ret;

	BUILD_BUG_ON(offsetof(struct kreloc_dump_desc, crc) != KRELOC_DUMP_DESC_CRC_LEN);
	BUILD_BUG_ON(offsetof(struct kreloc_dump_table, crc) != KRELOC_DUMP_TABLE_CRC_LEN);
	BUILD_BUG_ON(offsetof(struct kreloc_dump_blob, crc) != KRELOC_DUMP_BLOB_CRC_LEN);
	BUILD_BUG_ON(sizeof(struct kreloc_dump_table) % sizeof(u64));
	BUILD_BUG_ON(sizeof(struct kreloc_dump_desc) > PAGE_SIZE);
	BUILD_BUG_ON(KRELOC_DUMP_NAME_LEN < MODULE_NAME_LEN);

	/* kmalloc() of a power of two is aligned to it: a page here. */
	d = kreloc_zalloc(PAGE_SIZE);
	kreloc_table = kreloc_table_new(KRELOC_DUMP_FIRST_SLOTS);
	kreloc_dslots = kreloc_zalloc_array(KRELOC_DUMP_FIRST_SLOTS, sizeof(*kreloc_dslots));
	if (!d || !kreloc_table || !kreloc_dslots) {
		ret = -ENOMEM;
		goto fail;
	}
	memcpy(d->magic, KRELOC_DUMP_MAGIC, KRELOC_DUMP_MAGIC_LEN);
	d->version = KRELOC_DUMP_VERSION;
	d->byte_order = KRELOC_DUMP_BYTE_ORDER;
	d->word_size = sizeof(long);
	d->flags = kreloc_arch_dot_symbols() ? KRELOC_DUMP_F_DOT_SYMBOLS : 0;
	d->self = virt_to_phys(d);
	d->crc = kreloc_crc(d, KRELOC_DUMP_DESC_CRC_LEN, NULL, 0);
	d->table = virt_to_phys(kreloc_table);
	d->setup = KRELOC_DUMP_SETUP_RUNNING;
	kreloc_scratch_len = KRELOC_DUMP_SCRATCH;
	ret = kreloc_compat_panic_notifier(&kreloc_dump_panic_nb, true);
	if (ret)
		goto fail;
	mutex_lock(&kreloc_dump_lock);
	/* The panic notifier sees a whole descriptor or none. */
	smp_store_release(&kreloc_desc, d);
	mutex_unlock(&kreloc_dump_lock);
	return 0;
fail:
	kfree(d);
	kfree(kreloc_table);
	kfree(kreloc_dslots);
	kreloc_table = NULL;
	kreloc_dslots = NULL;
	return ret;
}

/**
 * kreloc_dump_exit() - take it all back: a dump taken later finds nothing
 *
 * After the listener is gone.  The descriptor is wiped before it is freed:
 * its magic, address and crc would still be found valid in free memory.
 */
void kreloc_dump_exit(void)
{
	u32 i;

	if (!kreloc_desc)
		return;
	kreloc_compat_panic_notifier(&kreloc_dump_panic_nb, false);
	mutex_lock(&kreloc_dump_lock);
	memzero_explicit(kreloc_desc, sizeof(*kreloc_desc));
	kfree(kreloc_desc);
	kreloc_desc = NULL;
	for (i = 0; i < kreloc_table->nr_slots; i++)
		kfree(kreloc_dslots[i].blob);
	memzero_explicit(kreloc_table, sizeof(*kreloc_table));
	kfree(kreloc_table);
	kfree(kreloc_dslots);
	kfree(kreloc_scratch);
	kreloc_table = NULL;
	kreloc_dslots = NULL;
	kreloc_scratch = NULL;
	kreloc_dump_core = NULL;
	kreloc_info_gen = U64_MAX;
	mutex_unlock(&kreloc_dump_lock);
}
