/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol lookup with the semantics kprobes need
 * (lookup.c): what a name or a spec means, which answer is refused.
 * Below it: state/, symbols/, arch/, compat/, base/.
 */
#ifndef _KRELOC_POLICY_H
#define _KRELOC_POLICY_H

#include <linux/module.h>
#include <linux/types.h>
#include "lib/kreloc_spec.h"
#include "policy/kreloc_export.h"

/* A reason kreloc_lookup_resolve() gives: one line, no raw user bytes. */
#define KRELOC_REASON_MAX	(KRELOC_SPEC_MAX + 96)

struct kreloc_lookup_result {
	unsigned long addr;		/* symbol (+offset) */
	unsigned long probe;		/* where a kprobe goes */
	char module[MODULE_NAME_LEN];	/* or "vmlinux" */
	const char *type;		/* "text", "init.text", ... or "unknown" */
};

/**
 * kreloc_lookup_resolve() - resolve a lookup spec
 * @buf:	the spec as written, not NUL-terminated
 * @len:	its length
 * @res:	the answer
 * @show:	set to the spec as it is to be shown (parsed, validated)
 * @showlen:	size of @show (KRELOC_SPEC_MAX)
 * @why:	KRELOC_REASON_MAX bytes: on failure, a one-line reason that
 *		holds no raw user bytes, only the parsed, validated name
 *
 * Return: 0, or -EINVAL (malformed, offset past the symbol), -ENOENT (no
 * such symbol), -ENOTUNIQ (several symbols have the name), -EOPNOTSUPP
 * (the kernel's symbol iterators were not found, so kreloc cannot tell
 * whether the name is unique), -ENOMEM.
 */
int kreloc_lookup_resolve(const char *buf, size_t len, struct kreloc_lookup_result *res,
			  char *show, size_t showlen, char *why);

#endif /* _KRELOC_POLICY_H */
