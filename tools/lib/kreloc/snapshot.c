// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* snapshot.c - the public snapshot API: reading, writing and asking a snapshot. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "debugfs.h"
#include "kdbg.h"
#include "kplace.h"
#include "snapshot.h"

/* Copy what fits of a filled info struct into the caller's (sz bytes). */
void kr_copy_info(void *dst, size_t sz, const void *src, size_t size)
{
	if (sz > size) {
		memset((char *)dst + size, 0, sz - size);
		sz = size;
	}
	memcpy(dst, src, sz);
}

struct kreloc_snapshot *kr_snap_new(void)
{
	struct kreloc_snapshot *s = calloc(1, sizeof(*s));

	if (s)
		atomic_init(&s->refs, 1);
	return s;
}

void kr_snap_get(const struct kreloc_snapshot *snap)
{
	/* The count is bookkeeping, not the snapshot a const pointer protects. */
	atomic_fetch_add(&((struct kreloc_snapshot *)snap)->refs, 1);
}

void kr_snap_put(const struct kreloc_snapshot *snap)
{
	struct kreloc_snapshot *s = (struct kreloc_snapshot *)snap;

	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	ksnap_free(&s->s);
	free(s);
}

KRELOC_API int kreloc_snapshot_load(const char *path, struct kreloc_snapshot **snap)
{
	char err[KR_ERR_MAX];
	struct kreloc_snapshot *s;
	int ret;

	if (!snap)
		return kr_null(__func__, "snap");
	*snap = NULL;
	if (!path)
		return kr_null(__func__, "path");
	s = kr_snap_new();
	if (!s)
		return kr_fail(ENOMEM, "out of memory");
	ret = ksnap_load(&s->s, path, err, sizeof(err));
	if (ret) {
		free(s);
		return kr_fail_msg(-ret, err);
	}
	*snap = s;
	kr_ok();
	return 0;
}

KRELOC_API int kreloc_snapshot_read(FILE *f, const char *name, struct kreloc_snapshot **snap)
{
	char err[KR_ERR_MAX];
	struct kreloc_snapshot *s;
	int ret;

	if (!snap)
		return kr_null(__func__, "snap");
	*snap = NULL;
	if (!f)
		return kr_null(__func__, "f");
	s = kr_snap_new();
	if (!s)
		return kr_fail(ENOMEM, "out of memory");
	ret = ksnap_read(&s->s, f, name ? name : "snapshot", err, sizeof(err));
	if (ret) {
		free(s);
		return kr_fail_msg(-ret, err);
	}
	*snap = s;
	kr_ok();
	return 0;
}

KRELOC_API int kreloc_snapshot_live(const char *root, struct kreloc_snapshot **snap)
{
	char err[KR_ERR_MAX];
	struct kreloc_snapshot *s;
	int ret;

	if (!snap)
		return kr_null(__func__, "snap");
	*snap = NULL;
	s = kr_snap_new();
	if (!s)
		return kr_fail(ENOMEM, "out of memory");
	ret = kreloc_live(&s->s, root, err, sizeof(err));
	if (ret) {
		free(s);
		return kr_fail_msg(-ret, err);
	}
	*snap = s;
	kr_ok();
	return 0;
}

KRELOC_API int kreloc_snapshot_write(const struct kreloc_snapshot *snap, FILE *f)
{
	if (!snap || !f)
		return kr_null(__func__, !snap ? "snap" : "f");
	errno = 0;
	if (ksnap_write(&snap->s, f)) {
		int e = errno ? errno : EIO;

		return kr_fail(e, "%s", strerror(e));
	}
	kr_ok();
	return 0;
}

KRELOC_API void kreloc_snapshot_free(struct kreloc_snapshot *snap)
{
	kr_snap_put(snap);
}

/* A state string's value: its index in names (0 for none of them). */
static int state_of(const char *state, const char *const *names, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (names[i] && !strcmp(state, names[i]))
			return i;
	return 0;
}

enum kreloc_module_state kr_module_state(const char *state)
{
	static const char *const names[] = {
		[KRELOC_MODULE_STATE_COMING] = "coming", [KRELOC_MODULE_STATE_LIVE] = "live",
		[KRELOC_MODULE_STATE_GOING] = "going", [KRELOC_MODULE_STATE_GONE] = "gone",
	};

