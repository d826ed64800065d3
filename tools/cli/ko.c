// SPDX-License-Identifier: GPL-2.0
/* ko.c - the .ko of a module record, found by build id. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "main.h"
#include "decompress.h"
#include "ko.h"

void ko_index_init(struct ko_index *x, const char *dir, bool warn)
{
	memset(x, 0, sizeof(*x));
	x->dir = dir;
	x->warn = warn;
}

void ko_index_free(struct ko_index *x)
{
	size_t i;

	for (i = 0; i < x->nr; i++)
		if (x->files[i].state > 0)
			kelf_free(&x->files[i].elf);
	free(x->files);
	ksf_index_free(&x->ix);
	memset(x, 0, sizeof(*x));
}

/* Read, decompress and parse a candidate once. */
static int ko_parse(struct ko_index *x, struct ko_file *k)
{
	char err[512];
	unsigned char *data;
	const unsigned char *id;
	size_t len;
	int n, i;

	if (k->state)
		return k->state;
	k->state = -1;
	if (kdc_read_file(k->path, &data, &len, err, sizeof(err))) {
		if (x->warn)
			p_warn("%s", err);
		return -1;
	}
	if (kelf_parse(&k->elf, data, len)) {
		if (x->warn)
			p_warn("%s: %s", k->path, k->elf.err);
		kelf_free(&k->elf);
		return -1;
	}
	n = kelf_build_id(&k->elf, &id);
	for (i = 0; i < n && i < KSNAP_BUILD_ID_MAX; i++)
		sprintf(k->build_id + 2 * i, "%02x", id[i]);
	k->state = 1;
	return 1;
}

/*
 * The record lists exactly the sections the kernel keeps of this .ko: the
 * allocated, non-empty ones, less .modinfo and __versions (the loader
 * clears their SHF_ALLOC), plus .symtab and .strtab (it sets it for its
 * kallsyms copy).
 */
static bool kept(const struct kelf_section *s)
{
	if (!s->size || !*s->name)
		return false;
	if (!strcmp(s->name, ".symtab") || !strcmp(s->name, ".strtab"))
		return true;
	return (s->flags & SHF_ALLOC) && strcmp(s->name, ".modinfo") &&
	       strcmp(s->name, "__versions");
}

static bool same_sections(const struct kelf *e, const struct ks_mod *m)
{
	size_t i, j, listed = 0;

	for (j = 0; j < m->nr_mem; j++) {
		const struct kelf_section *s;

		if (m->mem[j].kind != KS_SECTION)
			continue;
		listed++;
		s = kelf_section(e, m->mem[j].name);
		if (!s || !kept(s))
			return false;
	}
	for (i = 0; i < e->nr_secs; i++) {
		const struct kelf_section *s = &e->secs[i];
		bool found = false;

		/* .symtab and .strtab are kept only with CONFIG_KALLSYMS. */
		if (!kept(s) || !(s->flags & SHF_ALLOC))
			continue;
		for (j = 0; j < m->nr_mem && !found; j++)
			found = m->mem[j].kind == KS_SECTION && !strcmp(m->mem[j].name, s->name);
		if (!found)
			return false;
	}
	return listed > 0;
}

/* Index the directory once (ksf_index_dir()), keeping what it found. */
static void ko_index(struct ko_index *x)
{
	char err[1024];
	size_t i;

	x->indexed = true;
	if (ksf_index_dir(&x->ix, x->dir, err, sizeof(err)) && x->warn)
		p_warn("cannot search all of %s", err);
	x->files = calloc(x->ix.nr, sizeof(*x->files));
	if (!x->files) {
		if (x->warn && x->ix.nr)
			p_warn("%s: out of memory", x->dir);
		return;
	}
	x->nr = x->ix.nr;
	for (i = 0; i < x->nr; i++)
		x->files[i].path = x->ix.ko[i].path;
}

const struct ko_file *ko_find(struct ko_index *x, const struct ks_mod *m)
{
	const struct ksf_kofile *f;
	struct ko_file *only = NULL;
	size_t pos = 0, cands = 0, fits = 0;

	if (!x->dir)
		return NULL;
	if (!x->indexed)
		ko_index(x);
	while (x->files && (f = ksf_index_next(&x->ix, m->name, &pos))) {
		struct ko_file *k = &x->files[f - x->ix.ko];

		if (ko_parse(x, k) < 0)
			continue;
		cands++;
		if (m->build_id) {
			if (!strcmp(k->build_id, m->build_id))
				return k;
		} else if (same_sections(&k->elf, m)) {
			fits++;
			only = k;
		}
	}
	if (!x->warn)
		return m->build_id || fits != 1 ? NULL : only;
	if (!cands) {
		p_warn("%s: no %s.ko under %s: its symbols are not named", m->name, m->name, x->dir);
		return NULL;
	}
	if (m->build_id) {
		p_warn("%s: none of the %zu %s.ko files under %s has build id %s (another build): "
		       "its symbols are not named", m->name, cands, m->name, x->dir, m->build_id);
		return NULL;
	}
	if (fits == 1) {
		p_warn("%s: the snapshot has no build id for this record; using %s, the only "
		       "%s.ko whose sections match", m->name, only->path, m->name);
		return only;
	}
	p_warn("%s: the snapshot has no build id for this record and %zu of the %zu %s.ko "
	       "files under %s match its sections: its symbols are not named", m->name, fits,
	       cands, m->name, x->dir);
	return NULL;
}
