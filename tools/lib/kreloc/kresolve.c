// SPDX-License-Identifier: GPL-2.0
/* kresolve.c - offline resolution of runtime kernel addresses. */
#define _XOPEN_SOURCE 700
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "main.h"
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

/*
 * Names a System.map or vmlinux has but kallsyms never lists, so no running
 * kernel names an address by them (the lists of scripts/kallsyms.c): ppc64
 * linker stubs ("0000006d.plt_branch.memblock_alloc_try_nid" answered an
 * address in the ppc64le map that kallsyms gives to the function before
 * it), arm/arm64 thunks and veneers, CFI type ids.  Nor does it list
 * names starting with ".L", which scripts/mksysmap takes for local labels:
 * on ppc64 ABIv1 that includes the code of LZ4_* (".LZ4_decompress_safe"),
 * so a vmlinux named addresses that the System.map and the kernel give to
 * the function before.
 */
static int kallsyms_omits(const char *name)
{
	static const char *const exact[] = { "_SDA_BASE_", "_SDA2_BASE_" };
	static const char *const prefix[] = { ".L", "__efistub_", "__kvm_nvhe_$", "__kvm_nvhe_.L",
		"__AArch64ADRPThunk_", "__ARMV5PILongThunk_", "__ARMV7PILongThunk_",
		"__ThumbV7PILongThunk_", "__LA25Thunk_", "__microLA25Thunk_", "__kcfi_typeid_" };
	static const char *const suffix[] = { "_from_arm", "_from_thumb", "_veneer" };
	static const char *const inside[] = { ".long_branch.", ".plt_branch." };
	size_t i, n = strlen(name);

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(name, exact[i]))
			return 1;
	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return 1;
	for (i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++)
		if (n >= strlen(suffix[i]) && !strcmp(name + n - strlen(suffix[i]), suffix[i]))
			return 1;
	for (i = 0; i < sizeof(inside) / sizeof(inside[0]); i++)
		if (strstr(name, inside[i]))
			return 1;
	return 0;
}

/* Symbols kept for nearest-symbol lookup: anything relocated with the image. */
static int keep_core(const struct sysmap_sym *s)
{
	return !s->module && s->type != 'A' && s->type != 'a' && s->type != 'U' &&
	       s->type != 'N' && s->type != 'n' && s->type != '?' && !kallsyms_omits(s->name);
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

/* The release a "System.map-RELEASE" file name gives, or NULL. */
static const char *map_release(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "System.map-", 11) && base[11] ? base + 11 : NULL;
}

/* The area (of ksnap_core_areas()) named section, or -1. */
static int area_named(const struct ks_area *a, size_t n, const char *section)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(a[i].name, section))
			return (int)i;
	return -1;
}

/* Does the map have name at link-time address want (m->addr - delta)? */
static int map_has(const struct sysmap *map, const char *name, uint64_t delta, uint64_t want,
		   size_t count)
{
	const struct sysmap_sym *m = sysmap_lookup(map, name);
	size_t i;

	if (count == 1)
		return m->addr - delta == want;
	for (i = 0; i < map->nr; i++)
		if (!map->syms[i].module && map->syms[i].addr - delta == want &&
		    !strcmp(map->syms[i].name, name))
			return 1;
	return 0;
}

/* Append name to a short list ("a, b, c", then "..."). */
static void list_add(char *list, size_t len, size_t *n, const char *name)
{
	size_t used = strlen(list);

	if (*n < 3)
		snprintf(list + used, len - used, "%s%.*s", *n ? ", " : "", KSNAP_NAME_MAX, name);
	else if (*n == 3)
		snprintf(list + used, len - used, ", ...");
	(*n)++;
}

/*
 * kres_check_map(): is the map of the snapshot's kernel?  The anchors the snapshot names
 * (link-time addresses the running kernel itself confirmed; for a
 * snapshot without anchors, the starts of text, rodata and init.text) must
 * agree in it: every one the map has must be at the snapshot's address,
 * and every one in a core section the map has symbols in must be there.
 * A section the map has nothing of (kallsyms without KALLSYMS_ALL lists no
 * data) is not asked for, but one agreeing anchor is not enough where
 * others are missing: a two-line map with the right _text and a wrong
 * do_sys_openat2 names nothing right.
 */
