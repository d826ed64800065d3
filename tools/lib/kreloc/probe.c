// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * probe.c - where a kprobe for a spec goes on the running kernel.
 *
 * The spec grammar is the module's (lib/kreloc_spec.c: sym, .sym, mod:sym,
 * each with +OFF), plus vmlinux:0xLINKED, a link-time address that is
 * turned into a runtime one with the published text offset and never sent
 * to the module.  Symbols go to the module's lookup file, which knows
 * where kprobes put a probe; without one (an older kreloc), /proc/kallsyms
 * with the same dot-first policy (kreloc_spec_candidates()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "debugfs.h"
#include "snapshot.h"
#include "spec.h"
#include "../../sysmap.h"

KRELOC_API int kreloc_probe_spec_parse(const char *text, struct kreloc_probe_spec *spec,
				       size_t sz)
{
	struct kreloc_probe_spec p;
	struct cli_spec cs;
	const char *why;

	if (!text || !spec)
		return kr_null(__func__, !text ? "text" : "spec");
	if (cli_spec_parse(text, &cs, &why))
		return kr_fail(EINVAL, "%s", why);
	memset(&p, 0, sizeof(p));
	p.linked = cs.linked_ok;
	p.linked_address = cs.linked;
	snprintf(p.module, sizeof(p.module), "%s", cs.mod);
	snprintf(p.symbol, sizeof(p.symbol), "%s", cs.spec.name);
	p.offset = cs.spec.offset;
	kr_copy_info(spec, sz, &p, sizeof(p));
	kr_ok();
	return 0;
}

/* vmlinux:0xLINKED -> runtime, through the section that holds it. */
static int linked_to_runtime(const struct ksnap *s, const char *root, uint64_t linked,
			     uint64_t *addr)
{
	const struct ks_core *t = ksnap_core(s, "text");
	const struct ks_core *it = ksnap_core(s, "init.text");
	const struct ks_core *hit = NULL;

	if (t && t->linked.ok && t->size.ok && linked - t->linked.v < t->size.v)
		hit = t;
	else if (it && it->linked.ok && it->size.ok && linked - it->linked.v < it->size.v)
		hit = it;
	if (!hit)
		return kr_fail(ERANGE, "vmlinux:0x%" PRIx64 " is outside the kernel's text section%s",
			       linked, t && t->linked.ok && t->size.ok ? "" :
			       " (its link-time range is unknown)");
	if (!strcmp(hit->status, "freed"))
		return kr_fail(EACCES, "vmlinux:0x%" PRIx64 " is in init.text, which the kernel has "
			       "freed (%s%s/sections: init.text freed)", linked, root ? root : "",
			       KRELOC_DEBUGFS_DIR);
	if (!ksnap_core_usable(hit))
		return kr_fail(ENODATA, "vmlinux:0x%" PRIx64 ": section %s has STATUS=%s: kreloc "
			       "publishes no offset for it", linked, hit->name, hit->status);
	*addr = linked + hit->offset.v;
	return 0;
}

/*
 * Without a lookup file: a unique kallsyms entry for the spec's
 * candidates, in order, counted as the module's lookup counts them (and
 * the kernel's kprobe_events): a spec with a module in that module; one
 * without in vmlinux and every module together, or with @vmlinux_first
 * (info's KPROBE_UNIQUE=vmlinux-first) in vmlinux alone when vmlinux has
 * the name.
 */
static int kallsyms_unique(const struct cli_spec *cs, const char *root, bool dot_first,
			   bool vmlinux_first, uint64_t *addr, char *used, size_t usedlen)
{
	char cand[2][KRELOC_SPEC_MAX], kpath[4200];
	const struct sysmap_sym *hit = NULL, *mhit = NULL;
	struct sysmap map;
	struct kreloc_spec bare = cs->spec;
	size_t cnt = 0, mcnt = 0, i;
	int nc, k, ret = 0;

	kr_path_in(kpath, sizeof(kpath), root, "/proc/kallsyms");
	if (sysmap_load(&map, kpath))
		return kr_fail(EIO, "%s", map.err);
	bare.mod[0] = '\0';	/* candidates without "mod:": the module is matched apart */
	nc = kreloc_spec_candidates(&bare, dot_first, cand);
	for (k = 0; k < nc && !cnt; k++) {
		/* cnt: vmlinux, or the spec's module; mcnt: every module. */
		for (i = 0; i < map.nr; i++) {
			const struct sysmap_sym *s = &map.syms[i];

			if (strcmp(s->name, cand[k]))
				continue;
			if (cs->spec.mod[0] && (!s->module || strcmp(s->module, cs->mod)))
				continue;
			if (!cs->spec.mod[0] && s->module) {
				if (!mcnt++)
					mhit = s;
			} else if (!cnt++) {
				hit = s;
			}
		}
		if (!cnt || !vmlinux_first) {
			cnt += mcnt;
			hit = hit ? hit : mhit;
		}
		mcnt = 0;
		if (cnt)
			snprintf(used, usedlen, "%.*s", (int)usedlen - 1, cand[k]);
	}
	if (!cnt) {
		ret = kr_fail(ENOENT, "%s: no symbol %s", kpath, cs->text);
	} else if (cnt > 1) {
		ret = kr_fail(ENOTUNIQ, "%s: symbol %s is not unique (%zu entries): use "
			      "vmlinux:0xLINKED, or mod:sym for a module", kpath, used, cnt);
	} else if (!hit->addr) {
		ret = kr_fail(EPERM, "%s: %s shows address 0: not allowed to see kernel addresses "
			      "(need root or CAP_SYSLOG, kptr_restrict)", kpath, used);
	} else if (cs->spec.offset) {
		/*
		 * The core kernel is probed by absolute address: the kernel
		 * cannot check SYM+OFF, so it is checked here, as lookup does
		 * (the size up to the next symbol, as
		 * kallsyms_lookup_size_offset() gives it).
		 */
		uint64_t size = sysmap_extent(&map, hit);

		if (!size || cs->spec.offset >= size || hit->addr + cs->spec.offset < hit->addr) {
			if (size)
				ret = kr_fail(ERANGE, "%s: offset 0x%" PRIx64 " past the end of %s "
					      "(size 0x%" PRIx64 ")", cs->text,
					      (uint64_t)cs->spec.offset, used, size);
			else
				ret = kr_fail(ERANGE, "%s: offset 0x%" PRIx64 ": %s has no following "
					      "symbol in %s to tell its size", cs->text,
					      (uint64_t)cs->spec.offset, used, kpath);
		}
	}
	if (!ret)
		*addr = hit->addr + cs->spec.offset;
	sysmap_free(&map);
	return ret;
}

/* Freed init text: the core's init.text, or a module's init.text region. */
static int refuse_freed_init(const struct ksnap *s, const char *root, const char *spec,
			     uint64_t addr)
{
	const struct ks_core *it = ksnap_core(s, "init.text");
	size_t k, j;

	if (it && it->runtime.ok && it->size.ok && addr - it->runtime.v < it->size.v &&
	    (!strcmp(it->status, "freed") || !strcmp(s->init, "freed")))
		return kr_fail(EACCES, "%s (0x%" PRIx64 ") is in the kernel's init text, freed "
			       "after boot (%s%s/sections: init.text %s)", spec, addr,
			       root ? root : "", KRELOC_DEBUGFS_DIR, it->status);
	/*
	 * A module loaded after another's init memory was freed may sit in
	 * it (seen on arm64): an address in a live region is live.
	 */
	for (k = 0; k < s->nr_mods; k++) {
		for (j = 0; j < s->mods[k].nr_mem; j++) {
			const struct ks_mem *r = &s->mods[k].mem[j];

			if (r->kind == KS_REGION && !strcmp(r->state, "live") &&
			    r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v)
				return 0;
		}
	}
	for (k = 0; k < s->nr_mods; k++) {
		const struct ks_mod *m = &s->mods[k];

		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *r = &m->mem[j];

			if (r->kind == KS_REGION && !strcmp(r->name, "init.text") &&
			    r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v &&
			    strcmp(r->state, "live"))
				return kr_fail(EACCES, "%s (0x%" PRIx64 ") is in module %s's init "
					       "text, which is %s", spec, addr, m->name, r->state);
		}
	}
	return 0;
}

