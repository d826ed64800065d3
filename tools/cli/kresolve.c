// SPDX-License-Identifier: GPL-2.0
/* kresolve.c - offline resolution of runtime kernel addresses. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#ifndef KRELOC_NO_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kresolve.h"

static int is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

int kres_rank(char type, const char *name, int abi_v1)
{
	/*
	 * ppc64 ELFv1: the code is `.name`, `name` is the function descriptor
	 * in .opd.  Should a map list both at one address, report the code.
	 */
	if (abi_v1 && name[0] == '.' && is_text(type))
		return 0;
	if (type == 'T')
		return 1;
	if (type == 't')
		return 2;
	if (type == 'W' || type == 'w')
		return 3;
	return 4;
}

/* Symbols kept for nearest-symbol lookup: anything relocated with the image. */
static int keep_core(const struct sysmap_sym *s)
{
	return !s->module && s->type != 'A' && s->type != 'a' && s->type != 'U' &&
	       s->type != 'N' && s->type != 'n' && s->type != '?';
}

struct sortent {
	uint64_t addr;
	uint32_t idx;
	uint8_t rank;
};

static int cmp_sortent(const void *a, const void *b)
{
	const struct sortent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

long kres_find(const struct kres *r, uint64_t x)
{
	size_t b, lo, hi;

	if (!r->nr || x < r->base)
		return -1;
	b = (x - r->base) >> r->shift;
	if (b >= r->nbuckets)
		return (long)r->nr - 1;
	lo = r->bucket[b];
	hi = r->bucket[b + 1];
	/* First index in [lo, hi) with addr > x. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->addr[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static int build_core(struct kres *r, int is_kallsyms, const char *name, char *err, size_t errlen)
{
	const struct ksnap *s = r->snap;
	const struct sysmap_sym *text = NULL;
	struct sortent *e;
	uint64_t delta = 0, span;
	size_t i, n = 0, nonzero = 0, dot_text = 0, pool_len;
	int abi_v1;

	if (r->map.placeholder && !r->map.nr)
		return ksnap_seterr(err, errlen, "%s: Debian's placeholder System.map (the real one is "
			      "in the linux-image-*-dbg package; or use --kallsyms)", name);
	for (i = 0; i < r->map.nr; i++) {
		const struct sysmap_sym *m = &r->map.syms[i];

		if (m->module)
			continue;
		nonzero += m->addr != 0;
		if (!text && !strcmp(m->name, "_text"))
			text = m;
		dot_text += m->name[0] == '.' && m->name[1] && is_text(m->type);
	}
	if (!nonzero)
		return ksnap_seterr(err, errlen, "%s: no core symbol with a nonzero address (a kallsyms "
			      "read without CAP_SYSLOG shows zeros)", name);
	if (is_kallsyms) {
		if (!text)
			return ksnap_seterr(err, errlen, "%s: no _text symbol: cannot tell that boot's offset", name);
		if (!s->ref_linked.ok)
			return ksnap_seterr(err, errlen, "%s: the snapshot has no REF_LINKED: cannot convert "
				      "a kallsyms to link-time addresses", name);
		delta = text->addr - s->ref_linked.v;
	} else if (text && s->ref_linked.ok && text->addr != s->ref_linked.v) {
		return ksnap_seterr(err, errlen, "%s: _text is 0x%" PRIx64 " but the snapshot's REF_LINKED "
			      "is 0x%" PRIx64 ": map of another build", name, text->addr,
			      s->ref_linked.v);
	}
	abi_v1 = (s->abi && !strcmp(s->abi, "v1")) || dot_text > 0;

	e = malloc((r->map.nr + 1) * sizeof(*e));
	if (!e)
		return ksnap_seterr(err, errlen, "%s: out of memory", name);
	for (i = 0; i < r->map.nr; i++) {
		const struct sysmap_sym *m = &r->map.syms[i];

		if (!keep_core(m))
			continue;
		e[n].addr = m->addr - delta;
		e[n].idx = (uint32_t)i;
		e[n].rank = (uint8_t)kres_rank(m->type, m->name, abi_v1);
		n++;
	}
	for (i = 1; i < n; i++)
		if (cmp_sortent(&e[i - 1], &e[i]) > 0)
			break;
	if (i < n)
		qsort(e, n, sizeof(*e), cmp_sortent);
	r->addr = malloc((n + 1) * sizeof(*r->addr));
	r->name_off = malloc((n + 1) * sizeof(*r->name_off));
	r->name_len = malloc((n + 1) * sizeof(*r->name_len));
	if (!r->addr || !r->name_off || !r->name_len) {
		free(e);
		return ksnap_seterr(err, errlen, "%s: out of memory", name);
	}
	r->nr = 0;
	pool_len = 0;
	for (i = 0; i < n; i++) {
		if (r->nr && r->addr[r->nr - 1] == e[i].addr)
			continue;	/* best-ranked alias already taken */
		r->addr[r->nr] = e[i].addr;
		r->name_len[r->nr] = (uint32_t)strlen(r->map.syms[e[i].idx].name);
		r->name_off[r->nr] = (uint32_t)pool_len;
		pool_len += r->name_len[r->nr] + 1;
		e[r->nr].idx = e[i].idx;	/* compact: e[k] <= e[i] */
		r->nr++;
	}
	/* Names packed in address order: neighbours share cache lines. */
	r->pool = malloc(pool_len + 1);
	if (!r->pool) {
		free(e);
		return ksnap_seterr(err, errlen, "%s: out of memory", name);
	}
	for (i = 0; i < r->nr; i++)
		memcpy(r->pool + r->name_off[i], r->map.syms[e[i].idx].name, r->name_len[i] + 1);
	free(e);
	if (!r->nr)
		return ksnap_seterr(err, errlen, "%s: no relocatable symbols", name);

	/* Bucket index: about one symbol per bucket. */
	r->base = r->addr[0];
	span = r->addr[r->nr - 1] - r->base;
	r->shift = 0;
	while ((span >> r->shift) > r->nr && r->shift < 63)
		r->shift++;
	r->nbuckets = (size_t)(span >> r->shift) + 1;
	r->bucket = malloc((r->nbuckets + 1) * sizeof(*r->bucket));
	if (!r->bucket)
		return ksnap_seterr(err, errlen, "%s: out of memory", name);
	for (i = 0, n = 0; i < r->nbuckets; i++) {
		uint64_t start = r->base + ((uint64_t)i << r->shift);

		while (n < r->nr && r->addr[n] < start)
			n++;
		r->bucket[i] = (uint32_t)n;
	}
	r->bucket[r->nbuckets] = (uint32_t)r->nr;
	return 0;
}

