// SPDX-License-Identifier: GPL-2.0
/*
 * libbench.c SNAPSHOT MAPKIND MAP ADDRS REPEAT [NAMES]: libkreloc's resolve
 * throughput on warm data, for tests/tools/bench.sh (not a test).  The
 * addresses (runtime, hex, one a line) are resolved once (warming the
 * resolver and the caches; with NAMES, each answer's symbol is written
 * there, one a line, for comparing with other symbolizers), then REPEAT
 * times over, timed in this thread's CPU time.  Prints
 *   LIBBENCH addresses=N cpu_s=T rate_per_s=R unresolved=U
 * MAPKIND: kallsyms, system-map or vmlinux.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <kreloc/kreloc.h>

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct kreloc_snapshot *s;
	struct kreloc_resolver *r;
	struct kreloc_addr_info a;
	uint64_t *addrs = NULL, x, sink = 0, unresolved = 0;
	size_t n = 0, cap = 0, i, k, repeat;
	double t0, t1;
	FILE *f, *names = NULL;

	if (argc < 6) {
		fprintf(stderr, "usage: libbench SNAPSHOT MAPKIND MAP ADDRS REPEAT [NAMES]\n");
		return 2;
	}
	{
		KRELOC_OPTS(kreloc_resolver_opts, o,
			    .map_kind = !strcmp(argv[2], "kallsyms") ? KRELOC_MAP_KALLSYMS :
					!strcmp(argv[2], "vmlinux") ? KRELOC_MAP_VMLINUX :
					KRELOC_MAP_SYSTEM_MAP,
			    .map_path = argv[3]);

		if (kreloc_snapshot_load(argv[1], &s) || kreloc_resolver_new(s, &o, &r)) {
			fprintf(stderr, "libbench: %s\n", kreloc_errmsg());
			return 1;
		}
	}
	f = fopen(argv[4], "r");
	while (f && fscanf(f, "%" SCNx64, &x) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			addrs = realloc(addrs, cap * sizeof(*addrs));
			if (!addrs)
				return 1;
		}
		addrs[n++] = x;
	}
	if (f)
		fclose(f);
	repeat = strtoul(argv[5], NULL, 10);
	if (argc > 6 && !(names = fopen(argv[6], "w")))
		return 1;
	for (i = 0; i < n; i++) {
		if (!kreloc_resolve(r, addrs[i], 0, &a, sizeof(a))) {
			if (names)
				fputs("??\n", names);
			continue;
		}
		if (names)
			fprintf(names, "%.*s\n", (int)a.symbol_len, a.symbol ? a.symbol : "??");
	}
	if (names)
		fclose(names);
	t0 = cpu_now();
	for (k = 0; k < repeat; k++)
		for (i = 0; i < n; i++) {
			if (kreloc_resolve(r, addrs[i], 0, &a, sizeof(a)))
				sink += a.offset + a.symbol_len;
			else
				unresolved++;
		}
	t1 = cpu_now();
	printf("LIBBENCH addresses=%zu cpu_s=%.3f rate_per_s=%.0f unresolved=%" PRIu64
	       " (sink %" PRIu64 ")\n", n * repeat, t1 - t0, (double)(n * repeat) / (t1 - t0),
	       unresolved, sink & 1);
	kreloc_resolver_free(r);
	kreloc_snapshot_free(s);
	free(addrs);
	return 0;
}
