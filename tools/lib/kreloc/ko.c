// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ko.c - the .ko of a module record, found by build id. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
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
		ko_file_free(&x->files[i]);
	free(x->files);
	ksf_index_free(&x->ix);
	memset(x, 0, sizeof(*x));
}

int ko_file_parse(struct ko_file *k, char *err, size_t errlen)
{
	unsigned char *data;
	const unsigned char *id;
	enum kdc_format fmt;
	size_t len;

	if (k->state) {
		if (k->state < 0)
			snprintf(err, errlen, "%s", k->err ? k->err : "cannot be read");
		return k->state;
	}
	k->state = -1;
	if (kdc_read_file(k->path, &data, &len, &fmt, err, errlen)) {
		k->err = strdup(err);
		return -1;
	}
	if (kelf_parse(&k->elf, data, len)) {
		ksnap_seterr(err, errlen, "%s: %s", k->path, k->elf.err);
		kelf_free(&k->elf);
		k->err = strdup(err);
		return -1;
	}
	k->compressed = fmt != KDC_PLAIN;
	ksf_build_id_hex(id, kelf_build_id(&k->elf, &id), k->build_id);
	k->state = 1;
	return 1;
}

void ko_file_free(struct ko_file *k)
{
	if (k->state > 0)
		kelf_free(&k->elf);
	free(k->err);
	k->err = NULL;
}

/* Read, decompress and parse a candidate once. */
static int ko_parse(struct ko_index *x, struct ko_file *k)
{
	char err[512];
	int was = k->state, r = ko_file_parse(k, err, sizeof(err));

	if (r < 0 && !was && x->warn)
		kr_warn("%s", err);
	return r;
}

/* "; N more could not be read, e.g. REASON" after why's first part. */
static void add_bad(char *why, size_t whylen, size_t bad, const struct ko_file *first)
{
	size_t n = strlen(why);

	if (bad)
		snprintf(why + n, whylen - n, "%s%zu %s not be read, e.g. %s", n ? "; " : "", bad,
			 bad == 1 ? "file of the name could" : "files of the name could",
			 first->err ? first->err : first->path);
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
		kr_warn("cannot search all of %s", err);
	x->files = calloc(x->ix.nr, sizeof(*x->files));
	if (!x->files) {
		if (x->warn && x->ix.nr)
			kr_warn("%s: out of memory", x->dir);
		return;
	}
	x->nr = x->ix.nr;
	for (i = 0; i < x->nr; i++)
		x->files[i].path = x->ix.ko[i].path;
}

struct ko_file *ko_find(struct ko_index *x, const struct ks_mod *m, enum ko_why *w, char *why,
			size_t whylen)
{
	const struct ksf_kofile *f;
	struct ko_file *only = NULL, *first_bad = NULL;
	size_t pos = 0, cands = 0, fits = 0, bad = 0;

	why[0] = '\0';
	*w = KO_NONE;
	if (!x->dir) {
		ksnap_seterr(why, whylen, "no modules directory");
		return NULL;
	}
	if (!x->indexed)
		ko_index(x);
	while (x->files && (f = ksf_index_next(&x->ix, m->name, &pos))) {
		struct ko_file *k = &x->files[f - x->ix.ko];

		if (ko_parse(x, k) < 0) {
			if (!bad++)
				first_bad = k;
			continue;
		}
		cands++;
		if (m->build_id) {
			if (!strcmp(k->build_id, m->build_id)) {
				*w = KO_FOUND;
				return k;
			}
		} else if (same_sections(&k->elf, m)) {
			fits++;
			only = k;
		}
	}
	if (!cands && bad) {
		/* Corrupt is not missing: the file there may be the one. */
		*w = KO_CORRUPT;
		if (bad == 1)
			snprintf(why, whylen, "%s", first_bad->err ? first_bad->err : first_bad->path);
		else
			add_bad(why, whylen, bad, first_bad);
		return NULL;
	}
	if (!cands) {
		ksnap_seterr(why, whylen, "no %s.ko under %s", m->name, x->dir);
		return NULL;
	}
	if (m->build_id) {
		*w = bad ? KO_CORRUPT : KO_OTHER_BUILD;
		ksnap_seterr(why, whylen, "none of the %zu %s%s.ko files under %s has the record's "
			     "build id %s%s", cands, bad ? "readable " : "", m->name, x->dir,
			     m->build_id, bad ? "" : " (another build)");
		add_bad(why, whylen, bad, first_bad);
		return NULL;
	}
	if (fits == 1) {
		*w = KO_FOUND;
		ksnap_seterr(why, whylen, "the snapshot has no build id for this record; using %s, "
			     "the only %s.ko whose sections match", only->path, m->name);
		return only;
	}
	*w = !fits && bad ? KO_CORRUPT : KO_UNSURE;
	ksnap_seterr(why, whylen, "the snapshot has no build id for this record and %zu of the "
		     "%zu %s%s.ko files under %s match its sections", fits, cands,
		     bad ? "readable " : "", m->name, x->dir);
	if (!fits)
		add_bad(why, whylen, bad, first_bad);
	return NULL;
}

struct ko_file *ko_only(struct ko_index *x, const struct ks_mod *m)
{
	const struct ksf_kofile *f, *g;
	size_t pos = 0;

	if (!x->dir)
		return NULL;
	if (!x->indexed)
		ko_index(x);
	if (!x->files || !(f = ksf_index_next(&x->ix, m->name, &pos)))
		return NULL;
	g = ksf_index_next(&x->ix, m->name, &pos);
	if (g || ko_parse(x, &x->files[f - x->ix.ko]) < 0)
		return NULL;
	return &x->files[f - x->ix.ko];
}
