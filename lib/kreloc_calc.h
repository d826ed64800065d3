/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core relocation arithmetic: anchors (linked address, runtime address) are
 * grouped per core section and each group must agree on one delta.
 */
#ifndef _KRELOC_CALC_H
#define _KRELOC_CALC_H

#include "kreloc_types.h"

enum kreloc_group {
	KRELOC_TEXT,
	KRELOC_RODATA,
	KRELOC_DATA,
	KRELOC_BSS,
	KRELOC_INIT_TEXT,
	KRELOC_INIT_DATA,
	KRELOC_NR_GROUPS,
};

/* Link-time description of one anchor, generated at build time. */
struct kreloc_linked_anchor {
	const char *name;
	u64 linked;
	u8 group;		/* enum kreloc_group */
};

/* Link-time extent of one core section group; size 0 = unknown. */
struct kreloc_linked_section {
	u64 start;
	u64 size;
	bool known;
};

enum kreloc_status {
	KRELOC_UNKNOWN,		/* no anchor resolved: nothing published */
	KRELOC_OK,		/* all anchors agree */
	KRELOC_MISMATCH,	/* anchors disagree: nothing published */
};

struct kreloc_group_result {
	enum kreloc_status status;
	u64 offset;		/* valid only for KRELOC_OK */
	unsigned int nr_found;	/* anchors that resolved at runtime */
	unsigned int nr_agree;	/* of those, agreeing with the first */
	int first_bad;		/* index of the first disagreeing anchor or -1 */
};

const char *kreloc_group_name(unsigned int group);
int kreloc_group_by_name(const char *name);
const char *kreloc_status_name(enum kreloc_status status);

/**
 * kreloc_calc_groups() - group anchors and check that each group agrees
 * @anchors:	link-time anchors
 * @runtime:	runtime address of each anchor, 0 when it did not resolve
 * @nr:		number of anchors
 * @res:	array of KRELOC_NR_GROUPS results, filled in
 *
 * A group is %KRELOC_OK when at least one of its anchors resolved and all
 * resolved anchors yield the same delta, %KRELOC_MISMATCH when two of them
 * disagree, %KRELOC_UNKNOWN when none resolved.
 *
 * Return: number of groups in %KRELOC_MISMATCH.
 */
int kreloc_calc_groups(const struct kreloc_linked_anchor *anchors,
		       const u64 *runtime, unsigned int nr,
		       struct kreloc_group_result *res);

/**
 * kreloc_calc_single_delta() - require one delta across all known groups
 * @res:	results from kreloc_calc_groups()
 *
 * For architectures that relocate the whole image by one delta (x86_64,
 * ppc64), groups that agree internally but not with each other mean the
 * link-time data belongs to another build: all such groups are turned into
 * %KRELOC_MISMATCH.
 *
 * Return: true if all %KRELOC_OK groups share one offset.
 */
bool kreloc_calc_single_delta(struct kreloc_group_result *res);

/**
 * kreloc_calc_require() - demand corroboration before publishing
 * @res:	results from kreloc_calc_groups()
 * @min:	agreeing anchors a group needs to stay %KRELOC_OK
 *
 * One anchor agrees with itself: a group resting on fewer than @min
 * resolved anchors becomes %KRELOC_UNKNOWN (a lone anchor from another
 * build would otherwise publish its wrong delta).
 *
 * Return: the number of groups downgraded.
 */
int kreloc_calc_require(struct kreloc_group_result *res, unsigned int min);

/**
 * kreloc_group_for_addr() - which group's area holds a link-time address
 * @sec:	KRELOC_NR_GROUPS link-time sections
 * @addr:	link-time address
 *
 * The area of a group runs from its start to the start of the next group
 * above it (the last one to its end).
 *
 * Return: the group, or -1 when @addr lies in no area.
 */
int kreloc_group_for_addr(const struct kreloc_linked_section *sec, u64 addr);

#endif /* _KRELOC_CALC_H */
