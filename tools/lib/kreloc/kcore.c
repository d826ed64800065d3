// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kcore.c - the core kernel's link-time symbols: read, checked against a snapshot, indexed. */
#define _GNU_SOURCE
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "kcore.h"

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

bool kcore_keep(const struct sysmap_sym *s)
{
	return !s->module && s->type != 'A' && s->type != 'a' && s->type != 'U' &&
	       s->type != 'N' && s->type != 'n' && s->type != '?' && !kallsyms_omits(s->name);
}

/* ---- reading ---- */

/*
 * nm's letter for an ELF symbol of a vmlinux (as scripts/mksysmap and
 * scripts/kallsyms see it), or 0 for one no map lists.
 */
static char nm_letter(const struct kelf *e, const struct kelf_sym *y)
{
	const struct kelf_section *sec;
	char c;

	if (!*y->name || y->shndx == SHN_UNDEF || y->type == STT_FILE || y->type == STT_SECTION)
		return 0;
	if (y->shndx == SHN_ABS) {
		c = 'A';
	} else {
		if (y->shndx >= SHN_LORESERVE || y->shndx >= e->nr_secs)
			return 0;
		sec = &e->secs[y->shndx];
		if (!(sec->flags & SHF_ALLOC))
			return 0;
		if (y->bind == STB_WEAK)
			return y->type == STT_OBJECT ? 'V' : 'W';
		if (sec->flags & SHF_EXECINSTR)
			c = 'T';
		else if (sec->type == SHT_NOBITS)
			c = 'B';
		else if (sec->flags & SHF_WRITE)
			c = 'D';
		else
			c = 'R';
	}
	return y->bind == STB_LOCAL ? (char)tolower((unsigned char)c) : c;
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
	char t = nm_letter(c->elf, y);

	if (!t)
		return 0;
	if (!strcmp(y->name, "linux_banner")) {
		c->banner = y->value;
		c->have_banner = 1;
	}
	return sysmap_add(c->map, y->value, y->size, t, y->name, NULL) ? -2 : 0;
}

/* The errno a reader's message stands for: the file's, or a malformed one. */
static int file_err(const char *msg)
{
	static const int errs[] = { ENOENT, EACCES, EPERM, EISDIR, ENOTDIR, ELOOP };
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strstr(msg, strerror(errs[i])))
			return -errs[i];
	return -EBADMSG;
}

/* A vmlinux's symbol table as a map, with its build id and release. */
static int load_vmlinux(struct kcore *c, const char *path, char *err, size_t errlen)
{
	struct vmlinux_ctx v = { &c->map, NULL, 0, 0 };
	const unsigned char *id;
	struct kelf e;
	long n;
	int ret = 0;

	if (kelf_load(&e, path)) {
		ret = file_err(e.err);
		ksnap_seterr(err, errlen, "%s: %s", path, e.err);
		kelf_free(&e);
		return ret;
	}
	v.elf = &e;
	c->is_rel = e.type == ET_REL;
	ksf_build_id_hex(id, kelf_build_id(&e, &id), c->build_id);
	n = kelf_symbols(&e, vmlinux_sym, &v);
	if (n < 0) {
		ret = n == -2 ? -ENOMEM : -EBADMSG;
		ksnap_seterr(err, errlen, "%s: %s", path, n == -2 ? "out of memory" : e.err);
	} else if (v.have_banner) {
		const char *b = kelf_string_at(&e, v.banner);

		if (b && !strncmp(b, "Linux version ", 14)) {
			c->release = strndup(b + 14, strcspn(b + 14, " \n"));
			if (!c->release)
				ret = kr_seterr(ENOMEM, err, errlen, "out of memory");
		}
	}
	kelf_free(&e);
	return ret;
}

