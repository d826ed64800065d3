// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: probe specs (the module's grammar plus vmlinux:0x...). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "spec.h"
#include "tracefs.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct cli_spec cs;
	const char *why = NULL;
	char *s = malloc(len + 1);

	if (!s)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	if (cli_spec_parse(s, &cs, &why)) {
		if (!why || !*why)
			abort();	/* every refusal says why */
	} else if (!cs.linked_ok && (!cs.spec.name[0] ||
				     strlen(cs.spec.name) >= KRELOC_SPEC_NAME_MAX)) {
		abort();
	}
	tracefs_event_name_ok(s);
	free(s);
	return 0;
}
