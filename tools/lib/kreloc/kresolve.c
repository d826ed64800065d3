// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kresolve.c - offline resolution of runtime kernel addresses. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "files.h"
#include "kresolve.h"

/* The core sections' areas (ksnap_core_areas()), at their runtime address. */
static void build_areas(struct kres *r)
{
	struct ks_area a[KSNAP_MAX_CORE];
	const struct ks_core *c;
	size_t i;

	r->nr_area = ksnap_core_areas(r->snap, a);
	for (i = 0; i < r->nr_area; i++) {
		r->area[i].lo = a[i].lo + a[i].off;
		r->area[i].len = a[i].hi - a[i].lo;
		r->area[i].off = a[i].off;
		r->area[i].name = a[i].name;
		c = ksnap_core(r->snap, a[i].name);
		r->area[i].size = c && c->size.ok ? c->size.v : 0;
	}
}

static int cmp_mr(const void *a, const void *b)
{
	const struct kres_mrange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->mod < y->mod ? -1 : x->mod > y->mod;
}

/* (qsort_r: resolvers may be set up in several threads at once) */
static int cmp_memidx(const void *a, const void *b, void *arg)
{
	const struct ks_mem *mem = arg;
	const struct ks_mem *x = &mem[*(const size_t *)a];
	const struct ks_mem *y = &mem[*(const size_t *)b];

	if (x->addr.v != y->addr.v)
		return x->addr.v < y->addr.v ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int build_modules(struct kres *r, char *err, size_t errlen)
{
	const struct ksnap *s = r->snap;
	size_t i, j, n = 0;
	int c;

	for (i = 0; i < s->nr_mods; i++)
		n += s->mods[i].nr_mem;
	r->mr = calloc(n + 1, sizeof(*r->mr));
	r->msec = calloc(s->nr_mods + 1, sizeof(*r->msec));
	r->nr_msec = calloc(s->nr_mods + 1, sizeof(*r->nr_msec));
	r->mods = calloc(s->nr_mods + 1, sizeof(*r->mods));
	if (!r->mr || !r->msec || !r->nr_msec || !r->mods)
		return kr_seterr(ENOMEM, err, errlen, "out of memory");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];
		size_t ns = 0;

		r->msec[i] = malloc((m->nr_mem + 1) * sizeof(size_t));
		if (!r->msec[i])
			return kr_seterr(ENOMEM, err, errlen, "out of memory");
		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *k = &m->mem[j];

			if (!k->addr.ok)
				continue;
			if (k->kind == KS_SECTION) {
				r->msec[i][ns++] = j;
			} else if (k->size.ok && k->size.v) {
				struct kres_mrange *x = &r->mr[r->nr_mr++];

				x->lo = k->addr.v;
				x->len = k->size.v;
				x->mod = (uint32_t)i;
				x->mem = (uint32_t)j;
				for (c = 0; c < KS_NR_CLOCKS; c++)
					ksnap_mem_life(s, m, k, (enum ks_clock)c, &x->from[c],
						       &x->until[c]);
				if (x->len > r->mr_maxlen)
					r->mr_maxlen = x->len;
			}
		}
		qsort_r(r->msec[i], ns, sizeof(size_t), cmp_memidx, m->mem);
		r->nr_msec[i] = ns;
	}
	qsort(r->mr, r->nr_mr, sizeof(*r->mr), cmp_mr);
	return 0;
}

static void init_empty(struct kres *r, const struct ksnap *s)
{
	memset(r, 0, sizeof(*r));
	r->snap = s;
	pthread_mutex_init(&r->lock, NULL);
}

/* The core kernel's table from c, checked against the snapshot. */
static int init_core(struct kres *r, struct kcore *c, char *err, size_t errlen)
{
	int abi_v1, ret;

	r->core = c;
	ret = kcore_check(c, r->snap, &r->delta, &abi_v1, err, errlen);
	if (!ret)
		ret = files_core_tab(r->files, c, r->delta, abi_v1, &r->tab, &r->own_tab, err,
				     errlen);
	return ret;
}

int kres_init(struct kres *r, const struct ksnap *s, struct kreloc_files *files,
	      enum kres_map_kind kind, const char *path, bool modules_only, char *err,
	      size_t errlen)
{
	struct kcore *c;
	int ret;

	init_empty(r, s);
	files_get(files);
	r->files = files;
	if (!modules_only) {
		ret = files_core(files, s, kind, path, &c, err, errlen);
		if (!ret)
			ret = init_core(r, c, err, errlen);
		if (ret)
			return ret;
	}
	build_areas(r);
	return build_modules(r, err, errlen);
}

