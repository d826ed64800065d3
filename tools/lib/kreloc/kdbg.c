// SPDX-License-Identifier: GPL-2.0
/* kdbg.c - vmlinux and .ko placement shared by `kreloc gdb` and `kreloc kallsyms`. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "main.h"
#include "kdbg.h"
#include "kcache.h"

int kdbg_check_vmlinux(const struct ksymfile *v, const struct ksnap *s, char *err, size_t errlen)
{
	uint64_t text;
	int have_id = s->build_id && strcmp(s->build_id, "-") && v->build_id[0];

	if (v->is_rel)
		return ksnap_seterr(err, errlen, "%s is a relocatable object (a module?), not a "
				    "vmlinux", v->path);
	if (have_id && strcasecmp(s->build_id, v->build_id))
		return ksnap_seterr(err, errlen, "%s has build id %s, but the snapshot's kernel "
				    "(%s) has %s: another build", v->path, v->build_id,
				    s->osrelease, s->build_id);
	if (v->nr_syms && s->ref_linked.ok && !ksf_symbol(v, "_text", &text) &&
	    text != s->ref_linked.v)
		return ksnap_seterr(err, errlen, "%s links _text at 0x%" PRIx64 ", the snapshot's "
				    "kernel at 0x%" PRIx64 ": another build", v->path, text,
				    s->ref_linked.v);
	if (!v->has_symtab)
		return ksnap_seterr(err, errlen, "%s: no symbol table (stripped; the kernel's "
				    "-dbg package has one)", v->path);
	if (!have_id && !(s->ref_linked.ok && !ksf_symbol(v, "_text", &text)))
		return ksnap_seterr(err, errlen, "%s: neither a build id nor _text to tell "
				    "whether it is the snapshot's kernel", v->path);
	return 0;
}

int kdbg_image_offset(const struct ksnap *s, uint64_t *off, char *err, size_t errlen)
{
	size_t i;

	if (!s->kerneloffset.ok || !s->status || strcmp(s->status, "ok"))
		return ksnap_seterr(err, errlen, "kreloc published no offset for this boot "
				    "(STATUS=%s): cannot place vmlinux",
				    s->status ? s->status : "-");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];

		if (c->offset.ok && c->offset.v != s->kerneloffset.v)
			return ksnap_seterr(err, errlen, "section %s moved by 0x%" PRIx64 ", not by "
					    "KERNELOFFSET 0x%" PRIx64 ": the image did not move as a "
					    "whole", c->name, c->offset.v, s->kerneloffset.v);
	}
	*off = s->kerneloffset.v;
	return 0;
}

int kdbg_is_loaded(const struct ks_mod *m)
{
	return strcmp(m->state, "gone") != 0;
}

int kdbg_live_at(const struct ks_mod *m, uint64_t g)
{
	if (!m->load_gen.ok || m->load_gen.v > g)
		return 0;
	if (m->unload_gen.ok)
		return m->unload_gen.v > g;
	return kdbg_is_loaded(m);
}

static int same_modname(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return 0;
	return !*a && !*b;
}

/*
 * The record's .ko: ko_find()'s (the file with its build id, or for a
 * record without one the only file of its name whose sections fit); a
 * record without a build id and a single file of its name that does not
 * fit gets that file checked below, for the reason.
 */
enum kdbg_status kdbg_place(struct kdbg_mod *d, const struct ks_mod *m, const struct ksnap *s,
			    struct ko_index *x, int want_syms)
{
	struct ko_file *k;
	enum ko_why w;
	char why[600];
	size_t n;

	memset(d, 0, sizeof(*d));
	d->m = m;
	k = ko_find(x, m, &w, d->why, sizeof(d->why));
	if (!k && w == KO_UNSURE)
		k = ko_only(x, m);
	if (!k) {
		d->status = w == KO_NONE ? KDBG_MISSING : KDBG_MISMATCH;
		return d->status;
	}
	d->why[0] = '\0';
	d->status = KDBG_MISMATCH;
	d->path = k->path;
	if (ksf_from_elf(&d->ko, k->path, &k->elf, k->compressed, want_syms, why, sizeof(why))) {
		snprintf(d->why, sizeof(d->why), "%s", why);
		return d->status;
	}
	if (want_syms && !d->ko.has_symtab) {
		snprintf(d->why, sizeof(d->why), "%s has no symbol table", k->path);
		return d->status;
	}
	if (!d->ko.is_rel) {
		snprintf(d->why, sizeof(d->why), "%s is not a relocatable object", k->path);
		return d->status;
	}
	if (!d->ko.vermagic) {
		snprintf(d->why, sizeof(d->why), "%s has no vermagic: not a kernel module", k->path);
		return d->status;
	}
	n = strcspn(d->ko.vermagic, " ");
	if (s->osrelease && (n != strlen(s->osrelease) ||
			     strncmp(d->ko.vermagic, s->osrelease, n))) {
		snprintf(d->why, sizeof(d->why), "%s was built for %.*s, the snapshot's kernel is %s",
			 k->path, (int)n, d->ko.vermagic, s->osrelease);
		return d->status;
	}
	if (d->ko.modname && !same_modname(d->ko.modname, m->name)) {
		snprintf(d->why, sizeof(d->why), "%s is module %s, not %s", k->path, d->ko.modname,
			 m->name);
		return d->status;
	}
	if (kplace_check(d->ko.secs, d->ko.nr_secs, m, kplace_page(s->arch), why, sizeof(why))) {
		snprintf(d->why, sizeof(d->why), "%s is not the module that was loaded: %s",
			 k->path, why);
		return d->status;
	}
	return d->status = KDBG_OK;
}

int kdbg_gdb_file(struct kdbg_mod *d)
{
	char err[700];

	free(d->gdb_path);
	d->gdb_path = NULL;
	if (!d->ko.compressed) {
		d->gdb_path = strdup(d->path);
	} else {
		d->gdb_path = kcache_module(d->ko.build_id, d->m->name, d->ko.elf->data,
					    d->ko.elf->len, err, sizeof(err));
		if (!d->gdb_path) {
			snprintf(d->why, sizeof(d->why), "%s is compressed, which gdb cannot read, "
				 "and it could not be unpacked: %s", d->path, err);
			d->status = KDBG_COMPRESSED;
			return -1;
		}
	}
	if (!d->gdb_path) {
		snprintf(d->why, sizeof(d->why), "out of memory");
		d->status = KDBG_COMPRESSED;
		return -1;
	}
	return 0;
}

void kdbg_mod_free(struct kdbg_mod *d)
{
	ksf_free(&d->ko);
	free(d->gdb_path);
	d->gdb_path = NULL;
}

void kdbg_json_gen(const char *name, const struct kval *v)
{
	if (v->ok)
		jsonw_uint_field(json_wtr, name, v->v);
	else
		jsonw_null_field(json_wtr, name);
}