KRELOC_API int kreloc_probe_locate(const struct kreloc_snapshot *live, const char *root,
				   const char *text, struct kreloc_probe_info *info, size_t sz)
{
	const struct ksnap *s = live ? &live->s : NULL;
	struct kreloc_probe_info p;
	struct lookup_answer ans;
	char err[KR_ERR_MAX];
	struct cli_spec cs;
	const char *why;
	int ret;

	if (!live || !info)
		return kr_null(__func__, !live ? "live" : "info");
	if (!text || cli_spec_parse(text, &cs, &why))
		return kr_fail(EINVAL, "%s: %s", text ? text : "", text ? why : "no spec");
	memset(&p, 0, sizeof(p));
	if (cs.linked_ok) {
		ret = linked_to_runtime(s, root, cs.linked, &p.address);
		p.via = KRELOC_VIA_SECTIONS;
	} else {
		ret = kreloc_lookup(root, cs.text, &ans, err, sizeof(err));
		if (!ret) {
			/* lookup applied +OFF; name the symbol as given. */
			p.address = ans.probe;
			p.via = KRELOC_VIA_LOOKUP;
			snprintf(p.symbol, sizeof(p.symbol), "%s", cs.spec.name);
			snprintf(p.module, sizeof(p.module), "%.*s", (int)sizeof(p.module) - 1,
				 cs.spec.mod[0] ? ans.module : "");
		} else if (ret > 0) {
			ret = kallsyms_unique(&cs, root, !strcmp(s->abi, "v1"),
					      s->kprobe_unique &&
					      !strcmp(s->kprobe_unique, "vmlinux-first"),
					      &p.address, p.symbol, sizeof(p.symbol));
			p.via = KRELOC_VIA_KALLSYMS;
			snprintf(p.module, sizeof(p.module), "%s", cs.mod);
		} else {
			kr_fail_msg(-ret, err);
		}
	}
	if (ret)
		return ret;
	ret = refuse_freed_init(s, root, text, p.address);
	if (ret)
		return ret;
	kr_copy_info(info, sz, &p, sizeof(p));
	kr_ok();
	return 0;
}