int kres_init_map(struct kres *r, const struct ksnap *s, struct sysmap *map,
		  enum kres_map_kind kind, const char *map_name, char *err, size_t errlen)
{
	int ret;

	init_empty(r, s);
	ret = files_new(NULL, &r->files, err, errlen);
	if (ret)
		return ret;
	if (map) {
		r->own_core = calloc(1, sizeof(*r->own_core));
		if (!r->own_core)
			return kr_seterr(ENOMEM, err, errlen, "out of memory");
		ret = kcore_from_map(r->own_core, kind, map, map_name, err, errlen);
		if (!ret)
			ret = init_core(r, r->own_core, err, errlen);
		if (ret)
			return ret;
	}
	build_areas(r);
	return build_modules(r, err, errlen);
}

void kres_free(struct kres *r)
{
	size_t i;

	if (r->own_tab) {
		kres_tab_free(r->own_tab);
		free(r->own_tab);
	}
	if (r->own_core) {
		kcore_free(r->own_core);
		free(r->own_core);
	}
	free(r->mr);
	if (r->snap) {
		for (i = 0; i < r->snap->nr_mods; i++) {
			if (r->msec)
				free(r->msec[i]);
			if (r->mods) {
				kdbg_mod_free(&r->mods[i].d);
				free(r->mods[i].syms);
				free(r->mods[i].sec_lo);
				free(r->mods[i].mem_size);
			}
		}
	}
	free(r->msec);
	free(r->nr_msec);
	free(r->mods);
	if (r->files)
		files_put(r->files);
	if (r->snap)
		pthread_mutex_destroy(&r->lock);
	memset(r, 0, sizeof(*r));
}

/* ---- a module record's symbols ---- */

struct kosym {
	uint64_t addr, size, sec_lo;
	const char *name;
	int rank;
};

