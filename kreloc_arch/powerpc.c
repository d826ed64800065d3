// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc powerpc specifics.
 *
 * ppc64 links _text at KERNELBASE and relocates the whole image by
 * kernstart_virt_addr - KERNELBASE (0 on a normal boot, which copies the
 * kernel down to 0).  With ELF ABIv1 (big-endian before v6.5) a function
 * symbol "foo" is a descriptor in .opd and its code is ".foo"; calling code
 * through a pointer needs a descriptor holding the entry and the kernel TOC.
 */
#include <linux/string.h>
#include <linux/printk.h>
#include <asm/page.h>
#include <asm/sections.h>
#include "kreloc_arch.h"

bool kreloc_arch_link_base(u64 *base)
{
	*base = KERNELBASE;
	return true;
}

bool kreloc_arch_kaslr_offset(u64 *off)
{
#if defined(CONFIG_PPC64) || defined(CONFIG_RANDOMIZE_BASE)
	*off = kaslr_offset();
	return true;
#else
	return false;
#endif
}

#ifdef CONFIG_PPC64_ELF_ABI_V1
void *kreloc_arch_func(unsigned long entry, struct kreloc_arch_fn *fn)
{
	/* Any exported function's descriptor carries the kernel's TOC. */
	const unsigned long *printk_desc = (const unsigned long *)_printk;

	fn->desc[0] = entry;
	fn->desc[1] = printk_desc[1];
	fn->desc[2] = 0;
	return fn->desc;
}

const char *kreloc_arch_code_name(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, ".%s", name);
	return buf;
}
#else
void *kreloc_arch_func(unsigned long entry, struct kreloc_arch_fn *fn)
{
	/* ELFv2: calling the global entry sets up r2 from r12. */
	return (void *)entry;
}

const char *kreloc_arch_code_name(const char *name, char *buf, size_t len)
{
	strscpy(buf, name, len);
	return buf;
}
#endif

bool kreloc_arch_single_delta(void)
{
	return IS_ENABLED(CONFIG_PPC64);
}