int kcore_load(struct kcore *c, enum kres_map_kind kind, const char *path, char *err,
	       size_t errlen)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->origin = KRELOC_ORIGIN_LOCAL;
	c->path = strdup(path);
	if (!c->path)
		return kr_seterr(ENOMEM, err, errlen, "out of memory");
	if (kind == KRES_VMLINUX) {
		ret = load_vmlinux(c, path, err, errlen);
	} else if (sysmap_load(&c->map, path)) {
		ret = file_err(c->map.err);
		ksnap_seterr(err, errlen, "%s", c->map.err);
	} else {
		ret = 0;
	}
	if (!ret && sysmap_index(&c->map))
		ret = kr_seterr(ENOMEM, err, errlen, "%s: out of memory", path);
	return ret;
}

int kcore_from_map(struct kcore *c, enum kres_map_kind kind, struct sysmap *map,
		   const char *name, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->origin = KRELOC_ORIGIN_LOCAL;
	c->map = *map;
	memset(map, 0, sizeof(*map));
	c->path = strdup(name ? name : "map");
	if (!c->path || sysmap_index(&c->map))
		return kr_seterr(ENOMEM, err, errlen, "out of memory");
	return 0;
}

void kcore_free(struct kcore *c)
{
	if (c->tab) {
		kres_tab_free(c->tab);
		free(c->tab);
	}
	sysmap_free(&c->map);
	free(c->path);
	free(c->release);
	memset(c, 0, sizeof(*c));
}

/* ---- is it the snapshot's build? ---- */

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
 * The anchors the snapshot names (link-time addresses the running kernel
 * itself confirmed; for a snapshot without anchors, the starts of text,
 * rodata and init.text) must agree in the map: every one the map has must
 * be at the snapshot's address, and every one in a core section the map
 * has symbols in must be there.  A section the map has nothing of
 * (kallsyms without KALLSYMS_ALL lists no data) is not asked for, but one
 * agreeing anchor is not enough where others are missing: a two-line map
 * with the right _text and a wrong do_sys_openat2 names nothing right.
 */
