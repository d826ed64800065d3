// SPDX-License-Identifier: GPL-2.0
/* test_calc.c - anchor grouping and agreement checks (kreloc_calc.c). */
#include "unit.h"
#include "kreloc_calc.h"

#define KASLR	0x2a000000ULL

static void fill_garbage(struct kreloc_group_result *res)
{
	memset(res, 0xa5, sizeof(*res) * KRELOC_NR_GROUPS);
}

static void check_unknown(const struct kreloc_group_result *r)
{
	CHECK_INT(r->status, KRELOC_UNKNOWN);
	CHECK_INT(r->nr_found, 0);
	CHECK_INT(r->nr_agree, 0);
	CHECK_INT(r->first_bad, -1);
	CHECK_U64(r->offset, 0);
}

static void test_agree(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xffffffff81000000ULL, KRELOC_TEXT },
		{ "start_kernel", 0xffffffff83456780ULL, KRELOC_INIT_TEXT },
		{ "kallsyms_lookup_name", 0xffffffff81123450ULL, KRELOC_TEXT },
		{ "__start_rodata", 0xffffffff82000000ULL, KRELOC_RODATA },
		{ "_etext", 0xffffffff81e00000ULL, KRELOC_TEXT },
		{ "linux_banner", 0xffffffff82000100ULL, KRELOC_RODATA },
	};
	u64 rt[UNIT_ARRAY_SIZE(a)];
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked + KASLR;
	fill_garbage(res);
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);

	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_TEXT].offset, KASLR);
	CHECK_INT(res[KRELOC_TEXT].nr_found, 3);
	CHECK_INT(res[KRELOC_TEXT].nr_agree, 3);
	CHECK_INT(res[KRELOC_TEXT].first_bad, -1);

	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_RODATA].offset, KASLR);
	CHECK_INT(res[KRELOC_RODATA].nr_found, 2);
	CHECK_INT(res[KRELOC_RODATA].nr_agree, 2);
	CHECK_INT(res[KRELOC_RODATA].first_bad, -1);

	CHECK_INT(res[KRELOC_INIT_TEXT].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_INIT_TEXT].nr_found, 1);
	CHECK_INT(res[KRELOC_INIT_TEXT].nr_agree, 1);

	/* Groups without anchors are reset from the garbage. */
	check_unknown(&res[KRELOC_DATA]);
	check_unknown(&res[KRELOC_BSS]);
	check_unknown(&res[KRELOC_INIT_DATA]);

	CHECK(kreloc_calc_single_delta(res));
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_INIT_TEXT].status, KRELOC_OK);
}

/* No KASLR (delta 0) and a move to lower addresses (delta wraps) agree too. */
static void test_agree_zero_and_negative(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "_stext", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "kernel_clone", 0xc000000000123400ULL, KRELOC_TEXT },
		{ "__bss_start", 0xc000000002000000ULL, KRELOC_BSS },
		{ "jiffies_64", 0xc000000002000800ULL, KRELOC_BSS },
	};
	u64 rt[UNIT_ARRAY_SIZE(a)];
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_TEXT].offset, 0);
	CHECK_INT(res[KRELOC_TEXT].nr_agree, 3);

	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked - 0x10000;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_TEXT].offset, (u64)-0x10000);
	CHECK_INT(res[KRELOC_BSS].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_BSS].offset, (u64)-0x10000);
	CHECK(kreloc_calc_single_delta(res));
}

