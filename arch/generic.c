// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture defaults, always linked; an architecture's file overrides
 * what differs.  With no override: _text as the reference symbol, no link
 * base constant, no kernel-provided offset, plain function pointers that
 * may be called indirectly, no assumption that all sections move together,
 * no dot symbols and no probe adjustment.
 */
#include <linux/compiler.h>
#include <linux/string.h>
#include "arch/arch.h"

const char * __weak kreloc_arch_ref_symbol(void)
{
	return "_text";
}

bool __weak kreloc_arch_link_base(u64 *base)
{
	return false;
}

bool __weak kreloc_arch_kaslr_offset(u64 *off)
{
	return false;
}

void * __weak kreloc_arch_func(unsigned long entry, struct kreloc_arch_fn *fn)
{
	return (void *)entry;
}

const char * __weak kreloc_arch_code_name(const char *name, char *buf, size_t len)
{
	strscpy(buf, name, len);
	return buf;
}

bool __weak kreloc_arch_callable(unsigned long addr)
{
	return true;
}

bool __weak kreloc_arch_image_bounds(u64 offset, u64 *start, u64 *end)
{
	return false;
}

bool __weak kreloc_arch_static_call_direct(void)
{
	return false;
}

bool __weak kreloc_arch_single_delta(void)
{
	return false;
}

bool __weak kreloc_arch_dot_symbols(void)
{
	return false;
}

unsigned long __weak kreloc_arch_probe_entry(unsigned long sym, unsigned long offset,
					     unsigned long ftrace_site)
{
	return sym;
}

unsigned long __weak kreloc_arch_adjust_probe(unsigned long addr, unsigned long offset)
{
	return addr + offset;
}
