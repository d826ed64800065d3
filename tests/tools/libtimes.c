// SPDX-License-Identifier: GPL-2.0
/*
 * libtimes - libkreloc's times, for tests/tools/test_times.sh.
 *
 *   libtimes SNAPSHOT
 *	one line per module record, as debugfs modules prints its columns:
 *	NAME LOAD_GEN LOAD_LOCAL INIT_LOCAL UNLOAD_LOCAL LOAD_MONO INIT_MONO
 *	UNLOAD_MONO (kreloc_snapshot_module_time(); '-' for -ENODATA), then
 *	"snapshot CLOCK TAKEN SINCE INIT_FREED_BY" per clock
 *	(kreloc_snapshot_time()), then "refused: ..." for what bad arguments
 *	answer (-ERANGE, -EINVAL)
 *   libtimes SNAPSHOT KALLSYMS MODULES_DIR [ADDR CLOCK NS SPAN]...
 *	for each address, kreloc_resolve_at() at [NS, NS + SPAN] of CLOCK
 *	(perf or mono; NS "-" for no time): "ADDR NAME@GEN SYMBOL+0xOFF" or
 *	"ADDR ? N: NAME@GEN..." (the number of candidates and each, from
 *	kreloc_resolve_candidates())
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kreloc/kreloc.h>

static void put_time(int ret, const uint64_t *ns)
{
	if (ret == -ENODATA)
		printf(" -");
	else if (ret)
		printf(" error(%d)", ret);
	else
		printf(" %" PRIu64, *ns);
}

static int times(const struct kreloc_snapshot *s)
{
	static const enum kreloc_clock clocks[] = { KRELOC_CLOCK_LOCAL, KRELOC_CLOCK_MONOTONIC };
	struct kreloc_module_info m;
	uint64_t ns = 0;
	size_t i;
	int c, e;

	for (i = 0; !kreloc_snapshot_module(s, i, &m, sizeof(m)); i++) {
		printf("%s %" PRIu64, m.name, m.load_gen.value);
		for (c = 0; c < 2; c++)
			for (e = KRELOC_EVENT_LOAD; e <= KRELOC_EVENT_UNLOAD; e++)
				put_time(kreloc_snapshot_module_time(s, i, e, clocks[c], &ns), &ns);
		printf("\n");
	}
	for (c = 0; c < 2; c++) {
		printf("snapshot %s", c ? "mono" : "local");
		for (e = KRELOC_TIME_TAKEN; e <= KRELOC_TIME_INIT_FREED_BY; e++)
			put_time(kreloc_snapshot_time(s, e, clocks[c], &ns), &ns);
		printf("\n");
	}
	printf("refused: record %zu %d, clock 7 %d, event 7 %d, no ns %d, time 7 %d\n", i,
	       kreloc_snapshot_module_time(s, i, KRELOC_EVENT_LOAD, KRELOC_CLOCK_LOCAL, &ns),
	       kreloc_snapshot_module_time(s, 0, KRELOC_EVENT_LOAD, (enum kreloc_clock)7, &ns),
	       kreloc_snapshot_module_time(s, 0, (enum kreloc_module_event)7, KRELOC_CLOCK_LOCAL,
					   &ns),
	       kreloc_snapshot_module_time(s, 0, KRELOC_EVENT_LOAD, KRELOC_CLOCK_LOCAL, NULL),
	       kreloc_snapshot_time(s, (enum kreloc_snapshot_time)7, KRELOC_CLOCK_LOCAL, &ns));
	return 0;
}

static int name_candidate(void *ctx, const struct kreloc_addr_info *a)
{
	(void)ctx;
	printf(" %s@%" PRIu64, a->module_name, a->load_gen.value);
	return 0;
}

static int query(const struct kreloc_resolver *r, char **q)
{
	struct kreloc_time when = { KRELOC_CLOCK_LOCAL, 0, 0 };
	const struct kreloc_time *w = NULL;
	struct kreloc_addr_info a;
	uint64_t addr = strtoull(q[0], NULL, 16);
	int n;

	if (strcmp(q[2], "-")) {
		when.clock = !strcmp(q[1], "mono") ? KRELOC_CLOCK_MONOTONIC : KRELOC_CLOCK_LOCAL;
		when.ns = strtoull(q[2], NULL, 10);
		when.span_ns = strtoull(q[3], NULL, 10);
		w = &when;
	}
	if (kreloc_resolve_at(r, addr, 0, w, &a, sizeof(a)) == KRELOC_MODULE) {
		printf("0x%" PRIx64 " %s@%" PRIu64 " %.*s+0x%" PRIx64 " (%u)\n", addr, a.module_name,
		       a.load_gen.value, (int)(a.symbol ? a.symbol_len : strlen(a.section)),
		       a.symbol ? a.symbol : a.section, a.offset, a.candidates);
		return 0;
	}
	printf("0x%" PRIx64 " ? %u:", addr, a.candidates);
	n = kreloc_resolve_candidates(r, addr, w, name_candidate, NULL);
	printf(" (%d)\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	struct kreloc_snapshot *s = NULL;
	struct kreloc_resolver *r = NULL;
	int i;

	if (argc < 2 || kreloc_snapshot_load(argv[1], &s)) {
		fprintf(stderr, "%s\n", argc < 2 ? "usage: libtimes SNAPSHOT [KALLSYMS MODULES_DIR [ADDR CLOCK NS SPAN]...]" :
			kreloc_errmsg());
		return 2;
	}
	if (argc == 2) {
		times(s);
	} else {
		KRELOC_OPTS(kreloc_resolver_opts, o, .map_kind = KRELOC_MAP_KALLSYMS,
			    .map_path = argv[2], .modules_dir = argc > 3 ? argv[3] : NULL);

		if (kreloc_resolver_new(s, &o, &r)) {
			fprintf(stderr, "%s\n", kreloc_errmsg());
			kreloc_snapshot_free(s);
			return 2;
		}
		for (i = 4; i + 3 < argc; i += 4)
			query(r, argv + i);
		kreloc_resolver_free(r);
	}
	kreloc_snapshot_free(s);
	return 0;
}
