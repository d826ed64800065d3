// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* sysmap.c - System.map / /proc/kallsyms parser. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* qsort_r */
#endif
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sysmap.h"
#include "../lib/kreloc_spec.h"

#define SYSMAP_PLACEHOLDER "The real System.map is in"
/* KSYM_NAME_LEN, with the NUL: Rust's mangled names need more than 128. */
#define SYSMAP_MAX_NAME KRELOC_SPEC_NAME_MAX

int sysmap_parse_line(char *line, struct sysmap_sym *sym, const char **why)
{
	char *p = line, *end, *name, *mod = NULL;
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 1;
	if (!isxdigit((unsigned char)*p)) {
		*why = "address is not hexadecimal";
		return -1;
	}
	errno = 0;
	sym->addr = strtoull(p, &end, 16);
	if (errno || end - p > 16) {
		*why = "address out of range";
		return -1;
	}
	if (*end != ' ' && *end != '\t') {
		*why = "expected a blank after the address";
		return -1;
	}
	p = end;
	while (*p == ' ' || *p == '\t')
		p++;
	/* nm's letters, and '?' for what it cannot classify (__nosave_begin). */
	if ((!isalpha((unsigned char)*p) && *p != '?') || (p[1] != ' ' && p[1] != '\t')) {
		*why = "expected a one-letter symbol type";
		return -1;
	}
	sym->type = *p;
	p += 2;
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (p == name) {
		*why = "missing symbol name";
		return -1;
	}
	if (p - name >= SYSMAP_MAX_NAME) {
		*why = "symbol name too long";
		return -1;
	}
	if (*p) {
		*p++ = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[') {
			mod = ++p;
			p = strchr(p, ']');
			if (!p || p == mod) {
				*why = "malformed [module] suffix";
				return -1;
			}
			*p++ = '\0';
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p) {
			*why = "trailing text after the symbol";
			return -1;
		}
	}
	sym->name = name;
	sym->module = mod;
	sym->size = 0;
	return 0;
}

static int sysmap_push(struct sysmap *map, const struct sysmap_sym *s)
{
	struct sysmap_sym *n;

	if (map->nr == map->cap) {
		size_t cap = map->cap ? map->cap * 2 : 4096;

		n = realloc(map->syms, cap * sizeof(*n));
		if (!n)
			return -1;
		map->syms = n;
		map->cap = cap;
	}
	n = &map->syms[map->nr];
	*n = *s;
	n->name = strdup(s->name);
	n->module = s->module ? strdup(s->module) : NULL;
	if (!n->name || (s->module && !n->module)) {
		free(n->name);
		free(n->module);
		return -1;
	}
	map->nr++;
	return 0;
}

int sysmap_add(struct sysmap *map, uint64_t addr, uint64_t size, char type, const char *name,
	       const char *module)
{
	struct sysmap_sym s = { addr, type, (char *)name, (char *)module, size };

	return sysmap_push(map, &s);
}

int sysmap_read(struct sysmap *map, FILE *f, const char *fname)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t n;
	int ret = 0;

	memset(map, 0, sizeof(*map));
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct sysmap_sym s;
		const char *why = NULL;
		int r;

		lineno++;
		if ((size_t)n != strlen(line)) {
			snprintf(map->err, sizeof(map->err),
				 "%s:%lu: NUL byte in line", fname, lineno);
			ret = -1;
			break;
		}
		if (strstr(line, SYSMAP_PLACEHOLDER)) {
			map->placeholder = 1;
			continue;
		}
		r = sysmap_parse_line(line, &s, &why);
		if (r > 0)
			continue;
		if (r < 0) {
			snprintf(map->err, sizeof(map->err), "%s:%lu: %s",
				 fname, lineno, why);
			ret = -1;
			break;
		}
		if (sysmap_push(map, &s)) {
			snprintf(map->err, sizeof(map->err), "%s:%lu: %s",
				 fname, lineno, strerror(ENOMEM));
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(map->err, sizeof(map->err), "%s: read error", fname);
		ret = -1;
	}
	free(line);
	if (ret)
		sysmap_free(map);
	return ret;
}

int sysmap_load(struct sysmap *map, const char *path)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f) {
		memset(map, 0, sizeof(*map));
		snprintf(map->err, sizeof(map->err), "%s: %s", path,
			 strerror(errno));
		return -1;
	}
	ret = sysmap_read(map, f, path);
	fclose(f);
	return ret;
}

void sysmap_free(struct sysmap *map)
{
	size_t i;

	for (i = 0; i < map->nr; i++) {
		free(map->syms[i].name);
		free(map->syms[i].module);
	}
	free(map->syms);
	free(map->by_name);
	map->by_name = NULL;
	map->syms = NULL;
	map->nr = map->cap = 0;
}

uint64_t sysmap_extent(const struct sysmap *map, const struct sysmap_sym *s)
{
	uint64_t next = 0;
	size_t i;

	for (i = 0; i < map->nr; i++) {
		const struct sysmap_sym *o = &map->syms[i];

		if (o->addr <= s->addr || (next && o->addr >= next))
			continue;
		if (!o->module != !s->module || (s->module && strcmp(o->module, s->module)))
			continue;
		next = o->addr;
	}
	return next ? next - s->addr : 0;
}

const struct sysmap_sym *sysmap_find(const struct sysmap *map, const char *name)
{
	size_t i;

	for (i = 0; i < map->nr; i++)
		if (!map->syms[i].module && !strcmp(map->syms[i].name, name))
			return &map->syms[i];
	return NULL;
}

/* (qsort_r: several threads may index maps at once) */
static int cmp_idx(const void *a, const void *b, void *arg)
{
	const struct sysmap *map = arg;
	const struct sysmap_sym *x = &map->syms[*(const size_t *)a];
	const struct sysmap_sym *y = &map->syms[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* Stable: file order among equal names, like kallsyms_lookup_name(). */
	return x < y ? -1 : x > y;
}

int sysmap_index(struct sysmap *map)
{
	size_t i, n = 0;

	free(map->by_name);
	map->by_name = malloc((map->nr + 1) * sizeof(*map->by_name));
	if (!map->by_name)
		return -1;
	for (i = 0; i < map->nr; i++)
		if (!map->syms[i].module)
			map->by_name[n++] = i;
	map->nr_core = n;
	qsort_r(map->by_name, n, sizeof(*map->by_name), cmp_idx, map);
	return 0;
}

/* Position of the first indexed entry named @name, or nr_core. */
static size_t lower_bound(const struct sysmap *map, const char *name)
{
	size_t lo = 0, hi = map->nr_core;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(map->syms[map->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct sysmap_sym *sysmap_lookup(const struct sysmap *map, const char *name)
{
	size_t i = lower_bound(map, name);

	if (i < map->nr_core && !strcmp(map->syms[map->by_name[i]].name, name))
		return &map->syms[map->by_name[i]];
	return NULL;
}

size_t sysmap_count(const struct sysmap *map, const char *name)
{
	size_t i = lower_bound(map, name), n = 0;

	while (i + n < map->nr_core && !strcmp(map->syms[map->by_name[i + n]].name, name))
		n++;
	return n;
}
