/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc_call.h - calling kernel functions that kreloc finds by name.
 *
 * Never through a function pointer where the kernel has static calls:
 * with CONFIG_X86_KERNEL_IBT the kernel seals (NOPs out the ENDBR64 of)
 * every function whose address it never takes, and an indirect call to a
 * sealed function is a #CP fault on a CPU with IBT.  A static call is
 * text-patched into a direct call, to which IBT does not apply.  Where
 * the kernel has no static calls (ppc64, arm64) the generic static call
 * is a pointer: there a function is installed only if
 * kreloc_arch_callable() accepts its first instruction.
 *
 * A user defines one call per kernel function at file scope, and calls it
 * only once it is installed:
 *
 *	KRELOC_CALL_DEFINE(kallsyms_lookup_name);
 *	...
 *	kreloc_call_install(&KRELOC_CALL(kallsyms_lookup_name));
 *	if (kreloc_call_ready(kallsyms_lookup_name))
 *		addr = kreloc_call(kallsyms_lookup_name)(name);
 *
 * The prototype is the kernel's (typeof, no symbol reference).
 */
#ifndef _KRELOC_CALL_H
#define _KRELOC_CALL_H

#include <linux/list.h>
#include <linux/static_call.h>
#include "kreloc_arch/kreloc_arch.h"

struct seq_file;

struct kreloc_call {
	const char *name;		/* the kernel function's C name */
	void (*update)(void *func);	/* static_call_update() of its key */
	unsigned long addr;		/* its code address once installed, else 0 */
	struct kreloc_arch_fn fn;	/* ppc64 ELFv1: the descriptor */
	struct list_head node;		/* on the list of installed calls */
};

#define KRELOC_CALL(func)	kreloc_call_##func

/* The static call kreloc_<func>, its updater and its struct kreloc_call. */
#define KRELOC_CALL_DEFINE(func)						\
	DEFINE_STATIC_CALL_NULL(kreloc_##func, func);				\
	static void kreloc_##func##_update(void *f)				\
	{									\
		static_call_update(kreloc_##func, (typeof(func) *)f);		\
	}									\
	static struct kreloc_call kreloc_call_##func = {			\
		.name = #func,							\
		.update = kreloc_##func##_update,				\
	}

#define kreloc_call_ready(func)	(READ_ONCE(KRELOC_CALL(func).addr) != 0)
#define kreloc_call(func)	static_call(kreloc_##func)

/**
 * kreloc_call_set() - install @c to call code at @addr
 * @c:		a call made by KRELOC_CALL_DEFINE()
 * @addr:	the function's code address (as /proc/kallsyms shows it)
 *
 * Return: 0, or -EOPNOTSUPP when the call would be indirect and the code
 * at @addr is no landing pad for it (kreloc_arch_callable()).
 */
int kreloc_call_set(struct kreloc_call *c, unsigned long addr);

/**
 * kreloc_call_install() - find @c's function in kallsyms and install it
 * @c:		a call made by KRELOC_CALL_DEFINE()
 *
 * Needs kallsyms_lookup_name installed first (kreloc_ksym_init()).
 *
 * Return: 0, -ENOENT if kallsyms does not know the function, or the error
 * of kreloc_call_set().
 */
int kreloc_call_install(struct kreloc_call *c);

/* "static_call" or "indirect": how installed calls reach their function. */
const char *kreloc_call_path(void);

/* info's CALL_PATH= and one CALL(name)=0x... line per installed call. */
void kreloc_call_show(struct seq_file *m);

#endif /* _KRELOC_CALL_H */
