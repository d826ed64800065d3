/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ppc64 function entry decoding (pure logic, unit-tested on the host).
 */
#ifndef _KRELOC_PPC_H
#define _KRELOC_PPC_H

#include "kreloc_types.h"

/* addis r2,r12,X / lis r2,X (addis r2,0,X) / addi r2,r2,X */
#define KRELOC_PPC_ADDIS_R2_R12	0x3c4c0000u
#define KRELOC_PPC_LIS_R2	0x3c400000u
#define KRELOC_PPC_ADDI_R2_R2	0x38420000u
#define KRELOC_PPC_IMM_MASK	0xffff0000u

/**
 * kreloc_ppc_lep_offset() - ELFv2 local entry point of a function
 * @insn0:	first instruction at the global entry
 * @insn1:	second instruction
 *
 * Same rule as ppc_function_entry() (arch/powerpc/include/asm/code-patching.h):
 * a function that sets up its TOC with "addis r2,r12,X" or "lis r2,X"
 * followed by "addi r2,r2,X" has its local entry 8 bytes in.
 *
 * Return: 8 or 0.
 */
unsigned int kreloc_ppc_lep_offset(u32 insn0, u32 insn1);

#endif /* _KRELOC_PPC_H */