int kres_check_map(const struct ksnap *s, const struct sysmap *map, uint64_t delta,
		   const char *name, char *err, size_t errlen)
{
	static const struct { const char *section, *marker; } starts[] = {
		{ "text", "_text" }, { "rodata", "__start_rodata" }, { "init.text", "_sinittext" },
	};
	struct ks_area a[KSNAP_MAX_CORE];
	size_t covered[KSNAP_MAX_CORE] = { 0 };
	size_t na, i, j, total, agree = 0, differ = 0, missing = 0, nmiss = 0;
	char first[2 * KSNAP_NAME_MAX + 128] = "", miss[4 * KSNAP_NAME_MAX] = "";

	na = ksnap_core_areas(s, a);
	for (i = 0; i < map->nr; i++) {
		const struct sysmap_sym *m = &map->syms[i];

		if (!kcore_keep(m))
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

static bool known(const char *v)
{
	return v && *v && strcmp(v, "-");
}

/* A vmlinux's own identity: not a module, its build id, _text, symbols, release. */
static int check_vmlinux(const struct kcore *c, const struct ksnap *s, const struct sysmap_sym *text,
			 char *err, size_t errlen)
{
	const char *p = c->path;
	int have_id = known(s->build_id) && c->build_id[0];

	if (c->is_rel)
		return kr_seterr(ESTALE, err, errlen, "%s is a relocatable object (a module?), not a "
				    "vmlinux", p);
	if (have_id && strcasecmp(s->build_id, c->build_id))
		return kr_seterr(ESTALE, err, errlen, "%s has build id %s, but the snapshot's kernel "
				    "(%s) has %s: another build", p, c->build_id, s->osrelease,
				    s->build_id);
	if (text && s->ref_linked.ok && text->addr != s->ref_linked.v)
		return kr_seterr(ESTALE, err, errlen, "%s links %s at 0x%" PRIx64 ", the snapshot's "
				    "kernel at 0x%" PRIx64 ": another build", p, text->name,
				    text->addr, s->ref_linked.v);
	if (!c->map.nr)
		return kr_seterr(ENODATA, err, errlen, "%s: no symbol table (stripped, as in vmlinuz; the "
				    "kernel's -dbg package has one)", p);
	if (!have_id && !(s->ref_linked.ok && text))
		return kr_seterr(ESTALE, err, errlen, "%s: neither a build id nor _text to tell "
				    "whether it is the snapshot's kernel", p);
	if (c->release && known(s->osrelease) && strcmp(c->release, s->osrelease))
		return kr_seterr(ESTALE, err, errlen, "%s: release %s, but the snapshot is of release %s",
				    p, c->release, s->osrelease);
	return 0;
}

/* kcore_check() but for the file's name. */
static int check_content(const struct kcore *c, const struct ksnap *s, uint64_t *delta,
			 int *abi_v1, char *err, size_t errlen)
{
	const struct sysmap_sym *text = NULL;
	const char *name = c->path;
	size_t i, nonzero = 0, dot_text = 0;
	/*
	 * The symbol REF_LINKED is the address of: the module's reference,
	 * _stext on arm64 (whose kallsyms has no _text), _text elsewhere.
	 */
	const char *ref = s->arch && !strcmp(s->arch, "aarch64") ? "_stext" : "_text";
	int ret;

	*delta = 0;
	*abi_v1 = 0;
	for (i = 0; i < c->map.nr; i++) {
		const struct sysmap_sym *m = &c->map.syms[i];

		if (m->module)
			continue;
		nonzero += m->addr != 0;
		if (!text && !strcmp(m->name, ref))
			text = m;
		dot_text += m->name[0] == '.' && m->name[1] && is_text(m->type);
	}
	if (c->kind == KRES_VMLINUX) {
		ret = check_vmlinux(c, s, text, err, errlen);
		if (ret)
			return ret;
	}
	if (c->map.placeholder && !c->map.nr)
		return kr_seterr(ENODATA, err, errlen, "%s: Debian's placeholder System.map (the real one is "
				    "in the linux-image-*-dbg package)", name);
	if (!nonzero)
		return kr_seterr(ENODATA, err, errlen, "%s: no core symbol with a nonzero address (a kallsyms "
				    "read without CAP_SYSLOG shows zeros)", name);
	if (c->kind == KRES_KALLSYMS) {
		if (!text)
			return kr_seterr(ENODATA, err, errlen, "%s: no %s symbol: cannot tell that boot's "
					    "offset", name, ref);
		if (!s->ref_linked.ok)
			return kr_seterr(ENODATA, err, errlen, "%s: the snapshot has no REF_LINKED: cannot "
					    "convert a kallsyms to link-time addresses", name);
		*delta = text->addr - s->ref_linked.v;
	} else if (text && s->ref_linked.ok && text->addr != s->ref_linked.v) {
		return kr_seterr(ESTALE, err, errlen, "%s: %s is 0x%" PRIx64 " there, the snapshot's "
				    "kernel links it at 0x%" PRIx64 ": the map of another build",
				    name, ref, text->addr, s->ref_linked.v);
	}
	if (kres_check_map(s, &c->map, *delta, name, err, errlen))
		return -ESTALE;
	*abi_v1 = (s->abi && !strcmp(s->abi, "v1")) || dot_text > 0;
	return 0;
}

/*
 * The content decides: a file's name is a hint at most.  Profilers keep
 * maps in caches under names of their own (System.map-host42, a .orig
 * copy): a map whose build id, _text and anchors agree is the snapshot's,
 * whatever its name says; one that differs is named in the reason.
 */
int kcore_check(const struct kcore *c, const struct ksnap *s, uint64_t *delta, int *abi_v1,
		char *err, size_t errlen)
{
	const char *rel = c->kind == KRES_SYSTEM_MAP ? map_release(c->path) : NULL;
	int ret = check_content(c, s, delta, abi_v1, err, errlen);
	size_t n;

	if (ret && rel && known(s->osrelease) && strcmp(rel, s->osrelease)) {
		n = strlen(err);
		snprintf(err + n, errlen - n, " (its file name says release %s)", rel);
	}
	return ret;
}

/* ---- the lookup table ---- */

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

void kres_tab_free(struct kres_tab *t)
{
	free(t->addr);
	free(t->name_off);
	free(t->name_len);
	free(t->size);
	free(t->pool);
	free(t->bucket);
	memset(t, 0, sizeof(*t));
}

long kres_find(const struct kres_tab *t, uint64_t x)
{
	size_t b, lo, hi;

	if (!t->nr || x < t->base)
		return -1;
	b = (x - t->base) >> t->shift;
	if (b >= t->nbuckets)
		return (long)t->nr - 1;
	lo = t->bucket[b];
	hi = t->bucket[b + 1];
	/* First index in [lo, hi) with addr > x. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->addr[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

int kres_tab_build(struct kres_tab *t, const struct kcore *c, uint64_t delta, int abi_v1,
		   char *err, size_t errlen)
{
	const struct sysmap *map = &c->map;
	const char *name = c->path;
	struct sortent *e;
	uint64_t span;
	size_t i, n = 0, pool_len;
	uint32_t has_size = 0;

	memset(t, 0, sizeof(*t));
	e = malloc((map->nr + 1) * sizeof(*e));
	if (!e)
		goto oom;
	for (i = 0; i < map->nr; i++) {
		const struct sysmap_sym *m = &map->syms[i];

		if (!kcore_keep(m))
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
	t->addr = malloc((n + 1) * sizeof(*t->addr));
	t->name_off = malloc((n + 1) * sizeof(*t->name_off));
	t->name_len = malloc((n + 1) * sizeof(*t->name_len));
	t->size = calloc(n + 1, sizeof(*t->size));
	if (!t->addr || !t->name_off || !t->name_len || !t->size)
		goto oom;
	pool_len = 0;
	for (i = 0; i < n; i++) {
		uint64_t sz = map->syms[e[i].idx].size;

		if (sz > UINT32_MAX)
			sz = 0;
		if (t->nr && t->addr[t->nr - 1] == e[i].addr) {
			/* best-ranked alias already taken; its size, if it has none, an alias's */
			if (!t->size[t->nr - 1])
				has_size |= t->size[t->nr - 1] = (uint32_t)sz;
			continue;
		}
		t->addr[t->nr] = e[i].addr;
		t->name_len[t->nr] = (uint32_t)strlen(map->syms[e[i].idx].name);
		t->name_off[t->nr] = (uint32_t)pool_len;
		pool_len += t->name_len[t->nr] + 1;
		has_size |= t->size[t->nr] = (uint32_t)sz;
		e[t->nr].idx = e[i].idx;	/* compact: e[k] <= e[i] */
		t->nr++;
	}
	/* Names packed in address order: neighbours share cache lines. */
	t->pool = malloc(pool_len + 1);
	if (!t->pool)
		goto oom;
	for (i = 0; i < t->nr; i++)
		memcpy(t->pool + t->name_off[i], map->syms[e[i].idx].name, t->name_len[i] + 1);
	free(e);
	e = NULL;
	if (!has_size) {
		/* A map, not a vmlinux: no sizes to tell where a symbol ends. */
		free(t->size);
		t->size = NULL;
	}
	if (!t->nr) {
		kres_tab_free(t);
		return kr_seterr(ENODATA, err, errlen, "%s: no relocatable symbols", name);
	}

	/* Bucket index: about one symbol per bucket. */
	t->base = t->addr[0];
	span = t->addr[t->nr - 1] - t->base;
	t->shift = 0;
	while ((span >> t->shift) > t->nr && t->shift < 63)
		t->shift++;
	t->nbuckets = (size_t)(span >> t->shift) + 1;
	t->bucket = malloc((t->nbuckets + 1) * sizeof(*t->bucket));
	if (!t->bucket)
		goto oom;
	for (i = 0, n = 0; i < t->nbuckets; i++) {
		uint64_t start = t->base + ((uint64_t)i << t->shift);

		while (n < t->nr && t->addr[n] < start)
			n++;
		t->bucket[i] = (uint32_t)n;
	}
	t->bucket[t->nbuckets] = (uint32_t)t->nr;
	return 0;
oom:
	free(e);
	kres_tab_free(t);
	ksnap_seterr(err, errlen, "%s: out of memory", name);
	return -ENOMEM;
}
