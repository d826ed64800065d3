// SPDX-License-Identifier: GPL-2.0
/*
 * threads.c SNAPSHOT MAPKIND MAP MODULES_DIR ADDRS NTHREADS: libkreloc's
 * thread safety, as <kreloc/kreloc.h> states it.  The addresses (hex, one
 * a line) are resolved once in one thread with a resolver of their own
 * (the expected answers), then by NTHREADS threads at once against one
 * fresh resolver, each starting at another place in the list so that the
 * first lookups in each module (which read its .ko) race.  Every thread's
 * every answer must be the expected one.  Built with -fsanitize=thread
 * too (tests/tools/test_lib.sh), where a data race is a failure.
 * MAPKIND: kallsyms, system-map or vmlinux.  Prints one line; exit 0 if
 * all agree.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kreloc/kreloc.h>

struct answer {
	int kind;
	char text[600];
};

static uint64_t *addrs;
static size_t naddrs;
static struct answer *want;
static const struct kreloc_resolver *shared;

static void answer(const struct kreloc_resolver *r, uint64_t a, struct answer *out)
{
	struct kreloc_addr_info i;

	out->kind = kreloc_resolve(r, a, 0, &i, sizeof(i));
	if (out->kind == KRELOC_UNKNOWN) {
		kreloc_resolve_why(r, a, 0, out->text, sizeof(out->text));
		return;
	}
	snprintf(out->text, sizeof(out->text), "%.*s+0x%" PRIx64 " [%s] %s %s",
		 (int)(i.symbol ? i.symbol_len : 1), i.symbol ? i.symbol : "-", i.offset,
		 i.module_name ? i.module_name : "", i.section, i.note ? i.note : "");
}

struct worker {
	pthread_t t;
	size_t start, bad;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct answer got;
	size_t k, i;

	for (k = 0; k < naddrs; k++) {
		i = (w->start + k) % naddrs;
		answer(shared, addrs[i], &got);
		if (got.kind != want[i].kind || strcmp(got.text, want[i].text))
			w->bad++;
	}
	return NULL;
}

static int make(struct kreloc_snapshot *s, char **argv, struct kreloc_resolver **r)
{
	KRELOC_OPTS(kreloc_resolver_opts, o,
		    .map_kind = !strcmp(argv[2], "kallsyms") ? KRELOC_MAP_KALLSYMS :
				!strcmp(argv[2], "vmlinux") ? KRELOC_MAP_VMLINUX :
				KRELOC_MAP_SYSTEM_MAP,
		    .map_path = argv[3], .modules_dir = argv[4]);

	if (kreloc_resolver_new(s, &o, r)) {
		fprintf(stderr, "threads: %s\n", kreloc_errmsg());
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct kreloc_resolver *one, *r;
	struct kreloc_snapshot *s;
	struct worker *w;
	size_t cap = 0, i, n, bad = 0, mods = 0;
	uint64_t a;
	FILE *f;

	if (argc != 7 || kreloc_snapshot_load(argv[1], &s)) {
		fprintf(stderr, "threads: %s\n", argc != 7 ? "usage: threads SNAPSHOT MAPKIND "
			"MAP MODULES_DIR ADDRS NTHREADS" : kreloc_errmsg());
		return 2;
	}
	f = fopen(argv[5], "r");
	while (f && fscanf(f, "%" SCNx64, &a) == 1) {
		if (naddrs == cap) {
			cap = cap ? cap * 2 : 1024;
			addrs = realloc(addrs, cap * sizeof(*addrs));
			if (!addrs)
				return 2;
		}
		addrs[naddrs++] = a;
	}
	if (f)
		fclose(f);
	n = strtoul(argv[6], NULL, 10);
	want = calloc(naddrs + 1, sizeof(*want));
	w = calloc(n + 1, sizeof(*w));
	if (!naddrs || !n || !want || !w || make(s, argv, &one) || make(s, argv, &r))
		return 2;
	for (i = 0; i < naddrs; i++) {
		answer(one, addrs[i], &want[i]);
		mods += want[i].kind == KRELOC_MODULE;
	}
	shared = r;
	for (i = 0; i < n; i++) {
		w[i].start = i * naddrs / n;
		if (pthread_create(&w[i].t, NULL, work, &w[i]))
			return 2;
	}
	for (i = 0; i < n; i++) {
		pthread_join(w[i].t, NULL);
		bad += w[i].bad;
	}
	printf("%zu threads x %zu addresses (%zu in modules) against one resolver: %zu answers "
	       "differ from one thread's\n", n, naddrs, mods, bad);
	kreloc_resolver_free(r);
	kreloc_resolver_free(one);
	kreloc_snapshot_free(s);
	free(addrs);
	free(want);
	free(w);
	return bad ? 1 : 0;
}
