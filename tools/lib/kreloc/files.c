// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* files.c - a snapshot's kernel files: local, or by build id from debuginfod; read once. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "fetch.h"
#include "files.h"

int files_new(const struct kreloc_files_opts *opts, struct kreloc_files **out, char *err,
	      size_t errlen)
{
	struct kreloc_files *f;
	const char *dir = NULL;
	struct stat st;

	*out = NULL;
	if (opts && opts->sz >= offsetof(struct kreloc_files_opts, modules_dir) + sizeof(char *))
		dir = opts->modules_dir;
	if (dir && stat(dir, &st)) {
		int e = errno;

		return kr_seterr(e, err, errlen, "%s: %s", dir, strerror(e));
	}
	if (dir && !S_ISDIR(st.st_mode))
		return kr_seterr(ENOTDIR, err, errlen, "%s: not a directory", dir);
	f = calloc(1, sizeof(*f));
	if (!f)
		return kr_seterr(ENOMEM, err, errlen, "out of memory");
	pthread_mutex_init(&f->lock, NULL);
	atomic_init(&f->refs, 1);
	if (opts && opts->sz >= offsetof(struct kreloc_files_opts, debuginfod) + sizeof(bool))
		f->debuginfod = opts->debuginfod;
	if (opts && opts->sz >= offsetof(struct kreloc_files_opts, default_paths) + sizeof(bool))
		f->default_paths = opts->default_paths;
	if (dir) {
		f->modules_dir = strdup(dir);
		if (!f->modules_dir) {
			files_put(f);
			return kr_seterr(ENOMEM, err, errlen, "out of memory");
		}
	}
	ko_index_init(&f->ko, f->modules_dir, true);
	if (f->debuginfod) {
		f->fetch = kfetch_new(err, errlen);
		if (!f->fetch) {
			int e = getenv("DEBUGINFOD_URLS") && *getenv("DEBUGINFOD_URLS") ? ENOSYS : EINVAL;

			files_put(f);
			return -e;
		}
	}
	*out = f;
	return 0;
}

void files_get(struct kreloc_files *f)
{
	atomic_fetch_add(&f->refs, 1);
}

