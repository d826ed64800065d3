// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime symbol addresses from kallsyms.
 *
 * kallsyms_lookup_name() has not been exported since v5.7.  Its address is
 * recovered once through a kprobe; but a kprobe's address is the *probe*
 * address after arch_adjust_kprobe_addr() (x86 IBT: +4 past ENDBR; ppc64
 * ELFv2: local entry or ftrace site; ppc64 ELFv1: ".name" code), so the
 * symbol start is taken back from sprint_symbol()'s "+off/size" and must
 * name the symbol that was asked for.
 *
 * The kprobe is registered disabled and so is never armed: a kprobe that
 * is armed must be disarmed, and a disarm that fails (seen under fault
 * injection: "Failed to disarm kprobe-ftrace", error -12) leaves it in the
 * kernel's tables after unregister_kprobe(), where the next module load
 * crashes in kprobes_module_callback().  Once kallsyms_lookup_name is
 * known the kprobe has done its work and is unregistered at once: that
 * waits for an RCU grace period (15 ms seen), which costs nothing at
 * insmod, since all this runs in kreloc's setup work, and leaves nothing
 * of kreloc's in /sys/kernel/debug/kprobes/list.
 *
 * kallsyms_lookup_name and kallsyms_show_value are called through static
 * calls (symbols.h), never through a pointer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "base/base.h"
#include "symbols/symbols.h"
#include "lib/kreloc_symstr.h"
#include "base/hooks.h"

KRELOC_CALL_DEFINE(kallsyms_lookup_name);
KRELOC_CALL_DEFINE(kallsyms_show_value);
#if KRELOC_ARCH_FTRACE_WINDOW
KRELOC_CALL_DEFINE(ftrace_location_range);
#endif

static struct kprobe kreloc_kp;
static bool kreloc_kp_registered;

/*
 * What the setup looks up by name after the anchors.  Where kreloc walks
 * vmlinux's kallsyms once for the anchors (v5.10, where every
 * kallsyms_lookup_name() is a walk of its own), the walk answers these
 * too (kreloc_ksym_prefill()), until the setup is over.
 */
const char * const kreloc_ksym_init_names[KRELOC_KSYM_NR_INIT_NAMES] = {
	"kallsyms_show_value", "modules", "__start_notes", "__stop_notes",
};

static u64 kreloc_ksym_prefilled[KRELOC_KSYM_NR_INIT_NAMES];
static bool kreloc_ksym_have_prefill;

/* Unregister the kprobe, if it still is. */
static void kreloc_ksym_release(void)
{
	if (kreloc_kp_registered)
		unregister_kprobe(&kreloc_kp);
	kreloc_kp_registered = false;
}

/*
 * Code start of @name, found through a kprobe that is never armed and
 * normalised to the symbol start.  Returns 0 or a negative errno.
 */
static int kreloc_kprobe_symbol_start(const char *name, unsigned long *start)
{
	unsigned long addr;
	char *code, *buf;
	u64 off;
	int ret;

	code = kreloc_zalloc(KSYM_NAME_LEN + KSYM_SYMBOL_LEN);
	if (!code)
		return -ENOMEM;
	kreloc_kp.symbol_name = name;
	kreloc_kp.flags = KPROBE_FLAG_DISABLED;
	kreloc_hook_mark("before register_kprobe");
	ret = register_kprobe(&kreloc_kp);
	kreloc_hook_mark("register_kprobe");
	if (ret) {
		pr_err("cannot place a kprobe on %s: %pe\n", name, ERR_PTR(ret));
		goto out;
	}
	kreloc_kp_registered = true;
	addr = kreloc_hook_kprobe_addr((unsigned long)kreloc_kp.addr, code);
	/* The probe address is all it was for. */
	kreloc_ksym_release();
	kreloc_hook_mark("unregister_kprobe");

	buf = code + KSYM_NAME_LEN;
	sprint_symbol(buf, addr);
	kreloc_arch_code_name(name, code, KSYM_NAME_LEN);
	ret = kreloc_symstr_offset(buf, code, &off);
	if (ret && !strncmp(buf, "0x", 2)) {
		/* sprint_symbol() found no symbol and wrote the address. */
		pr_err("kprobe on %s landed where kallsyms has no symbol\n", name);
		ret = -ENOENT;
	} else if (ret) {
		/* Names only: the "+off/size" after them is no secret, the address is. */
		buf[strcspn(buf, "+")] = '\0';
		pr_err("kprobe on %s landed in %s, not in %s\n", name, buf, code);
		ret = -ENOENT;
	} else {
		*start = addr - off;
	}
out:
	kfree(code);
	return ret;
}

/*
 * A decoy for the selftest of the call-site check (test builds only): as
 * strict as the fallback, so the files stay readable to the test.
 */
static bool kreloc_decoy_show_value(const struct cred *cred)
{
	return cap_raised(cred->cap_effective, CAP_SYSLOG);
}

void kreloc_ksym_exit(void)
{
	kreloc_ksym_prefill(NULL);
	kreloc_ksym_release();
}

