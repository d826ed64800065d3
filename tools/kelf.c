// SPDX-License-Identifier: GPL-2.0
/* kelf.c - minimal, bounds-checked ELF section reader (either class/order). */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kelf.h"
#include "../lib/kreloc_note.h"

static uint16_t g16(const struct kelf *e, const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return e->swap ? __builtin_bswap16(v) : v;
}

static uint32_t g32(const struct kelf *e, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return e->swap ? __builtin_bswap32(v) : v;
}

static uint64_t g64(const struct kelf *e, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return e->swap ? __builtin_bswap64(v) : v;
}

static int host_is_le(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one;
}

static int fail(struct kelf *e, const char *why)
{
	snprintf(e->err, sizeof(e->err), "%s", why);
	return -1;
}

int kelf_parse(struct kelf *e, unsigned char *d, size_t len)
{
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
	const unsigned char *strtab;
	uint64_t strsz;
	size_t i;

	memset(e, 0, sizeof(*e));
	e->data = d;
	e->len = len;
	if (len < EI_NIDENT || memcmp(d, ELFMAG, SELFMAG))
		return fail(e, "not an ELF file");
	if (d[EI_CLASS] != ELFCLASS32 && d[EI_CLASS] != ELFCLASS64)
		return fail(e, "unknown ELF class");
	if (d[EI_DATA] != ELFDATA2LSB && d[EI_DATA] != ELFDATA2MSB)
		return fail(e, "unknown ELF byte order");
	e->is64 = d[EI_CLASS] == ELFCLASS64;
	e->swap = (d[EI_DATA] == ELFDATA2LSB) != host_is_le();
	if (len < (e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return fail(e, "truncated ELF header");
	if (e->is64) {
		e->machine = g16(e, d + offsetof(Elf64_Ehdr, e_machine));
		shoff = g64(e, d + offsetof(Elf64_Ehdr, e_shoff));
		shentsize = g16(e, d + offsetof(Elf64_Ehdr, e_shentsize));
		shnum = g16(e, d + offsetof(Elf64_Ehdr, e_shnum));
		shstrndx = g16(e, d + offsetof(Elf64_Ehdr, e_shstrndx));
	} else {
		e->machine = g16(e, d + offsetof(Elf32_Ehdr, e_machine));
		shoff = g32(e, d + offsetof(Elf32_Ehdr, e_shoff));
		shentsize = g16(e, d + offsetof(Elf32_Ehdr, e_shentsize));
		shnum = g16(e, d + offsetof(Elf32_Ehdr, e_shnum));
		shstrndx = g16(e, d + offsetof(Elf32_Ehdr, e_shstrndx));
	}
	if (!shnum)
		return fail(e, "no section headers");
	if (shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(e, "unexpected section header size");
	if (shoff > len || (uint64_t)shnum * shentsize > len - shoff)
		return fail(e, "section headers past end of file");
	if (shstrndx >= shnum)
		return fail(e, "bad section name table index");

	e->secs = calloc(shnum, sizeof(*e->secs));
	if (!e->secs)
		return fail(e, strerror(ENOMEM));
	e->nr_secs = shnum;
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = d + shoff + i * shentsize;
		struct kelf_section *k = &e->secs[i];

		if (e->is64) {
			k->type = g32(e, s + offsetof(Elf64_Shdr, sh_type));
			k->flags = g64(e, s + offsetof(Elf64_Shdr, sh_flags));
			k->addr = g64(e, s + offsetof(Elf64_Shdr, sh_addr));
			k->offset = g64(e, s + offsetof(Elf64_Shdr, sh_offset));
			k->size = g64(e, s + offsetof(Elf64_Shdr, sh_size));
			k->link = g32(e, s + offsetof(Elf64_Shdr, sh_link));
			k->name = (const char *)(uintptr_t)g32(e, s + offsetof(Elf64_Shdr, sh_name));
		} else {
			k->type = g32(e, s + offsetof(Elf32_Shdr, sh_type));
			k->flags = g32(e, s + offsetof(Elf32_Shdr, sh_flags));
			k->addr = g32(e, s + offsetof(Elf32_Shdr, sh_addr));
			k->offset = g32(e, s + offsetof(Elf32_Shdr, sh_offset));
			k->size = g32(e, s + offsetof(Elf32_Shdr, sh_size));
			k->link = g32(e, s + offsetof(Elf32_Shdr, sh_link));
			k->name = (const char *)(uintptr_t)g32(e, s + offsetof(Elf32_Shdr, sh_name));
		}
	}
	strsz = e->secs[shstrndx].size;
	if (e->secs[shstrndx].offset > len || strsz > len - e->secs[shstrndx].offset ||
	    !strsz)
		return fail(e, "section name table past end of file");
	strtab = d + e->secs[shstrndx].offset;
	if (strtab[strsz - 1] != '\0')
		return fail(e, "section name table not terminated");
	for (i = 0; i < shnum; i++) {
		uintptr_t off = (uintptr_t)e->secs[i].name;

		if (off >= strsz)
			return fail(e, "section name offset out of range");
		e->secs[i].name = (const char *)strtab + off;
	}
	return 0;
}

int kelf_load(struct kelf *e, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *d = NULL;
	size_t len = 0, cap = 0, n;

	memset(e, 0, sizeof(*e));
	if (!f) {
		snprintf(e->err, sizeof(e->err), "%s", strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			unsigned char *nd;

			cap = cap ? cap * 2 : 1 << 20;
			nd = realloc(d, cap);
			if (!nd) {
				free(d);
				fclose(f);
				return fail(e, strerror(ENOMEM));
			}
			d = nd;
		}
		n = fread(d + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	if (ferror(f)) {
		free(d);
		fclose(f);
		return fail(e, "read error");
	}
	fclose(f);
	return kelf_parse(e, d, len);
}

void kelf_free(struct kelf *e)
{
	free(e->data);
	free(e->secs);
	memset(e, 0, sizeof(*e));
}

const struct kelf_section *kelf_section(const struct kelf *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nr_secs; i++)
		if (!strcmp(e->secs[i].name, name))
			return &e->secs[i];
	return NULL;
}

int kelf_unique_object(const struct kelf *e, const char *name, uint64_t *addr)
{
	size_t esz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym), i, j;
	int found = 0;

	for (i = 0; i < e->nr_secs; i++) {
		const struct kelf_section *sym = &e->secs[i], *str;

		if (sym->type != SHT_SYMTAB || sym->link >= e->nr_secs)
			continue;
		str = &e->secs[sym->link];
		if (sym->offset > e->len || sym->size > e->len - sym->offset ||
		    str->offset > e->len || str->size > e->len - str->offset || !str->size)
			continue;
		for (j = 0; j + esz <= sym->size; j += esz) {
			const unsigned char *s = e->data + sym->offset + j;
			uint32_t nm = g32(e, s);
			unsigned char info = s[e->is64 ? offsetof(Elf64_Sym, st_info) :
					     offsetof(Elf32_Sym, st_info)];
			const char *n;

			if (ELF64_ST_TYPE(info) != STT_OBJECT || nm >= str->size)
				continue;
			n = (const char *)e->data + str->offset + nm;
			if (!memchr(n, '\0', str->size - nm) || strcmp(n, name))
				continue;
			*addr = e->is64 ? g64(e, s + offsetof(Elf64_Sym, st_value)) :
				g32(e, s + offsetof(Elf32_Sym, st_value));
			found++;
		}
	}
	return found == 1 ? 0 : -1;
}

int kelf_build_id(const struct kelf *e, const unsigned char **id)
{
	size_t i;

	for (i = 0; i < e->nr_secs; i++) {
		const struct kelf_section *s = &e->secs[i];
		int n;

		if (s->type != SHT_NOTE || s->offset > e->len ||
		    s->size > e->len - s->offset)
			continue;
		n = kreloc_note_build_id(e->data + s->offset, s->size, e->swap, id);
		if (n > 0)
			return n;
	}
	return -1;
}
