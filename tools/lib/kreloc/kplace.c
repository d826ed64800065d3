// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kplace.c - check a .ko against a module record; kallsyms type letters. */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "kplace.h"

static const char *const unplaced[] = {
	/* kernel/module/main.c: SHF_ALLOC cleared before layout */
	".modinfo", "__versions", ".data..percpu", NULL,
};

static const char *const arch_sized[] = {
	/* module_frob_arch_sections(): ppc64, arm64, riscv, loongarch */
	".stubs", ".plt", ".init.plt", ".text.ftrace_trampoline", ".got", ".got.plt", NULL,
};

static int in_set(const char *name, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(name, *set))
			return 1;
	return 0;
}

int kplace_unplaced(const char *name)
{
	return in_set(name, unplaced);
}

int kplace_arch_sized(const char *name)
{
	return in_set(name, arch_sized);
}

uint64_t kplace_page(const char *arch)
{
	/* arm64 may run 4K, 16K or 64K pages: allow the largest */
	if (arch && (!strncmp(arch, "ppc64", 5) || !strcmp(arch, "aarch64")))
		return 65536;
	return 4096;
}

/* The region of m that contains addr, or NULL. */
static const struct ks_mem *region_of(const struct ks_mod *m, uint64_t addr);

int kplace_section_placed(const struct ks_mod *m, const struct ks_mem *k)
{
	const struct ks_mem *r;

	if (k->kind != KS_SECTION || !k->addr.ok || !strcmp(k->state, "freed"))
		return 0;
	r = region_of(m, k->addr.v);
	if (r ? !strncmp(r->name, "init.", 5) : !strncmp(k->name, ".init", 5))
		return r && !strcmp(r->state, "live");
	return 1;
}

/* The loader makes the symbol and string tables allocated itself (kallsyms). */
static int loader_allocs(const char *name)
{
	return !strcmp(name, ".symtab") || !strcmp(name, ".strtab");
}

static const struct kplace_sec *find_sec(const struct kplace_sec *secs, size_t nr,
					 const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (secs[i].name && !strcmp(secs[i].name, name))
			return &secs[i];
	return NULL;
}

static int placed_by_loader(const struct kplace_sec *s)
{
	return (s->flags & SHF_ALLOC) && s->size && !kplace_unplaced(s->name);
}

/* The region of m that contains addr, or NULL. */
static const struct ks_mem *region_of(const struct ks_mod *m, uint64_t addr)
{
	size_t i;

	for (i = 0; i < m->nr_mem; i++) {
		const struct ks_mem *r = &m->mem[i];

		if (r->kind == KS_REGION && r->addr.ok && r->size.ok &&
		    addr - r->addr.v < r->size.v)
			return r;
	}
	return NULL;
}

struct placed {
	const struct ks_mem *rec;
	const struct kplace_sec *sec;
	const struct ks_mem *region;
	int arch_sized;		/* sized by the arch at load: the file's size is not it */
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->rec->addr.v != y->rec->addr.v)
		return x->rec->addr.v < y->rec->addr.v ? -1 : 1;
	return strcmp(x->rec->name, y->rec->name);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