static void test_mismatch(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xffffffff81000000ULL, KRELOC_TEXT },		/* 0 */
		{ "__start_rodata", 0xffffffff82000000ULL, KRELOC_RODATA },	/* 1 */
		{ "vfs_read", 0xffffffff81400000ULL, KRELOC_TEXT },		/* 2 */
		{ "linux_banner", 0xffffffff82000100ULL, KRELOC_RODATA },	/* 3 */
		{ "vfs_write", 0xffffffff81400100ULL, KRELOC_TEXT },		/* 4 */
		{ "schedule", 0xffffffff81500000ULL, KRELOC_TEXT },		/* 5 */
		{ "_etext", 0xffffffff81e00000ULL, KRELOC_TEXT },		/* 6 */
		{ "_sdata", 0xffffffff82800000ULL, KRELOC_DATA },		/* 7 */
	};
	u64 rt[UNIT_ARRAY_SIZE(a)];
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked + KASLR;
	rt[4] += 0x1000;	/* first text anchor that disagrees */
	rt[5] += 0x2000;	/* disagrees as well, not the first */
	fill_garbage(res);
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 1);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_TEXT].first_bad, 4);
	CHECK_INT(res[KRELOC_TEXT].nr_found, 5);
	CHECK_INT(res[KRELOC_TEXT].nr_agree, 3);
	/* The other groups are not affected. */
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_RODATA].first_bad, -1);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_DATA].offset, KASLR);

	/* A second group that disagrees counts separately. */
	rt[3] -= 0x40;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 2);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_RODATA].first_bad, 3);
	CHECK_INT(res[KRELOC_RODATA].nr_found, 2);
	CHECK_INT(res[KRELOC_RODATA].nr_agree, 1);

	/* Mismatched groups are left alone by the single-delta check. */
	CHECK(kreloc_calc_single_delta(res));
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_OK);
}

/* The first resolved anchor is the reference, even when it is the odd one. */
static void test_mismatch_reference_is_first_resolved(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "gone", 0xffffffff81000100ULL, KRELOC_TEXT },
		{ "odd", 0xffffffff81000200ULL, KRELOC_TEXT },
		{ "b", 0xffffffff81000300ULL, KRELOC_TEXT },
		{ "c", 0xffffffff81000400ULL, KRELOC_TEXT },
	};
	const u64 rt[] = { 0, a[1].linked + 0x1000, a[2].linked + KASLR,
			   a[3].linked + KASLR };
	struct kreloc_group_result res[KRELOC_NR_GROUPS];

	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 1);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_TEXT].first_bad, 2);
	CHECK_INT(res[KRELOC_TEXT].nr_found, 3);
	CHECK_INT(res[KRELOC_TEXT].nr_agree, 1);
}

static void test_unknown(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xffffffff81000000ULL, KRELOC_TEXT },
		{ "_sdata", 0xffffffff82800000ULL, KRELOC_DATA },
		{ "_edata", 0xffffffff82900000ULL, KRELOC_DATA },
		{ "__bss_start", 0xffffffff83000000ULL, KRELOC_BSS },
		/* Corrupt group numbers are ignored, not indexed. */
		{ "bogus", 0xffffffff81000000ULL, KRELOC_NR_GROUPS },
		{ "bogus2", 0xffffffff81000000ULL, 0xff },
	};
	u64 rt[UNIT_ARRAY_SIZE(a)] = { 0 };
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	unsigned int g;

	/* Nothing resolved at runtime: every group unknown. */
	fill_garbage(res);
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		check_unknown(&res[g]);
	/* Only unknown groups: no delta disagrees. */
	CHECK(kreloc_calc_single_delta(res));
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		CHECK_INT(res[g].status, KRELOC_UNKNOWN);

	/* Unresolved anchors are skipped, not counted as disagreeing. */
	rt[2] = a[2].linked + KASLR;
	rt[4] = 0x1234;
	rt[5] = 0x5678;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_DATA].nr_found, 1);
	CHECK_U64(res[KRELOC_DATA].offset, KASLR);
	check_unknown(&res[KRELOC_TEXT]);
	check_unknown(&res[KRELOC_BSS]);

	/* No anchors at all. */
	fill_garbage(res);
	CHECK_INT(kreloc_calc_groups(a, rt, 0, res), 0);
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		check_unknown(&res[g]);
}

