// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_calc.c - anchor grouping and agreement checks (pure logic, also
 * built for userspace by the unit tests).
 */
#include "kreloc_calc.h"

static const char * const group_names[KRELOC_NR_GROUPS] = {
	[KRELOC_TEXT]		= "text",
	[KRELOC_RODATA]		= "rodata",
	[KRELOC_DATA]		= "data",
	[KRELOC_BSS]		= "bss",
	[KRELOC_INIT_TEXT]	= "init.text",
	[KRELOC_INIT_DATA]	= "init.data",
};

const char *kreloc_group_name(unsigned int group)
{
	return group < KRELOC_NR_GROUPS ? group_names[group] : "?";
}

int kreloc_group_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < KRELOC_NR_GROUPS; i++)
		if (!strcmp(name, group_names[i]))
			return i;
	return -1;
}

const char *kreloc_status_name(enum kreloc_status status)
{
	switch (status) {
	case KRELOC_OK:
		return "ok";
	case KRELOC_MISMATCH:
		return "mismatch";
	default:
		return "unknown";
	}
}

int kreloc_calc_groups(const struct kreloc_linked_anchor *anchors,
		       const u64 *runtime, unsigned int nr,
		       struct kreloc_group_result *res)
{
	unsigned int i, g;
	int bad = 0;

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		res[g].status = KRELOC_UNKNOWN;
		res[g].offset = 0;
		res[g].nr_found = 0;
		res[g].nr_agree = 0;
		res[g].first_bad = -1;
	}

	for (i = 0; i < nr; i++) {
		struct kreloc_group_result *r;
		u64 delta;

		g = anchors[i].group;
		if (g >= KRELOC_NR_GROUPS || !runtime[i])
			continue;
		r = &res[g];
		delta = runtime[i] - anchors[i].linked;
		r->nr_found++;
		if (r->nr_found == 1) {
			r->status = KRELOC_OK;
			r->offset = delta;
			r->nr_agree = 1;
		} else if (delta == r->offset) {
			r->nr_agree++;
		} else if (r->first_bad < 0) {
			r->first_bad = i;
		}
	}

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		if (res[g].status == KRELOC_OK && res[g].first_bad >= 0) {
			res[g].status = KRELOC_MISMATCH;
			bad++;
		}
	}
	return bad;
}

bool kreloc_calc_single_delta(struct kreloc_group_result *res)
{
	unsigned int g;
	bool have = false, same = true;
	u64 off = 0;

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		if (res[g].status != KRELOC_OK)
			continue;
		if (!have) {
			off = res[g].offset;
			have = true;
		} else if (res[g].offset != off) {
			same = false;
		}
	}
	if (same)
		return true;
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		if (res[g].status == KRELOC_OK)
			res[g].status = KRELOC_MISMATCH;
	return false;
}

int kreloc_calc_require(struct kreloc_group_result *res, unsigned int min)
{
	unsigned int g;
	int n = 0;

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		if (res[g].status == KRELOC_OK && res[g].nr_agree < min) {
			res[g].status = KRELOC_UNKNOWN;
			n++;
		}
	}
	return n;
}

int kreloc_group_for_addr(const struct kreloc_linked_section *sec, u64 addr)
{
	int g, best = -1;

	/* The group with the highest start at or below addr ... */
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		if (!sec[g].known || sec[g].start > addr)
			continue;
		if (best < 0 || sec[g].start > sec[best].start)
			best = g;
	}
	if (best < 0)
		return -1;
	/* ... unless it is the last one and addr lies past its end. */
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		if (sec[g].known && sec[g].start > sec[best].start)
			return best;
	if (sec[best].size && addr >= sec[best].start + sec[best].size)
		return -1;
	return best;
}
