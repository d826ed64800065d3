// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* resolver.c - the public API of kernel files and resolvers. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "decompress.h"
#include "fetch.h"
#include "files.h"
#include "kplace.h"
#include "snapshot.h"

KRELOC_API const char *kreloc_version(void)
{
	return KRELOC_VERSION_STRING;
}

KRELOC_API unsigned int kreloc_snapshot_format(void)
{
	return KSNAP_VERSION;
}

KRELOC_API int kreloc_feature(enum kreloc_feature f)
{
	char why[256];

	switch (f) {
	case KRELOC_FEATURE_XZ:
		return kdc_supported(KDC_XZ);
	case KRELOC_FEATURE_ZSTD:
		return kdc_supported(KDC_ZSTD);
	case KRELOC_FEATURE_GZIP:
		return kdc_supported(KDC_GZIP);
	case KRELOC_FEATURE_DEBUGINFOD:
		if (kfetch_available(why, sizeof(why)))
			return 1;
		kr_fail_msg(ENOSYS, why);
		return 0;
	}
	return kr_fail(EINVAL, "unknown feature %d", (int)f);
}

KRELOC_API const char *kreloc_feature_name(enum kreloc_feature f)
{
	switch (f) {
	case KRELOC_FEATURE_XZ:
		return "xz";
	case KRELOC_FEATURE_ZSTD:
		return "zstd";
	case KRELOC_FEATURE_GZIP:
		return "gzip";
	case KRELOC_FEATURE_DEBUGINFOD:
		return "debuginfod";
	}
	return NULL;
}

KRELOC_API const char *kreloc_origin_name(enum kreloc_origin o)
{
	switch (o) {
	case KRELOC_ORIGIN_NONE:
		return "none";
	case KRELOC_ORIGIN_LOCAL:
		return "local";
	case KRELOC_ORIGIN_EXECUTABLE:
		return "debuginfod executable";
	case KRELOC_ORIGIN_DEBUGINFO:
		return "debuginfod debuginfo";
	}
	return NULL;
}

/* ---- files ---- */

KRELOC_API int kreloc_files_new(const struct kreloc_files_opts *opts, struct kreloc_files **files)
{
	char err[KR_ERR_MAX];
	int ret;

	if (!files)
		return kr_null(__func__, "files");
	*files = NULL;
	ret = KR_OPTS_VALID(opts, kreloc_files_opts);
	if (ret)
		return ret;
	ret = files_new(opts, files, err, sizeof(err));
	if (ret)
		return kr_fail_msg(-ret, err);
	kr_ok();
	return 0;
}

KRELOC_API void kreloc_files_free(struct kreloc_files *files)
{
	files_put(files);
}

/* ---- resolvers ---- */

KRELOC_API int kreloc_resolver_new(const struct kreloc_snapshot *snap,
				   const struct kreloc_resolver_opts *opts,
				   struct kreloc_resolver **out)
{
	static const enum kres_map_kind kinds[] = {
		[KRELOC_MAP_NONE] = KRES_NONE, [KRELOC_MAP_SYSTEM_MAP] = KRES_SYSTEM_MAP,
		[KRELOC_MAP_KALLSYMS] = KRES_KALLSYMS, [KRELOC_MAP_VMLINUX] = KRES_VMLINUX,
	};
	typedef struct kreloc_resolver_opts o_t;
	enum kreloc_map_kind kind = KR_OPT(opts, o_t, map_kind, KRELOC_MAP_NONE);
	const char *path = KR_OPT(opts, o_t, map_path, NULL);
	struct kreloc_files *files = KR_OPT(opts, o_t, files, NULL);
	bool modules_only = KR_OPT(opts, o_t, modules_only, false);
	char err[KR_ERR_MAX];
	struct kreloc_resolver *r;
	int ret;