/**
 * kreloc_ksym_prefill() - answers for kreloc_ksym_init_names[] from a walk
 * @addrs:	one per name, its address in vmlinux's kallsyms (0 or
 *		KRELOC_ITER_NOT_UNIQUE: ask kallsyms); NULL drops them
 *
 * A name found once in vmlinux is what kallsyms_lookup_name() answers (it
 * tries vmlinux before the modules).  Setup only (nothing else looks
 * names up before it ends): not locked.
 */
void kreloc_ksym_prefill(const u64 *addrs)
{
	unsigned int i;

	for (i = 0; i < KRELOC_KSYM_NR_INIT_NAMES; i++)
		kreloc_ksym_prefilled[i] = addrs && addrs[i] != KRELOC_ITER_NOT_UNIQUE ?
					   addrs[i] : 0;
	kreloc_ksym_have_prefill = addrs;
}

static unsigned long kreloc_ksym_from_prefill(const char *name)
{
	unsigned int i;

	for (i = 0; i < KRELOC_KSYM_NR_INIT_NAMES; i++)
		if (!strcmp(name, kreloc_ksym_init_names[i]))
			return kreloc_ksym_prefilled[i];
	return 0;
}

int kreloc_ksym_init(void)
{
	unsigned long addr = 0;
	int ret;

	ret = kreloc_kprobe_symbol_start("kallsyms_lookup_name", &addr);
	if (!ret)
		ret = kreloc_call_set(&KRELOC_CALL(kallsyms_lookup_name), addr);
	if (ret) {
		kreloc_ksym_exit();
		return ret;
	}
	kreloc_hook_mark("kallsyms_lookup_name: sprint_symbol, static_call_update");
#if KRELOC_ARCH_FTRACE_WINDOW
	/* Only where kprobes move to it: on 5.10 every lookup is a walk. */
	kreloc_ksym_install(&KRELOC_CALL(ftrace_location_range));
#endif
	return 0;
}

/*
 * After the anchors (whose walk may have found it, kreloc_ksym_prefill()),
 * before any file can be opened (an open waits for the setup).
 */
void kreloc_ksym_init_show_value(void)
{
	/*
	 * The exact check /sys/module/X/sections applies.  If this kernel
	 * does not have it, kreloc_may_see_addresses() falls back to
	 * CAP_SYSLOG alone, which is never more permissive.
	 */
	int ret = kreloc_ksym_install(&KRELOC_CALL(kallsyms_show_value));

	kreloc_hook_mark("kallsyms_show_value: lookup, static_call_update");
	if (ret)
		pr_warn("kallsyms_show_value not usable, requiring CAP_SYSLOG\n");
	else if (kreloc_hook_call_decoy())
		static_call_update(kreloc_kallsyms_show_value, kreloc_decoy_show_value);
}

/**
 * kreloc_ksym_code() - address of a function's code
 * @name:	the function's C name
 *
 * Looks up ".name" on ppc64 ELFv1, where "name" is the descriptor.
 *
 * Return: the address as /proc/kallsyms shows it, or 0.
 */
unsigned long kreloc_ksym_code(const char *name)
{
	char code[KSYM_NAME_LEN];

	return kreloc_ksym_lookup(kreloc_arch_code_name(name, code, sizeof(code)));
}

/**
 * kreloc_ksym_lookup() - kallsyms address of a symbol
 * @name:	the symbol, as in /proc/kallsyms
 *
 * Return: its address, exactly as /proc/kallsyms shows it to root, or 0.
 */
unsigned long kreloc_ksym_lookup(const char *name)
{
	unsigned long addr;

	if (!kreloc_call_ready(kallsyms_lookup_name))
		return 0;
	if (unlikely(kreloc_ksym_have_prefill)) {
		addr = kreloc_ksym_from_prefill(name);
		if (addr)
			return addr;
	}
	return kreloc_call(kallsyms_lookup_name)(name);
}

int kreloc_ksym_install(struct kreloc_call *c)
{
	unsigned long addr = kreloc_ksym_code(c->name);

	return addr ? kreloc_call_set(c, addr) : -ENOENT;
}

unsigned long kreloc_ksym_probe_entry(unsigned long sym, unsigned long offset)
{
	unsigned long site = 0;

#if KRELOC_ARCH_FTRACE_WINDOW
	if (!offset && kreloc_call_ready(ftrace_location_range))
		site = kreloc_call(ftrace_location_range)(sym, sym + KRELOC_ARCH_FTRACE_WINDOW);
#endif
	return kreloc_arch_probe_entry(sym, offset, site);
}

unsigned long kreloc_ksym_lookup_fn_addr(void)
{
	return READ_ONCE(KRELOC_CALL(kallsyms_lookup_name).addr);
}

bool kreloc_show_value_exact(void)
{
	return kreloc_call_ready(kallsyms_show_value);
}

/**
 * kreloc_may_see_addresses() - may the opener of @file see kernel addresses
 * @file:	the open debugfs file
 *
 * Same rule as /sys/module/X/sections and /proc/kallsyms: the opener's
 * credentials against kptr_restrict, perf_event_paranoid and CAP_SYSLOG.
 *
 * Return: true if addresses may be shown.
 */
bool kreloc_may_see_addresses(const struct file *file)
{
	if (kreloc_call_ready(kallsyms_show_value))
		return kreloc_call(kallsyms_show_value)(file->f_cred);
	return file_ns_capable(file, &init_user_ns, CAP_SYSLOG);
}
