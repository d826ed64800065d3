// SPDX-License-Identifier: GPL-2.0
/*
 * The static calls through which kreloc calls the kernel
 * functions it finds by name.
 *
 * A static call is a direct call only where the architecture says so
 * (kreloc_arch_static_call_direct()): on x86_64 with
 * CONFIG_HAVE_STATIC_CALL_INLINE, static_call_update() text-pokes the
 * trampoline and each site into a direct call or jmp rel32 to the
 * function, so IBT's ENDBR check never applies and a sealed function
 * (ENDBR64 replaced by 66 0f 1f 00) is as good as any.  Elsewhere a call
 * may be indirect: the generic static_call() calls through the key;
 * powerpc's static calls (PPC32) branch to the trampoline when the
 * function is out of branch range, which then branches through CTR;
 * arm64's (v7.x, with CFI) trampoline loads the function's address and
 * branches to it.  There a function is installed
 * only if kreloc_arch_callable() says an indirect call may land on it.
 * The selftest kreloc_calls_test reads the patched sites back from
 * /proc/kcore and checks CALL_PATH against the kernel's configuration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include "symbols/symbols.h"

static LIST_HEAD(kreloc_calls);
static DEFINE_MUTEX(kreloc_calls_lock);

const char *kreloc_call_path(void)
{
	return kreloc_arch_static_call_direct() ? "static_call" : "indirect";
}

int kreloc_call_set(struct kreloc_call *c, unsigned long addr)
{
	if (!kreloc_arch_static_call_direct() && !kreloc_arch_callable(addr)) {
		pr_warn("%s is no target for an indirect call here, not used\n", c->name);
		return -EOPNOTSUPP;
	}
	c->update(kreloc_arch_func(addr, &c->fn));
	mutex_lock(&kreloc_calls_lock);
	if (!c->addr)
		list_add_tail(&c->node, &kreloc_calls);
	WRITE_ONCE(c->addr, addr);
	mutex_unlock(&kreloc_calls_lock);
	return 0;
}

void kreloc_call_show(struct seq_file *m)
{
	const struct kreloc_call *c;

	seq_printf(m, "CALL_PATH=%s\n", kreloc_call_path());
	mutex_lock(&kreloc_calls_lock);
	list_for_each_entry(c, &kreloc_calls, node)
		seq_printf(m, "CALL(%s)=0x%lx\n", c->name, c->addr);
	mutex_unlock(&kreloc_calls_lock);
}
