/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small interface each architecture implements: the ABI
 * of a function (what a pointer to it is, what kallsyms calls its code,
 * where an indirect call may land), where kprobes put a probe, and how the
 * kernel image moves.
 *
 * One file per architecture in this directory (x86_64.c, powerpc.c,
 * arm64.c) overrides the weak defaults in generic.c, which is always
 * linked.  This layer calls only compat/ and base/ below it: what it needs
 * of the running kernel's symbols (ppc64's ftrace site) its callers hand
 * it.
 */
#ifndef _KRELOC_ARCH_H
#define _KRELOC_ARCH_H

#include <linux/types.h>

/*
 * A callable pointer built from a code address.  On ppc64 ELF ABIv1 a C
 * function pointer is the address of a descriptor {entry, toc, env}, so the
 * storage for one lives here; elsewhere it is unused.
 */
struct kreloc_arch_fn {
	unsigned long desc[3];
};

/**
 * kreloc_arch_ref_symbol() - the symbol KERNELOFFSET is measured at
 *
 * _text, as in VMCOREINFO.  arm64's kallsyms has no _text (it keeps
 * _stext.._etext, and _text only with KALLSYMS_ALL), so there it is _stext,
 * which the image's single relocation moves with _text.
 *
 * Return: the symbol's name.
 */
const char *kreloc_arch_ref_symbol(void);

/**
 * kreloc_arch_link_base() - link-time address of the reference symbol
 * known from the kernel headers alone (x86_64 __START_KERNEL, ppc64
 * KERNELBASE, arm64 KIMAGE_VADDR + SEGMENT_ALIGN)
 * @base:	set to the address
 *
 * Return: true if the architecture has such a constant.
 */
bool kreloc_arch_link_base(u64 *base);

/**
 * kreloc_arch_kaslr_offset() - the kernel's own notion of its offset, if a
 * module can read it (ppc64 Book-E: kernstart_virt_addr - KERNELBASE;
 * Book3S-64: __va(kernstart_addr) - KERNELBASE, where it runs; arm64: the
 * KERNELOFFSET line of VMCOREINFO)
 * @off:	set to the offset
 *
 * Return: true if available; used as an independent cross-check.
 */
bool kreloc_arch_kaslr_offset(u64 *off);

/**
 * kreloc_arch_func() - make a C function pointer for code at @entry
 * @entry:	start of the function's code (as in /proc/kallsyms for code)
 * @fn:		storage the pointer may refer to; must outlive its use
 *
 * Return: a pointer that can be cast to the function type and called.
 */
void *kreloc_arch_func(unsigned long entry, struct kreloc_arch_fn *fn);

/**
 * kreloc_arch_code_name() - the kallsyms name of a function's code
 * @name:	the C name
 * @buf:	buffer of @len bytes for the result
 * @len:	size of @buf
 *
 * ppc64 ELF ABIv1 names code ".name" and the descriptor "name"; everywhere
 * else the code is "name".
 *
 * Return: @buf.
 */
const char *kreloc_arch_code_name(const char *name, char *buf, size_t len);

/**
 * kreloc_arch_callable() - may kreloc call the code at @addr through a
 * function pointer
 * @addr:	the start of the function's code, as kallsyms gives it (on
 *		ppc64 ELFv1 the ".name" code, not the descriptor)
 *
 * Control-flow integrity may forbid an indirect call to a function whose
 * address the kernel never takes (x86 IBT: a sealed function starts with a
 * NOP, not ENDBR64; arm64 BTI: the first instruction must be a landing
 * pad).  Asked wherever a static call is not a direct call, so that
 * kreloc's calls may be indirect (symbols/call.c), before a target is
 * installed.
 *
 * Return: true if an indirect call to @addr is allowed.
 */
bool kreloc_arch_callable(unsigned long addr);

/**
 * kreloc_arch_static_call_direct() - is every static call a direct call
 *
 * Only then may kreloc call a function whose first instruction is no
 * landing pad for an indirect call (kreloc_arch_callable()).  x86_64 with
 * CONFIG_HAVE_STATIC_CALL_INLINE patches every site into a direct call
 * (rel32 reaches any kernel function from a module).  Elsewhere a static
 * call may be indirect: the generic one calls through a pointer,
 * powerpc's trampoline branches through CTR to a function out of branch
 * range (even where its sites are inline), arm64's (with CFI) loads the
 * address and branches to it.
 *
 * Return: true if no static call of kreloc's can be an indirect branch.
 */
bool kreloc_arch_static_call_direct(void);

/**
 * kreloc_arch_image_bounds() - a stretch of the running kernel image that
 * holds all of its .data, if the architecture can tell it (arm64: _stext
 * to the exported pm_power_off, in .bss)
 * @offset:	the published offset of the image (KERNELOFFSET)
 * @start:	set to the stretch's runtime start
 * @end:	set to its runtime end
 *
 * No module memory may lie inside.
 *
 * Return: true if known; else the caller takes the link-time sections.
 */
bool kreloc_arch_image_bounds(u64 offset, u64 *start, u64 *end);

/* True if the whole image moves by one delta (checked across sections). */
bool kreloc_arch_single_delta(void);

/*
 * KRELOC_ARCH_FTRACE_WINDOW: how far into a function kprobes look for its
 * ftrace call site (bytes from its start), 0 where kprobes never move to
 * it.  ppc64 ELFv2 with KPROBES_ON_FTRACE: 16 (arch/powerpc/kernel/
 * kprobes.c).  A constant, so that no static call for
 * ftrace_location_range() exists where it is never installed.
 */
#if defined(CONFIG_PPC64) && !defined(CONFIG_PPC64_ELF_ABI_V1) && \
	defined(CONFIG_KPROBES_ON_FTRACE)
#define KRELOC_ARCH_FTRACE_WINDOW	16
#else
#define KRELOC_ARCH_FTRACE_WINDOW	0
#endif

/* ppc64 ELFv1: code symbols are ".name", plain names are descriptors. */
bool kreloc_arch_dot_symbols(void);

/**
 * kreloc_arch_probe_entry() - where kprobes put a probe for a symbol
 * @sym:	the symbol's address as kallsyms gives it (after dot-first)
 * @offset:	the probe's offset from the symbol
 * @ftrace_site: the ftrace call site within KRELOC_ARCH_FTRACE_WINDOW
 *		bytes of @sym, 0 if none (the caller asks the kernel)
 *
 * The arch part of the kernel's kprobe_lookup_name(): ppc64 ELFv2 moves an
 * offset-0 probe to the ftrace site in the first 16 bytes, else to the
 * local entry; elsewhere the symbol itself.
 *
 * Return: the address the offset is added to.
 */
unsigned long kreloc_arch_probe_entry(unsigned long sym, unsigned long offset,
				      unsigned long ftrace_site);

/**
 * kreloc_arch_adjust_probe() - arch_adjust_kprobe_addr()
 * @addr:	result of kreloc_arch_probe_entry()
 * @offset:	the probe's offset
 *
 * x86 with IBT moves a probe at a function's ENDBR (offset 0 or 4) to +4.
 *
 * Return: the probe address.
 */
unsigned long kreloc_arch_adjust_probe(unsigned long addr, unsigned long offset);

#endif /* _KRELOC_ARCH_H */
