// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_ksym.c - runtime symbol addresses from kallsyms.
 *
 * kallsyms_lookup_name() has not been exported since v5.7.  Its address is
 * recovered once through a kprobe; but a kprobe's address is the *probe*
 * address after arch_adjust_kprobe_addr() (x86 IBT: +4 past ENDBR; ppc64
 * ELFv2: local entry or ftrace site; ppc64 ELFv1: ".name" code), so the
 * symbol start is taken back from sprint_symbol()'s "+off/size" and must
 * name the symbol that was asked for.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/cred.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "kreloc.h"
#include "lib/kreloc_symstr.h"
#include "kreloc_arch/kreloc_arch.h"

typedef unsigned long (*kreloc_lookup_name_t)(const char *name);
typedef bool (*kreloc_show_value_t)(const struct cred *cred);

static kreloc_lookup_name_t kreloc_lookup_name;
static kreloc_show_value_t kreloc_show_value;
static unsigned long kreloc_lookup_name_addr;
static struct kreloc_arch_fn kreloc_lookup_fn, kreloc_show_fn;

/*
 * Code start of @name, found through a kprobe and normalised to the symbol
 * start.  Returns 0 on failure.
 */
static unsigned long kreloc_kprobe_symbol_start(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long addr, start = 0;
	char *code, *buf;
	u64 off;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot place a kprobe on %s: %d\n", name, ret);
		return 0;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	code = kmalloc(KSYM_NAME_LEN + KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!code)
		return 0;
	buf = code + KSYM_NAME_LEN;
	sprint_symbol(buf, addr);
	kreloc_arch_code_name(name, code, KSYM_NAME_LEN);
	ret = kreloc_symstr_offset(buf, code, &off);
	if (ret)
		pr_err("kprobe on %s landed in \"%s\", not in %s\n", name, buf, code);
	else
		start = addr - off;
	kfree(code);
	return start;
}

int kreloc_ksym_init(void)
{
	kreloc_lookup_name_addr = kreloc_kprobe_symbol_start("kallsyms_lookup_name");
	if (!kreloc_lookup_name_addr)
		return -ENOENT;
	kreloc_lookup_name = kreloc_arch_func(kreloc_lookup_name_addr,
					      &kreloc_lookup_fn);

	/*
	 * The exact check /sys/module/X/sections applies.  If this kernel
	 * does not have it, kreloc_may_see_addresses() falls back to
	 * CAP_SYSLOG alone, which is never more permissive.
	 */
	kreloc_show_value = kreloc_ksym_func("kallsyms_show_value", &kreloc_show_fn);
	if (!kreloc_show_value)
		pr_warn("kallsyms_show_value not found, requiring CAP_SYSLOG\n");
	return 0;
}

/**
 * kreloc_ksym_func() - a callable pointer to a kernel function
 * @name:	the function's C name
 * @fn:		storage for a descriptor (ppc64 ELFv1); must outlive the pointer
 *
 * Looks up the function's code symbol (".name" on ppc64 ELFv1, where
 * "name" is the descriptor) and makes a pointer that can be called.
 *
 * Return: the pointer, or NULL if kallsyms does not know the function.
 */
void *kreloc_ksym_func(const char *name, struct kreloc_arch_fn *fn)
{
	char *code = kmalloc(KSYM_NAME_LEN, GFP_KERNEL);
	unsigned long addr;

	if (!code)
		return NULL;
	addr = kreloc_ksym_lookup(kreloc_arch_code_name(name, code, KSYM_NAME_LEN));
	kfree(code);
	return addr ? kreloc_arch_func(addr, fn) : NULL;
}

/**
 * kreloc_ksym_lookup() - kallsyms address of a symbol
 * @name:	the symbol, as in /proc/kallsyms
 *
 * Return: its address, exactly as /proc/kallsyms shows it to root, or 0.
 */
unsigned long kreloc_ksym_lookup(const char *name)
{
	if (!kreloc_lookup_name)
		return 0;
	return kreloc_lookup_name(name);
}

unsigned long kreloc_ksym_lookup_fn_addr(void)
{
	return kreloc_lookup_name_addr;
}

bool kreloc_show_value_exact(void)
{
	return kreloc_show_value;
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
	if (kreloc_show_value)
		return kreloc_show_value(file->f_cred);
	return file_ns_capable(file, &init_user_ns, CAP_SYSLOG);
}