static int cmp_kosym(const void *a, const void *b)
{
	const struct kosym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The record's .ko symbol table, placed at the record's section addresses. */
static void build_modsyms(struct kres_mod *ms)
{
	const struct ksymfile *ko = &ms->d.ko;
	const struct ks_mod *m = ms->d.m;
	struct kosym *ks;
	size_t i, n = 0;

	ks = malloc((ko->nr_syms + 1) * sizeof(*ks));
	if (!ks)
		return;
	for (i = 0; i < ko->nr_syms; i++) {
		const struct ksf_sym *y = &ko->syms[i];
		const struct ks_mem *k;

		if (y->stt != STT_FUNC && y->stt != STT_OBJECT && y->stt != STT_NOTYPE)
			continue;
		if (y->shn != KPLACE_SHN_SEC || !ko->secs[y->shndx].name)
			continue;
		if (!*y->name || y->name[0] == '$' || !strncmp(y->name, ".L", 2))
			continue;
		k = ksnap_mod_section(m, ko->secs[y->shndx].name);
		if (!k)
			continue;
		ks[n].addr = k->addr.v + y->value;
		ks[n].size = y->size;
		ks[n].sec_lo = k->addr.v;
		ks[n].name = y->name;
		ks[n].rank = (y->stt == STT_FUNC ? 0 : y->stt == STT_OBJECT ? 2 : 4) +
			     (y->bind == STB_LOCAL);
		n++;
	}
	qsort(ks, n, sizeof(*ks), cmp_kosym);
	ms->syms = malloc((n + 1) * sizeof(*ms->syms));
	ms->sec_lo = malloc((n + 1) * sizeof(*ms->sec_lo));
	if (!ms->syms || !ms->sec_lo) {
		free(ms->syms);
		free(ms->sec_lo);
		ms->syms = NULL;
		ms->sec_lo = NULL;
		free(ks);
		return;
	}
	for (i = 0; i < n; i++) {
		if (ms->nr && ms->syms[ms->nr - 1].addr == ks[i].addr) {
			/* the best-ranked alias is taken; its size, if it has none, an alias's */
			if (!ms->syms[ms->nr - 1].size)
				ms->syms[ms->nr - 1].size = ks[i].size;
			continue;
		}
		ms->syms[ms->nr].addr = ks[i].addr;
		ms->syms[ms->nr].size = ks[i].size;
		ms->syms[ms->nr].name = ks[i].name;
		ms->sec_lo[ms->nr] = ks[i].sec_lo;
		ms->nr++;
	}
	free(ks);
}

/*
 * Each region's and section's size: the record's, else for a section the
 * .ko's (not where the loader sets the size, nor the symbol and string
 * tables it copies for kallsyms, which differ from the file's).
 */
static void build_memsize(struct kres_mod *ms)
{
	const struct ks_mod *m = ms->d.m;
	const struct kplace_sec *f;
	size_t j;

	ms->mem_size = calloc(m->nr_mem + 1, sizeof(*ms->mem_size));
	for (j = 0; ms->mem_size && j < m->nr_mem; j++) {
		const struct ks_mem *k = &m->mem[j];

		if (k->size.ok)
			ms->mem_size[j] = k->size.v;
		else if (k->kind == KS_SECTION && !kplace_arch_sized(k->name) &&
			 strcmp(k->name, ".symtab") && strcmp(k->name, ".strtab") &&
			 (f = ksf_section(&ms->d.ko, k->name)) && (f->flags & SHF_ALLOC))
			ms->mem_size[j] = f->size;
	}
}

const struct kres_mod *kres_module(const struct kres *r, size_t i)
{
	struct kres_mod *ms;

	if (!r->mods || i >= r->snap->nr_mods)
		return NULL;
	ms = &r->mods[i];
	if (atomic_load_explicit(&ms->ready, memory_order_acquire))
		return ms;
	/* The resolver is const to its users; a record's file is read once, under the lock. */
	pthread_mutex_lock((pthread_mutex_t *)&r->lock);
	if (!atomic_load_explicit(&ms->ready, memory_order_relaxed)) {
		if (kdbg_place(&ms->d, &r->snap->mods[i], r->snap, r->files) == KDBG_OK) {
			build_modsyms(ms);
			build_memsize(ms);
		}
		atomic_store_explicit(&ms->ready, 1, memory_order_release);
	}
	pthread_mutex_unlock((pthread_mutex_t *)&r->lock);
	return ms;
}

/* ---- lookup ---- */

/* Did range c hold its record's memory at some time of w (NULL: ever)? */
static bool range_at(const struct kres_mrange *c, const struct kres_when *w)
{
	return !w || (c->from[w->clock] <= w->hi && w->lo <= c->until[w->clock]);
}

/*
 * Call fn on each range holding x at w, newest record first; fn's nonzero
 * value stops.  Returns how many were met.
 */
static unsigned int for_each_range(const struct kres *r, uint64_t x, const struct kres_when *w,
				   int (*fn)(const struct kres *r, const struct kres_mrange *c,
					     uint64_t x, void *ctx),
				   void *ctx)
{
	const struct kres_mrange *hit[64];
	size_t lo = 0, hi = r->nr_mr, i, n = 0, a, b;
	unsigned int met = 0;

	/* Last range with lo <= x, then back while one could still contain x. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->mr[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct kres_mrange *c = &r->mr[i];

		if (x - c->lo > r->mr_maxlen)
			break;
		if (x - c->lo < c->len && range_at(c, w) && n < sizeof(hit) / sizeof(hit[0]))
			hit[n++] = c;
	}
	/* Newest record first (the order candidates are listed in). */
	for (a = 1; a < n; a++)
		for (b = a; b > 0 && r->snap->mods[hit[b]->mod].load_gen.v >
				     r->snap->mods[hit[b - 1]->mod].load_gen.v; b--) {
			const struct kres_mrange *t = hit[b];

			hit[b] = hit[b - 1];
			hit[b - 1] = t;
		}
	for (i = 0; i < n; i++) {
		met++;
		if (fn && fn(r, hit[i], x, ctx))
			break;
	}
	return met;
}

const char kres_past_symbol[] = "past the end of the symbol before it";
const char kres_past_sections[] = "past the end of the sections before it, in the region's padding";

/* x in record range c: its section and symbol (or what it lies past). */
static int resolve_in(const struct kres *r, const struct kres_mrange *c, uint64_t x,
		      struct kres_hit *h)
{
	const struct ksnap *s = r->snap;
	const struct ks_mod *m;
	const struct ks_mem *reg, *sec = NULL;
	const struct kres_mod *ms;
	const struct kres_sym *y = NULL;
	size_t lo, hi, mi;
	bool past_sec;

	mi = c->mod;
	m = &s->mods[mi];
	reg = &m->mem[c->mem];
	/* The section with the highest start <= x inside the same region. */
	lo = 0;
	hi = r->nr_msec[mi];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->mem[r->msec[mi][mid]].addr.v <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct ks_mem *k = &m->mem[r->msec[mi][lo - 1]];

		if (k->addr.v >= reg->addr.v)
			sec = k;
	}
	h->mod = m;
	h->mod_index = (long)mi;
	h->section = sec ? sec->name : reg->name;
	h->sym = NULL;
	h->sym_size = 0;
	h->note = NULL;
	h->past = NULL;
	h->past_off = h->past_size = 0;
	h->off = x - (sec ? sec->addr.v : reg->addr.v);
	h->section_size = sec ? (sec->size.ok ? sec->size.v : 0) : reg->size.v;
	if (!sec)
		return KRES_MODULE;
	ms = kres_module(r, mi);
	if (ms && ms->mem_size)
		h->section_size = ms->mem_size[sec - m->mem];
	if (ms && ms->d.status != KDBG_OK)
		h->note = ms->d.why;
	if (ms && ms->nr) {
		lo = 0;
		hi = ms->nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ms->syms[mid].addr <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0 && ms->sec_lo[lo - 1] == sec->addr.v)
			y = &ms->syms[lo - 1];
	}
	/* Past the end of its section, x is in the region's padding: in no symbol. */
	past_sec = h->section_size && x - sec->addr.v >= h->section_size;
	if (y && (past_sec || (y->size && x - y->addr >= y->size))) {
		h->past = y->name;
		h->past_off = x - y->addr;
		h->past_size = y->size;
		h->note = kres_past_symbol;
	} else if (y) {
		h->sym = y->name;
		h->sym_len = strlen(h->sym);
		h->sym_size = y->size;
		h->off = x - y->addr;
	}
	if (past_sec) {
		h->section = reg->name;
		h->off = x - reg->addr.v;
		h->section_size = reg->size.v;
		h->note = kres_past_sections;
	}
	return KRES_MODULE;
}

