// SPDX-License-Identifier: GPL-2.0
/* lastheld.c - the last module record that held an address (lastheld.h). */
#include <string.h>
#include "lastheld.h"

struct last {
	const struct kreloc_snapshot *snap;
	uint64_t addr;
	const struct kreloc_time *when;
	struct kreloc_addr_info best;
	uint64_t until;
	bool found, tie;
};

/* When the region of record mod that holds addr was freed; false if not (yet). */
static bool freed_at(const struct last *l, int mod, uint64_t *until)
{
	struct kreloc_module_info mi;
	struct kreloc_mem_info k;
	uint64_t from;
	size_t i;

	if (mod < 0 || kreloc_snapshot_module(l->snap, (size_t)mod, &mi, sizeof(mi)))
		return false;
	for (i = 0; i < mi.nr_mem; i++) {
		if (kreloc_snapshot_module_mem(l->snap, (size_t)mod, i, &k, sizeof(k)) ||
		    k.kind != KRELOC_MEM_REGION || !k.address.known || !k.size.known ||
		    l->addr < k.address.value || l->addr - k.address.value >= k.size.value)
			continue;
		return !kreloc_snapshot_module_mem_time(l->snap, (size_t)mod, i, l->when->clock,
							&from, until) && *until != UINT64_MAX;
	}
	return false;
}

static int consider(void *ctx, const struct kreloc_addr_info *info)
{
	struct last *l = ctx;
	uint64_t until;

	if (!freed_at(l, info->module, &until) || until > l->when->ns)
		return 0;
	if (l->found && until == l->until) {
		l->tie = true;
	} else if (!l->found || until > l->until) {
		l->best = *info;
		l->until = until;
		l->found = true;
		l->tie = false;
	}
	return 0;
}

bool last_held(const struct kreloc_snapshot *snap, const struct kreloc_resolver *r,
	       uint64_t addr, const struct kreloc_time *when, struct kreloc_addr_info *info,
	       uint64_t *freed_ns)
{
	struct last l;

	memset(&l, 0, sizeof(l));
	l.snap = snap;
	l.addr = addr;
	l.when = when;
	if (!when || kreloc_resolve_candidates(r, addr, NULL, consider, &l) < 0 || !l.found ||
	    l.tie)
		return false;
	*info = l.best;
	*freed_ns = l.until;
	return true;
}
