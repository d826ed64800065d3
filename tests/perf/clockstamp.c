// SPDX-License-Identifier: GPL-2.0
/*
 * clockstamp - print "STAMP NAME PERF_NS MONO_NS": now in perf's clock
 * (local_clock(), as perf itself reports it: kr_perf_clock_now() of the
 * selftests' kreloc_util.c) and in CLOCK_MONOTONIC.  The perf test's guest
 * brackets each module load and unload with it: the ground truth of when
 * each module held its memory, taken without kreloc.
 *
 *   clockstamp NAME
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "kreloc_util.h"

int main(int argc, char **argv)
{
	struct timespec ts;
	long long perf_ns;

	if (argc != 2) {
		fprintf(stderr, "usage: clockstamp NAME\n");
		return 2;
	}
	if (kr_perf_clock_open()) {
		perror("perf_event_open");
		return 1;
	}
	perf_ns = kr_perf_clock_now();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (perf_ns < 0) {
		fprintf(stderr, "clockstamp: no PERF_RECORD_COMM\n");
		return 1;
	}
	printf("STAMP %s %lld %lld\n", argv[1], perf_ns,
	       (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
