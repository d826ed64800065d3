// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: System.map/kallsyms parsing and the core resolver. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksnap.h"
#include "kresolve.h"
#include "../../sysmap.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	struct ksnap s;
	struct sysmap map;
	struct kres r;
	char err[512];
	FILE *f;
	int kallsyms;

	if (len < 1)
		return 0;
	kallsyms = data[0] & 1;
	f = fmemopen((void *)(data + 1), len - 1 ? len - 1 : 1, "r");
	if (!f)
		return 0;
	memset(&s, 0, sizeof(s));
	s.ref_linked.v = 0xffffffff81000000ull;
	s.ref_linked.ok = 1;
	s.nr_core = 1;
	strcpy(s.core[0].name, "text");
	strcpy(s.core[0].status, "ok");
	s.core[0].linked = s.ref_linked;
	s.core[0].size.v = 0x1000000;
	s.core[0].size.ok = 1;
	s.core[0].offset.v = 0x2000000;
	s.core[0].offset.ok = 1;
	if (sysmap_read(&map, f, "fuzz")) {
		fclose(f);
		if (strncmp(map.err, "fuzz", 4))
			abort();
		return 0;
	}
	fclose(f);
	if (!kres_init_map(&r, &s, &map, kallsyms ? KRES_KALLSYMS : KRES_SYSTEM_MAP, "fuzz", err, sizeof(err))) {
		struct kres_hit h;
		uint64_t a;

		for (a = 0xffffffff83000000ull; a < 0xffffffff84000000ull; a += 0x100003)
			if (kres_lookup(&r, a, NULL, &h) == KRES_CORE && !h.sym)
				abort();
		if (r.tab && r.tab->nr) {
			long k = kres_find(r.tab, r.tab->addr[r.tab->nr - 1]);

			if (k != (long)r.tab->nr - 1)
				abort();
		}
	}
	kres_free(&r);
	return 0;
}
