// SPDX-License-Identifier: GPL-2.0
/* ksymfile.c - ELF symbol files (vmlinux, .ko) through libelf. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ksymfile.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void read_build_id(struct ksymfile *f, Elf_Data *d)
{
	size_t off = 0, noff, doff, next, i;
	GElf_Nhdr nh;

	while ((next = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		const unsigned char *b = (const unsigned char *)d->d_buf;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(b + noff, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz * 2 < sizeof(f->build_id)) {
			for (i = 0; i < nh.n_descsz; i++)
				snprintf(f->build_id + 2 * i, 3, "%02x", b[doff + i]);
			return;
		}
		off = next;
	}
}

static void read_modinfo(struct ksymfile *f, Elf_Data *d)
{
	const char *p = d->d_buf, *end = p + d->d_size;

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

static int read_symbols(struct ksymfile *f, Elf *e, Elf_Scn *scn, GElf_Shdr *sh, char *err,
			size_t errlen)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t cnt, i, nexp = 0;

	if (!d || !sh->sh_entsize)
		return ksnap_seterr(err, errlen, "%s: unreadable symbol table: %s", f->path,
				    elf_errmsg(-1));
	cnt = sh->sh_size / sh->sh_entsize;
	f->syms = calloc(cnt + 1, sizeof(*f->syms));
	f->exports = calloc(cnt + 1, sizeof(*f->exports));
	if (!f->syms || !f->exports)
		return ksnap_seterr(err, errlen, "out of memory");
	for (i = 1; i < cnt; i++) {
		struct ksf_sym *s = &f->syms[f->nr_syms];
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym))
			return ksnap_seterr(err, errlen, "%s: symbol %zu: %s", f->path, i,
					    elf_errmsg(-1));
		name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		s->name = name;
		s->value = sym.st_value;
		s->bind = GELF_ST_BIND(sym.st_info);
		s->stt = GELF_ST_TYPE(sym.st_info);
		if (sym.st_shndx == SHN_UNDEF)
			s->shn = KPLACE_SHN_UNDEF;
		else if (sym.st_shndx == SHN_ABS)
			s->shn = KPLACE_SHN_ABS;
		else if (sym.st_shndx >= SHN_LORESERVE && sym.st_shndx != SHN_XINDEX)
			s->shn = KPLACE_SHN_OTHER;
		else
			s->shn = KPLACE_SHN_SEC;
		s->shndx = sym.st_shndx;
		if (sym.st_shndx == SHN_XINDEX) {
			Elf_Data *xd = NULL;
			Elf_Scn *x = NULL;
			GElf_Word xi;

			/* the real index is in the SHT_SYMTAB_SHNDX section */
			while ((x = elf_nextscn(e, x))) {
				GElf_Shdr xs;

				if (gelf_getshdr(x, &xs) && xs.sh_type == SHT_SYMTAB_SHNDX &&
				    xs.sh_link == elf_ndxscn(scn)) {
					xd = elf_getdata(x, NULL);
					break;
				}
			}
			if (!xd || !gelf_getsymshndx(d, xd, (int)i, &sym, &xi))
				s->shn = KPLACE_SHN_OTHER;
			else
				s->shndx = xi;
		}
		if (s->shn == KPLACE_SHN_SEC && s->shndx >= f->nr_secs)
			s->shn = KPLACE_SHN_OTHER;
		/*
		 * /proc/kallsyms shows a module symbol in upper case when it is
		 * in the module's EXPORT_SYMBOL table (mod->syms, not the _gpl one).
		 */
		if (!strncmp(name, "__ksymtab_", 10) && name[10] && s->shn == KPLACE_SHN_SEC &&
		    f->secs[s->shndx].name && !strcmp(f->secs[s->shndx].name, "__ksymtab"))
			f->exports[nexp++] = name + 10;
		f->nr_syms++;
	}
	qsort(f->exports, nexp, sizeof(*f->exports), cmp_str);
	f->nr_exports = nexp;
	return 0;
}