	if (!out)
		return kr_null(__func__, "r");
	*out = NULL;
	if (!snap)
		return kr_null(__func__, "snap");
	ret = KR_OPTS_VALID(opts, kreloc_resolver_opts);
	if (ret)
		return ret;
	if ((unsigned int)kind >= sizeof(kinds) / sizeof(kinds[0]) ||
	    (kind != KRELOC_MAP_NONE && !path))
		return kr_fail(EINVAL, "a map kind needs a map_path, and a known kind");
	if (!files) {
		KRELOC_OPTS(kreloc_files_opts, fo,
			    .modules_dir = KR_OPT(opts, o_t, modules_dir, NULL),
			    .debuginfod = KR_OPT(opts, o_t, debuginfod, false));

		ret = kreloc_files_new(&fo, &files);
		if (ret)
			return ret;
	} else {
		files_get(files);
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		files_put(files);
		return kr_fail(ENOMEM, "out of memory");
	}
	kr_snap_get(snap);
	r->snap = snap;
	ret = kres_init(&r->r, &snap->s, files, kinds[kind], path,
			kind == KRELOC_MAP_NONE && modules_only, err, sizeof(err));
	files_put(files);		/* kres_init() took its own */
	if (ret) {
		kreloc_resolver_free(r);
		return kr_fail_msg(-ret, err);
	}
	*out = r;
	kr_ok();
	return 0;
}

KRELOC_API void kreloc_resolver_free(struct kreloc_resolver *r)
{
	if (!r)
		return;
	kres_free(&r->r);
	kr_snap_put(r->snap);
	free(r);
}

KRELOC_API int kreloc_resolver_prefetch(struct kreloc_resolver *r,
					const struct kreloc_prefetch_opts *opts)
{
	unsigned int ms = KR_OPT(opts, struct kreloc_prefetch_opts, timeout_ms, 0);
	const struct kres_mod *ms0 = NULL;
	size_t i, nok = 0, unavail = 0;
	int ret, err = 0;

	if (!r)
		return kr_null(__func__, "r");
	ret = KR_OPTS_VALID(opts, kreloc_prefetch_opts);
	if (ret)
		return ret;
	kfetch_set_deadline(ms ? kfetch_now() + (uint64_t)ms * 1000000u : 0);
	for (i = 0; i < r->snap->s.nr_mods; i++) {
		const struct kres_mod *m = kres_module(&r->r, i);

		if (!m)
			continue;
		if (m->d.status == KDBG_OK) {
			nok++;
		} else if (m->d.status == KDBG_UNAVAILABLE) {
			if (!unavail++) {
				ms0 = m;
				err = m->d.err ? m->d.err : -EHOSTUNREACH;
			}
		}
	}
	ret = kfetch_expired();
	kfetch_set_deadline(0);
	if (ret)
		return kr_fail(ETIME, "the prefetch's time (%u ms) ran out asking debuginfod: %zu "
			       "module records left without a file (%s: %s)", ms, unavail,
			       ms0 ? ms0->d.m->name : "?", ms0 ? ms0->d.why : "");
	if (unavail)
		return kr_fail(-err, "%zu module records without a file: a server could not be "
			       "asked (%s: %s)", unavail, ms0->d.m->name, ms0->d.why);
	kr_ok();
	return (int)nok;
}

/* A kreloc_time as the window the resolver filters records with. */
static int to_when(const struct kreloc_time *t, struct kres_when *w)
{
	if (t->clock != KRELOC_CLOCK_LOCAL && t->clock != KRELOC_CLOCK_MONOTONIC)
		return -1;
	w->clock = t->clock == KRELOC_CLOCK_LOCAL ? KS_LOCAL : KS_MONO;
	w->lo = t->ns;
	w->hi = t->span_ns > UINT64_MAX - t->ns ? UINT64_MAX : t->ns + t->span_ns;
	return 0;
}

static void hit_info(const struct kres_hit *h, struct kreloc_addr_info *i)
{
	memset(i, 0, sizeof(*i));
	i->symbol = h->sym;
	i->symbol_len = h->sym ? h->sym_len : 0;
	i->symbol_size = h->sym ? h->sym_size : 0;
	i->offset = h->off;
	i->section = h->section;
	i->module = h->mod ? (int)h->mod_index : -1;
	i->module_name = h->mod ? h->mod->name : NULL;
	i->module_state = h->mod ? h->mod->state : NULL;
	i->module_state_code = h->mod ? kr_module_state(h->mod->state) : KRELOC_MODULE_STATE_OTHER;
	i->load_gen.value = h->mod ? h->mod->load_gen.v : 0;
	i->load_gen.known = h->mod && h->mod->load_gen.ok;
	i->note = h->note;
	i->candidates = h->candidates;
	i->section_size = h->section_size;
	i->past_symbol = h->past;
	i->past_offset = h->past_off;
	i->past_size = h->past_size;
}

