/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Lookup specs "[mod:]sym[+off]" and the ppc64 ELFv1 dot-symbol-first
 * policy (pure logic, unit-tested on the host).
 */
#ifndef _KRELOC_SPEC_H
#define _KRELOC_SPEC_H

#include "kreloc_types.h"

/*
 * The longest module and symbol names (with their NUL) of the kernels
 * kreloc supports: MODULE_NAME_LEN on 64-bit, KSYM_NAME_LEN since v6.1
 * (128 before).  Userspace, which cannot see the running kernel's values,
 * uses these; the module uses the kernel's own, and compat/compat.c checks
 * at build time that they are equal or smaller.
 */
#define KRELOC_SPEC_MOD_MAX_USER	56
#define KRELOC_SPEC_NAME_MAX_USER	512
#ifdef __KERNEL__
#include <linux/kallsyms.h>
#include <linux/module.h>
#define KRELOC_SPEC_MOD_MAX	MODULE_NAME_LEN
#define KRELOC_SPEC_NAME_MAX	KSYM_NAME_LEN
#else
#define KRELOC_SPEC_MOD_MAX	KRELOC_SPEC_MOD_MAX_USER
#define KRELOC_SPEC_NAME_MAX	KRELOC_SPEC_NAME_MAX_USER
#endif
#define KRELOC_SPEC_MAX		(KRELOC_SPEC_MOD_MAX + KRELOC_SPEC_NAME_MAX + 24)

struct kreloc_spec {
	char mod[KRELOC_SPEC_MOD_MAX];	/* "" for no module scope */
	char name[KRELOC_SPEC_NAME_MAX];
	u64 offset;
};

/**
 * kreloc_spec_parse() - parse a lookup spec as written by a user
 * @buf:	the bytes written (not NUL-terminated; one trailing '\n' allowed)
 * @len:	their number
 * @spec:	filled in
 * @why:	set to a one-line reason on failure
 *
 * Accepts "sym", ".sym", "mod:sym", "mod:.sym", each optionally followed by
 * "+0xOFF" or "+DEC".  Symbol names are [A-Za-z0-9_.$]; module names
 * [A-Za-z0-9_-].
 *
 * Return: 0 or -EINVAL.
 */
int kreloc_spec_parse(const char *buf, size_t len, struct kreloc_spec *spec,
		      const char **why);

/**
 * kreloc_spec_plain() - is @name a bare symbol name
 * @name:	NUL-terminated
 *
 * True exactly when kreloc_spec_parse() of all of @name succeeds with no
 * module scope, no offset and the name unchanged: the common case of
 * kprobe_lookup_name(), which a caller can then look up as it is.
 *
 * Return: true or false.
 */
bool kreloc_spec_plain(const char *name);

/**
 * kreloc_spec_candidates() - the names to look up, in order
 * @spec:	a parsed spec
 * @dot_first:	ppc64 ELFv1: code symbols are ".name", "name" is a descriptor
 * @out:	two buffers of KRELOC_SPEC_MAX bytes
 *
 * With @dot_first, "name" gives ".name" then "name" (for symbols that have
 * no dot twin, such as _text); ".name" gives only ".name".  Otherwise the
 * name itself.  A module scope is kept as "mod:" in front, as
 * kallsyms_lookup_name() expects.
 *
 * Return: the number of candidates (1 or 2).
 */
int kreloc_spec_candidates(const struct kreloc_spec *spec, bool dot_first,
			   char out[2][KRELOC_SPEC_MAX]);

#endif /* _KRELOC_SPEC_H */
