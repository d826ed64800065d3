/* SPDX-License-Identifier: GPL-2.0 */
/* kelf.h - minimal, bounds-checked ELF section reader (either class/order). */
#ifndef KRELOC_KELF_H
#define KRELOC_KELF_H

#include <stddef.h>
#include <stdint.h>

struct kelf_section {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, size, offset;
	uint32_t link;
};

struct kelf {
	unsigned char *data;
	size_t len;
	int is64, swap;
	uint16_t machine;
	struct kelf_section *secs;
	size_t nr_secs;
	char err[256];
};

/* Load an ELF file; returns 0 or -1 with elf->err set. */
int kelf_load(struct kelf *elf, const char *path);
/* Parse an ELF image already in memory (takes ownership of data). */
int kelf_parse(struct kelf *elf, unsigned char *data, size_t len);
void kelf_free(struct kelf *elf);
const struct kelf_section *kelf_section(const struct kelf *elf, const char *name);
/*
 * Address of the data object @name in the symbol table: 0 if exactly one
 * STT_OBJECT of that name exists, else -1 (none, several, no symtab).
 */
int kelf_unique_object(const struct kelf *elf, const char *name, uint64_t *addr);
/* GNU build id from the note sections: returns its length or -1. */
int kelf_build_id(const struct kelf *elf, const unsigned char **id);

#endif
