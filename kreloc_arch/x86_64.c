// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc x86_64 specifics.
 *
 * The whole image, init text included, is relocated by one delta
 * (arch/x86/boot/compressed/misc.c handle_relocations()); per-CPU symbols
 * are absolute and never move.  _text links at __START_KERNEL.
 * kaslr_offset() reads _text, which is not exported, so there is no
 * kernel-provided offset; function pointers are plain: the symbol start is
 * where an IBT kernel's ENDBR64 sits, so an indirect call to it is legal.
 * The rest comes from generic.c.
 */
#include <linux/align.h>
#include <linux/uaccess.h>
#include <asm/page.h>
#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/ibt.h>
#endif
#include "kreloc_arch.h"

bool kreloc_arch_link_base(u64 *base)
{
	*base = __START_KERNEL;
	return true;
}

bool kreloc_arch_single_delta(void)
{
	return true;
}

unsigned long kreloc_arch_adjust_probe(unsigned long addr, unsigned long offset)
{
#ifdef CONFIG_X86_KERNEL_IBT
	u32 insn;

	/* As arch_adjust_kprobe_addr(): an entry probe goes past ENDBR. */
	if (!get_kernel_nofault(insn, (u32 *)addr) && is_endbr(insn) &&
	    (!offset || offset == 4))
		return addr + 4;
#endif
	return addr + offset;
}