KRELOC_API int kreloc_resolve_at(const struct kreloc_resolver *r, uint64_t addr,
				 unsigned int flags, const struct kreloc_time *when,
				 struct kreloc_addr_info *info, size_t sz)
{
	struct kreloc_addr_info i;
	struct kres_when w;
	struct kres_hit h;
	int kind;

	if (!r || !info) {
		if (info) {
			memset(&i, 0, sizeof(i));
			i.module = -1;
			kr_copy_info(info, sz, &i, sizeof(i));
		}
		return kr_null(__func__, !r ? "r" : "info");
	}
	memset(&h, 0, sizeof(h));
	if (when && to_when(when, &w))
		return KRELOC_UNKNOWN;
	kind = flags & KRELOC_RESOLVE_LINKED ? kres_lookup_linked(&r->r, addr, &h) :
	       kres_lookup(&r->r, addr, when ? &w : NULL, &h);
	hit_info(&h, &i);
	if (kind == KRES_UNKNOWN) {
		/* Only the count of an ambiguous address: no record is named. */
		memset(&i, 0, sizeof(i));
		i.module = -1;
		i.candidates = h.candidates;
	}
	kr_copy_info(info, sz, &i, sizeof(i));
	return kind == KRES_CORE ? KRELOC_CORE : kind == KRES_MODULE ? KRELOC_MODULE :
	       KRELOC_UNKNOWN;
}

KRELOC_API int kreloc_resolve(const struct kreloc_resolver *r, uint64_t addr, unsigned int flags,
			      struct kreloc_addr_info *info, size_t sz)
{
	return kreloc_resolve_at(r, addr, flags, NULL, info, sz);
}

struct cand {
	kreloc_candidate_fn_t fn;
	void *ctx;
	int stop;			/* the callback's nonzero value */
};

static int one_candidate(void *ctx, const struct kres_hit *h)
{
	struct cand *c = ctx;
	struct kreloc_addr_info i;

	hit_info(h, &i);
	c->stop = c->fn(c->ctx, &i);
	return c->stop;
}

KRELOC_API int kreloc_resolve_candidates(const struct kreloc_resolver *r, uint64_t addr,
					 const struct kreloc_time *when,
					 kreloc_candidate_fn_t fn, void *ctx)
{
	struct cand c = { fn, ctx, 0 };
	struct kres_when w;
	int n;

	if (!r || !fn || (when && to_when(when, &w)))
		return kr_fail(EINVAL, "kreloc_resolve_candidates: %s",
			       !r ? "no resolver" : !fn ? "no callback" : "unknown clock");
	n = kres_candidates(&r->r, addr, when ? &w : NULL, one_candidate, &c);
	return c.stop ? kr_stopped(c.stop) : n;
}

KRELOC_API const char *kreloc_resolve_why_at(const struct kreloc_resolver *r, uint64_t addr,
					     unsigned int flags, const struct kreloc_time *when,
					     char *buf, size_t len)
{
	struct kres_when w;

	if (!buf || !len)
		return NULL;
	if (!r) {
		snprintf(buf, len, "no resolver (NULL)");
		return buf;
	}
	if (when && to_when(when, &w)) {
		snprintf(buf, len, "unknown clock %d", (int)when->clock);
		return buf;
	}
	return kres_why(&r->r, addr, flags & KRELOC_RESOLVE_LINKED, when ? &w : NULL, buf, len);
}

KRELOC_API const char *kreloc_resolve_why(const struct kreloc_resolver *r, uint64_t addr,
					  unsigned int flags, char *buf, size_t len)
{
	return kreloc_resolve_why_at(r, addr, flags, NULL, buf, len);
}

KRELOC_API int kreloc_resolver_core_file(const struct kreloc_resolver *r,
					 struct kreloc_file_info *info, size_t sz)
{
	struct kreloc_file_info i = { NULL, KRELOC_ORIGIN_NONE, "", false };
	const struct kcore *c;

