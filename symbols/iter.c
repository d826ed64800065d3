// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's kallsyms iterators, called by name: how
 * many symbols have a name (counted as kprobe_events counts them), and
 * (v5.10) one walk for many names.
 *
 * None is exported, and their prototypes changed: v5.10 has no
 * kallsyms_on_each_match_symbol(), v6.2 gave
 * module_kallsyms_on_each_symbol() a module name and took the module
 * argument from its callback.  Kbuild detects both from the target's
 * headers (KRELOC_HAVE_EACH_MATCH, KRELOC_HAVE_MODSYMS_MODNAME); the
 * prototypes come from those headers, and the calls are static calls
 * (symbols.h), never through a pointer.  Core kernel symbols go through
 * kallsyms_on_each_match_symbol() where it exists, else through
 * kallsyms_on_each_symbol(), which gives each symbol's module (NULL for
 * the core kernel: older 5.10 kernels went on into the modules).  Module
 * symbols go through module_kallsyms_on_each_symbol(), which takes
 * module_mutex itself.
 */
#include <linux/bitmap.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "base/base.h"
#include "symbols/symbols.h"
#include "base/hooks.h"

#ifdef KRELOC_HAVE_EACH_MATCH
KRELOC_CALL_DEFINE(kallsyms_on_each_match_symbol);
#define KRELOC_EACH_CORE	KRELOC_CALL(kallsyms_on_each_match_symbol)
#else
KRELOC_CALL_DEFINE(kallsyms_on_each_symbol);
#define KRELOC_EACH_CORE	KRELOC_CALL(kallsyms_on_each_symbol)
#endif
KRELOC_CALL_DEFINE(module_kallsyms_on_each_symbol);

/* Install the iterators; after kreloc_ksym_init(). */
void kreloc_iter_init(void)
{
	if (kreloc_hook_no_iterators())
		return;
	kreloc_ksym_install(&KRELOC_EACH_CORE);
	kreloc_ksym_install(&KRELOC_CALL(module_kallsyms_on_each_symbol));
}

struct kreloc_count {
	const char *mod, *name;
	int n;
};

#ifdef KRELOC_HAVE_EACH_MATCH
static int kreloc_count_match(void *data, unsigned long addr)
{
	((struct kreloc_count *)data)->n++;
	return 0;
}

static void kreloc_count_core(struct kreloc_count *c)
{
	kreloc_call(kallsyms_on_each_match_symbol)(kreloc_count_match, c->name, c);
}
#else
static int kreloc_count_core_sym(void *data, const char *name, struct module *mod,
				 unsigned long addr)
{
	struct kreloc_count *c = data;

	if (!mod && !strcmp(name, c->name))
		c->n++;
	return 0;
}

static void kreloc_count_core(struct kreloc_count *c)
{
	kreloc_call(kallsyms_on_each_symbol)(kreloc_count_core_sym, c);
}
#endif

/* v6.2 gave the iterator a module filter and dropped the module argument. */
#ifdef KRELOC_HAVE_MODSYMS_MODNAME
static int kreloc_count_mod(void *data, const char *name, unsigned long addr)
{
	struct kreloc_count *c = data;

	if (!strcmp(name, c->name))
		c->n++;
	return 0;
}

static void kreloc_count_modules(struct kreloc_count *c)
{
	kreloc_call(module_kallsyms_on_each_symbol)(*c->mod ? c->mod : NULL,
						    kreloc_count_mod, c);
}
#else
static int kreloc_count_mod(void *data, const char *name, struct module *mod,
			    unsigned long addr)
{
	struct kreloc_count *c = data;

	if ((!*c->mod || (mod && !strcmp(mod->name, c->mod))) &&
	    !strcmp(name, c->name))
		c->n++;
	return 0;
}

static void kreloc_count_modules(struct kreloc_count *c)
{
	kreloc_call(module_kallsyms_on_each_symbol)(kreloc_count_mod, c);
}
#endif

