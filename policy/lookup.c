// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol lookup with the semantics kprobes use.
 *
 * The kernel's kprobe_lookup_name() is not available to modules.  On
 * ppc64 ELF ABIv1 it looks up ".name" first (the code; "name" is the
 * function descriptor) and falls back to "name" only for symbols without a
 * dot twin; on ELFv2 an offset-0 probe moves to the ftrace site or the
 * local entry; x86 with IBT moves an entry probe past ENDBR.
 *
 * Two users: other modules, through kreloc_kprobe_lookup_name(), and the
 * debugfs file "lookup" (presentation/lookup_file.c), through
 * kreloc_lookup_resolve(), which also refuses what a tool must not be
 * given: an ambiguous name, an offset past the symbol.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "base/base.h"
#include "compat/compat.h"
#include "arch/arch.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "policy/policy.h"
#include "lib/kreloc_spec.h"
#include "lib/kreloc_symstr.h"

/* Scratch space of one lookup, too big for the stack. */
struct kreloc_lookup_work {
	struct kreloc_spec spec;
	char cand[2][KRELOC_SPEC_MAX];
	char sym[KSYM_SYMBOL_LEN];
	int found;			/* index into cand */
};

/*
 * Resolve w->spec with the dot-first policy; w->cand[w->found] is the name
 * that resolved.  Returns the address or 0.
 */
static unsigned long kreloc_resolve(struct kreloc_lookup_work *w)
{
	unsigned long addr;
	int i, n;

	n = kreloc_spec_candidates(&w->spec, kreloc_arch_dot_symbols(), w->cand);
	for (i = 0; i < n; i++) {
		addr = kreloc_ksym_lookup(w->cand[i]);
		if (addr) {
			w->found = i;
			return addr;
		}
	}
	return 0;
}

/* @name parsed as a spec without offset and resolved; 0 if not found. */
static unsigned long kreloc_resolve_name(const char *name)
{
	struct kreloc_lookup_work *w;
	unsigned long addr = 0;
	const char *why;

	w = kreloc_zalloc(sizeof(*w));
	if (!w)
		return 0;
	if (!kreloc_spec_parse(name, strnlen(name, KRELOC_SPEC_MAX), &w->spec, &why) &&
	    !w->spec.offset)
		addr = kreloc_resolve(w);
	kfree(w);
	return addr;
}

/**
 * kreloc_kprobe_lookup_name() - kprobe_lookup_name() for modules
 * @name:	"sym", ".sym", "mod:sym" or "mod:.sym"
 * @offset:	the offset the probe will have from the symbol
 *
 * Same semantics as the kernel's kprobe_lookup_name(): on ppc64 ELF ABIv1
 * the ".sym" code symbol is preferred over the "sym" descriptor, and
 * "sym" is used only when there is no ".sym" (e.g. _text); on ppc64 ELFv2
 * an offset-0 lookup returns the ftrace site or the local entry point.
 * Never returns a function descriptor address.  Like the kernel's, it
 * answers the first of several symbols with one name.
 *
 * Exported in the namespace KRELOC (policy/kreloc_export.h): only a module
 * that imports it may call it.  It answers under every lockdown level, as
 * kallsyms_lookup_name() and kprobe_lookup_name() do for the kernel's own
 * code: lockdown guards what userspace may learn and change, and a module
 * that can call this is kernel code lockdown has already admitted (signed,
 * when lockdown is on); kreloc's debugfs files are where lockdown applies
 * (Documentation/ABI/testing/debugfs-kreloc).
 *
 * Context: process context; may sleep: right after kreloc is loaded it
 * waits for kreloc's setup.
 *
 * Return: the address the offset is to be added to, or 0 if not found
 * (or out of memory, or kreloc's setup failed).
 */