	return (enum kreloc_module_state)state_of(state, names, sizeof(names) / sizeof(names[0]));
}

enum kreloc_mem_state kr_mem_state(const char *state)
{
	static const char *const names[] = {
		[KRELOC_MEM_STATE_LIVE] = "live", [KRELOC_MEM_STATE_FREED] = "freed",
		[KRELOC_MEM_STATE_GONE] = "gone",
	};

	return (enum kreloc_mem_state)state_of(state, names, sizeof(names) / sizeof(names[0]));
}

static struct kreloc_value val(const struct kval *v)
{
	struct kreloc_value r = { v->v, v->ok != 0 };

	return r;
}

KRELOC_API int kreloc_snapshot_info(const struct kreloc_snapshot *snap,
				    struct kreloc_snapshot_info *info, size_t sz)
{
	const struct ksnap *s;
	struct kreloc_snapshot_info i;

	if (!snap || !info)
		return kr_null(__func__, !snap ? "snap" : "info");
	s = &snap->s;
	i = (struct kreloc_snapshot_info){
		.format = s->version,
		.osrelease = s->osrelease,
		.arch = s->arch,
		.endian = s->endian ? s->endian : "-",
		.elf_abi = s->abi,
		.build_id = s->build_id,
		.status = s->status,
		.init = s->init,
		.linked_source = s->linked_source,
		.generation = val(&s->generation),
		.kerneloffset = val(&s->kerneloffset),
		.ref_linked = val(&s->ref_linked),
		.ref_runtime = val(&s->ref_runtime),
		.nr_sections = s->nr_core,
		.nr_anchors = s->nr_anchors,
		.nr_modules = s->nr_mods,
		.modules_tracked = !s->no_modules,
	};
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

KRELOC_API int kreloc_snapshot_section(const struct kreloc_snapshot *snap, size_t idx,
				       struct kreloc_section_info *info, size_t sz)
{
	const struct ks_core *c;
	struct kreloc_section_info i;

	if (!snap || !info)
		return kr_null(__func__, !snap ? "snap" : "info");
	if (idx >= snap->s.nr_core)
		return kr_fail(ERANGE, "no core section %zu (the snapshot has %zu)", idx,
			       snap->s.nr_core);
	c = &snap->s.core[idx];
	i.name = c->name;
	i.linked = val(&c->linked);
	i.runtime = val(&c->runtime);
	i.size = val(&c->size);
	i.offset = val(&c->offset);
	i.status = c->status;
	i.usable = ksnap_core_usable(c);
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

KRELOC_API int kreloc_snapshot_anchor(const struct kreloc_snapshot *snap, size_t idx,
				      struct kreloc_anchor_info *info, size_t sz)
{
	struct kreloc_anchor_info i;

	if (!snap || !info)
		return kr_null(__func__, !snap ? "snap" : "info");
	if (idx >= snap->s.nr_anchors)
		return kr_fail(ERANGE, "no anchor %zu (the snapshot has %zu)", idx,
			       snap->s.nr_anchors);
	i.name = snap->s.anchors[idx].name;
	i.linked = snap->s.anchors[idx].linked.v;
	i.section = snap->s.anchors[idx].section;
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

int kr_check_mod(const struct kreloc_snapshot *snap, size_t mod)
{
	if (!snap)
		return kr_fail(EINVAL, "no snapshot (NULL)");
	if (mod >= snap->s.nr_mods)
		return kr_fail(ERANGE, "no module record %zu (the snapshot has %zu)", mod,
			       snap->s.nr_mods);
	return 0;
}

KRELOC_API int kreloc_snapshot_module(const struct kreloc_snapshot *snap, size_t idx,
				      struct kreloc_module_info *info, size_t sz)
{
	const struct ks_mod *m;
	struct kreloc_module_info i;
	int ret = info ? kr_check_mod(snap, idx) : kr_null(__func__, "info");