int kres_check_map(const struct ksnap *s, struct sysmap *map, uint64_t delta, const char *name,
		   char *err, size_t errlen)
{
	static const struct { const char *section, *marker; } starts[] = {
		{ "text", "_text" }, { "rodata", "__start_rodata" }, { "init.text", "_sinittext" },
	};
	struct ks_area a[KSNAP_MAX_CORE];
	size_t covered[KSNAP_MAX_CORE] = { 0 };
	size_t na, i, j, total, agree = 0, differ = 0, missing = 0, nmiss = 0;
	char first[2 * KSNAP_NAME_MAX + 128] = "", miss[4 * KSNAP_NAME_MAX] = "";

	if (sysmap_index(map))
		return ksnap_seterr(err, errlen, "%s: out of memory", name);
	na = ksnap_core_areas(s, a);
	for (i = 0; i < map->nr; i++) {
		const struct sysmap_sym *m = &map->syms[i];

		if (!keep_core(m))
			continue;
		for (j = 0; j < na; j++)
			if (m->addr - delta - a[j].lo < a[j].hi - a[j].lo)
				covered[j]++;
	}
	total = s->nr_anchors ? s->nr_anchors : sizeof(starts) / sizeof(starts[0]);
	for (i = 0; i < total; i++) {
		const char *sym, *section;
		uint64_t want;
		size_t count;
		int k;

		if (s->nr_anchors) {
			sym = s->anchors[i].name;
			want = s->anchors[i].linked.v;
			section = s->anchors[i].section;
		} else {
			const struct ks_core *c = ksnap_core(s, starts[i].section);

			if (!c || !c->linked.ok)
				continue;
			sym = starts[i].marker;
			want = c->linked.v;
			section = starts[i].section;
		}
		count = sysmap_count(map, sym);
		k = area_named(a, na, section);
		if (!count) {
			/* Missing where the map has symbols: it is not that kernel's. */
			if (k >= 0 && covered[k]) {
				missing++;
				list_add(miss, sizeof(miss), &nmiss, sym);
			}
			continue;
		}
		if (map_has(map, sym, delta, want, count)) {
			agree++;
			continue;
		}
		if (!differ++)
			snprintf(first, sizeof(first), "%.*s is 0x%" PRIx64 " there, 0x%" PRIx64
				 " in the snapshot's kernel", KSNAP_NAME_MAX, sym,
				 sysmap_lookup(map, sym)->addr - delta, want);
	}
	if (differ)
		return ksnap_seterr(err, errlen, "%s: not the link-time map of the snapshot's kernel "
				    "(%s, build id %s): %zu of the %zu anchors it has differ, e.g. %s",
				    name, s->osrelease, s->build_id, differ, differ + agree, first);
	if (missing)
		return ksnap_seterr(err, errlen, "%s: not shown to be the link-time map of the "
				    "snapshot's kernel (%s): %zu of the snapshot's %zu anchors in the "
				    "sections it covers are not in it (%s); %zu agree", name,
				    s->osrelease, missing, missing + agree, miss, agree);
	if (!agree)
		return ksnap_seterr(err, errlen, "%s: none of the snapshot's %zu anchors is in it: "
				    "cannot tell that it is the link-time map of the snapshot's kernel "
				    "(%s)", name, total, s->osrelease);
	return 0;
}

