// SPDX-License-Identifier: GPL-2.0
/*
 * When things happened, in the clocks the tools that read kreloc's
 * records stamp their own events with:
 *
 *  - local_clock(): perf's default clock (perf_clock() in
 *    kernel/events/core.c), and ftrace's "perf" trace_clock;
 *  - CLOCK_MONOTONIC (ktime_get_ns()): perf record -k monotonic, and
 *    ftrace's "mono".  perf reads it with ktime_get_mono_fast_ns(), the
 *    same clock read without the seqcount.
 *
 * ftrace's default "local" trace_clock is sched_clock() without
 * local_clock()'s offset, which is neither: kreloc does not record it.
 *
 * A stamp is taken at the start of a module notifier, before anything
 * that may sleep, so that it is no later than the module's code can run
 * (COMING) and no earlier than it stopped running (LIVE: ->init returned;
 * GOING: ->exit or a failed ->init returned).
 */
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include "compat/compat.h"
#include "state/state.h"

void kreloc_stamp_now(struct kreloc_stamp *s)
{
	s->ns[KRELOC_CLOCK_LOCAL] = local_clock();
	s->ns[KRELOC_CLOCK_MONO] = ktime_get_ns();
	s->known = true;
}

/*
 * The same clocks where nothing may wait: in panic(), where the CPU that
 * crashed may hold the timekeeper's seqcount, CLOCK_MONOTONIC is read
 * without it (as perf reads it).
 */
void kreloc_stamp_now_atomic(struct kreloc_stamp *s)
{
	s->ns[KRELOC_CLOCK_LOCAL] = local_clock();
	s->ns[KRELOC_CLOCK_MONO] = ktime_get_mono_fast_ns();
	s->known = true;
}

static DEFINE_MUTEX(kreloc_init_freed_lock);
static struct kreloc_stamp kreloc_init_freed_stamp;

/**
 * kreloc_stamp_init_freed() - by when the core kernel freed its init memory
 * @s:		set to the first time kreloc saw it freed (known false while
 *		it is not)
 *
 * The kernel keeps no time of free_initmem().  kreloc, loaded by the
 * initramfs's /init or later, runs after it, and calls this from its
 * ->init: the stamp is then kreloc's load time, a bound no init function
 * of the core kernel ran after.  A kreloc loaded earlier (request_module()
 * from an initcall) stamps the first read of info that finds it freed.
 */
void kreloc_stamp_init_freed(struct kreloc_stamp *s)
{
	mutex_lock(&kreloc_init_freed_lock);
	if (!kreloc_init_freed_stamp.known && kreloc_init_freed())
		kreloc_stamp_now(&kreloc_init_freed_stamp);
	*s = kreloc_init_freed_stamp;
	mutex_unlock(&kreloc_init_freed_lock);
}
