// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kreloc_ppc.c: ppc64 ELFv2 local entry decoding, with
 * instruction words as the compiler emits them.
 */
#include "unit.h"
#include "kreloc_ppc.h"

/* Global entry prologues seen in ppc64le kernels. */
static void test_toc_setup(void)
{
	/* addis r2,r12,0x122 ; addi r2,r2,-29696 (kernel_clone on Debian 6.1) */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c4c0122, 0x38428c00), 8);
	/* addis r2,r12,-1 ; addi r2,r2,0x7f00: negative immediates */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c4cffff, 0x38427f00), 8);
	/* lis r2,0x1234 ; addi r2,r2,0x5678 (absolute TOC, -mcmodel) */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c401234, 0x38425678), 8);
}

static void test_no_toc_setup(void)
{
	/* mflr r0 ; std r0,16(r1): a function that needs no TOC */
	CHECK_INT(kreloc_ppc_lep_offset(0x7c0802a6, 0xf8010010), 0);
	/* addis r2,r12 followed by something else than addi r2,r2 */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c4c0122, 0x7c0802a6), 0);
	/* addi r2,r2 first: wrong order */
	CHECK_INT(kreloc_ppc_lep_offset(0x38428c00, 0x3c4c0122), 0);
	/* addis r3,r12 (other target register) ; addi r2,r2 */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c6c0122, 0x38428c00), 0);
	/* addis r2,r11 (other source register) */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c4b0122, 0x38428c00), 0);
	/* addi r2,r3 (other source register) */
	CHECK_INT(kreloc_ppc_lep_offset(0x3c4c0122, 0x38438c00), 0);
	/* nop ; nop */
	CHECK_INT(kreloc_ppc_lep_offset(0x60000000, 0x60000000), 0);
	/* big-endian bytes read as little-endian words must not match */
	CHECK_INT(kreloc_ppc_lep_offset(0x22014c3c, 0x008c4238), 0);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_toc_setup),
	UNIT_CASE(test_no_toc_setup),
};

UNIT_MAIN(cases)
