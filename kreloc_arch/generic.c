// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc architectures without specific support: no link
 * base constant, no kernel-provided offset, plain function pointers, and no
 * assumption that all sections move together.
 */
#include <linux/string.h>
#include "kreloc_arch.h"

bool kreloc_arch_link_base(u64 *base)
{
	return false;
}

bool kreloc_arch_kaslr_offset(u64 *off)
{
	return false;
}

void *kreloc_arch_func(unsigned long entry, struct kreloc_arch_fn *fn)
{
	return (void *)entry;
}

const char *kreloc_arch_code_name(const char *name, char *buf, size_t len)
{
	strscpy(buf, name, len);
	return buf;
}

bool kreloc_arch_single_delta(void)
{
	return false;
}

void kreloc_arch_init(void)
{
}

bool kreloc_arch_dot_symbols(void)
{
	return false;
}

unsigned long kreloc_arch_probe_entry(unsigned long sym, unsigned long offset)
{
	return sym;
}

unsigned long kreloc_arch_adjust_probe(unsigned long addr, unsigned long offset)
{
	return addr + offset;
}
