// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: kreloc's ELF reader on any bytes (a .ko or vmlinux of
 * either class and byte order, truncated or hostile): sections, build id,
 * symbols and strings must be read within the image or refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "../../kelf.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static int count_sym(void *ctx, const struct kelf_sym *y)
{
	size_t *n = ctx;

	*n += strlen(y->name);	/* the name must be a terminated string */
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	unsigned char *copy = malloc(len ? len : 1);
	const unsigned char *id;
	struct kelf e;
	size_t i, n = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, len);
	if (!kelf_parse(&e, copy, len)) {
		kelf_build_id(&e, &id);
		kelf_symbols(&e, count_sym, &n);
		for (i = 0; i < e.nr_secs; i++) {
			const unsigned char *p = kelf_section_data(&e, &e.secs[i]);

			if (p && e.secs[i].size)
				n += p[e.secs[i].size - 1];
			kelf_string_at(&e, e.secs[i].addr);
		}
	} else if (!e.err[0]) {
		abort();	/* every refusal says why */
	}
	kelf_free(&e);
	return (int)(n & 0);
}