	if (!r || !info)
		return kr_null(__func__, !r ? "r" : "info");
	c = r->r.core;
	if (c) {
		i.path = c->path;
		i.origin = c->origin;
		i.build_id = c->build_id;
	}
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

KRELOC_API int kreloc_resolver_core_symbols(const struct kreloc_resolver *r,
					    kreloc_symbol_fn_t fn, void *ctx, size_t *left_out)
{
	const struct ksnap *s;
	const struct kcore *c;
	struct ks_area a[KSNAP_MAX_CORE];
	struct kreloc_symbol y;
	uint64_t lowest = UINT64_MAX;
	size_t i, j, na, dropped = 0;
	int ret;

	if (left_out)
		*left_out = 0;
	if (!r || !fn)
		return kr_null(__func__, !r ? "r" : "fn");
	s = &r->snap->s;
	c = r->r.core;
	if (!c)
		return kr_fail(ENODATA, "no map of the core kernel's symbols");
	na = ksnap_core_areas(s, a);
	if (!na) {
		for (i = 0; i < s->nr_core && !ksnap_core_usable(&s->core[i]); i++)
			;
		if (i < s->nr_core)
			/* An offset, but no section's end: the arch link base alone. */
			return kr_fail(ENODATA, "kreloc knows where the kernel moved but not where "
				       "any core section ends (LINKED_SOURCE=%s): build it with the "
				       "kernel's System.map or vmlinux",
				       s->linked_source ? s->linked_source : "unknown");
		return kr_fail(ENODATA, "kreloc published no offset for any core section of this "
			       "boot (STATUS=%s)", s->status);
	}
	/* The lowest link-time section start: x86_64's per-CPU symbols lie below. */
	for (i = 0; i < s->nr_core; i++)
		if (s->core[i].linked.ok && s->core[i].linked.v < lowest)
			lowest = s->core[i].linked.v;
	for (i = 0; i < c->map.nr; i++) {
		const struct sysmap_sym *m = &c->map.syms[i];
		uint64_t linked = m->addr - r->r.delta;

		if (m->module)
			continue;
		y.type = m->type;
		y.name = m->name;
		y.size = m->size;
		if (m->type == 'A' || m->type == 'a' || linked < lowest) {
			/* absolute, or per-CPU on x86_64: not moved */
			y.address = m->addr;
		} else {
			for (j = 0; j < na; j++)
				if (linked >= a[j].lo && linked < a[j].hi)
					break;
			if (j == na) {
				dropped++;
				continue;
			}
			y.address = linked + a[j].off;
		}
		ret = fn(ctx, &y);
		if (ret)
			return kr_stopped(ret);
	}
	if (left_out)
		*left_out = dropped;
	return 0;
}

static enum kreloc_file_status file_status(enum kdbg_status s)
{
	switch (s) {
	case KDBG_OK:
		return KRELOC_FILE_OK;
	case KDBG_MISSING:
		return KRELOC_FILE_MISSING;
	case KDBG_UNAVAILABLE:
		return KRELOC_FILE_UNAVAILABLE;
	case KDBG_CORRUPT:
		return KRELOC_FILE_CORRUPT;
	case KDBG_MISMATCH:
		break;
	}
	return KRELOC_FILE_MISMATCH;
}

/* Record mod's file (with ok, a usable one); 0 or a negative errno with the message. */
static int module_of(const struct kreloc_resolver *r, size_t mod, bool ok,
		     const struct kres_mod **out)
{
	const struct kres_mod *ms;
	int ret = r ? kr_check_mod(r->snap, mod) : kr_fail(EINVAL, "no resolver (NULL)");

	*out = NULL;
	if (ret)
		return ret;
	ms = kres_module(&r->r, mod);
	if (!ms)
		return kr_fail(ENOMEM, "out of memory");
	if (ok && ms->d.status != KDBG_OK)
		return kr_fail(ENOENT, "%s: %s", ms->d.m->name, ms->d.why);
	*out = ms;
	return 0;
}

KRELOC_API int kreloc_resolver_module_file(const struct kreloc_resolver *r, size_t mod,
					   struct kreloc_module_file_info *info, size_t sz)
{
	const struct kres_mod *ms;
	struct kreloc_module_file_info i;
	int ret;

