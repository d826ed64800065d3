/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel functions and symbols kreloc finds by name:
 * the kprobe bootstrap of kallsyms_lookup_name (ksym.c), the static calls
 * through which kreloc calls what it found (call.c), and the kernel's
 * kallsyms iterators (iter.c).  Below it: kreloc_arch/, compat/, base/.
 *
 * Calling kernel functions that kreloc finds by name:
 *
 * Never through a function pointer where the kernel's static calls are
 * direct calls: with CONFIG_X86_KERNEL_IBT the kernel seals (NOPs out the
 * ENDBR64 of) every function whose address it never takes, and an
 * indirect call to a sealed function is a #CP fault on a CPU with IBT.
 * x86_64's inline static call is text-patched into a direct call, to
 * which IBT does not apply.  Anywhere else (no static calls, or ones whose
 * trampoline branches indirectly to a far function) a call may be
 * indirect, and a function is installed only if kreloc_arch_callable()
 * accepts its first instruction: kreloc_arch_static_call_direct() says
 * which.
 *
 * A user defines one call per kernel function at file scope, and calls it
 * only once it is installed:
 *
 *	KRELOC_CALL_DEFINE(kallsyms_lookup_name);
 *	...
 *	kreloc_ksym_install(&KRELOC_CALL(kallsyms_lookup_name));
 *	if (kreloc_call_ready(kallsyms_lookup_name))
 *		addr = kreloc_call(kallsyms_lookup_name)(name);
 *
 * The prototype is the kernel's (typeof, no symbol reference).
 */
#ifndef _KRELOC_SYMBOLS_H
#define _KRELOC_SYMBOLS_H

#include <linux/list.h>
#include <linux/static_call.h>
#include "kreloc_arch/arch.h"

struct cred;
struct file;
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

/*
 * How installed calls reach their function: "static_call" where every
 * static call is a direct call (kreloc_arch_static_call_direct()), else
 * "indirect" (each target checked by kreloc_arch_callable()).
 */
const char *kreloc_call_path(void);

/* info's CALL_PATH= and one CALL(name)=0x... line per installed call. */
void kreloc_call_show(struct seq_file *m);

/* ksym.c: runtime symbol addresses, from a kprobe-found kallsyms_lookup_name. */
int kreloc_ksym_init(void);
void kreloc_ksym_init_show_value(void);
void kreloc_ksym_exit(void);
#define KRELOC_KSYM_NR_INIT_NAMES	4
extern const char * const kreloc_ksym_init_names[KRELOC_KSYM_NR_INIT_NAMES];
void kreloc_ksym_prefill(const u64 *addrs);
unsigned long kreloc_ksym_lookup(const char *name);
unsigned long kreloc_ksym_code(const char *name);
unsigned long kreloc_ksym_lookup_fn_addr(void);
bool kreloc_may_see_addresses(const struct file *file);
bool kreloc_show_value_exact(void);

/**
 * kreloc_ksym_install() - find @c's function in kallsyms and install it
 * @c:		a call made by KRELOC_CALL_DEFINE()
 *
 * Needs kallsyms_lookup_name installed first (kreloc_ksym_init()).
 *
 * Return: 0, -ENOENT if kallsyms does not know the function, or the error
 * of kreloc_call_set().
 */
int kreloc_ksym_install(struct kreloc_call *c);

/**
 * kreloc_ksym_probe_entry() - where kprobes put a probe for a symbol
 * @sym:	the symbol's address as kallsyms gives it (after dot-first)
 * @offset:	the probe's offset from the symbol
 *
 * kreloc_arch_probe_entry() with the ftrace site the kernel would find
 * there (ftrace_location_range(), called by name, where the architecture
 * asks for one).
 *
 * Return: the address the offset is added to.
 */
unsigned long kreloc_ksym_probe_entry(unsigned long sym, unsigned long offset);

/* iter.c: the kallsyms iterators. */
void kreloc_iter_init(void);

/**
 * kreloc_iter_count() - how many symbols kprobe_events counts for a name
 * @mod:	"" for a name without a module, else only that module's
 * @name:	the exact name
 *
 * kallsyms_lookup_name() answers the first of several symbols with one
 * name; this tells whether there were several, counted as the running
 * kernel's trace_kprobe counts them (number_of_same_symbols()): a name
 * without a module in vmlinux and every module together, or, where
 * kreloc_iter_count_rule() says "vmlinux-first", in vmlinux alone when
 * vmlinux has it.
 *
 * Return: the count, or -EOPNOTSUPP if the kernel's iterators were not found.
 */
int kreloc_iter_count(const char *mod, const char *name);

/* The rule of kreloc_iter_count(): "vmlinux-first" or "all" (info's KPROBE_UNIQUE=). */
const char *kreloc_iter_count_rule(void);

/* An address kreloc_iter_core_lookup_all() gives a name seen twice. */
#define KRELOC_ITER_NOT_UNIQUE	(~0ULL)

/**
 * kreloc_iter_core_lookup_all() - vmlinux addresses of many names at once
 * @names:	the names (the anchors, then what init looks up besides)
 * @n:		how many
 * @addrs:	@n entries, set to each name's address in vmlinux's kallsyms:
 *		0 if it has none, KRELOC_ITER_NOT_UNIQUE if it has several
 *
 * v5.10 has neither a sorted name table nor kallsyms_on_each_match_symbol():
 * each kallsyms_lookup_name() walks every symbol, and the anchors that
 * cannot be checked at a guessed address (an alias listed before them) cost
 * one walk each.  There one walk over vmlinux's symbols answers them all;
 * a module's symbol is never an answer.
 *
 * Return: 0; -EOPNOTSUPP where names are looked up one by one (the kernel
 * has a faster way, or its iterator was not found); -ENOMEM.
 */
int kreloc_iter_core_lookup_all(const char * const *names, unsigned int n,
				u64 *addrs);

/* Would kreloc_iter_core_lookup_all() walk (not -EOPNOTSUPP)? */
bool kreloc_iter_core_can_walk(void);

#endif /* _KRELOC_SYMBOLS_H */
