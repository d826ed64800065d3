/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by the module and the host-side unit tests.  The pure-logic
 * files (kreloc_calc.c, kreloc_note.c, kreloc_symstr.c) include only this
 * header so that they build unchanged for userspace; for userspace it also
 * provides the few kernel helpers they use (hex_to_bin()).
 */
#ifndef _KRELOC_TYPES_H
#define _KRELOC_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/kernel.h>
/*
 * hex_to_bin(): in <linux/hex.h> on newer kernels, <linux/kernel.h>
 * before; Kbuild detects which (KRELOC_HAVE_HEX_H).  lib/ is the bottom
 * layer: it includes nothing of the module's.
 */
#ifdef KRELOC_HAVE_HEX_H
#include <linux/hex.h>
#endif
#else
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;

/* The kernel's hex_to_bin() (lib/hexdump.c): a hex digit's value, or -1. */
static inline int hex_to_bin(unsigned char ch)
{
	if (!isxdigit(ch))
		return -1;
	return isdigit(ch) ? ch - '0' : tolower(ch) - 'a' + 10;
}
#endif

#endif /* _KRELOC_TYPES_H */
