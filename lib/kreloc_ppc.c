// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_ppc.c - ppc64 ELFv2 entry decoding (pure logic).
 */
#include "kreloc_ppc.h"

unsigned int kreloc_ppc_lep_offset(u32 insn0, u32 insn1)
{
	u32 op0 = insn0 & KRELOC_PPC_IMM_MASK;

	if ((op0 == KRELOC_PPC_ADDIS_R2_R12 || op0 == KRELOC_PPC_LIS_R2) &&
	    (insn1 & KRELOC_PPC_IMM_MASK) == KRELOC_PPC_ADDI_R2_R2)
		return 8;
	return 0;
}
