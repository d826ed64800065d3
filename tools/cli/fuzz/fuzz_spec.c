// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: probe spec parser. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "kspec.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct kspec sp;
	const char *why = NULL;
	char *s = malloc(len + 1);

	if (!s)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	if (kspec_parse(s, &sp, &why)) {
		if (!why)
			abort();
	} else if (sp.kind != KSPEC_LINKED && (!sp.sym[0] || strlen(sp.sym) >= KSPEC_SYM_MAX)) {
		abort();
	}
	kspec_event_name_ok(s);
	free(s);
	return 0;
}
