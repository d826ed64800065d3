// SPDX-License-Identifier: GPL-2.0
/*
 * gen - test data for kreloc resolve (64-bit arithmetic the shell tools
 * lack).  Independent of kreloc's own code: parses maps with sscanf.
 *
 *   gen shift OFFSET < MAP            add OFFSET to every non-absolute address
 *   gen core N SEED OFFSET < MAP      N lines "0xRUNTIME EXPECTED_SYM 0xOFF":
 *                                     text symbols whose address is unique,
 *                                     a random offset inside the symbol
 *   gen repeat N < LINES              cycle the input's first fields to N lines
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ent { uint64_t a; char t; char *n; };

static int cmp(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;

	return a->a < b->a ? -1 : a->a > b->a;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t xr(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	char line[1024], name[600], type;
	uint64_t a;

	if (argc >= 3 && !strcmp(argv[1], "shift")) {
		uint64_t off = strtoull(argv[2], NULL, 16);

		while (fgets(line, sizeof(line), stdin)) {
			char rest[800] = "";

			if (sscanf(line, "%" SCNx64 " %c %799[^\n]", &a, &type, rest) < 3)
				continue;
			printf("%016" PRIx64 " %c %s\n", type == 'A' || type == 'a' ? a : a + off,
			       type, rest);
		}
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "core")) {
		size_t n = strtoul(argv[2], NULL, 0), nr = 0, cap = 1 << 17, i, got = 0, tries = 0;
		uint64_t off = strtoull(argv[4], NULL, 16);
		struct ent *e = malloc(cap * sizeof(*e));

		rng ^= strtoull(argv[3], NULL, 0) * 0x9e3779b97f4a7c15ull;
		while (fgets(line, sizeof(line), stdin)) {
			if (strchr(line, '['))
				continue;
			if (sscanf(line, "%" SCNx64 " %c %599s", &a, &type, name) != 3)
				continue;
			if (type == 'A' || type == 'a')
				continue;
			if (nr == cap)
				e = realloc(e, (cap *= 2) * sizeof(*e));
			e[nr].a = a;
			e[nr].t = type;
			e[nr].n = strdup(name);
			nr++;
		}
		qsort(e, nr, sizeof(*e), cmp);
		while (got < n && tries++ < 100 * n) {
			uint64_t gap, o;

			i = xr() % (nr - 1);
			if (e[i].t != 't' && e[i].t != 'T')
				continue;
			if ((i && e[i - 1].a == e[i].a) || e[i + 1].a == e[i].a)
				continue;	/* aliases: any of them would be right */
			gap = e[i + 1].a - e[i].a;
			if (gap > 1 << 16)
				continue;
			o = xr() % gap;
			printf("0x%" PRIx64 " %s 0x%" PRIx64 "\n", e[i].a + off + o, e[i].n, o);
			got++;
		}
		return got == n ? 0 : 1;
	}
	if (argc >= 3 && !strcmp(argv[1], "repeat")) {
		size_t n = strtoul(argv[2], NULL, 0), nr = 0, cap = 1024, i;
		char **v = malloc(cap * sizeof(*v));

		while (fgets(line, sizeof(line), stdin)) {
			line[strcspn(line, " \n")] = '\0';
			if (nr == cap)
				v = realloc(v, (cap *= 2) * sizeof(*v));
			v[nr++] = strdup(line);
		}
		for (i = 0; i < n && nr; i++)
			puts(v[i % nr]);
		return 0;
	}
	fprintf(stderr, "usage: gen shift OFF | core N SEED OFF | repeat N\n");
	return 2;
}
