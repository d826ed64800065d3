// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the snapshot parser, then a writer/reader round trip. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksnap.h"
#include "kresolve.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct ksnap s, t;
	struct kres r;
	char err[512], *buf = NULL;
	size_t blen = 0;
	FILE *f;

	if (!len)
		return 0;
	f = fmemopen((void *)data, len, "r");
	if (!f)
		return 0;
	if (ksnap_read(&s, f, "fuzz", err, sizeof(err))) {
		fclose(f);
		if (!strstr(err, "fuzz:"))
			abort();	/* every error names the input */
		return 0;
	}
	fclose(f);
	/* What parsed must write back and parse again. */
	f = open_memstream(&buf, &blen);
	if (f && !ksnap_write(&s, f) && !fclose(f)) {
		FILE *g = fmemopen(buf, blen, "r");

		if (g) {
			if (ksnap_read(&t, g, "rt", err, sizeof(err)))
				abort();
			if (t.nr_mods != s.nr_mods || t.nr_core != s.nr_core)
				abort();
			ksnap_free(&t);
			fclose(g);
		}
	}
	free(buf);
	/* And the resolver built on it must look addresses up without crashing. */
	if (!kres_init_map(&r, &s, NULL, KRES_SYSTEM_MAP, NULL, err, sizeof(err))) {
		struct kres_hit h;
		size_t i;

		struct kres_when w = { KS_LOCAL, 0, 0 };
		char why[256];

		for (i = 0; i < s.nr_mods && i < 8; i++) {
			if (!s.mods[i].nr_mem || !s.mods[i].mem[0].addr.ok)
				continue;
			/* ... at any time, and at the record's own times (a window at each). */
			kres_lookup(&r, s.mods[i].mem[0].addr.v + 1, NULL, &h);
			w.lo = w.hi = s.mods[i].t[KS_LOCAL][KS_LOAD].v;
			kres_lookup(&r, s.mods[i].mem[0].addr.v + 1, &w, &h);
			kres_why(&r, s.mods[i].mem[0].addr.v + 1, false, &w, why, sizeof(why));
		}
		kres_lookup(&r, 0xffffffff81000000ull, NULL, &h);
	}
	kres_free(&r);
	ksnap_free(&s);
	return 0;
}
