/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symfile.h - a module region's symbols as a small ELF file for perf: the
 * file `kreloc inject` points each module memory region's map at.
 *
 * perf loads a kernel module map's symbols from the .ko as an ET_REL
 * file: .text symbols go into the map, at their offset from its start;
 * symbols of any other section into maps named after the section, placed
 * by their offset in the file (tools/perf/util/symbol-elf.c,
 * dso__process_kernel_symbol()), which is not where the kernel's loader
 * put them, and init sections nowhere useful.  So each region (text,
 * init.text, data, ...) of each module record gets a file of its own whose
 * one section, .text (SHT_NOBITS: no bytes, only an extent), spans the
 * region, with every symbol the region held at its offset from the
 * region's start: perf then names every address of the region right,
 * whatever ELF section it came from.  Its GNU build id is a digest of its
 * contents, so that perf can tell the files apart and find them in its
 * build-id cache.
 */
#ifndef KRELOC_SYMFILE_H
#define KRELOC_SYMFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symfile_sym {
	char *name;
	uint64_t value, size;	/* offset in the region, st_size (0: unknown) */
	bool func;		/* STT_FUNC, else STT_OBJECT */
};

struct symfile {
	uint16_t machine;	/* e_machine */
	bool big_endian;
	uint64_t size;		/* the region's */
	struct symfile_sym *syms;
	size_t nr, cap;
	unsigned char build_id[20];
};

/* The ELF machine of a `uname -m`, or 0 if kreloc does not know it. */
uint16_t symfile_machine(const char *arch);
/* Add a symbol (name copied); 0 or -1 (out of memory). */
int symfile_add(struct symfile *s, const char *name, uint64_t value, uint64_t size, bool func);
/*
 * The file's bytes (malloc'ed, *len bytes), its build id set in s; NULL
 * when out of memory.  The same symbols give the same bytes.
 */
unsigned char *symfile_image(struct symfile *s, size_t *len);
void symfile_free(struct symfile *s);

#endif
