/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lastheld.h - the module record whose memory last held an address seen
 * after every record had freed it: the stale address of a use after
 * unload, such as a crash dump's Oops holds.
 */
#ifndef KRELOC_LASTHELD_H
#define KRELOC_LASTHELD_H

#include <stdbool.h>
#include <stdint.h>
#include <kreloc/kreloc.h>

/*
 * @addr was seen at @when, when no module record held it (kreloc_resolve_at()
 * found none).  If records held it before @when, set *info to the
 * resolution in the one that held it last and *freed_ns to when its memory
 * went (its unload, or for an init region its init's end, in @when's
 * clock), and return true.  kreloc saw every module load into that memory
 * until the snapshot, and none came after it: the address is that
 * record's, used after it was freed.  False if no record held it before
 * @when, or the last two were freed at the same moment.
 */
bool last_held(const struct kreloc_snapshot *snap, const struct kreloc_resolver *r,
	       uint64_t addr, const struct kreloc_time *when, struct kreloc_addr_info *info,
	       uint64_t *freed_ns);

#endif