static int build_core(struct kres *r, enum kres_map_kind kind, const char *name, char *err,
		      size_t errlen)
{
	const struct ksnap *s = r->snap;
	const struct sysmap_sym *text = NULL;
	const char *rel;
	struct sortent *e;
	uint64_t delta = 0, span;
	size_t i, n = 0, nonzero = 0, dot_text = 0, pool_len;
	/*
	 * The symbol REF_LINKED is the address of: the module's reference,
	 * _stext on arm64 (whose kallsyms has no _text), _text elsewhere.
	 */
	const char *ref = s->arch && !strcmp(s->arch, "aarch64") ? "_stext" : "_text";
	int abi_v1;

	if (r->map.placeholder && !r->map.nr)
		return ksnap_seterr(err, errlen, "%s: Debian's placeholder System.map (the real one is "
			      "in the linux-image-*-dbg package; or use --kallsyms)", name);
	rel = kind == KRES_SYSTEM_MAP ? map_release(name) : NULL;
	if (rel && s->osrelease && strcmp(s->osrelease, "-") && strcmp(rel, s->osrelease))
		return ksnap_seterr(err, errlen, "%s: the map of release %s, but the snapshot is of "
				    "%s", name, rel, s->osrelease);
	for (i = 0; i < r->map.nr; i++) {
		const struct sysmap_sym *m = &r->map.syms[i];

		if (m->module)
			continue;
		nonzero += m->addr != 0;
		if (!text && !strcmp(m->name, ref))
			text = m;
		dot_text += m->name[0] == '.' && m->name[1] && is_text(m->type);
	}
	if (!nonzero)
		return ksnap_seterr(err, errlen, "%s: no core symbol with a nonzero address (a kallsyms "
			      "read without CAP_SYSLOG shows zeros)", name);
	if (kind == KRES_KALLSYMS) {
		if (!text)
			return ksnap_seterr(err, errlen, "%s: no %s symbol: cannot tell that boot's offset",
					    name, ref);
		if (!s->ref_linked.ok)
			return ksnap_seterr(err, errlen, "%s: the snapshot has no REF_LINKED: cannot convert "
				      "a kallsyms to link-time addresses", name);
		delta = text->addr - s->ref_linked.v;
	} else if (text && s->ref_linked.ok && text->addr != s->ref_linked.v) {
		return ksnap_seterr(err, errlen, "%s: %s is 0x%" PRIx64 " but the snapshot's REF_LINKED "
			      "is 0x%" PRIx64 ": map of another build", name, ref, text->addr,
			      s->ref_linked.v);
	}
	if (kres_check_map(s, &r->map, delta, name, err, errlen))
		return -1;
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

/* The core sections' areas (ksnap_core_areas()), at their runtime address. */
static void build_areas(struct kres *r)
{
	struct ks_area a[KSNAP_MAX_CORE];
	size_t i;

	r->nr_area = ksnap_core_areas(r->snap, a);
	for (i = 0; i < r->nr_area; i++) {
		r->area[i].lo = a[i].lo + a[i].off;
		r->area[i].len = a[i].hi - a[i].lo;
		r->area[i].off = a[i].off;
		r->area[i].name = a[i].name;
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

static int init_common(struct kres *r, const struct ksnap *s, struct sysmap *map,
		       enum kres_map_kind kind, const char *map_name, int warn, char *err,
		       size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->snap = s;
	r->warn = warn;
	if (map) {
		r->map = *map;
		memset(map, 0, sizeof(*map));
		r->have_map = 1;
		if (build_core(r, kind, map_name, err, errlen))
			return -1;
	}
	build_areas(r);
	return build_modules(r, err, errlen);
}

int kres_init_map(struct kres *r, const struct ksnap *s, struct sysmap *map,
		  enum kres_map_kind kind, const char *map_name, char *err, size_t errlen)
{
	return init_common(r, s, map, kind, map_name, 0, err, errlen);
}

/* nm's letter for an ELF symbol, or 0 for one that is not relocated with the image. */
static char sym_letter(const struct kelf *e, const struct kelf_sym *y)
{
	const struct kelf_section *sec;
	char c;

	if (!*y->name || y->shndx == SHN_UNDEF || y->shndx == SHN_ABS ||
	    y->shndx >= SHN_LORESERVE || y->shndx >= e->nr_secs ||
	    y->type == STT_FILE || y->type == STT_SECTION)
		return 0;
	sec = &e->secs[y->shndx];
	if (!(sec->flags & SHF_ALLOC))
		return 0;
	if (sec->flags & SHF_EXECINSTR)
		c = y->bind == STB_WEAK ? 'W' : 'T';
	else if (sec->type == SHT_NOBITS)
		c = 'B';
	else if (sec->flags & SHF_WRITE)
		c = 'D';
	else
		c = 'R';
	return y->bind == STB_LOCAL ? (char)(c - 'A' + 'a') : c;
}

struct vmlinux_ctx {
	struct sysmap *map;
	const struct kelf *elf;
	uint64_t banner;
	int have_banner;
};

static int vmlinux_sym(void *ctx, const struct kelf_sym *y)
{
	struct vmlinux_ctx *c = ctx;
	char t = sym_letter(c->elf, y);

	if (!t)
		return 0;
	if (!strcmp(y->name, "linux_banner")) {
		c->banner = y->value;
		c->have_banner = 1;
	}
	return sysmap_add(c->map, y->value, t, y->name, NULL) ? -2 : 0;
}

/* A vmlinux's symbol table as a map; its build id and release must be the snapshot's. */
static int load_vmlinux(struct sysmap *map, const struct ksnap *s, const char *path, char *err,
			size_t errlen)
{
	struct vmlinux_ctx c = { map, NULL, 0, 0 };
	const unsigned char *id;
	char hex[KSF_BUILD_ID_HEX];
	struct kelf e;
	long n;

	memset(map, 0, sizeof(*map));
	if (kelf_load(&e, path)) {
		ksnap_seterr(err, errlen, "%s: %s", path, e.err);
		kelf_free(&e);
		return -1;
	}
	c.elf = &e;
	ksf_build_id_hex(id, kelf_build_id(&e, &id), hex);
	if (s->build_id && strcmp(s->build_id, "-") && strcmp(hex, s->build_id)) {
		ksnap_seterr(err, errlen, "%s: build id %s, but the snapshot's kernel has %s: "
			     "another build", path, *hex ? hex : "(none)", s->build_id);
		kelf_free(&e);
		return -1;
	}
	n = kelf_symbols(&e, vmlinux_sym, &c);
	if (n < 0) {
		ksnap_seterr(err, errlen, "%s: %s", path, n == -2 ? "out of memory" : e.err);
		kelf_free(&e);
		sysmap_free(map);
		return -1;
	}
	if (!map->nr) {
		ksnap_seterr(err, errlen, "%s: no symbol table (a stripped vmlinux, as in vmlinuz: "
			     "use --system-map or --kallsyms)", path);
		kelf_free(&e);
		return -1;
	}
	if (c.have_banner && s->osrelease && strcmp(s->osrelease, "-")) {
		const char *b = kelf_string_at(&e, c.banner);
		size_t rl = strlen(s->osrelease);

		if (b && !strncmp(b, "Linux version ", 14) &&
		    (strncmp(b + 14, s->osrelease, rl) || (b[14 + rl] != ' ' && b[14 + rl]))) {
			ksnap_seterr(err, errlen, "%s: release %.*s, but the snapshot is of "
				     "release %s", path, (int)strcspn(b + 14, " \n"), b + 14,
				     s->osrelease);
			kelf_free(&e);
			sysmap_free(map);
			return -1;
		}
	}
	kelf_free(&e);
	return 0;
}

int kres_init(struct kres *r, const struct ksnap *s, const char *map_path,
	      enum kres_map_kind kind, const char *modules_dir, char *err, size_t errlen)
{
	struct sysmap map;
	int ret;

	if (!map_path) {
		ret = init_common(r, s, NULL, kind, NULL, 1, err, errlen);
	} else if (kind == KRES_VMLINUX) {
		if (load_vmlinux(&map, s, map_path, err, errlen)) {
			memset(r, 0, sizeof(*r));
			return -1;
		}
		ret = init_common(r, s, &map, kind, map_path, 1, err, errlen);
	} else {
		if (sysmap_load(&map, map_path)) {
			memset(r, 0, sizeof(*r));
			return ksnap_seterr(err, errlen, "%s", map.err);
		}
		ret = init_common(r, s, &map, kind, map_path, 1, err, errlen);
	}
	ko_index_init(&r->ko, modules_dir, true);
	return ret;
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
	ko_index_free(&r->ko);
	memset(r, 0, sizeof(*r));
}

/* ---- .ko files ---- */

struct kosym {
	uint64_t addr, sec_lo;
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

struct kosym_ctx {
	const struct kelf *elf;
	const struct ks_mod *m;
	struct kosym *ks;
	size_t nr, cap;
	size_t pool_len;
};

static int kosym_cb(void *ctx, const struct kelf_sym *y)
{
	struct kosym_ctx *c = ctx;
	const struct ks_mem *k;
	struct kosym *n;

	if (y->type != STT_FUNC && y->type != STT_OBJECT && y->type != STT_NOTYPE)
		return 0;
	if (y->shndx == SHN_UNDEF || y->shndx >= SHN_LORESERVE || y->shndx >= c->elf->nr_secs)
		return 0;
	if (!*y->name || y->name[0] == '$' || !strncmp(y->name, ".L", 2))
		return 0;
	k = ksnap_mod_section(c->m, c->elf->secs[y->shndx].name);
	if (!k)
		return 0;
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;

		n = realloc(c->ks, cap * sizeof(*n));
		if (!n)
			return -2;
		c->ks = n;
		c->cap = cap;
	}
	n = &c->ks[c->nr++];
	n->addr = k->addr.v + y->value;
	n->sec_lo = k->addr.v;
	n->name = y->name;
	n->rank = (y->type == STT_FUNC ? 0 : y->type == STT_OBJECT ? 2 : 4) +
		  (y->bind == STB_LOCAL);
	c->pool_len += strlen(y->name) + 1;
	return 0;
}

/* The record's .ko symbol table, placed at the record's section addresses. */
static void load_modsyms(struct kres *r, size_t mi)
{
	const struct ks_mod *m = &r->snap->mods[mi];
	struct kres_modsyms *ms = &r->msyms[mi];
	struct kosym_ctx c = { 0 };
	struct ko_file *ko;
	enum ko_why w;
	char why[1024];
	size_t i, off = 0;

	ms->loaded = 1;
	ko = ko_find(&r->ko, m, &w, why, sizeof(why));
	if (r->warn && why[0])
		p_warn("%s: %s%s", m->name, why, ko ? "" : ": its addresses are named by section "
		       "(.text+0x...), not by symbol");
	if (!ko)
		return;
	c.elf = &ko->elf;
	c.m = m;
	if (kelf_symbols(&ko->elf, kosym_cb, &c) < 0) {
		if (r->warn)
			p_warn("%s: %s", ko->path, ko->elf.err);
		goto out;
	}
	qsort(c.ks, c.nr, sizeof(*c.ks), cmp_kosym);
	ms->syms = malloc((c.nr + 1) * sizeof(*ms->syms));
	ms->sec_lo = malloc((c.nr + 1) * sizeof(*ms->sec_lo));
	ms->pool = malloc(c.pool_len + 1);
	if (!ms->syms || !ms->sec_lo || !ms->pool) {
		free(ms->syms);
		free(ms->sec_lo);
		free(ms->pool);
		ms->syms = NULL;
		ms->sec_lo = NULL;
		ms->pool = NULL;
		goto out;
	}
	for (i = 0; i < c.nr; i++) {
		size_t l;

		if (ms->nr && ms->syms[ms->nr - 1].addr == c.ks[i].addr)
			continue;	/* the best-ranked alias is taken */
		l = strlen(c.ks[i].name) + 1;
		memcpy(ms->pool + off, c.ks[i].name, l);
		ms->syms[ms->nr].addr = c.ks[i].addr;
		ms->syms[ms->nr].name = ms->pool + off;
		ms->sec_lo[ms->nr] = c.ks[i].sec_lo;
		off += l;
		ms->nr++;
	}
out:
	free(c.ks);
}

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

/* The symbol at or before link-time address linked, in area a. */
static int core_hit(const struct kres *r, uint64_t linked, const char *area, struct kres_hit *h)
{
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
	h->section = area;
	return KRES_CORE;
}

int kres_lookup(struct kres *r, uint64_t x, struct kres_hit *h)
{
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (x - a->lo < a->len)
			return core_hit(r, x - a->off, a->name, h);
	}
	if (r->nr_mr)
		return lookup_module(r, x, h);
	return KRES_UNKNOWN;
}

int kres_lookup_linked(struct kres *r, uint64_t linked, struct kres_hit *h)
{
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];

		if (linked - (a->lo - a->off) < a->len)
			return core_hit(r, linked, a->name, h);
	}
	return KRES_UNKNOWN;
}

const char *kres_why(const struct kres *r, uint64_t x, bool linked, char *buf, size_t len)
{
	const struct ksnap *s = r->snap;
	size_t i;

	for (i = 0; i < r->nr_area; i++) {
		const struct kres_area *a = &r->area[i];
		uint64_t lo = linked ? a->lo - a->off : a->lo;

		if (x - lo < a->len) {
			snprintf(buf, len, r->nr ? "before the map's first symbol" :
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
	snprintf(buf, len, "in no core section or module record of the snapshot");
	return buf;
}
