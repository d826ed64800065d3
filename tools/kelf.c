// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kelf.c - kreloc's one ELF reader (either class and byte order).
 *
 * Every offset and size read from the file is checked against the image
 * before use, so a truncated or hostile file gives an error, never a read
 * outside it (the host tests fuzz it).
 */
#define _DEFAULT_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
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

/* [off, off + size) lies inside the image. */
static int in_image(const struct kelf *e, uint64_t off, uint64_t size)
{
	return off <= e->len && size <= e->len - off;
}

int kelf_parse(struct kelf *e, unsigned char *d, size_t len)
{
	uint64_t shoff, shnum, shstrndx;
	uint16_t shentsize;
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
		e->type = g16(e, d + offsetof(Elf64_Ehdr, e_type));
		e->flags = g32(e, d + offsetof(Elf64_Ehdr, e_flags));
		shoff = g64(e, d + offsetof(Elf64_Ehdr, e_shoff));
		shentsize = g16(e, d + offsetof(Elf64_Ehdr, e_shentsize));
		shnum = g16(e, d + offsetof(Elf64_Ehdr, e_shnum));
		shstrndx = g16(e, d + offsetof(Elf64_Ehdr, e_shstrndx));
	} else {
		e->machine = g16(e, d + offsetof(Elf32_Ehdr, e_machine));
		e->type = g16(e, d + offsetof(Elf32_Ehdr, e_type));
		e->flags = g32(e, d + offsetof(Elf32_Ehdr, e_flags));
		shoff = g32(e, d + offsetof(Elf32_Ehdr, e_shoff));
		shentsize = g16(e, d + offsetof(Elf32_Ehdr, e_shentsize));
		shnum = g16(e, d + offsetof(Elf32_Ehdr, e_shnum));
		shstrndx = g16(e, d + offsetof(Elf32_Ehdr, e_shstrndx));
	}
	if (!shoff)
		return fail(e, "no section headers");
	if (shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return fail(e, "unexpected section header size");
	/* Extended numbering: past 0xff00 sections the counts are in section 0. */
	if (!shnum || shstrndx == SHN_XINDEX) {
		const unsigned char *s0;

		if (!in_image(e, shoff, shentsize))
			return fail(e, "section headers past end of file");
		s0 = d + shoff;
		if (!shnum)
			shnum = e->is64 ? g64(e, s0 + offsetof(Elf64_Shdr, sh_size)) :
				g32(e, s0 + offsetof(Elf32_Shdr, sh_size));
		if (shstrndx == SHN_XINDEX)
			shstrndx = g32(e, s0 + (e->is64 ? offsetof(Elf64_Shdr, sh_link) :
						offsetof(Elf32_Shdr, sh_link)));
		if (!shnum)
			return fail(e, "no section headers");
	}
	if (shnum > len / shentsize || !in_image(e, shoff, shnum * shentsize))
		return fail(e, "section headers past end of file");
	if (!shstrndx || shstrndx >= shnum)
		return fail(e, "bad section name table index");

	e->secs = calloc(shnum, sizeof(*e->secs));
	if (!e->secs)
		return fail(e, strerror(ENOMEM));
	e->nr_secs = shnum;
	for (i = 0; i < shnum; i++) {
		const unsigned char *s = d + shoff + i * shentsize;
		struct kelf_section *k = &e->secs[i];
		uint32_t name;

		if (e->is64) {
			name = g32(e, s + offsetof(Elf64_Shdr, sh_name));
			k->type = g32(e, s + offsetof(Elf64_Shdr, sh_type));
			k->flags = g64(e, s + offsetof(Elf64_Shdr, sh_flags));
			k->addr = g64(e, s + offsetof(Elf64_Shdr, sh_addr));
			k->offset = g64(e, s + offsetof(Elf64_Shdr, sh_offset));
			k->size = g64(e, s + offsetof(Elf64_Shdr, sh_size));
			k->link = g32(e, s + offsetof(Elf64_Shdr, sh_link));
			k->info = g32(e, s + offsetof(Elf64_Shdr, sh_info));
			k->entsize = g64(e, s + offsetof(Elf64_Shdr, sh_entsize));
			k->align = g64(e, s + offsetof(Elf64_Shdr, sh_addralign));
		} else {
			name = g32(e, s + offsetof(Elf32_Shdr, sh_name));
			k->type = g32(e, s + offsetof(Elf32_Shdr, sh_type));
			k->flags = g32(e, s + offsetof(Elf32_Shdr, sh_flags));
			k->addr = g32(e, s + offsetof(Elf32_Shdr, sh_addr));
			k->offset = g32(e, s + offsetof(Elf32_Shdr, sh_offset));
			k->size = g32(e, s + offsetof(Elf32_Shdr, sh_size));
			k->link = g32(e, s + offsetof(Elf32_Shdr, sh_link));
			k->info = g32(e, s + offsetof(Elf32_Shdr, sh_info));
			k->entsize = g32(e, s + offsetof(Elf32_Shdr, sh_entsize));
			k->align = g32(e, s + offsetof(Elf32_Shdr, sh_addralign));
		}
		k->name = (const char *)(uintptr_t)name;
	}
	strsz = e->secs[shstrndx].size;
	if (!in_image(e, e->secs[shstrndx].offset, strsz) || !strsz)
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
	struct stat st;
	void *map;
	int fd;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(e, strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return fail(e, strerror(errno));
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
		close(fd);
		return fail(e, S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return fail(e, strerror(errno));
	if (kelf_parse(e, map, (size_t)st.st_size)) {
		e->mapped = 1;
		return -1;
	}
	e->mapped = 1;
	return 0;
}

void kelf_free(struct kelf *e)
{
	if (e->mapped)
		munmap(e->data, e->len);
	else
		free(e->data);
	free(e->secs);
	e->data = NULL;
	e->secs = NULL;
	e->len = 0;
	e->nr_secs = 0;
	e->mapped = 0;
}

const struct kelf_section *kelf_section(const struct kelf *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nr_secs; i++)
		if (!strcmp(e->secs[i].name, name))
			return &e->secs[i];
	return NULL;
}

const unsigned char *kelf_section_data(const struct kelf *e, const struct kelf_section *s)
{
	if (s->type == SHT_NOBITS || !in_image(e, s->offset, s->size))
		return NULL;
	return e->data + s->offset;
}

int kelf_build_id(const struct kelf *e, const unsigned char **id)
{
	size_t i;

	for (i = 0; i < e->nr_secs; i++) {
		const struct kelf_section *s = &e->secs[i];
		const unsigned char *p;
		int n;

		if (s->type != SHT_NOTE || !(p = kelf_section_data(e, s)))
			continue;
		n = kreloc_note_build_id(p, s->size, e->swap, id);
		if (n > 0)
			return n;
	}
	return -1;
}

long kelf_symbols(struct kelf *e, int (*cb)(void *ctx, const struct kelf_sym *sym), void *ctx)
{
	const struct kelf_section *tab = NULL, *str, *xs = NULL;
	const unsigned char *p, *names, *xp = NULL;
	size_t i, n, esz = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);

	for (i = 0; i < e->nr_secs && !tab; i++)
		if (e->secs[i].type == SHT_SYMTAB)
			tab = &e->secs[i];
	for (i = 0; i < e->nr_secs && !tab; i++)
		if (e->secs[i].type == SHT_DYNSYM)
			tab = &e->secs[i];
	if (!tab)
		return 0;
	if (tab->entsize != esz || !(p = kelf_section_data(e, tab)))
		return fail(e, "symbol table malformed or past end of file");
	if (tab->link >= e->nr_secs)
		return fail(e, "symbol table names a bad string table");
	str = &e->secs[tab->link];
	names = kelf_section_data(e, str);
	if (!names || !str->size || names[str->size - 1] != '\0')
		return fail(e, "symbol string table malformed or past end of file");
	n = tab->size / esz;
	/* Section indexes past SHN_LORESERVE are in the table's SHT_SYMTAB_SHNDX. */
	for (i = 0; i < e->nr_secs && !xs; i++)
		if (e->secs[i].type == SHT_SYMTAB_SHNDX && e->secs[i].link < e->nr_secs &&
		    &e->secs[e->secs[i].link] == tab)
			xs = &e->secs[i];
	if (xs && (!(xp = kelf_section_data(e, xs)) || xs->size / 4 < n))
		return fail(e, "extended section index table malformed");
	for (i = 1; i < n; i++) {
		const unsigned char *s = p + i * esz;
		struct kelf_sym sym;
		uint32_t name;
		unsigned char info;
		int r;

		if (e->is64) {
			name = g32(e, s + offsetof(Elf64_Sym, st_name));
			info = s[offsetof(Elf64_Sym, st_info)];
			sym.shndx = g16(e, s + offsetof(Elf64_Sym, st_shndx));
			sym.value = g64(e, s + offsetof(Elf64_Sym, st_value));
			sym.size = g64(e, s + offsetof(Elf64_Sym, st_size));
		} else {
			name = g32(e, s + offsetof(Elf32_Sym, st_name));
			info = s[offsetof(Elf32_Sym, st_info)];
			sym.shndx = g16(e, s + offsetof(Elf32_Sym, st_shndx));
			sym.value = g32(e, s + offsetof(Elf32_Sym, st_value));
			sym.size = g32(e, s + offsetof(Elf32_Sym, st_size));
		}
		if (name >= str->size)
			return fail(e, "symbol name offset out of range");
		if (sym.shndx == SHN_XINDEX && xp)
			sym.shndx = g32(e, xp + 4 * i);
		sym.name = (const char *)names + name;
		sym.type = ELF64_ST_TYPE(info);
		sym.bind = ELF64_ST_BIND(info);
		r = cb(ctx, &sym);
		if (r)
			return r;
	}
	return (long)(n ? n - 1 : 0);
}

