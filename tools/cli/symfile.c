// SPDX-License-Identifier: GPL-2.0
/* symfile.c - a module region's symbols as a small ELF file for perf. */
#define _GNU_SOURCE
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "symfile.h"

uint16_t symfile_machine(const char *arch)
{
	if (!arch)
		return 0;
	if (!strcmp(arch, "x86_64"))
		return EM_X86_64;
	if (!strcmp(arch, "aarch64"))
		return EM_AARCH64;
	if (!strcmp(arch, "ppc64") || !strcmp(arch, "ppc64le"))
		return EM_PPC64;
	if (!strcmp(arch, "riscv64"))
		return EM_RISCV;
	if (!strcmp(arch, "s390x"))
		return EM_S390;
	return 0;
}

int symfile_add(struct symfile *s, const char *name, uint64_t value, uint64_t size, bool func)
{
	struct symfile_sym *y;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;

		y = realloc(s->syms, cap * sizeof(*y));
		if (!y)
			return -1;
		s->syms = y;
		s->cap = cap;
	}
	y = &s->syms[s->nr];
	y->name = strdup(name);
	if (!y->name)
		return -1;
	y->value = value;
	y->size = size;
	y->func = func;
	s->nr++;
	return 0;
}

void symfile_free(struct symfile *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->syms[i].name);
	free(s->syms);
	memset(s, 0, sizeof(*s));
}

static int cmp_sym(const void *a, const void *b)
{
	const struct symfile_sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Fields in the file's byte order. */
struct wbuf {
	unsigned char *p;
	bool be;
};

static void put(struct wbuf *w, size_t off, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		w->p[off + (w->be ? (size_t)(n - 1 - i) : (size_t)i)] = (unsigned char)(v >> (8 * i));
}

/* 64-bit FNV-1a of data, started from basis. */
static uint64_t fnv1a(const unsigned char *data, size_t len, uint64_t basis)
{
	uint64_t h = basis;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ data[i]) * 0x100000001b3ULL;
	return h;
}

enum { SH_NULL, SH_TEXT, SH_NOTE, SH_SYMTAB, SH_STRTAB, SH_SHSTRTAB, SH_NR };

static const char shstrtab[] = "\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab";
static const unsigned int sh_name[SH_NR] = { 0, 1, 7, 26, 34, 42 };

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

unsigned char *symfile_image(struct symfile *s, size_t *len)
{
	size_t note = 64, symtab = note + 40, nsyms = s->nr + 1, strtab, strsz = 1, shstr, shdr,
	       total, i, at;
	struct wbuf w;
	uint64_t h[3];

	qsort(s->syms, s->nr, sizeof(*s->syms), cmp_sym);
	for (i = 0; i < s->nr; i++)
		strsz += strlen(s->syms[i].name) + 1;
	strtab = symtab + nsyms * 24;
	shstr = strtab + strsz;
	shdr = ALIGN8(shstr + sizeof(shstrtab));
	total = shdr + SH_NR * 64;
	w.p = calloc(1, total);
	w.be = s->big_endian;
	if (!w.p)
		return NULL;
	/* ELF header */
	memcpy(w.p, ELFMAG, SELFMAG);
	w.p[EI_CLASS] = ELFCLASS64;
	w.p[EI_DATA] = s->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
	w.p[EI_VERSION] = EV_CURRENT;
	put(&w, 16, ET_REL, 2);
	put(&w, 18, s->machine, 2);
	put(&w, 20, EV_CURRENT, 4);
	put(&w, 40, shdr, 8);			/* e_shoff */
	put(&w, 52, 64, 2);			/* e_ehsize */
	put(&w, 58, 64, 2);			/* e_shentsize */
	put(&w, 60, SH_NR, 2);
	put(&w, 62, SH_SHSTRTAB, 2);
	/* the build id note: "GNU", NT_GNU_BUILD_ID, 20 bytes (filled in last) */
	put(&w, note, 4, 4);
	put(&w, note + 4, sizeof(s->build_id), 4);
	put(&w, note + 8, NT_GNU_BUILD_ID, 4);
	memcpy(w.p + note + 12, "GNU", 4);
	/* symbols: every one global, in .text */
	for (i = 0, at = 1; i < s->nr; i++) {
		size_t e = symtab + (i + 1) * 24, n = strlen(s->syms[i].name) + 1;

		put(&w, e, at, 4);
		w.p[e + 4] = ELF64_ST_INFO(STB_GLOBAL, s->syms[i].func ? STT_FUNC : STT_OBJECT);
		put(&w, e + 6, SH_TEXT, 2);
		put(&w, e + 8, s->syms[i].value, 8);
		put(&w, e + 16, s->syms[i].size, 8);
		memcpy(w.p + strtab + at, s->syms[i].name, n);
		at += n;
	}
	memcpy(w.p + shstr, shstrtab, sizeof(shstrtab));
	/* section headers */
	{
		const struct {
			uint32_t type;
			uint64_t flags, off, size, align, entsize;
			uint32_t link, info;
		} sh[SH_NR] = {
			[SH_TEXT] = { SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR, note, s->size, 1, 0, 0, 0 },
			[SH_NOTE] = { SHT_NOTE, SHF_ALLOC, note, 36, 4, 0, 0, 0 },
			[SH_SYMTAB] = { SHT_SYMTAB, 0, symtab, nsyms * 24, 8, 24, SH_STRTAB, 1 },
			[SH_STRTAB] = { SHT_STRTAB, 0, strtab, strsz, 1, 0, 0, 0 },
			[SH_SHSTRTAB] = { SHT_STRTAB, 0, shstr, sizeof(shstrtab), 1, 0, 0, 0 },
		};

		for (i = 1; i < SH_NR; i++) {
			size_t e = shdr + i * 64;

			put(&w, e, sh_name[i], 4);
			put(&w, e + 4, sh[i].type, 4);
			put(&w, e + 8, sh[i].flags, 8);
			put(&w, e + 24, sh[i].off, 8);
			put(&w, e + 32, sh[i].size, 8);
			put(&w, e + 40, sh[i].link, 4);
			put(&w, e + 44, sh[i].info, 4);
			put(&w, e + 48, sh[i].align, 8);
			put(&w, e + 56, sh[i].entsize, 8);
		}
	}
	/* The build id: a digest of everything else (not a security property). */
	for (i = 0; i < 3; i++)
		h[i] = fnv1a(w.p, total, 0xcbf29ce484222325ULL + i);
	for (i = 0; i < sizeof(s->build_id); i++)
		s->build_id[i] = (unsigned char)(h[i / 8] >> (8 * (i % 8)));
	memcpy(w.p + note + 16, s->build_id, sizeof(s->build_id));
	*len = total;
	return w.p;
}
