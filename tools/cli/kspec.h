/* SPDX-License-Identifier: GPL-2.0 */
/* kspec.h - probe specs: sym, sym+OFF, .sym, mod:sym[+OFF], vmlinux:0xLINKED. */
#ifndef KRELOC_KSPEC_H
#define KRELOC_KSPEC_H

#include <stdint.h>

#define KSPEC_SYM_MAX	512	/* KSYM_NAME_LEN */
#define KSPEC_MOD_MAX	56	/* MODULE_NAME_LEN - 8 */

enum kspec_kind { KSPEC_SYM, KSPEC_MODSYM, KSPEC_LINKED };

struct kspec {
	enum kspec_kind kind;
	char mod[KSPEC_MOD_MAX];	/* KSPEC_MODSYM, '-' normalised to '_' */
	char sym[KSPEC_SYM_MAX];	/* KSPEC_SYM, KSPEC_MODSYM */
	uint64_t off;			/* +OFF (decimal or 0x hex) */
	uint64_t linked;		/* KSPEC_LINKED */
};

/* Returns 0, or -1 with *why set to a reason. */
int kspec_parse(const char *s, struct kspec *sp, const char **why);

/* Is s a valid tracefs group/event name ([A-Za-z_][A-Za-z0-9_]*, < 64)? */
int kspec_event_name_ok(const char *s);

#endif
