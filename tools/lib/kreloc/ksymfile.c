// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ksymfile.c - ELF symbol files (vmlinux, .ko, compressed or not) through kelf. */
#define _XOPEN_SOURCE 700
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "decompress.h"
#include "ksymfile.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void read_modinfo(struct ksymfile *f, const unsigned char *d, size_t len)
{
	const char *p = (const char *)d, *end = p + len;

	/* NUL-separated key=value strings */
	while (p < end) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		if (!z)
			break;
		if (!strncmp(p, "name=", 5))
			f->modname = p + 5;
		else if (!strncmp(p, "vermagic=", 9))
			f->vermagic = p + 9;
		p = z + 1;
	}
}

struct symctx {
	struct ksymfile *f;
	size_t nexp, cap;
};

static int add_sym(void *ctx, const struct kelf_sym *y)
{
	struct symctx *c = ctx;
	struct ksymfile *f = c->f;
	struct ksf_sym *s;

	if (!*y->name)
		return 0;
	if (f->nr_syms == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 1024;
		struct ksf_sym *n = realloc(f->syms, cap * sizeof(*n));
		const char **x = realloc(f->exports, cap * sizeof(*x));

		if (n)
			f->syms = n;
		if (x)
			f->exports = x;
		if (!n || !x)
			return -2;
		c->cap = cap;
	}
	s = &f->syms[f->nr_syms];
	s->name = y->name;
	s->value = y->value;
	s->size = y->size;
	s->bind = y->bind;
	s->stt = y->type;
	s->shndx = y->shndx;
	if (y->shndx == SHN_UNDEF)
		s->shn = KPLACE_SHN_UNDEF;
	else if (y->shndx == SHN_ABS)
		s->shn = KPLACE_SHN_ABS;
	else if (y->shndx >= f->nr_secs ||
		 (y->shndx >= SHN_LORESERVE && y->shndx <= SHN_HIRESERVE))
		s->shn = KPLACE_SHN_OTHER;
	else
		s->shn = KPLACE_SHN_SEC;
	/*
	 * /proc/kallsyms shows a module symbol in upper case when it is
	 * in the module's EXPORT_SYMBOL table (mod->syms, not the _gpl one).
	 */
	if (!strncmp(y->name, "__ksymtab_", 10) && y->name[10] && s->shn == KPLACE_SHN_SEC &&
	    f->secs[s->shndx].name && !strcmp(f->secs[s->shndx].name, "__ksymtab"))
		f->exports[c->nexp++] = y->name + 10;
	f->nr_syms++;
	return 0;
}

char *ksf_build_id_hex(const unsigned char *id, int n, char out[KSF_BUILD_ID_HEX])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	out[0] = '\0';
	if (n <= 0 || n > KSNAP_BUILD_ID_MAX)
		return out;
	for (i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
	return out;
}

/* Everything but reading the file: sections, .modinfo, build id, symbols. */
static int fill(struct ksymfile *f, const char *path, int want_syms, char *err, size_t errlen)
{
	const unsigned char *id;
	struct symctx c = { f, 0, 0 };
	size_t i;
	long r;

	f->is_rel = f->elf->type == ET_REL;
	f->nr_secs = f->elf->nr_secs;
	f->secs = calloc(f->nr_secs + 1, sizeof(*f->secs));
	if (!f->secs)
		return ksnap_seterr(err, errlen, "out of memory");
	for (i = 0; i < f->nr_secs; i++) {
		const struct kelf_section *k = &f->elf->secs[i];

		f->secs[i].name = k->name;
		f->secs[i].type = k->type;
		f->secs[i].flags = k->flags;
		f->secs[i].size = k->size;
		f->secs[i].align = k->align;
		if (!strcmp(k->name, ".modinfo") && k->type == SHT_PROGBITS) {
			const unsigned char *d = kelf_section_data(f->elf, k);

			if (d)
				read_modinfo(f, d, k->size);
		}
		if (k->type == SHT_SYMTAB)
			f->has_symtab = 1;
	}
	ksf_build_id_hex(id, kelf_build_id(f->elf, &id), f->build_id);
	if (!want_syms || !f->has_symtab)
		return 0;
	r = kelf_symbols(f->elf, add_sym, &c);
	if (r < 0)
		return ksnap_seterr(err, errlen, "%s: %s", path,
				    r == -2 ? "out of memory" : f->elf->err);
	qsort(f->exports, c.nexp, sizeof(*f->exports), cmp_str);
	f->nr_exports = c.nexp;
	return 0;
}