	if (!info)
		return kr_null(__func__, "info");
	ret = module_of(r, mod, false, &ms);
	if (ret)
		return ret;
	memset(&i, 0, sizeof(i));
	i.status = file_status(ms->d.status);
	i.why = ms->d.why[0] ? ms->d.why : NULL;
	i.file.path = ms->d.path;
	i.file.origin = ms->d.path ? ms->d.origin : KRELOC_ORIGIN_NONE;
	i.file.build_id = ms->d.file ? ms->d.file->build_id : "";
	i.file.compressed = ms->d.file && ms->d.file->compressed;
	kr_copy_info(info, sz, &i, sizeof(i));
	return 0;
}

KRELOC_API int kreloc_resolver_module_image(const struct kreloc_resolver *r, size_t mod,
					    const void **data, size_t *len)
{
	const struct kres_mod *ms;
	int ret;

	if (!data || !len)
		return kr_null(__func__, !data ? "data" : "len");
	*data = NULL;
	*len = 0;
	ret = module_of(r, mod, true, &ms);
	if (ret)
		return ret;
	*data = ms->d.file->elf.data;
	*len = ms->d.file->elf.len;
	return 0;
}

/* A record's symbols at their addresses; all: freed init sections' too. */
static int module_symbols(const struct kreloc_resolver *r, size_t mod, bool all,
			  kreloc_symbol_fn_t fn, void *ctx)
{
	const struct kres_mod *ms;
	const struct ksymfile *ko;
	struct kreloc_symbol y;
	size_t i;
	int n = 0, ret;

	if (!r || !fn)
		return kr_null(all ? "kreloc_resolver_module_symbols_all" :
			       "kreloc_resolver_module_symbols", !r ? "r" : "fn");
	ret = module_of(r, mod, true, &ms);
	if (ret)
		return ret;
	ko = &ms->d.ko;
	for (i = 0; i < ko->nr_syms; i++) {
		const struct ksf_sym *s = &ko->syms[i];
		const struct kplace_sec *sec;
		const struct ks_mem *k;

		/* Section and file symbols are not in kallsyms; the rest is, .LC* labels too. */
		if ((s->stt != STT_NOTYPE && s->stt != STT_FUNC && s->stt != STT_OBJECT) ||
		    s->shn != KPLACE_SHN_SEC)
			continue;
		sec = &ko->secs[s->shndx];
		if (!sec->name || !(sec->flags & SHF_ALLOC) || kplace_unplaced(sec->name))
			continue;
		k = ksnap_mod_section(ms->d.m, sec->name);
		if (!k || (!all && !kplace_section_placed(ms->d.m, k)))
			continue;
		y.address = k->addr.v + s->value;
		y.type = kplace_type(sec, s->shn, s->bind, s->stt, ksf_exported(ko, s->name));
		y.name = s->name;
		y.size = s->size;
		ret = fn(ctx, &y);
		if (ret)
			return kr_stopped(ret);
		n++;
	}
	return n;
}

KRELOC_API int kreloc_resolver_module_symbols(const struct kreloc_resolver *r, size_t mod,
					      kreloc_symbol_fn_t fn, void *ctx)
{
	return module_symbols(r, mod, false, fn, ctx);
}

KRELOC_API int kreloc_resolver_module_symbols_all(const struct kreloc_resolver *r, size_t mod,
						  kreloc_symbol_fn_t fn, void *ctx)
{
	return module_symbols(r, mod, true, fn, ctx);
}

KRELOC_API int kreloc_resolver_module_sections(const struct kreloc_resolver *r, size_t mod,
					       kreloc_symbol_fn_t fn, void *ctx)
{
	const struct kres_mod *ms;
	const struct ks_mod *m;
	struct kreloc_symbol y;
	size_t i;
	int n = 0, ret;

	if (!fn)
		return kr_null(__func__, "fn");
	ret = module_of(r, mod, true, &ms);
	if (ret)
		return ret;
	m = ms->d.m;
	for (i = 0; i < m->nr_mem; i++) {
		const struct ks_mem *k = &m->mem[i];
		const struct kplace_sec *s;

		/* The record sections a debugger should place: loaded by the kernel and by it. */
		if (!kplace_section_placed(m, k))
			continue;
		s = ksf_section(&ms->d.ko, k->name);
		if (!s || !(s->flags & SHF_ALLOC) || !s->size)
			continue;
		y.address = k->addr.v;
		y.type = 0;
		y.name = k->name;
		y.size = ms->mem_size ? ms->mem_size[i] : 0;
		ret = fn(ctx, &y);
		if (ret)
			return kr_stopped(ret);
		n++;
	}
	return n;
}
