// SPDX-License-Identifier: GPL-2.0
/*
 * upstream-bench - `make bench` for the upstream target, inside its VM
 * (rig/vm-upstream.sh --bench):
 *
 *   upstream-bench KO NAME
 *
 * What the series adds to a module's load and unload: KO (a module that
 * does nothing in init) loaded and unloaded CYCLES times in each of three
 * states, taken in turn so that drift hits them alike:
 *   none        no perf event: the loader's three calls return at once;
 *   ksymbol     an event of this task with ksymbol (what perf record asks
 *               of kernels without the series): the module's functions are
 *               walked and offered, and filtered out;
 *   module_mem  an event with ksymbol and module_mem: every region and
 *               function recorded into a ring buffer.
 * Prints "BENCH ..." lines: medians, and the ratios to none.  Numbers are
 * reported, never asserted; under TCG read the ratios.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CYCLES	41
#define PAGES	16

enum { NONE, KSYMBOL, MODULE_MEM, STATES };
static const char *const names[STATES] = { "none", "ksymbol", "module_mem" };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp);
	return v[n / 2];
}

/* An event of this task that asks for the records of @state, or -1. */
static int listen(int state, void **rb)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.ksymbol = 1,
		.module_mem = state == MODULE_MEM,
	};
	int fd;

	*rb = NULL;
	if (state == NONE)
		return -1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	*rb = mmap(NULL, (PAGES + 1) * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (*rb == MAP_FAILED)
		*rb = NULL;
	return fd;
}

/* Records written since the last call: the ring is emptied. */
static unsigned long drain(void *rb)
{
	struct perf_event_mmap_page *pg = rb;
	unsigned long long head;
	unsigned long bytes;

	if (!pg)
		return 0;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	bytes = head - pg->data_tail;
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return bytes;
}

int main(int argc, char **argv)
{
	double t[STATES][CYCLES], m[STATES];
	unsigned long bytes[STATES] = { 0 };
	int c, s, fd, ko;
	void *rb;

	if (argc != 3) {
		fprintf(stderr, "usage: %s KO NAME\n", argv[0]);
		return 2;
	}
	for (c = 0; c < CYCLES; c++) {
		for (s = 0; s < STATES; s++) {
			double t0;

			fd = listen(s, &rb);
			if (s != NONE && fd < 0) {
				printf("BENCH upstream: no %s event: %m\n", names[s]);
				return 1;
			}
			ko = open(argv[1], O_RDONLY | O_CLOEXEC);
			t0 = now();
			if (ko < 0 || syscall(SYS_finit_module, ko, "", 0) ||
			    syscall(SYS_delete_module, argv[2], O_NONBLOCK)) {
				printf("BENCH upstream: cannot load and unload %s: %m\n", argv[1]);
				return 1;
			}
			t[s][c] = now() - t0;
			close(ko);
			bytes[s] += drain(rb);
			if (rb)
				munmap(rb, (PAGES + 1) * sysconf(_SC_PAGESIZE));
			if (fd >= 0)
				close(fd);
		}
	}
	for (s = 0; s < STATES; s++) {
		m[s] = median(t[s], CYCLES);
		printf("BENCH upstream: load+unload of %s, %s: %.3f ms (median of %d), %lu bytes recorded per cycle\n",
		       argv[2], names[s], m[s] * 1e3, CYCLES, bytes[s] / CYCLES);
	}
	printf("BENCH upstream: ratio ksymbol/none %.2fx, module_mem/none %.2fx\n",
	       m[KSYMBOL] / m[NONE], m[MODULE_MEM] / m[NONE]);
	return 0;
}
