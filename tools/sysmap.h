/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* sysmap.h - System.map / /proc/kallsyms parser. */
#ifndef KRELOC_SYSMAP_H
#define KRELOC_SYSMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sysmap_sym {
	uint64_t addr;
	char type;
	char *name;
	char *module;		/* "[mod]" suffix of a kallsyms line, or NULL */
	uint64_t size;		/* an ELF symbol's st_size; 0 for a map's (it has none) */
};

struct sysmap {
	struct sysmap_sym *syms;
	size_t nr, cap;
	size_t *by_name;	/* core symbols sorted by name, after sysmap_index */
	size_t nr_core;
	int placeholder;	/* Debian's one-line "The real System.map is in ..." */
	char err[256];		/* "FILE:LINE: reason" after a failure */
};

/*
 * Parse a System.map or /proc/kallsyms stream ("ADDR TYPE NAME [MOD]" per
 * line).  Returns 0, or -1 with map->err set to "NAME:LINE: reason".
 * A Debian placeholder parses successfully with map->placeholder set.
 */
int sysmap_read(struct sysmap *map, FILE *f, const char *name);
int sysmap_load(struct sysmap *map, const char *path);
void sysmap_free(struct sysmap *map);
/* Append one symbol (copied); returns 0 or -1 (ENOMEM). */
int sysmap_add(struct sysmap *map, uint64_t addr, uint64_t size, char type, const char *name,
	       const char *module);

/* Parse one line; returns 0, 1 for a blank/comment line, -1 if malformed. */
int sysmap_parse_line(char *line, struct sysmap_sym *sym, const char **why);

/*
 * Build a name index (needed by sysmap_lookup); returns 0 or -1 (ENOMEM).
 * After it, sysmap_count() tells how often a core-kernel name occurs.
 */
int sysmap_index(struct sysmap *map);
/* A core-kernel symbol of that name via the index, or NULL. */
const struct sysmap_sym *sysmap_lookup(const struct sysmap *map, const char *name);
size_t sysmap_count(const struct sysmap *map, const char *name);

/*
 * The size of symbol s as kallsyms_lookup_size_offset() gives it: from s to
 * the next higher address of a symbol of the same module (or of the core
 * kernel); 0 if none follows.
 */
uint64_t sysmap_extent(const struct sysmap *map, const struct sysmap_sym *s);

/* First symbol of that name (core kernel only), or NULL. */
const struct sysmap_sym *sysmap_find(const struct sysmap *map, const char *name);

#endif