void files_put(struct kreloc_files *f)
{
	size_t i;

	if (!f || atomic_fetch_sub(&f->refs, 1) != 1)
		return;
	for (i = 0; i < f->nr_mods; i++) {
		struct kfetched *m = f->mods[i];

		ko_file_free(&m->ko);
		free(m->why);
		free(m->path);
		free(m);
	}
	free(f->mods);
	for (i = 0; i < f->nr_cores; i++) {
		if (f->cores[i].core) {
			kcore_free(f->cores[i].core);
			free(f->cores[i].core);
		}
		free(f->cores[i].key);
		free(f->cores[i].why);
	}
	free(f->cores);
	kfetch_free(f->fetch);
	ko_index_free(&f->ko);
	free(f->modules_dir);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

static bool known(const char *v)
{
	return v && *v && strcmp(v, "-");
}

/* ---- the core kernel ---- */

/* Does the ELF file at path have a GNU build id hex (and, with symtab, a symbol table)? */
static int elf_is(const char *path, const char *hex, int want_exec, char *why, size_t len)
{
	const unsigned char *id;
	char got[KSF_BUILD_ID_HEX];
	struct kelf e;
	int ok = 0;

	if (kelf_load(&e, path)) {
		snprintf(why, len, "%s", e.err);
		kelf_free(&e);
		return 0;
	}
	ksf_build_id_hex(id, kelf_build_id(&e, &id), got);
	if (hex && strcmp(got, hex))
		snprintf(why, len, "build id %s", *got ? got : "(none)");
	else if (want_exec && e.type == ET_REL)
		snprintf(why, len, "a relocatable object, not a vmlinux");
	else if (!kelf_section(&e, ".symtab"))
		snprintf(why, len, "no symbol table");
	else
		ok = 1;
	kelf_free(&e);
	return ok;
}

static int vmlinux_usable(const char *path, void *ctx, char *why, size_t len)
{
	return elf_is(path, ctx, 1, why, len);
}

/* Where distributions install a vmlinux with symbols, for release rel. */
static const char *const default_vmlinux[] = {
	"/usr/lib/debug/boot/vmlinux-%s",		/* Debian, Ubuntu -dbg(sym) */
	"/usr/lib/debug/lib/modules/%s/vmlinux",	/* Fedora, RHEL debuginfo */
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
	NULL,
};

/*
 * The vmlinux of s's build: a default path holding it (by build id; a
 * snapshot without one takes the first that exists and lets the checks
 * decide), then debuginfod.  Returns 0 with *path and *origin, or a
 * negative errno with why.
 */
static int find_vmlinux(struct kreloc_files *f, const struct ksnap *s, char **path, int *origin,
			char *why, size_t whylen)
{
	const char *id = known(s->build_id) ? s->build_id : NULL;
	char buf[4200], looked[1024] = "", reason[256];
	struct stat st;
	size_t i, n;
	int ret;

	*path = NULL;
	for (i = 0; f->default_paths && known(s->osrelease) && default_vmlinux[i]; i++) {
		if ((size_t)snprintf(buf, sizeof(buf), default_vmlinux[i], s->osrelease) >= sizeof(buf) ||
		    stat(buf, &st) || !S_ISREG(st.st_mode))
			continue;
		if (!id || elf_is(buf, id, 1, reason, sizeof(reason))) {
			*path = strdup(buf);
			*origin = KRELOC_ORIGIN_LOCAL;
			return *path ? 0 : kr_seterr(ENOMEM, why, whylen, "out of memory");
		}
		n = strlen(looked);
		snprintf(looked + n, sizeof(looked) - n, "%s%.300s (%.200s)", n ? ", " : "", buf,
			 reason);
	}
	if (!id)
		return kr_seterr(ENOENT, why, whylen, "no vmlinux with symbols for %s found, and the "
				 "snapshot has no build id to fetch one by", s->osrelease);
	if (!f->fetch)
		return kr_seterr(ENOENT, why, whylen, "no vmlinux with symbols for %s (build id %s) "
				 "found%s%s%s", s->osrelease, id, *looked ? " (not " : "", looked,
				 *looked ? ")" : "");
	ret = kfetch_get(f->fetch, id, "vmlinux", vmlinux_usable, (void *)id, path, origin, why,
			 whylen);
	if (ret && *looked) {
		n = strlen(why);
		snprintf(why + n, whylen - n, "; not %s", looked);
	}
	return ret;
}

int files_core(struct kreloc_files *f, const struct ksnap *s, enum kres_map_kind kind,
	       const char *path, struct kcore **core, char *why, size_t whylen)
{
	struct kcore_ent *e = NULL, *n;
	char *key = NULL, *fetched = NULL;
	int ret = 0, origin = KRELOC_ORIGIN_LOCAL;
	size_t i;

	*core = NULL;
	if (kind == KRES_NONE && !known(s->build_id) && !f->default_paths)
		return kr_seterr(ENOENT, why, whylen, "the snapshot has no build id to find its "
				 "vmlinux by");
	if (kind == KRES_NONE ? asprintf(&key, "id:%s:%s", known(s->build_id) ? s->build_id : "-",
					 s->osrelease) < 0 :
	    asprintf(&key, "%d:%s", (int)kind, path) < 0)
		return kr_seterr(ENOMEM, why, whylen, "out of memory");
	pthread_mutex_lock(&f->lock);
	for (i = 0; i < f->nr_cores; i++)
		if (!strcmp(f->cores[i].key, key))
			e = &f->cores[i];
	if (e) {
		free(key);
		goto found;
	}
	n = realloc(f->cores, (f->nr_cores + 1) * sizeof(*n));
	if (!n) {
		free(key);
		pthread_mutex_unlock(&f->lock);
		return kr_seterr(ENOMEM, why, whylen, "out of memory");
	}
	f->cores = n;
	e = &f->cores[f->nr_cores++];
	memset(e, 0, sizeof(*e));
	e->key = key;
	if (kind == KRES_NONE) {
		ret = find_vmlinux(f, s, &fetched, &origin, why, whylen);
		kind = KRES_VMLINUX;
		path = fetched;
	}
	if (!ret) {
		e->core = calloc(1, sizeof(*e->core));
		ret = e->core ? kcore_load(e->core, kind, path, why, whylen) :
		      kr_seterr(ENOMEM, why, whylen, "out of memory");
		if (!ret)
			e->core->origin = origin;
	}
	free(fetched);
	if (ret) {
		if (e->core) {
			kcore_free(e->core);
			free(e->core);
			e->core = NULL;
		}
		e->err = ret;
		e->why = strdup(why);
	}
found:
	ret = e->err;
	if (ret)
		snprintf(why, whylen, "%s", e->why ? e->why : strerror(-ret));
	*core = e->core;
	pthread_mutex_unlock(&f->lock);
	return ret;
}

int files_core_tab(struct kreloc_files *f, struct kcore *core, uint64_t delta, int abi_v1,
		   const struct kres_tab **tab, struct kres_tab **own, char *err, size_t errlen)
{
	struct kres_tab *t;
	int ret = 0;

	*own = NULL;
	pthread_mutex_lock(&f->lock);
	if (core->tab && core->tab_delta == delta && core->tab_abi_v1 == abi_v1) {
		*tab = core->tab;
		goto out;
	}
	t = calloc(1, sizeof(*t));
	ret = t ? kres_tab_build(t, core, delta, abi_v1, err, errlen) :
	      kr_seterr(ENOMEM, err, errlen, "out of memory");
	if (ret) {
		free(t);
		goto out;
	}
	if (!core->tab) {
		core->tab = t;
		core->tab_delta = delta;
		core->tab_abi_v1 = abi_v1;
	} else {
		*own = t;
	}
	*tab = t;
out:
	pthread_mutex_unlock(&f->lock);
	return ret;
}

/* ---- modules ---- */

static int ko_usable(const char *path, void *ctx, char *why, size_t len)
{
	return elf_is(path, ctx, 0, why, len);
}

/* The module with build id hex from debuginfod, fetched and parsed once. */
static struct kfetched *fetch_ko(struct kreloc_files *f, const struct ks_mod *m)
{
	struct kfetched *k, **n;
	char what[KSNAP_MODNAME_MAX + 8], why[1024] = "";
	size_t i;

	for (i = 0; i < f->nr_mods; i++) {
		k = f->mods[i];
		if (strcmp(k->build_id, m->build_id))
			continue;
		if (k->err != -ETIME || !k->cut_short)
			return k;
		/* Cut short by a prefetch's bound, not the server's answer: ask again. */
		free(k->why);
		k->why = NULL;
		goto ask;
	}
	k = calloc(1, sizeof(*k));
	n = k ? realloc(f->mods, (f->nr_mods + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(k);
		return NULL;
	}
	f->mods = n;
	f->mods[f->nr_mods++] = k;
ask:
	snprintf(k->build_id, sizeof(k->build_id), "%s", m->build_id);
	snprintf(what, sizeof(what), "%s.ko", m->name);
	k->err = kfetch_get(f->fetch, m->build_id, what, ko_usable, (void *)m->build_id, &k->path,
			    &k->origin, why, sizeof(why));
	k->cut_short = k->err == -ETIME && kfetch_expired();
	if (!k->err) {
		k->ko.path = k->path;
		if (ko_file_parse(&k->ko, why, sizeof(why)) < 0)
			k->err = -EBADMSG;
		else if (strcmp(k->ko.build_id, m->build_id))
			k->err = kr_seterr(ESTALE, why, sizeof(why), "%s: debuginfod gave a file of "
					   "build id %s for %s", k->path, k->ko.build_id, m->build_id);
	}
	if (k->err)
		k->why = strdup(why);
	return k;
}

struct ko_file *files_find_ko(struct kreloc_files *f, const struct ks_mod *m, enum ko_why *w,
			      int *origin, int *err, char *why, size_t whylen)
{
	struct ko_file *ko = NULL;
	struct kfetched *k;
	size_t n;

	*origin = KRELOC_ORIGIN_NONE;
	*err = 0;
	pthread_mutex_lock(&f->lock);
	if (f->modules_dir || !f->fetch) {
		ko = ko_find(&f->ko, m, w, why, whylen);
	} else {
		*w = KO_NONE;
		if (!m->build_id)
			ksnap_seterr(why, whylen, "no modules directory, and the record has no "
				     "build id to fetch its .ko by");
	}
	if (ko) {
		*origin = KRELOC_ORIGIN_LOCAL;
		goto out;
	}
	/* Not here: by its build id from debuginfod (never by name). */
	if (!f->fetch || !m->build_id || *w == KO_UNSURE)
		goto out;
	k = fetch_ko(f, m);
	n = f->modules_dir ? strlen(why) : 0;
	if (!k) {
		snprintf(why + n, whylen - n, "%sout of memory", n ? "; " : "");
	} else if (k->err) {
		snprintf(why + n, whylen - n, "%s%s", n ? "; " : "", k->why ? k->why : "");
		if (k->err == -EBADMSG)
			*w = KO_CORRUPT;	/* fetched, but cannot be read */
		else if (kfetch_unavailable(k->err))
			*w = KO_UNAVAILABLE;
		*err = k->err;
	} else {
		ko = &k->ko;
		*origin = k->origin;
		*w = KO_FOUND;
		why[0] = '\0';
	}
out:
	pthread_mutex_unlock(&f->lock);
	return ko;
}

struct ko_file *files_only_ko(struct kreloc_files *f, const struct ks_mod *m)
{
	struct ko_file *ko;

	pthread_mutex_lock(&f->lock);
	ko = ko_only(&f->ko, m);
	pthread_mutex_unlock(&f->lock);
	return ko;
}
