/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * spec.h - the CLI's probe specs: the module's grammar (lib/kreloc_spec.c:
 * sym, .sym, mod:sym, mod:.sym, each with +0xOFF or +DEC) plus
 * vmlinux:0xLINKED, a link-time address that only the CLI handles.
 */
#ifndef KRELOC_SPEC_CLI_H
#define KRELOC_SPEC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "../../../lib/kreloc_spec.h"

struct cli_spec {
	bool linked_ok;				/* vmlinux:0xLINKED */
	uint64_t linked;
	struct kreloc_spec spec;		/* otherwise */
	char mod[KRELOC_SPEC_MOD_MAX];		/* spec.mod with '-' as '_' */
	char text[KRELOC_SPEC_MAX];		/* the spec as given */
};

/* Returns 0, or -1 with *why set to a one-line reason. */
int cli_spec_parse(const char *s, struct cli_spec *cs, const char **why);

#endif