	if (ret)
		return ret;
	m = &snap->s.mods[idx];
	i.name = m->name;
	i.state = m->state;
	i.build_id = m->build_id;
	i.text_base = val(&m->text_base);
	i.text_size = val(&m->text_size);
	i.load_gen = val(&m->load_gen);
	i.unload_gen = val(&m->unload_gen);
	i.nr_mem = m->nr_mem;
	i.loaded = kdbg_is_loaded(m);
	i.state_code = kr_module_state(m->state);
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

KRELOC_API int kreloc_snapshot_module_mem(const struct kreloc_snapshot *snap, size_t mod,
					  size_t idx, struct kreloc_mem_info *info, size_t sz)
{
	const struct ks_mod *m;
	const struct ks_mem *k;
	struct kreloc_mem_info i;
	int ret = info ? kr_check_mod(snap, mod) : kr_null(__func__, "info");

	if (ret)
		return ret;
	m = &snap->s.mods[mod];
	if (idx >= m->nr_mem)
		return kr_fail(ERANGE, "no region or section %zu in record %s (it has %zu)", idx,
			       m->name, m->nr_mem);
	k = &m->mem[idx];
	i.kind = k->kind == KS_REGION ? KRELOC_MEM_REGION : KRELOC_MEM_SECTION;
	i.name = k->name;
	i.address = val(&k->addr);
	i.size = val(&k->size);
	i.state = k->state;
	i.placed = kplace_section_placed(m, k);
	i.state_code = kr_mem_state(k->state);
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return 0;
	return !*a && !*b;
}

KRELOC_API int kreloc_snapshot_module_find(const struct kreloc_snapshot *snap, const char *name,
					   const uint64_t *load_gen)
{
	const struct ks_mod *best = NULL;
	const struct ksnap *s;
	size_t i;

	if (!snap || !name)
		return kr_null(__func__, !snap ? "snap" : "name");
	s = &snap->s;
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		if (!same_name(m->name, name))
			continue;
		if (load_gen) {
			if (m->load_gen.ok && m->load_gen.v == *load_gen)
				return (int)i;
			continue;
		}
		/* The newest record of that name. */
		if (!best || (m->load_gen.ok && (!best->load_gen.ok ||
						 m->load_gen.v >= best->load_gen.v)))
			best = m;
	}
	if (best)
		return (int)(best - s->mods);
	return kr_fail(ENOENT, "no module record %s", name);
}

KRELOC_API int kreloc_snapshot_module_live_at(const struct kreloc_snapshot *snap, size_t mod,
					      uint64_t generation)
{
	int ret = kr_check_mod(snap, mod);

	return ret ? ret : kdbg_live_at(&snap->s.mods[mod], generation);
}

/* Does any region of a overlap any region of b? */
static int overlaps(const struct ks_mod *a, const struct ks_mod *b)
{
	size_t i, j;

	for (i = 0; i < a->nr_mem; i++) {
		const struct ks_mem *x = &a->mem[i];

		if (x->kind != KS_REGION || !x->addr.ok || !x->size.ok || !x->size.v)
			continue;
		for (j = 0; j < b->nr_mem; j++) {
			const struct ks_mem *y = &b->mem[j];

			if (y->kind == KS_REGION && y->addr.ok && y->size.ok && y->size.v &&
			    x->addr.v < y->addr.v + y->size.v && y->addr.v < x->addr.v + x->size.v)
				return 1;
		}
	}
	return 0;
}

KRELOC_API int kreloc_snapshot_module_superseded(const struct kreloc_snapshot *snap, size_t mod)
{
	const struct ksnap *s;
	const struct ks_mod *m;
	size_t j;
	int ret = kr_check_mod(snap, mod);

	if (ret)
		return ret;
	s = &snap->s;
	m = &s->mods[mod];
	for (j = 0; m->load_gen.ok && j < s->nr_mods; j++) {
		const struct ks_mod *n = &s->mods[j];

		if (n != m && n->load_gen.ok && n->load_gen.v > m->load_gen.v && overlaps(m, n))
			return (int)j;
	}
	return -ENOENT;
}

/* Our clock index for a public clock, or -1. */
static int ks_clock_of(enum kreloc_clock clock)
{
	switch (clock) {
	case KRELOC_CLOCK_LOCAL:
		return KS_LOCAL;
	case KRELOC_CLOCK_MONOTONIC:
		return KS_MONO;
	}
	return -1;
}

static const char *const clock_names[] = { "local_clock", "CLOCK_MONOTONIC" };

KRELOC_API int kreloc_snapshot_module_time(const struct kreloc_snapshot *snap, size_t mod,
					   enum kreloc_module_event ev, enum kreloc_clock clock,
					   uint64_t *ns)
{
	static const char *const what[] = { "load", "init done", "unload" };
	int c = ks_clock_of(clock), ret;
	const struct kval *v;

	if (!snap || !ns || c < 0 || (unsigned int)ev > KRELOC_EVENT_UNLOAD)
		return kr_fail(EINVAL, "kreloc_snapshot_module_time: %s",
			       !snap ? "no snapshot" : !ns ? "no ns" : c < 0 ? "unknown clock" :
			       "unknown event");
	ret = kr_check_mod(snap, mod);
	if (ret)
		return ret;
	v = &snap->s.mods[mod].t[c][ev];
	if (!v->ok)
		return kr_fail(ENODATA, "%s@%" PRIu64 ": no %s time in %s", snap->s.mods[mod].name,
			       snap->s.mods[mod].load_gen.v, what[ev], clock_names[c]);
	*ns = v->v;
	return 0;
}

KRELOC_API int kreloc_snapshot_module_mem_time(const struct kreloc_snapshot *snap, size_t mod,
					       size_t i, enum kreloc_clock clock, uint64_t *from,
					       uint64_t *until)
{
	const struct ks_mod *m;
	int c = ks_clock_of(clock), ret;

	if (!snap || !from || !until || c < 0)
		return kr_fail(EINVAL, "kreloc_snapshot_module_mem_time: %s",
			       !snap ? "no snapshot" : c < 0 ? "unknown clock" : "no from/until");
	ret = kr_check_mod(snap, mod);
	if (ret)
		return ret;
	m = &snap->s.mods[mod];
	if (i >= m->nr_mem)
		return kr_fail(ERANGE, "no region %zu in record %s (it has %zu)", i, m->name,
			       m->nr_mem);
	if (m->mem[i].kind != KS_REGION)
		return kr_fail(EINVAL, "%s %s is a section, not a region", m->name,
			       m->mem[i].name);
	ksnap_mem_life(&snap->s, m, &m->mem[i], (enum ks_clock)c, from, until);
	return 0;
}

KRELOC_API int kreloc_snapshot_time(const struct kreloc_snapshot *snap,
				    enum kreloc_snapshot_time what, enum kreloc_clock clock,
				    uint64_t *ns)
{
	static const char *const names[] = { "TAKEN", "SINCE", "INIT_FREED_BY" };
	int c = ks_clock_of(clock);
	const struct kval *v;

	if (!snap || !ns || c < 0 || (unsigned int)what > KRELOC_TIME_INIT_FREED_BY)
		return kr_fail(EINVAL, "kreloc_snapshot_time: %s",
			       !snap ? "no snapshot" : !ns ? "no ns" : c < 0 ? "unknown clock" :
			       "unknown time");
	v = what == KRELOC_TIME_TAKEN ? &snap->s.taken[c] :
	    what == KRELOC_TIME_SINCE ? &snap->s.since[c] : &snap->s.init_freed_by[c];
	if (!v->ok)
		return kr_fail(ENODATA, "the snapshot has no %s time in %s", names[what],
			       clock_names[c]);
	*ns = v->v;
	return 0;
}

KRELOC_API int kreloc_snapshot_image_offset(const struct kreloc_snapshot *snap, uint64_t *offset)
{
	char err[KR_ERR_MAX];

	if (!snap || !offset)
		return kr_null(__func__, !snap ? "snap" : "offset");
	if (kdbg_image_offset(&snap->s, offset, err, sizeof(err)))
		return kr_fail_msg(ENODATA, err);
	return 0;
}

KRELOC_API int kreloc_live_lockdown(const char *root, char *buf, size_t len)
{
	int ret;

	if (!buf || !len)
		return !buf ? kr_null(__func__, "buf") : kr_fail(EINVAL, "%s: len 0", __func__);
	ret = kreloc_lockdown(root, buf, len);

	return ret ? kr_fail(-ret, "%s/sys/kernel/security/lockdown: %s", root ? root : "",
			     strerror(-ret)) : 0;
}