const char *kelf_string_at(const struct kelf *e, uint64_t addr)
{
	size_t i;

	for (i = 0; i < e->nr_secs; i++) {
		const struct kelf_section *s = &e->secs[i];
		const unsigned char *p;

		if (!(s->flags & SHF_ALLOC) || addr < s->addr || addr - s->addr >= s->size ||
		    !(p = kelf_section_data(e, s)))
			continue;
		p += addr - s->addr;
		if (!memchr(p, '\0', s->size - (addr - s->addr)))
			return NULL;
		return (const char *)p;
	}
	return NULL;
}

struct unique_object {
	const char *name;
	uint64_t addr;
	int found;
};

static int unique_object_cb(void *ctx, const struct kelf_sym *sym)
{
	struct unique_object *u = ctx;

	if (sym->type == STT_OBJECT && !strcmp(sym->name, u->name)) {
		u->addr = sym->value;
		u->found++;
	}
	return 0;
}

int kelf_unique_object(const struct kelf *e, const char *name, uint64_t *addr)
{
	struct kelf tmp = *e;		/* kelf_symbols() may write tmp.err */
	struct unique_object u = { .name = name };

	if (kelf_symbols(&tmp, unique_object_cb, &u) < 0 || u.found != 1)
		return -1;
	*addr = u.addr;
	return 0;
}
