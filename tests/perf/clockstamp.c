// SPDX-License-Identifier: GPL-2.0
/*
 * clockstamp - print "STAMP NAME PERF_NS MONO_NS": now in perf's clock
 * (local_clock(), read as perf itself reports it: the time of the
 * PERF_RECORD_COMM a dummy software event writes when this program renames
 * itself) and in CLOCK_MONOTONIC.  The perf test's guest brackets each
 * module load and unload with it: the ground truth of when each module
 * held its memory, taken without kreloc.
 *
 *   clockstamp NAME
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.comm = 1,
		.exclude_kernel = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *mp;
	struct perf_event_header h;
	unsigned long long perf_ns = 0, tail;
	struct timespec ts;
	char *data;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: clockstamp NAME\n");
		return 2;
	}
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	mp = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mp == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	prctl(PR_SET_NAME, "clockstamp");
	clock_gettime(CLOCK_MONOTONIC, &ts);
	data = (char *)mp + page;
	/* One page of data, one COMM record in it: no wrap. */
	for (tail = 0; tail + sizeof(h) <= __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	     tail += h.size) {
		memcpy(&h, data + tail, sizeof(h));
		if (h.size < sizeof(h) + 8 || tail + h.size > (unsigned long long)page)
			break;
		if (h.type == PERF_RECORD_COMM)
			memcpy(&perf_ns, data + tail + h.size - 8, 8);
	}
	if (!perf_ns) {
		fprintf(stderr, "clockstamp: no PERF_RECORD_COMM\n");
		return 1;
	}
	printf("STAMP %s %llu %llu\n", argv[1], perf_ns,
	       (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
	return 0;
}