static int take_first(const struct kres *r, const struct kres_mrange *c, uint64_t x, void *ctx)
{
	*(const struct kres_mrange **)ctx = c;
	(void)r;
	(void)x;
	return 1;
}

static int lookup_module(const struct kres *r, uint64_t x, const struct kres_when *w,
			 struct kres_hit *h)
{
	const struct kres_mrange *first = NULL;
	unsigned int n = for_each_range(r, x, w, NULL, NULL);

	h->candidates = n;
	if (n != 1)
		return KRES_UNKNOWN;	/* none, or ambiguous: never one of them alone */
	for_each_range(r, x, w, take_first, &first);
	return resolve_in(r, first, x, h);
}

struct cand_ctx {
	int (*fn)(void *ctx, const struct kres_hit *h);
	void *ctx;
	unsigned int n;
	int ret;
};

static int each_candidate(const struct kres *r, const struct kres_mrange *c, uint64_t x, void *p)
{
	struct cand_ctx *cc = p;
	struct kres_hit h;

	memset(&h, 0, sizeof(h));
	h.candidates = cc->n;
	resolve_in(r, c, x, &h);
	cc->ret = cc->fn(cc->ctx, &h);
	return cc->ret;
}

int kres_candidates(const struct kres *r, uint64_t x, const struct kres_when *w,
		    int (*fn)(void *ctx, const struct kres_hit *h), void *ctx)
{
	struct cand_ctx cc = { fn, ctx, 0, 0 };

	cc.n = for_each_range(r, x, w, NULL, NULL);
	if (cc.n)
		for_each_range(r, x, w, each_candidate, &cc);
	return cc.ret ? cc.ret : (int)cc.n;
}

/* The symbol at or before link-time address linked, in area a (or what it lies past). */
static int core_hit(const struct kres *r, uint64_t linked, const struct kres_area *a,
		    struct kres_hit *h)
{
	const struct kres_tab *t = r->tab;
	uint64_t size;
	long k;