int kplace_check(const struct kplace_sec *secs, size_t nr, const struct ks_mod *m,
		 uint64_t page, char *why, size_t whylen)
{
	struct placed *p;
	uint64_t zero_align = 1;
	size_t i, n = 0, nrec = 0;
	int ret = -1;

	for (i = 0; i < m->nr_mem; i++) {
		const struct ks_mem *k = &m->mem[i];
		const struct kplace_sec *s;

		if (k->kind != KS_SECTION || !k->addr.ok)
			continue;
		nrec++;
		s = find_sec(secs, nr, k->name);
		if (!s)
			return ksnap_seterr(why, whylen, "the loaded module had a section %s, "
					    "this file has none", k->name);
		if (!(s->flags & SHF_ALLOC) && !loader_allocs(k->name))
			return ksnap_seterr(why, whylen, "the loaded module had a section %s, "
					    "which this file does not load", k->name);
	}
	if (!nrec)
		return ksnap_seterr(why, whylen, "the record has no section addresses");
	for (i = 0; i < nr; i++) {
		const struct kplace_sec *s = &secs[i];
		size_t j;

		if (!s->name)
			continue;
		if ((s->flags & SHF_ALLOC) && !s->size && s->align > zero_align)
			zero_align = s->align;
		if (!placed_by_loader(s))
			continue;
		for (j = 0; j < m->nr_mem; j++)
			if (m->mem[j].kind == KS_SECTION && m->mem[j].addr.ok &&
			    !strcmp(m->mem[j].name, s->name))
				break;
		if (j == m->nr_mem)
			return ksnap_seterr(why, whylen, "this file has a section %s (0x%" PRIx64
					    " bytes) that the loaded module did not have",
					    s->name, s->size);
	}

	p = calloc(nrec, sizeof(*p));
	if (!p)
		return ksnap_seterr(why, whylen, "out of memory");
	for (i = 0; i < m->nr_mem; i++) {
		const struct ks_mem *k = &m->mem[i];
		const struct kplace_sec *s;

		if (k->kind != KS_SECTION || !k->addr.ok)
			continue;
		s = find_sec(secs, nr, k->name);
		p[n].rec = k;
		p[n].sec = s;
		p[n].region = region_of(m, k->addr.v);
		p[n].arch_sized = kplace_arch_sized(k->name);
		n++;
	}
	qsort(p, n, sizeof(*p), cmp_placed);
	for (i = 0; i < n; i++) {
		const struct placed *a = &p[i], *b = i + 1 < n ? &p[i + 1] : NULL;
		uint64_t start = a->rec->addr.v, end = start + a->sec->size, gap, allowed;

		if (end < start) {
			ksnap_seterr(why, whylen, "section %s at 0x%" PRIx64 " with 0x%" PRIx64
				     " bytes runs past the end of the address space",
				     a->rec->name, start, a->sec->size);
			goto out;
		}
		/*
		 * The symbol and string tables are as big as the file that was
		 * loaded: strip --strip-debug (Debian's installed modules) or its
		 * -dbg twin differ there and nowhere else.  Where they start is
		 * checked; what follows them is not.
		 */
		/*
		 * An arch-sized section (arm64's .init.plt, ppc64's .stubs) has
		 * its size set by the loader, not the file: where it ends, and so
		 * the gap after it, is not known.
		 */
		if (!a->region || loader_allocs(a->rec->name) || a->arch_sized)
			continue;
		if (end - a->region->addr.v > a->region->size.v) {
			ksnap_seterr(why, whylen, "section %s (0x%" PRIx64 " bytes in this file) "
				     "would run past the end of region %s (0x%" PRIx64 "+0x%" PRIx64
				     ")", a->rec->name, a->sec->size, a->region->name,
				     a->region->addr.v, a->region->size.v);
			goto out;
		}
		if (!b || b->region != a->region)
			continue;
		if (end > b->rec->addr.v) {
			ksnap_seterr(why, whylen, "section %s (0x%" PRIx64 " bytes in this file at "
				     "0x%" PRIx64 ") would overlap %s at 0x%" PRIx64, a->rec->name,
				     a->sec->size, start, b->rec->name, b->rec->addr.v);
			goto out;
		}
		/* Before it, only that a's end does not overlap it. */
		if (b->arch_sized)
			continue;
		gap = b->rec->addr.v - end;
		allowed = max_u64(max_u64(b->sec->align, 1), zero_align);
		if (!(b->rec->addr.v & 4095))
			allowed = max_u64(allowed, page);
		if (gap >= allowed) {
			ksnap_seterr(why, whylen, "section %s (0x%" PRIx64 " bytes in this file at "
				     "0x%" PRIx64 ") leaves 0x%" PRIx64 " bytes before %s, more than "
				     "its alignment 0x%" PRIx64 " pads", a->rec->name, a->sec->size,
				     start, gap, b->rec->name, allowed);
			goto out;
		}
	}
	ret = 0;
out:
	free(p);
	return ret;
}

char kplace_type(const struct kplace_sec *sec, enum kplace_shn shn, unsigned int bind,
		 unsigned int stt, int exported)
{
	char t;

	if (bind == STB_WEAK)
		t = stt == STT_OBJECT ? 'v' : 'w';
	else if (shn == KPLACE_SHN_UNDEF)
		t = 'U';
	else if (shn == KPLACE_SHN_ABS)
		t = 'a';
	else if (shn != KPLACE_SHN_SEC || !sec)
		t = '?';
	else if (sec->flags & SHF_EXECINSTR)
		t = 't';
	else if ((sec->flags & SHF_ALLOC) && sec->type != SHT_NOBITS)
		t = sec->flags & SHF_WRITE ? 'd' : 'r';
	else if (sec->type == SHT_NOBITS)
		t = 'b';
	else if (sec->name && !strncmp(sec->name, ".debug", 6))
		t = 'n';
	else
		t = '?';
	if (t >= 'a' && t <= 'z')
		return exported ? (char)(t - 'a' + 'A') : t;
	return t;
}