static void test_single_delta(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xffffffff81000000ULL, KRELOC_TEXT },
		{ "vfs_read", 0xffffffff81400000ULL, KRELOC_TEXT },
		{ "__start_rodata", 0xffffffff82000000ULL, KRELOC_RODATA },
		{ "_sdata", 0xffffffff82800000ULL, KRELOC_DATA },
		{ "_edata", 0xffffffff82900000ULL, KRELOC_DATA },
		{ "__bss_start", 0xffffffff83000000ULL, KRELOC_BSS },
	};
	u64 rt[UNIT_ARRAY_SIZE(a)];
	struct kreloc_group_result res[KRELOC_NR_GROUPS];
	unsigned int i;

	/* Each group agrees internally, but data moved by another delta. */
	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked + KASLR;
	rt[3] += 0x200000;
	rt[4] += 0x200000;
	rt[5] = 0;		/* bss unresolved */
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_OK);
	CHECK_U64(res[KRELOC_DATA].offset, KASLR + 0x200000);
	CHECK(!kreloc_calc_single_delta(res));
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_MISMATCH);
	/* Unknown groups stay unknown. */
	CHECK_INT(res[KRELOC_BSS].status, KRELOC_UNKNOWN);
	CHECK_INT(res[KRELOC_INIT_TEXT].status, KRELOC_UNKNOWN);

	/* The odd group first in group order is caught the same way. */
	for (i = 0; i < UNIT_ARRAY_SIZE(a); i++)
		rt[i] = a[i].linked + KASLR;
	rt[0] += 0x1000;
	rt[1] += 0x1000;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK(!kreloc_calc_single_delta(res));
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
	CHECK_INT(res[KRELOC_BSS].status, KRELOC_MISMATCH);

	/* A single OK group is trivially consistent. */
	memset(rt, 0, sizeof(rt));
	rt[2] = a[2].linked + KASLR;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK(kreloc_calc_single_delta(res));
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
}

static void test_group_for_addr(void)
{
	struct kreloc_linked_section sec[KRELOC_NR_GROUPS];

	/* ppc64-like order: text, rodata, init, data, bss (last). */
	memset(sec, 0, sizeof(sec));
	sec[KRELOC_TEXT] = (struct kreloc_linked_section){ 0x10000, 0x8000, true };
	sec[KRELOC_RODATA] = (struct kreloc_linked_section){ 0x20000, 0x4000, true };
	sec[KRELOC_INIT_TEXT] = (struct kreloc_linked_section){ 0x30000, 0x1000, true };
	sec[KRELOC_INIT_DATA] = (struct kreloc_linked_section){ 0x31000, 0x1000, true };
	sec[KRELOC_DATA] = (struct kreloc_linked_section){ 0x40000, 0x2000, true };
	sec[KRELOC_BSS] = (struct kreloc_linked_section){ 0x50000, 0x1000, true };

	CHECK_INT(kreloc_group_for_addr(sec, 0), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0xffff), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0x10000), KRELOC_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x17fff), KRELOC_TEXT);
	/* Past text's size but below rodata: still text's area. */
	CHECK_INT(kreloc_group_for_addr(sec, 0x18000), KRELOC_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x1ffff), KRELOC_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x20000), KRELOC_RODATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x2ffff), KRELOC_RODATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x30000), KRELOC_INIT_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x30fff), KRELOC_INIT_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x31000), KRELOC_INIT_DATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x3ffff), KRELOC_INIT_DATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x40000), KRELOC_DATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x4ffff), KRELOC_DATA);
	/* The last group is bounded by its size. */
	CHECK_INT(kreloc_group_for_addr(sec, 0x50000), KRELOC_BSS);
	CHECK_INT(kreloc_group_for_addr(sec, 0x50fff), KRELOC_BSS);
	CHECK_INT(kreloc_group_for_addr(sec, 0x51000), -1);
	CHECK_INT(kreloc_group_for_addr(sec, ~0ULL), -1);

	/* Unknown groups have no area, whatever their start says. */
	sec[KRELOC_RODATA].known = false;
	CHECK_INT(kreloc_group_for_addr(sec, 0x20000), KRELOC_TEXT);
	sec[KRELOC_TEXT].known = false;
	CHECK_INT(kreloc_group_for_addr(sec, 0x10000), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0x2ffff), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0x30000), KRELOC_INIT_TEXT);

	/* The last group with an unknown size (0) extends without end. */
	sec[KRELOC_BSS].size = 0;
	CHECK_INT(kreloc_group_for_addr(sec, 0x50000), KRELOC_BSS);
	CHECK_INT(kreloc_group_for_addr(sec, ~0ULL), KRELOC_BSS);

	/* Only the last group by address is bounded, not the last by index. */
	memset(sec, 0, sizeof(sec));
	sec[KRELOC_TEXT] = (struct kreloc_linked_section){ 0x90000, 0x100, true };
	sec[KRELOC_INIT_DATA] = (struct kreloc_linked_section){ 0x10000, 0x100, true };
	CHECK_INT(kreloc_group_for_addr(sec, 0x10100), KRELOC_INIT_DATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x8ffff), KRELOC_INIT_DATA);
	CHECK_INT(kreloc_group_for_addr(sec, 0x900ff), KRELOC_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x90100), -1);

	/* An unknown group above the last known one does not unbound it. */
	memset(sec, 0, sizeof(sec));
	sec[KRELOC_TEXT] = (struct kreloc_linked_section){ 0x10000, 0x100, true };
	sec[KRELOC_DATA] = (struct kreloc_linked_section){ 0x20000, 0x100, false };
	CHECK_INT(kreloc_group_for_addr(sec, 0x100ff), KRELOC_TEXT);
	CHECK_INT(kreloc_group_for_addr(sec, 0x10100), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0x20000), -1);

	/* Nothing known: no area at all. */
	memset(sec, 0, sizeof(sec));
	CHECK_INT(kreloc_group_for_addr(sec, 0), -1);
	CHECK_INT(kreloc_group_for_addr(sec, 0x10000), -1);
}