int ksf_load(struct ksymfile *f, const char *path, int want_syms, char *err, size_t errlen)
{
	unsigned char head[8], *data;
	enum kdc_format fmt;
	size_t len;
	ssize_t hn;
	long r;
	int fd;

	memset(f, 0, sizeof(*f));
	f->elf = &f->own;
	f->path = strdup(path);
	if (!f->path)
		return ksnap_seterr(err, errlen, "out of memory");
	/* A plain file is mapped (a vmlinux can be huge); a compressed one read and unpacked. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ksnap_seterr(err, errlen, "%s: %s", path, strerror(errno));
	hn = read(fd, head, sizeof(head));
	close(fd);
	if (hn > 0 && kdc_detect(head, (size_t)hn) != KDC_PLAIN) {
		if (kdc_read_file(path, &data, &len, &fmt, err, errlen))
			return -1;
		f->compressed = fmt != KDC_PLAIN;
		r = kelf_parse(&f->own, data, len);
	} else {
		r = kelf_load(&f->own, path);
	}
	if (r)
		return ksnap_seterr(err, errlen, "%s: %s", path, f->own.err);
	return fill(f, path, want_syms, err, errlen);
}

int ksf_from_elf(struct ksymfile *f, const char *path, struct kelf *elf, int compressed,
		 int want_syms, char *err, size_t errlen)
{
	memset(f, 0, sizeof(*f));
	f->elf = elf;
	f->compressed = compressed;
	f->path = strdup(path);
	if (!f->path)
		return ksnap_seterr(err, errlen, "out of memory");
	return fill(f, path, want_syms, err, errlen);
}

void ksf_free(struct ksymfile *f)
{
	kelf_free(&f->own);
	free(f->path);
	free(f->secs);
	free(f->syms);
	free(f->exports);
	memset(f, 0, sizeof(*f));
}

const struct kplace_sec *ksf_section(const struct ksymfile *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nr_secs; i++)
		if (f->secs[i].name && !strcmp(f->secs[i].name, name))
			return &f->secs[i];
	return NULL;
}

int ksf_exported(const struct ksymfile *f, const char *name)
{
	return f->nr_exports &&
	       bsearch(&name, f->exports, f->nr_exports, sizeof(*f->exports), cmp_str) != NULL;
}

int ksf_symbol(const struct ksymfile *f, const char *name, uint64_t *value)
{
	size_t i;

	for (i = 0; i < f->nr_syms; i++)
		if (f->syms[i].shn != KPLACE_SHN_UNDEF && !strcmp(f->syms[i].name, name)) {
			*value = f->syms[i].value;
			return 0;
		}
	return -1;
}

/* ---- finding .ko files ---- */

/* Add a .ko file (base NAME.ko[.xz|.zst|.gz]) to the index; 0 or -1 (ENOMEM). */
static int index_add(struct ksf_index *ix, const char *path, const char *base)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz", NULL };
	size_t blen = strlen(base), i;
	struct ksf_kofile *k;
	char *p;

	for (i = 0; ext[i]; i++) {
		size_t el = strlen(ext[i]);

		if (blen > el && !strcmp(base + blen - el, ext[i]))
			break;
	}
	if (!ext[i])
		return 0;
	k = realloc(ix->ko, (ix->nr + 1) * sizeof(*k));
	if (!k)
		return -1;
	ix->ko = k;
	k = &k[ix->nr];
	k->name = strndup(base, blen - strlen(ext[i]));
	k->path = strdup(path);
	k->compressed = i > 0;
	if (!k->name || !k->path) {
		free(k->name);
		free(k->path);
		return -1;
	}
	for (p = k->name; *p; p++)
		if (*p == '-')
			*p = '_';
	ix->nr++;
	return 0;
}

/* fts, not nftw: no global callback state, so several threads may index. */
int ksf_index_dir(struct ksf_index *ix, const char *dir, char *err, size_t errlen)
{
	char *argv[] = { (char *)dir, NULL };
	FTSENT *e;
	FTS *fts;
	int ret = 0;

	memset(ix, 0, sizeof(*ix));
	fts = fts_open(argv, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	if (!fts)
		return ksnap_seterr(err, errlen, "%s: %s", dir, strerror(errno));
	while ((e = fts_read(fts))) {
		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR || e->fts_info == FTS_NS) {
			if (!ret)
				ret = ksnap_seterr(err, errlen, "%s: %s", e->fts_path,
						   strerror(e->fts_errno));
			continue;
		}
		if (e->fts_info == FTS_F && index_add(ix, e->fts_path, e->fts_name)) {
			ret = ksnap_seterr(err, errlen, "%s: out of memory", dir);
			break;
		}
	}
	fts_close(fts);
	return ret;
}

const struct ksf_kofile *ksf_index_next(const struct ksf_index *ix, const char *modname,
					size_t *pos)
{
	size_t i, j, n = strlen(modname);

	for (i = *pos; i < ix->nr; i++) {
		const char *a = ix->ko[i].name;

		for (j = 0; j < n && a[j]; j++)
			if (a[j] != (modname[j] == '-' ? '_' : modname[j]))
				break;
		if (j == n && !a[j]) {
			*pos = i + 1;
			return &ix->ko[i];
		}
	}
	*pos = ix->nr;
	return NULL;
}

void ksf_index_free(struct ksf_index *ix)
{
	size_t i;

	for (i = 0; i < ix->nr; i++) {
		free(ix->ko[i].name);
		free(ix->ko[i].path);
	}
	free(ix->ko);
	memset(ix, 0, sizeof(*ix));
}
