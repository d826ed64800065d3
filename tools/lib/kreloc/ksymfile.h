/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * ksymfile.h - an ELF file with a symbol table, read with kreloc's ELF
 * reader (../kelf.c): a vmlinux (its build id, its _text) or a module's .ko,
 * compressed or not (section headers, symbols, .modinfo name and vermagic,
 * exported names).
 */
#ifndef KRELOC_KSYMFILE_H
#define KRELOC_KSYMFILE_H

#include <stddef.h>
#include <stdint.h>
#include "kplace.h"
#include "ksnap.h"
#include "../../kelf.h"

struct ksf_sym {
	const char *name;
	uint64_t value, size;		/* st_value, st_size */
	size_t shndx;			/* section index, when shn == KPLACE_SHN_SEC */
	enum kplace_shn shn;
	unsigned char bind, stt;
};

struct ksymfile {
	char *path;
	int is_rel;			/* ET_REL: a module */
	int has_symtab;			/* 0: stripped */
	struct kplace_sec *secs;	/* by section index */
	size_t nr_secs;
	struct ksf_sym *syms;
	size_t nr_syms;
	char build_id[2 * KSNAP_BUILD_ID_MAX + 1];	/* hex, "" if none */
	const char *modname, *vermagic;	/* .modinfo name= and vermagic= */
	const char **exports;		/* sorted names in __ksymtab */
	size_t nr_exports;
	struct kelf *elf;		/* names point into it: &own, or borrowed */
	struct kelf own;
	int compressed;			/* the file is xz/zstd/gzip (elf holds it unpacked) */
};

/* Room for a build id in hex (KSNAP_BUILD_ID_MAX bytes) and its NUL. */
#define KSF_BUILD_ID_HEX (2 * KSNAP_BUILD_ID_MAX + 1)
/*
 * The one formatter of GNU build ids: n bytes of id as lower-case hex into
 * out; "" when there is none (n <= 0) or it is longer than any kernel's.
 * Returns out.
 */
char *ksf_build_id_hex(const unsigned char *id, int n, char out[KSF_BUILD_ID_HEX]);

/*
 * Read an ELF file's section headers, symbols (if want_syms and it has a
 * symbol table: see has_symtab), build id and .modinfo.  Returns 0, or -1
 * with a one-line reason in err.
 */
int ksf_load(struct ksymfile *f, const char *path, int want_syms, char *err, size_t errlen);
/*
 * The same from an ELF image already parsed (a .ko found by ko_find()),
 * which f borrows: it must outlive f.
 */
int ksf_from_elf(struct ksymfile *f, const char *path, struct kelf *elf, int compressed,
		 int want_syms, char *err, size_t errlen);
void ksf_free(struct ksymfile *f);
const struct kplace_sec *ksf_section(const struct ksymfile *f, const char *name);
/* Is name in the module's EXPORT_SYMBOL table (a __ksymtab_NAME in __ksymtab)? */
int ksf_exported(const struct ksymfile *f, const char *name);
/* The value of the first global or local symbol of that name. */
int ksf_symbol(const struct ksymfile *f, const char *name, uint64_t *value);

/* The .ko files under a directory, searched recursively. */
struct ksf_index {
	struct ksf_kofile {
		char *name;		/* '-' normalised to '_' */
		char *path;
		int compressed;		/* .ko.xz, .ko.zst, .ko.gz (read all the same) */
	} *ko;
	size_t nr;
};

/* Returns 0, or -1 with err set (the directory cannot be read). */
int ksf_index_dir(struct ksf_index *ix, const char *dir, char *err, size_t errlen);
/*
 * The files named NAME.ko[.xz|.zst|.gz] ('-' and '_' alike), from index
 * *pos on: returns the next and advances *pos, NULL when there is none.
 */
const struct ksf_kofile *ksf_index_next(const struct ksf_index *ix, const char *modname,
					size_t *pos);
void ksf_index_free(struct ksf_index *ix);

#endif
