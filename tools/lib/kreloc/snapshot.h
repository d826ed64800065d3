/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* snapshot.h - what the public objects are inside the library. */
#ifndef KRELOC_SNAPSHOT_H
#define KRELOC_SNAPSHOT_H

#include <stdatomic.h>
#include "internal.h"
#include "kresolve.h"
#include "ksnap.h"

/* Read-only once loaded; the caller and each resolver made from it hold a reference. */
struct kreloc_snapshot {
	struct ksnap s;
	atomic_int refs;
};

struct kreloc_resolver {
	struct kres r;
	const struct kreloc_snapshot *snap;	/* a reference */
};

/* Take and drop a reference (the last frees it; NULL is ignored). */
/* A new snapshot holding its caller's reference, NULL out of memory. */
struct kreloc_snapshot *kr_snap_new(void);
void kr_snap_get(const struct kreloc_snapshot *snap);
void kr_snap_put(const struct kreloc_snapshot *snap);

/*
 * Copy a filled info struct (size bytes) into the caller's of sz bytes:
 * what fits, the rest of a larger one zeroed (a newer caller's members).
 */
void kr_copy_info(void *dst, size_t sz, const void *src, size_t size);
/* 0, or -ERANGE with the message for a record index past the last. */
int kr_check_mod(const struct kreloc_snapshot *snap, size_t mod);
/* The states as values (KRELOC_*_STATE_OTHER for one a newer kreloc wrote). */
enum kreloc_module_state kr_module_state(const char *state);
enum kreloc_mem_state kr_mem_state(const char *state);

/* Is member m of an options struct inside the caller's (o->sz)? */
#define KR_OPT_HAS(o, type, m) \
	((o) && (o)->sz >= offsetof(type, m) + sizeof(((type *)0)->m))
#define KR_OPT(o, type, m, dflt) (KR_OPT_HAS(o, type, m) ? (o)->m : (dflt))

#endif
