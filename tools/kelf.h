/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kelf.h - kreloc's one ELF reader: sections, symbols and notes of a vmlinux
 * or a .ko of either class and byte order, bounds-checked, from a file
 * (mapped) or from memory (a decompressed module).  Used by kreloc-linkgen,
 * the kreloc CLI and the host unit tests.
 */
#ifndef KRELOC_KELF_H
#define KRELOC_KELF_H

#include <stddef.h>
#include <stdint.h>

struct kelf_section {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, addr, size, offset, entsize, align;
};

struct kelf_sym {
	const char *name;
	uint64_t value, size;
	uint32_t shndx;			/* SHN_XINDEX resolved through SHT_SYMTAB_SHNDX */
	uint8_t type, bind;		/* ELF64_ST_TYPE/BIND of st_info */
};

struct kelf {
	unsigned char *data;
	size_t len;
	int is64, swap, mapped;
	uint16_t machine, type;		/* e_machine, e_type (ET_REL for a .ko) */
	uint32_t flags;			/* e_flags (ppc64: ELF ABI 1 or 2) */
	struct kelf_section *secs;
	size_t nr_secs;
	char err[256];
};

/*
 * Map an ELF file, or parse an ELF image in malloc'ed memory (taken over).
 * Both return 0 or -1 with elf->err set; kelf_free() releases what they
 * hold either way.
 */
int kelf_load(struct kelf *elf, const char *path);
int kelf_parse(struct kelf *elf, unsigned char *data, size_t len);
void kelf_free(struct kelf *elf);
const struct kelf_section *kelf_section(const struct kelf *elf, const char *name);
/* A section's bytes inside the file, or NULL (SHT_NOBITS, out of range). */
const unsigned char *kelf_section_data(const struct kelf *elf, const struct kelf_section *s);
/* GNU build id from the note sections: returns its length or -1. */
int kelf_build_id(const struct kelf *elf, const unsigned char **id);

/*
 * Call cb for every entry of the SHT_SYMTAB section (or SHT_DYNSYM when
 * there is none) except index 0.  Names are checked to lie inside their
 * string table.  Returns the number of symbols, -1 with elf->err set if the
 * table is malformed, or cb's nonzero return value.
 */
long kelf_symbols(struct kelf *elf, int (*cb)(void *ctx, const struct kelf_sym *sym),
		  void *ctx);

/* A NUL-terminated string at a link-time address (e.g. linux_banner), or NULL. */
const char *kelf_string_at(const struct kelf *elf, uint64_t addr);

/*
 * Address of the data object @name in the symbol table: 0 if exactly one
 * STT_OBJECT of that name exists, else -1 (none, several, no symtab).
 */
int kelf_unique_object(const struct kelf *elf, const char *name, uint64_t *addr);

#endif