static void test_names(void)
{
	static const char * const want[KRELOC_NR_GROUPS] = {
		"text", "rodata", "data", "bss", "init.text", "init.data",
	};
	unsigned int g, h;

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		CHECK_STR(kreloc_group_name(g), want[g]);
		CHECK_INT(kreloc_group_by_name(kreloc_group_name(g)), g);
		for (h = 0; h < g; h++)
			CHECK(strcmp(kreloc_group_name(g), kreloc_group_name(h)));
	}
	CHECK_STR(kreloc_group_name(KRELOC_NR_GROUPS), "?");
	CHECK_STR(kreloc_group_name(~0U), "?");
	CHECK_INT(kreloc_group_by_name("?"), -1);
	CHECK_INT(kreloc_group_by_name(""), -1);
	CHECK_INT(kreloc_group_by_name("Text"), -1);
	CHECK_INT(kreloc_group_by_name("init"), -1);
	CHECK_INT(kreloc_group_by_name("text "), -1);

	CHECK_STR(kreloc_status_name(KRELOC_OK), "ok");
	CHECK_STR(kreloc_status_name(KRELOC_MISMATCH), "mismatch");
	CHECK_STR(kreloc_status_name(KRELOC_UNKNOWN), "unknown");
	CHECK_STR(kreloc_status_name((enum kreloc_status)42), "unknown");
}

/* A lone anchor agrees with itself: it must not publish an offset. */
static void test_require(void)
{
	static const struct kreloc_linked_anchor a[] = {
		{ "_text", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "_stext", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "__end_rodata", 0xc000000001000000ULL, KRELOC_RODATA },
		{ "__init_begin", 0xc000000001000000ULL, KRELOC_INIT_DATA },
		{ "__init_end", 0xc000000001200000ULL, KRELOC_INIT_DATA },
	};
	u64 rt[UNIT_ARRAY_SIZE(a)] = {
		0xc000000000000000ULL, 0xc000000000000000ULL,
		0xc000000002000000ULL,	/* another build's marker */
		0xc000000001000000ULL, 0xc000000001200000ULL,
	};
	struct kreloc_group_result res[KRELOC_NR_GROUPS];

	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
	CHECK_INT(kreloc_calc_require(res, 2), 1);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_UNKNOWN);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_INIT_DATA].status, KRELOC_OK);
	CHECK_INT(res[KRELOC_DATA].status, KRELOC_UNKNOWN);
	/* With min 1 (the arch base) nothing changes. */
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 0);
	CHECK_INT(kreloc_calc_require(res, 1), 0);
	CHECK_INT(res[KRELOC_RODATA].status, KRELOC_OK);
	/* A mismatch is not turned into unknown. */
	rt[1] += 0x10;
	CHECK_INT(kreloc_calc_groups(a, rt, UNIT_ARRAY_SIZE(a), res), 1);
	CHECK_INT(kreloc_calc_require(res, 2), 1);
	CHECK_INT(res[KRELOC_TEXT].status, KRELOC_MISMATCH);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_require),
	UNIT_CASE(test_agree),
	UNIT_CASE(test_agree_zero_and_negative),
	UNIT_CASE(test_mismatch),
	UNIT_CASE(test_mismatch_reference_is_first_resolved),
	UNIT_CASE(test_unknown),
	UNIT_CASE(test_single_delta),
	UNIT_CASE(test_group_for_addr),
	UNIT_CASE(test_names),
};

UNIT_MAIN(cases)