/*
 * A core section's area runs from its link-time start to the start of the
 * next section above it (as the module groups its anchors); the last one
 * ends at its SIZE.  Only sections with a published offset are usable.
 */
static void build_areas(struct kres *r)
{
	const struct ksnap *s = r->snap;
	size_t i, j;

	r->nr_area = 0;
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];
		uint64_t hi = 0;
		int have_hi = 0;

		if (!c->linked.ok || !c->offset.ok ||
		    (strcmp(c->status, "ok") && strcmp(c->status, "freed")))
			continue;
		for (j = 0; j < s->nr_core; j++) {
			const struct ks_core *o = &s->core[j];

			if (j != i && o->linked.ok && o->linked.v > c->linked.v &&
			    (!have_hi || o->linked.v < hi)) {
				hi = o->linked.v;
				have_hi = 1;
			}
		}
		if (c->size.ok && (!have_hi || c->linked.v + c->size.v > hi)) {
			if (!have_hi) {
				hi = c->linked.v + c->size.v;
				have_hi = 1;
			}
		}
		if (!have_hi || hi <= c->linked.v)
			continue;
		r->area[r->nr_area].lo = c->linked.v + c->offset.v;
		r->area[r->nr_area].len = hi - c->linked.v;
		r->area[r->nr_area].off = c->offset.v;
		r->area[r->nr_area].name = c->name;
		r->nr_area++;
	}
}

static int cmp_mr(const void *a, const void *b)
{
	const struct kres_mrange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->mod < y->mod ? -1 : x->mod > y->mod;
}

static const struct ks_mem *sort_mem;