unsigned long kreloc_kprobe_lookup_name(const char *name, unsigned int offset)
{
	unsigned long addr;

	if (!name || kreloc_setup_wait())
		return 0;
	/* A bare name with no dot twin to try first: looked up as it is. */
	if (!kreloc_arch_dot_symbols() && kreloc_spec_plain(name))
		addr = kreloc_ksym_lookup(name);
	else
		addr = kreloc_resolve_name(name);
	return addr ? kreloc_ksym_probe_entry(addr, offset) : 0;
}

KRELOC_EXPORT_NS_GPL(kreloc_kprobe_lookup_name);

#define kreloc_lookup_err(err, why, fmt, ...)					\
	({ snprintf(why, KRELOC_REASON_MAX, fmt, ##__VA_ARGS__); (err); })

static int kreloc_lookup_spec(struct kreloc_lookup_work *w, const char *buf, size_t len,
			      struct kreloc_lookup_result *res, char *show, size_t showlen,
			      char *why)
{
	struct kreloc_spec *spec = &w->spec;
	const char *bad, *found;
	char *mod, *plus, *sym = w->sym;
	unsigned long addr;
	u64 size = 0, off;
	int n, ret;

	ret = kreloc_spec_parse(buf, len, spec, &bad);
	if (ret)	/* Never echo raw bytes: only that it was malformed. */
		return kreloc_lookup_err(ret, why, "invalid spec: %s", bad);
	snprintf(show, showlen, "%s%s%s", spec->mod, *spec->mod ? ":" : "", spec->name);
	addr = kreloc_resolve(w);
	if (!addr)
		return kreloc_lookup_err(-ENOENT, why, "%s: no such symbol", show);
	found = w->cand[w->found] + (*spec->mod ? strlen(spec->mod) + 1 : 0);

	/*
	 * An ambiguous name must not silently pick the first of several, and
	 * a name that cannot be counted might be one.
	 */
	n = kreloc_iter_count(spec->mod, found);
	if (n < 0)
		return kreloc_lookup_err(n, why,
					 "%s: cannot tell whether it is unique (the kernel's symbol iterators were not found)",
					 show);
	if (n > 1)
		return kreloc_lookup_err(-ENOTUNIQ, why,
					 "%s: %d symbols have this name; scope it as mod:%s or use an address",
					 show, n, spec->name);

	/* The symbol kallsyms knows at addr, its size, and its module. */
	sprint_symbol(sym, addr);
	mod = strchr(sym, '[');
	strscpy(res->module, "vmlinux", sizeof(res->module));
	if (mod) {
		size_t l = strcspn(mod + 1, "]");

		if (l < sizeof(res->module)) {
			memcpy(res->module, mod + 1, l);
			res->module[l] = '\0';
		}
	}
	plus = strrchr(sym, '+');
	if (!plus || kreloc_symstr_offset_size(plus + 1, &off, &size) || off)
		size = 0;
	if (spec->offset && (!size || spec->offset >= size))
		return kreloc_lookup_err(-EINVAL, why,
					 "%s: offset past the end of the symbol (size %llu)",
					 show, size);

	res->addr = addr + spec->offset;
	res->probe = kreloc_arch_adjust_probe(kreloc_ksym_probe_entry(addr, spec->offset),
					      spec->offset);
	res->type = kreloc_core_section_of(res->addr);
	if (!res->type)
		res->type = kreloc_modules_region_of(res->addr);
	if (!res->type)
		res->type = "unknown";
	if (spec->offset)
		snprintf(show, showlen, "%s%s%s+0x%llx", spec->mod, *spec->mod ? ":" : "",
			 spec->name, spec->offset);
	return 0;
}

int kreloc_lookup_resolve(const char *buf, size_t len, struct kreloc_lookup_result *res,
			  char *show, size_t showlen, char *why)
{
	struct kreloc_lookup_work *w = kreloc_zalloc(sizeof(*w));
	int ret;

	if (!w) {
		snprintf(why, KRELOC_REASON_MAX, "out of memory");
		return -ENOMEM;
	}
	ret = kreloc_lookup_spec(w, buf, len, res, show, showlen, why);
	kfree(w);
	return ret;
}
