/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The points where a test build hooks faults and delays in.
 *
 * Only a test build (make KRELOC_TEST_HOOKS=1) has the hooks, as module
 * parameters prefixed test_, in test/hooks.c, outside the production
 * files.  In every other build these are empty inlines and the parameters
 * do not exist.
 */
#ifndef _KRELOC_HOOKS_H
#define _KRELOC_HOOKS_H

#include <linux/types.h>

/* The steps of kreloc_init(), for test_fail_after=. */
#define KRELOC_STEP_PARAMS	"params"
#define KRELOC_STEP_CALLS	"calls"
#define KRELOC_STEP_CORE	"core"
#define KRELOC_STEP_MODULES	"modules"

#ifdef KRELOC_TEST_HOOKS
void kreloc_hook_announce(void);
bool kreloc_hook_fail_alloc(void);
int kreloc_hook_init_step(const char *step);
void kreloc_hook_scan(const char *modname, bool live);
void kreloc_hook_scan_done(void);
void kreloc_hook_scan_window(void);
bool kreloc_hook_call_decoy(void);
bool kreloc_hook_leak_offset(void);
void kreloc_hook_mark(const char *what);
bool kreloc_hook_anchors_by_name(void);
unsigned long kreloc_hook_kprobe_addr(unsigned long addr, const void *nosym);
bool kreloc_hook_no_iterators(void);
const char *kreloc_hook_module_list(void);
void kreloc_hook_dump_changed(const char *name);
#else
static inline void kreloc_hook_announce(void)
{
}

static inline bool kreloc_hook_fail_alloc(void)
{
	return false;
}

static inline int kreloc_hook_init_step(const char *step)
{
	return 0;
}

static inline void kreloc_hook_scan(const char *modname, bool live)
{
}

static inline void kreloc_hook_scan_done(void)
{
}

static inline void kreloc_hook_scan_window(void)
{
}

static inline bool kreloc_hook_call_decoy(void)
{
	return false;
}

static inline bool kreloc_hook_leak_offset(void)
{
	return false;
}

static inline void kreloc_hook_mark(const char *what)
{
}

static inline bool kreloc_hook_anchors_by_name(void)
{
	return false;
}

static inline unsigned long kreloc_hook_kprobe_addr(unsigned long addr, const void *nosym)
{
	return addr;
}

static inline bool kreloc_hook_no_iterators(void)
{
	return false;
}

static inline const char *kreloc_hook_module_list(void)
{
	return NULL;
}

static inline void kreloc_hook_dump_changed(const char *name)
{
}
#endif

#endif /* _KRELOC_HOOKS_H */
