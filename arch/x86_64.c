// SPDX-License-Identifier: GPL-2.0
/*
 * The x86_64 specifics.
 *
 * The whole image, init text included, is relocated by one delta
 * (arch/x86/boot/compressed/misc.c handle_relocations()); per-CPU symbols
 * are absolute and never move.  _text links at __START_KERNEL.
 * kaslr_offset() reads _text, which is not exported, so there is no
 * kernel-provided offset.  Function pointers are plain, but with IBT an
 * indirect call is legal only to a function that still starts with
 * ENDBR64: the kernel seals (overwrites with a NOP) the ENDBR64 of every
 * function whose address it never takes, which includes every unexported
 * function kreloc calls.  With CONFIG_HAVE_STATIC_CALL_INLINE (every IBT
 * kernel has it: both need objtool) static calls are direct calls, and
 * symbols/call.c asks kreloc_arch_callable() only without it.  The rest
 * comes from generic.c.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/page.h>
#include "arch/arch.h"
#include "compat/compat.h"

bool kreloc_arch_link_base(u64 *base)
{
	*base = __START_KERNEL;
	return true;
}

bool kreloc_arch_single_delta(void)
{
	return true;
}

/*
 * static_call_update() patches each site into a call or jmp rel32 to the
 * function (arch/x86/kernel/static_call.c), never through a register.
 */
bool kreloc_arch_static_call_direct(void)
{
	return IS_ENABLED(CONFIG_HAVE_STATIC_CALL_INLINE);
}

/* ENDBR64, compared exactly: the kernel's is_endbr() also accepts the seal. */
bool kreloc_arch_callable(unsigned long addr)
{
	static const u8 endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u8 insn[4];

	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT))
		return true;
	return !copy_from_kernel_nofault(insn, (void *)addr, sizeof(insn)) &&
	       !memcmp(insn, endbr64, sizeof(insn));
}

/*
 * The kernel's own test for a function entry arch_adjust_kprobe_addr()
 * moves past: ENDBR64, ENDBR32, or the 4-byte NOP that apply_seal_endbr()
 * writes over the ENDBR of a function whose address is never taken (its
 * bytes differ between kernels: 66 0f 1f 00 in 6.12, 0f 1f 40 d6 in 7.3).
 */
static bool kreloc_is_endbr(unsigned long addr)
{
	u32 insn;

	if (!IS_ENABLED(CONFIG_X86_KERNEL_IBT) ||
	    get_kernel_nofault(insn, (u32 *)addr))
		return false;
	return kreloc_compat_is_endbr(insn);
}

unsigned long kreloc_arch_adjust_probe(unsigned long addr, unsigned long offset)
{
	/* As arch_adjust_kprobe_addr(): an entry probe goes past ENDBR. */
	if ((!offset || offset == 4) && kreloc_is_endbr(addr))
		return addr + 4;
	return addr + offset;
}
