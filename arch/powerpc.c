// SPDX-License-Identifier: GPL-2.0
/*
 * The powerpc specifics.
 *
 * ppc64 links _text at KERNELBASE and relocates the whole image: by
 * kernstart_virt_addr - KERNELBASE with Book-E KASLR, and on Book3S-64 to
 * where it was loaded when it runs there (kdump; 0 on a normal boot, which
 * copies the kernel down to 0).  With ELF ABIv1 (big-endian before v6.5) a
 * function symbol "foo" is a descriptor in .opd and its code is ".foo";
 * calling code through a pointer needs a descriptor holding the entry and
 * the kernel TOC.
 */
#include <linux/string.h>
#include <linux/printk.h>
#include <asm/page.h>
#include <asm/sections.h>
#include <linux/uaccess.h>
#include "arch/arch.h"
#include "lib/kreloc_ppc.h"

bool kreloc_arch_link_base(u64 *base)
{
	*base = KERNELBASE;
	return true;
}

/*
 * Book3S-64 never moves kernstart_virt_addr (only Book-E KASLR does), so
 * kaslr_offset() is 0 there even when the kernel runs where it was loaded:
 * a kdump capture kernel, or a CONFIG_RELOCATABLE_TEST kernel started at
 * another address.  head_64.S records that address in kernstart_addr
 * (exported), and the linear map puts the kernel at __va() of it.
 */
bool kreloc_arch_kaslr_offset(u64 *off)
{
#if defined(CONFIG_PPC_BOOK3S_64) && defined(CONFIG_RELOCATABLE)
	*off = (unsigned long)__va(kernstart_addr) - KERNELBASE;
	return true;
#elif defined(CONFIG_PPC64) || defined(CONFIG_RANDOMIZE_BASE)
	*off = kaslr_offset();
	return true;
#else
	return false;
#endif
}

bool kreloc_arch_single_delta(void)
{
	return IS_ENABLED(CONFIG_PPC64);
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

/* The dot-first lookup gives code addresses; probes go there as they are. */
bool kreloc_arch_dot_symbols(void)
{
	return true;
}
#else
/*
 * ELFv2: plain function pointers (calling the global entry sets up r2 from
 * r12) and no dot symbols, as in generic.c; an offset-0 probe moves.
 * The ftrace site, in the first KRELOC_ARCH_FTRACE_WINDOW bytes, comes
 * from the caller, who asks the kernel.
 */
/* As the ELFv2 part of arch/powerpc/kernel/kprobes.c:kprobe_lookup_name(). */
unsigned long kreloc_arch_probe_entry(unsigned long sym, unsigned long offset,
				      unsigned long ftrace_site)
{
	u32 insn[2];

	if (offset || !IS_ENABLED(CONFIG_PPC64))
		return sym;
	if (ftrace_site)
		return ftrace_site;
	if (get_kernel_nofault(insn[0], (u32 *)sym) ||
	    get_kernel_nofault(insn[1], (u32 *)sym + 1))
		return sym;
	return sym + kreloc_ppc_lep_offset(insn[0], insn[1]);
}
#endif
