// SPDX-License-Identifier: GPL-2.0
/*
 * The arm64 specifics.
 *
 * KASLR moves the kernel image as a whole: one displacement is applied to
 * every R_AARCH64_RELATIVE entry of the image, init text included
 * (__relocate_kernel in head.S, arch/arm64/kernel/pi/relocate.c since
 * v6.6).  Modules are placed in a region randomised on its own
 * (module_alloc_base; module_direct_base/module_plt_base since v6.5), so
 * their addresses come from kreloc's per-module records, never from this
 * offset.
 *
 * kallsyms has no _text without KALLSYMS_ALL (Debian 6.1), so the
 * reference symbol is _stext.  arch/arm64/kernel/vmlinux.lds.S puts
 * .head.text, which starts with _text, at KIMAGE_VADDR and .text, which
 * starts with _stext, at the next SEGMENT_ALIGN boundary; the image header
 * in .head.text is much smaller than that, so _stext links at
 * KIMAGE_VADDR + SEGMENT_ALIGN.  Since the image moves as one,
 * runtime _stext - linked _stext = kaslr_offset() = VMCOREINFO's
 * KERNELOFFSET.
 *
 * kaslr_offset() itself reads kimage_vaddr (exported up to v6.x) or _text
 * (not exported), so the kernel's own number comes from where crash dump
 * tools read it: the KERNELOFFSET line arch_crash_save_vmcoreinfo() writes.
 *
 * A kprobe stays where it is asked for: arm64 has no
 * arch_adjust_kprobe_addr() and steps BTI and PACIASP like any hint, so
 * the defaults of generic.c apply to probes and function pointers.
 */
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <asm/memory.h>
#include "arch/arch.h"
#include "compat/compat.h"

const char *kreloc_arch_ref_symbol(void)
{
	return "_stext";
}

bool kreloc_arch_link_base(u64 *base)
{
	*base = KIMAGE_VADDR + SEGMENT_ALIGN;
	return true;
}

bool kreloc_arch_kaslr_offset(u64 *off)
{
	return !kreloc_compat_vmcoreinfo_hex("KERNELOFFSET", off);
}

bool kreloc_arch_single_delta(void)
{
	return true;
}

/*
 * From _stext (KIMAGE_VADDR + SEGMENT_ALIGN + the offset) to past
 * pm_power_off, which arch/arm64/kernel/process.c defines without an
 * initialiser, so in .bss, after all of .data, and exports GPL.  Between
 * the two lie only the image's own mapped segments and their alignment
 * gaps (the init segments stay reserved once freed, "not to be reused for
 * modules"); a module placed in such a gap would make its list node a
 * second one inside, and the search then takes none.  The Image header at
 * _text would give the size, but [_text, _stext) is not mapped after
 * boot.  __symbol_get() finds the export without linking to it (and gives
 * only GPL exports: Debian's 6.1.192 has that change of v6.5, so
 * empty_zero_page, exported plainly, is no use).
 */
bool kreloc_arch_image_bounds(u64 offset, u64 *start, u64 *end)
{
	u64 stext = KIMAGE_VADDR + SEGMENT_ALIGN + offset;
	void *pm = __symbol_get("pm_power_off");

	if (!pm)
		return false;
	*start = stext;
	*end = (u64)pm + sizeof(void *);
	return *end > *start && *end - *start < SZ_1G;
}

/*
 * With BTI enforced for the kernel (ARM64_BTI_KERNEL, on a CPU that has
 * BTI), an indirect call (BLR, BTYPE 01/10) must land on BTI C, BTI JC, or
 * PACIASP/PACIBSP, which act as BTI C.  A function whose address the
 * compiler saw never taken may start with something else (a static one
 * without "bti c", or the patchable NOPs of ftrace), and calling it
 * through a pointer is a Branch Target exception.
 */
bool kreloc_arch_callable(unsigned long addr)
{
	__le32 raw;
	u32 insn, op;

	if (!IS_ENABLED(CONFIG_ARM64_BTI_KERNEL))
		return true;
	if (get_kernel_nofault(raw, (__le32 *)addr))
		return false;
	insn = le32_to_cpu(raw);
	if (!aarch64_insn_is_hint(insn))
		return false;
	op = insn & (0x7f << 5);
	return op == AARCH64_INSN_HINT_BTIC || op == AARCH64_INSN_HINT_BTIJC ||
	       op == AARCH64_INSN_HINT_PACIASP || op == AARCH64_INSN_HINT_PACIBSP;
}