static int cmp_memidx(const void *a, const void *b)
{
	const struct ks_mem *x = &sort_mem[*(const size_t *)a];
	const struct ks_mem *y = &sort_mem[*(const size_t *)b];

	if (x->addr.v != y->addr.v)
		return x->addr.v < y->addr.v ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int build_modules(struct kres *r, char *err, size_t errlen)
{
	const struct ksnap *s = r->snap;
	size_t i, j, n = 0;

	for (i = 0; i < s->nr_mods; i++)
		n += s->mods[i].nr_mem;
	r->mr = calloc(n + 1, sizeof(*r->mr));
	r->msec = calloc(s->nr_mods + 1, sizeof(*r->msec));
	r->nr_msec = calloc(s->nr_mods + 1, sizeof(*r->nr_msec));
	r->msyms = calloc(s->nr_mods + 1, sizeof(*r->msyms));
	if (!r->mr || !r->msec || !r->nr_msec || !r->msyms)
		return ksnap_seterr(err, errlen, "out of memory");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];
		size_t ns = 0;

		r->msec[i] = malloc((m->nr_mem + 1) * sizeof(size_t));
		if (!r->msec[i])
			return ksnap_seterr(err, errlen, "out of memory");
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
				if (x->len > r->mr_maxlen)
					r->mr_maxlen = x->len;
			}
		}
		sort_mem = m->mem;
		qsort(r->msec[i], ns, sizeof(size_t), cmp_memidx);
		sort_mem = NULL;
		r->nr_msec[i] = ns;
	}
	qsort(r->mr, r->nr_mr, sizeof(*r->mr), cmp_mr);
	return 0;
}

int kres_init_map(struct kres *r, const struct ksnap *s, struct sysmap *map, int is_kallsyms,
		  const char *map_name, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->snap = s;
	if (map) {
		r->map = *map;
		memset(map, 0, sizeof(*map));
		r->have_map = 1;
		if (build_core(r, is_kallsyms, map_name, err, errlen))
			return -1;
	}
	build_areas(r);
	return build_modules(r, err, errlen);
}

int kres_init(struct kres *r, const struct ksnap *s, const char *map_path, int is_kallsyms,
	      const char *modules_dir, char *err, size_t errlen)
{
	struct sysmap map;

	if (map_path) {
		if (sysmap_load(&map, map_path)) {
			memset(r, 0, sizeof(*r));
			return ksnap_seterr(err, errlen, "%s", map.err);
		}
		if (kres_init_map(r, s, &map, is_kallsyms, map_path, err, errlen))
			return -1;
	} else if (kres_init_map(r, s, NULL, 0, NULL, err, errlen)) {
		return -1;
	}
	r->modules_dir = modules_dir;
	return 0;
}

void kres_free(struct kres *r)
{
	size_t i;

	if (r->have_map)
		sysmap_free(&r->map);
	free(r->addr);
	free(r->name_off);
	free(r->name_len);
	free(r->pool);
	free(r->bucket);
	free(r->mr);
	if (r->snap) {
		for (i = 0; i < r->snap->nr_mods; i++) {
			if (r->msec)
				free(r->msec[i]);
			if (r->msyms) {
				free(r->msyms[i].syms);
				free(r->msyms[i].sec_lo);
				free(r->msyms[i].pool);
			}
		}
	}
	free(r->msec);
	free(r->nr_msec);
	free(r->msyms);
	for (i = 0; i < r->nr_ko; i++) {
		free(r->ko[i].name);
		free(r->ko[i].path);
	}
	free(r->ko);
	memset(r, 0, sizeof(*r));
}

/* ---- .ko files ---- */

#ifndef KRELOC_NO_LIBELF
static char *normalise(const char *name, size_t len)
{
	char *n = strndup(name, len), *p;

	if (n)
		for (p = n; *p; p++)
			if (*p == '-')
				*p = '_';
	return n;
}

static struct kres *walk_r;

static int walk_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	const char *base = path + ftw->base;
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz", NULL };
	size_t blen = strlen(base), i;
	struct kres_kofile *k;

	(void)st;
	if (flag != FTW_F)
		return 0;
	for (i = 0; ext[i]; i++) {
		size_t el = strlen(ext[i]);

		if (blen > el && !strcmp(base + blen - el, ext[i]))
			break;
	}
	if (!ext[i])
		return 0;
	k = realloc(walk_r->ko, (walk_r->nr_ko + 1) * sizeof(*k));
	if (!k)
		return -1;
	walk_r->ko = k;
	k = &k[walk_r->nr_ko];
	k->name = normalise(base, blen - strlen(ext[i]));
	k->path = strdup(path);
	k->compressed = i > 0;
	if (!k->name || !k->path) {
		free(k->name);
		free(k->path);
		return -1;
	}
	walk_r->nr_ko++;
	return 0;
}

