// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* kdbg.c - a module record's .ko, found and checked; module records over time. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "files.h"
#include "kdbg.h"

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
 * The record's .ko: files_find_ko()'s (the file with its build id, or for
 * a record without one the only file of its name whose sections fit); a
 * record without a build id and a single file of its name that does not
 * fit gets that file checked below, for the reason.
 */
enum kdbg_status kdbg_place(struct kdbg_mod *d, const struct ks_mod *m, const struct ksnap *s,
			    struct kreloc_files *files)
{
	struct ko_file *k;
	enum ko_why w;
	char why[600];
	size_t n;
	bool by_id;
	int r;

	memset(d, 0, sizeof(*d));
	d->m = m;
	k = files_find_ko(files, m, &w, &d->origin, &d->err, d->why, sizeof(d->why));
	if (!k && w == KO_UNSURE) {
		k = files_only_ko(files, m);
		d->origin = k ? KRELOC_ORIGIN_LOCAL : KRELOC_ORIGIN_NONE;
	}
	if (!k) {
		d->status = w == KO_NONE ? KDBG_MISSING : w == KO_UNAVAILABLE ? KDBG_UNAVAILABLE :
			    w == KO_CORRUPT ? KDBG_CORRUPT : KDBG_MISMATCH;
		return d->status;
	}
	d->status = KDBG_MISMATCH;
	d->path = k->path;
	d->file = k;
	by_id = m->build_id && !strcmp(m->build_id, k->build_id);
	/* (under the lock: a failing read of the shared image sets its err) */
	pthread_mutex_lock(&files->lock);
	r = ksf_from_elf(&d->ko, k->path, &k->elf, k->compressed, 1, why, sizeof(why));
	pthread_mutex_unlock(&files->lock);
	if (r) {
		snprintf(d->why, sizeof(d->why), "%s", why);
		return d->status = KDBG_CORRUPT;
	}
	if (!d->ko.has_symtab) {
		snprintf(d->why, sizeof(d->why), "%s has no symbol table", k->path);
		return d->status;
	}
	if (!d->ko.is_rel) {
		snprintf(d->why, sizeof(d->why), "%s is not a relocatable object", k->path);
		return d->status;
	}
	/* The build id says which module it is; without one, .modinfo must. */
	if (!d->ko.vermagic && !by_id) {
		snprintf(d->why, sizeof(d->why), "%s has no vermagic: not a kernel module", k->path);
		return d->status;
	}
	n = d->ko.vermagic ? strcspn(d->ko.vermagic, " ") : 0;
	if (d->ko.vermagic && s->osrelease && (n != strlen(s->osrelease) ||
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

void kdbg_mod_free(struct kdbg_mod *d)
{
	ksf_free(&d->ko);
}