/*
 * trace_kprobe's number_of_same_symbols() counts an unscoped name in
 * vmlinux alone when vmlinux has it since upstream 1870ddcd94b0 (stable
 * 7.0.10), in vmlinux and every module before; Kbuild tells which from the
 * target's release (KRELOC_HAVE_KPROBE_VMLINUX_FIRST).
 */
#ifdef KRELOC_HAVE_KPROBE_VMLINUX_FIRST
#define KRELOC_COUNT_VMLINUX_FIRST	true
#else
#define KRELOC_COUNT_VMLINUX_FIRST	false
#endif

const char *kreloc_iter_count_rule(void)
{
	return KRELOC_COUNT_VMLINUX_FIRST ? "vmlinux-first" : "all";
}

int kreloc_iter_count(const char *mod, const char *name)
{
	struct kreloc_count c = { .mod = mod, .name = name };

	if (!READ_ONCE(KRELOC_EACH_CORE.addr) ||
	    !kreloc_call_ready(module_kallsyms_on_each_symbol))
		return -EOPNOTSUPP;
	if (!*mod) {
		kreloc_count_core(&c);
		if (KRELOC_COUNT_VMLINUX_FIRST && c.n)
			return c.n;
	}
	kreloc_count_modules(&c);
	return c.n;
}

#ifdef KRELOC_HAVE_EACH_MATCH
int kreloc_iter_core_lookup_all(const char * const *names, unsigned int n,
				u64 *addrs)
{
	return -EOPNOTSUPP;
}

bool kreloc_iter_core_can_walk(void)
{
	return false;
}
#else
/* The names sorted, for one walk over kallsyms (v5.10). */
struct kreloc_walk_ent {
	const char *name;
	unsigned int i;
};

/* Bits of the filter on a name's first three characters. */
#define KRELOC_WALK_BITS	1024

struct kreloc_walk {
	const struct kreloc_walk_ent *ents;
	unsigned int n;
	u64 *addrs;
	/*
	 * The callback runs for each of vmlinux's ~100,000 symbols: most are
	 * turned away here, without the binary search.
	 */
	DECLARE_BITMAP(filter, KRELOC_WALK_BITS);
};

static unsigned int kreloc_walk_hash(const char *name)
{
	unsigned int h = 0, i;

	for (i = 0; i < 3 && name[i]; i++)
		h = h * 31 + (unsigned char)name[i];
	return h % KRELOC_WALK_BITS;
}

static int kreloc_walk_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kreloc_walk_ent *)a)->name,
		      ((const struct kreloc_walk_ent *)b)->name);
}

static int kreloc_walk_sym(void *data, const char *name, struct module *mod,
			   unsigned long addr)
{
	const struct kreloc_walk *w = data;
	unsigned int lo = 0, hi = w->n;

	/* vmlinux's symbols come first: stop where the modules' begin. */
	if (mod)
		return 1;
	if (!test_bit(kreloc_walk_hash(name), w->filter))
		return 0;
	/* The first entry not below @name; a name may be asked for twice. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (strcmp(w->ents[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < w->n && !strcmp(w->ents[lo].name, name); lo++) {
		u64 *a = &w->addrs[w->ents[lo].i];

		*a = *a ? KRELOC_ITER_NOT_UNIQUE : addr;
	}
	return 0;
}

bool kreloc_iter_core_can_walk(void)
{
	return kreloc_call_ready(kallsyms_on_each_symbol);
}

int kreloc_iter_core_lookup_all(const char * const *names, unsigned int n,
				u64 *addrs)
{
	struct kreloc_walk_ent *ents;
	struct kreloc_walk w = { };
	unsigned int i;

	if (!kreloc_iter_core_can_walk())
		return -EOPNOTSUPP;
	ents = kreloc_zalloc_array(max(n, 1U), sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ents[i].name = names[i];
		ents[i].i = i;
		addrs[i] = 0;
		__set_bit(kreloc_walk_hash(names[i]), w.filter);
	}
	sort(ents, n, sizeof(*ents), kreloc_walk_cmp, NULL);
	w.ents = ents;
	w.n = n;
	w.addrs = addrs;
	kreloc_call(kallsyms_on_each_symbol)(kreloc_walk_sym, &w);
	kfree(ents);
	return 0;
}
#endif