static const struct kres_kofile *find_ko(struct kres *r, const char *modname)
{
	const struct kres_kofile *best = NULL;
	char *n;
	size_t i;

	if (!r->modules_dir)
		return NULL;
	if (!r->ko_indexed) {
		r->ko_indexed = 1;
		walk_r = r;
		if (nftw(r->modules_dir, walk_cb, 32, FTW_PHYS) && r->warn)
			fprintf(stderr, "kreloc: %s: cannot search all of it: %s\n",
				r->modules_dir, strerror(errno));
		walk_r = NULL;
	}
	n = normalise(modname, strlen(modname));
	if (!n)
		return NULL;
	for (i = 0; i < r->nr_ko; i++)
		if (!strcmp(r->ko[i].name, n) && (!best || (best->compressed && !r->ko[i].compressed)))
			best = &r->ko[i];
	free(n);
	return best;
}

static const struct ks_mem *mod_section(const struct ks_mod *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_mem; i++)
		if (m->mem[i].kind == KS_SECTION && m->mem[i].addr.ok &&
		    !strcmp(m->mem[i].name, name))
			return &m->mem[i];
	return NULL;
}

struct kosym {
	uint64_t addr, sec_lo;
	size_t name_off;
	int rank;
};

static int cmp_kosym(const void *a, const void *b)
{
	const struct kosym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->name_off < y->name_off ? -1 : x->name_off > y->name_off;
}

/* Read NAME.ko's symbol table, placed at this record's section addresses. */
static void load_modsyms(struct kres *r, size_t mi)
{
	const struct ks_mod *m = &r->snap->mods[mi];
	struct kres_modsyms *ms = &r->msyms[mi];
	const struct kres_kofile *ko;
	struct kosym *ks = NULL;
	size_t nks = 0, shstrndx, i, pool_len = 0;
	FILE *pool = NULL;
	char *pool_buf = NULL;
	Elf_Scn *scn = NULL;
	Elf *e = NULL;
	int fd = -1;

	ms->loaded = 1;
	ko = find_ko(r, m->name);
	if (!ko)
		return;
	if (ko->compressed) {
		if (r->warn)
			fprintf(stderr, "kreloc: %s: compressed modules are not supported; "
				"decompress it next to the original\n", ko->path);
		return;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(ko->path, O_RDONLY);
	if (fd < 0) {
		if (r->warn)
			fprintf(stderr, "kreloc: %s: %s\n", ko->path, strerror(errno));
		return;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		if (r->warn)
			fprintf(stderr, "kreloc: %s: not an ELF file: %s\n", ko->path,
				elf_errmsg(-1));
		goto out;
	}
	/* A .ko of another build would give wrong names: compare section sizes. */
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *sn;
		const struct ks_mem *k;

		if (!gelf_getshdr(scn, &sh) || !(sn = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		k = mod_section(m, sn);
		if (k && k->size.ok && (sh.sh_flags & SHF_EXECINSTR) && k->size.v != sh.sh_size) {
			if (r->warn)
				fprintf(stderr, "kreloc: %s: section %s is 0x%" PRIx64 " bytes but "
					"0x%" PRIx64 " in the snapshot: another build, not used\n",
					ko->path, sn, (uint64_t)sh.sh_size, k->size.v);
			goto out;
		}
	}
	pool = open_memstream(&pool_buf, &pool_len);
	if (!pool)
		goto out;
	scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t cnt;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		cnt = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < cnt; i++) {
			GElf_Sym sym;
			GElf_Shdr ssh;
			Elf_Scn *ss;
			const char *name, *sn;
			const struct ks_mem *k;
			int t;
			struct kosym *nk;

			if (!gelf_getsym(d, (int)i, &sym))
				break;
			t = GELF_ST_TYPE(sym.st_info);
			if (t != STT_FUNC && t != STT_OBJECT && t != STT_NOTYPE)
				continue;
			if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2))
				continue;
			ss = elf_getscn(e, sym.st_shndx);
			if (!ss || !gelf_getshdr(ss, &ssh) ||
			    !(sn = elf_strptr(e, shstrndx, ssh.sh_name)))
				continue;
			k = mod_section(m, sn);
			if (!k)
				continue;
			nk = realloc(ks, (nks + 1) * sizeof(*ks));
			if (!nk)
				goto out;
			ks = nk;
			ks[nks].addr = k->addr.v + sym.st_value;
			ks[nks].sec_lo = k->addr.v;
			ks[nks].name_off = (size_t)ftell(pool);
			ks[nks].rank = (t == STT_FUNC ? 0 : t == STT_OBJECT ? 2 : 4) +
				       (GELF_ST_BIND(sym.st_info) == STB_LOCAL);
			fputs(name, pool);
			fputc('\0', pool);
			nks++;
		}
	}
	if (fclose(pool)) {
		pool = NULL;
		goto out;
	}
	pool = NULL;
	qsort(ks, nks, sizeof(*ks), cmp_kosym);
	ms->syms = malloc((nks + 1) * sizeof(*ms->syms));
	ms->sec_lo = malloc((nks + 1) * sizeof(*ms->sec_lo));
	if (!ms->syms || !ms->sec_lo) {
		free(ms->syms);
		free(ms->sec_lo);
		ms->syms = NULL;
		ms->sec_lo = NULL;
		goto out;
	}
	ms->pool = pool_buf;
	pool_buf = NULL;
	for (i = 0; i < nks; i++) {
		if (ms->nr && ms->syms[ms->nr - 1].addr == ks[i].addr)
			continue;
		ms->syms[ms->nr].addr = ks[i].addr;
		ms->syms[ms->nr].name = ms->pool + ks[i].name_off;
		ms->sec_lo[ms->nr] = ks[i].sec_lo;
		ms->nr++;
	}