	if (!t)
		return KRES_UNKNOWN;
	k = kres_find(t, linked);
	if (k < 0)
		return KRES_UNKNOWN;
	h->mod = NULL;
	h->mod_index = -1;
	h->note = NULL;
	h->candidates = 0;
	h->section = a->name;
	h->section_size = a->size;
	size = t->size ? t->size[k] : 0;
	if (size && linked - t->addr[k] >= size) {
		/* A vmlinux's symbol ends before it: in no symbol, from the section's start. */
		h->sym = NULL;
		h->sym_len = 0;
		h->sym_size = 0;
		h->off = linked - (a->lo - a->off);
		h->past = t->pool + t->name_off[k];
		h->past_off = linked - t->addr[k];
		h->past_size = size;
		h->note = kres_past_symbol;
		return KRES_CORE;
	}
	h->sym = t->pool + t->name_off[k];
	h->sym_len = t->name_len[k];
	h->off = linked - t->addr[k];
	h->sym_size = size;
	h->past = NULL;
	h->past_off = h->past_size = 0;
	return KRES_CORE;
}

int kres_lookup(const struct kres *r, uint64_t x, const struct kres_when *w, struct kres_hit *h)
{
	size_t i;

	h->candidates = 0;
	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (x - a->lo < a->len)
			return core_hit(r, x - a->off, a, h);
	}
	if (r->nr_mr)
		return lookup_module(r, x, w, h);
	return KRES_UNKNOWN;
}

int kres_lookup_linked(const struct kres *r, uint64_t linked, struct kres_hit *h)
{
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (linked - (a->lo - a->off) < a->len)
			return core_hit(r, linked, a, h);
	}
	return KRES_UNKNOWN;
}

/* "a@1, b@5" for the records holding x at w: what kres_why() names. */
struct why_ctx {
	char *buf;
	size_t len, used;
};

static int name_candidate(const struct kres *r, const struct kres_mrange *c, uint64_t x, void *p)
{
	const struct ks_mod *m = &r->snap->mods[c->mod];
	struct why_ctx *wc = p;
	int n;

	(void)x;
	if (wc->used >= wc->len)
		return 1;
	n = snprintf(wc->buf + wc->used, wc->len - wc->used, "%s%s@%" PRIu64,
		     wc->used ? ", " : "", m->name, m->load_gen.v);
	wc->used += n > 0 ? (size_t)n : 0;
	return 0;
}

const char *kres_why(const struct kres *r, uint64_t x, bool linked, const struct kres_when *w,
		     char *buf, size_t len)
{
	const struct ksnap *s = r->snap;
	char names[256] = "";
	struct why_ctx wc = { names, sizeof(names), 0 };
	unsigned int n;
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];
		uint64_t lo = linked ? a->lo - a->off : a->lo;

		if (x - lo < a->len) {
			snprintf(buf, len, r->tab ? "before the map's first symbol" :
				 "no map of the core kernel's symbols");
			return buf;
		}
	}
	/* A core section the running kernel published no offset for. */
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];
		const struct kval *lo = linked ? &c->linked : &c->runtime;

		if (!ksnap_core_usable(c) && lo->ok && c->size.ok && x - lo->v < c->size.v) {
			snprintf(buf, len, "in core section %s, whose offset kreloc did not publish "
				 "(STATUS %s)", c->name, c->status);
			return buf;
		}
	}
	if (linked) {
		snprintf(buf, len, "not a link-time address of any core section of the snapshot");
		return buf;
	}
	/* A link-time address given where a runtime one belongs. */
	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (a->off && x - (a->lo - a->off) < a->len) {
			snprintf(buf, len, "not a runtime address of the snapshot's boot, but the "
				 "link-time address of %s (0x%" PRIx64 "-0x%" PRIx64 "): give it as "
				 "vmlinux:0x%" PRIx64, a->name, a->lo - a->off, a->lo - a->off + a->len,
				 x);
			return buf;
		}
	}
	n = for_each_range(r, x, w, name_candidate, &wc);
	if (n > 1) {
		snprintf(buf, len, "ambiguous: %u module records held it%s (%s)", n,
			 w ? " at that time" : "; give the time it was taken", names);
		return buf;
	}
	if (w && !n && for_each_range(r, x, NULL, name_candidate, &wc)) {
		snprintf(buf, len, "no module record held it at that time (%s did at another)",
			 names);
		return buf;
	}
	snprintf(buf, len, "in no core section or module record of the snapshot");
	return buf;
}