int ksf_load(struct ksymfile *f, const char *path, int want_syms, char *err, size_t errlen)
{
	Elf_Scn *scn = NULL, *symtab = NULL;
	GElf_Shdr symsh = { 0 };
	GElf_Ehdr eh;
	size_t shstrndx, nsec;
	Elf *e;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->path = strdup(path);
	if (!f->path)
		return ksnap_seterr(err, errlen, "out of memory");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return ksnap_seterr(err, errlen, "libelf: %s", elf_errmsg(-1));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return ksnap_seterr(err, errlen, "%s: %s", path, strerror(errno));
	e = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	f->elf = e;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		return ksnap_seterr(err, errlen, "%s: not an ELF file", path);
	if (elf_getshdrstrndx(e, &shstrndx) || elf_getshdrnum(e, &nsec))
		return ksnap_seterr(err, errlen, "%s: no section headers: %s", path,
				    elf_errmsg(-1));
	f->is_rel = eh.e_type == ET_REL;
	f->secs = calloc(nsec + 1, sizeof(*f->secs));
	if (!f->secs)
		return ksnap_seterr(err, errlen, "out of memory");
	f->nr_secs = nsec;
	while ((scn = elf_nextscn(e, scn))) {
		size_t i = elf_ndxscn(scn);
		GElf_Shdr sh;
		const char *name;

		if (i >= nsec || !gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		f->secs[i].name = name;
		f->secs[i].type = sh.sh_type;
		f->secs[i].flags = sh.sh_flags;
		f->secs[i].size = sh.sh_size;
		f->secs[i].align = sh.sh_addralign;
		if (sh.sh_type == SHT_NOTE && !f->build_id[0]) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (d)
				read_build_id(f, d);
		} else if (name && !strcmp(name, ".modinfo") && sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (d && d->d_buf)
				read_modinfo(f, d);
		} else if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symsh = sh;
		}
	}
	f->has_symtab = symtab != NULL;
	if (!want_syms || !symtab)
		return 0;
	return read_symbols(f, e, symtab, &symsh, err, errlen);
}

void ksf_free(struct ksymfile *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->path && f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f->secs);
	free(f->syms);
	free(f->exports);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
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

static struct ksf_index *walk_ix;
static int walk_oom;

static int walk_cb(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz", NULL };
	const char *base = path + ftw->base;
	size_t blen = strlen(base), i;
	struct ksf_kofile *k;
	char *p;

	(void)st;
	if (flag != FTW_F)
		return 0;
	for (i = 0; ext[i]; i++) {
		size_t el = strlen(ext[i]);

		if (blen > el && !strcmp(base + blen - el, ext[i]))
			break;
	}
	if (!ext[i])
		return 0;
	k = realloc(walk_ix->ko, (walk_ix->nr + 1) * sizeof(*k));
	if (!k) {
		walk_oom = 1;
		return -1;
	}
	walk_ix->ko = k;
	k = &k[walk_ix->nr];
	k->name = strndup(base, blen - strlen(ext[i]));
	k->path = strdup(path);
	k->compressed = i > 0;
	if (!k->name || !k->path) {
		free(k->name);
		free(k->path);
		walk_oom = 1;
		return -1;
	}
	for (p = k->name; *p; p++)
		if (*p == '-')
			*p = '_';
	walk_ix->nr++;
	return 0;
}

int ksf_index_dir(struct ksf_index *ix, const char *dir, char *err, size_t errlen)
{
	int r;

	memset(ix, 0, sizeof(*ix));
	walk_ix = ix;
	walk_oom = 0;
	r = nftw(dir, walk_cb, 32, FTW_PHYS);
	walk_ix = NULL;
	if (walk_oom)
		return ksnap_seterr(err, errlen, "out of memory");
	if (r)
		return ksnap_seterr(err, errlen, "%s: %s", dir, strerror(errno));
	return 0;
}

const struct ksf_kofile *ksf_index_find(const struct ksf_index *ix, const char *modname)
{
	const struct ksf_kofile *best = NULL;
	size_t i, j, n = strlen(modname);

	for (i = 0; i < ix->nr; i++) {
		const char *a = ix->ko[i].name;

		for (j = 0; j < n && a[j]; j++)
			if (a[j] != (modname[j] == '-' ? '_' : modname[j]))
				break;
		if (j == n && !a[j] && (!best || (best->compressed && !ix->ko[i].compressed)))
			best = &ix->ko[i];
	}
	return best;
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