out:
	if (pool)
		fclose(pool);
	free(pool_buf);
	free(ks);
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
}
#else
/* Built without libelf (the static in-VM binaries): sections only. */
static void load_modsyms(struct kres *r, size_t mi)
{
	r->msyms[mi].loaded = 1;
}
#endif

/* ---- lookup ---- */

static int lookup_module(struct kres *r, uint64_t x, struct kres_hit *h)
{
	const struct ksnap *s = r->snap;
	const struct kres_mrange *best = NULL;
	const struct ks_mod *m;
	const struct ks_mem *reg, *sec = NULL;
	struct kres_modsyms *ms;
	size_t lo = 0, hi = r->nr_mr, i, mi;

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
		if (x - c->lo < c->len) {
			/* Newest record wins (an address range may have been reused). */
			const struct ks_mod *a = &s->mods[c->mod];

			if (!best || a->load_gen.v > s->mods[best->mod].load_gen.v ||
			    (a->load_gen.v == s->mods[best->mod].load_gen.v && c->mod > best->mod))
				best = c;
		}
	}
	if (!best)
		return KRES_UNKNOWN;
	mi = best->mod;
	m = &s->mods[mi];
	reg = &m->mem[best->mem];
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
	h->section = sec ? sec->name : reg->name;
	h->sym = NULL;
	h->off = x - (sec ? sec->addr.v : reg->addr.v);
	if (!sec)
		return KRES_MODULE;
	ms = &r->msyms[mi];
	if (!ms->loaded)
		load_modsyms(r, mi);
	if (ms->nr) {
		lo = 0;
		hi = ms->nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (ms->syms[mid].addr <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0 && ms->sec_lo[lo - 1] == sec->addr.v) {
			h->sym = ms->syms[lo - 1].name;
			h->sym_len = strlen(h->sym);
			h->off = x - ms->syms[lo - 1].addr;
		}
	}
	return KRES_MODULE;
}

int kres_lookup(struct kres *r, uint64_t x, struct kres_hit *h)
{
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (x - a->lo < a->len) {
			uint64_t linked = x - a->off;
			long k;

			if (!r->nr)
				return KRES_UNKNOWN;
			k = kres_find(r, linked);
			if (k < 0)
				return KRES_UNKNOWN;
			h->sym = r->pool + r->name_off[k];
			h->sym_len = r->name_len[k];
			h->off = linked - r->addr[k];
			h->mod = NULL;
			h->section = a->name;
			return KRES_CORE;
		}
	}
	if (r->nr_mr)
		return lookup_module(r, x, h);
	return KRES_UNKNOWN;
}
