// SPDX-License-Identifier: GPL-2.0
/*
 * upstream-bench - `make bench` for the upstream target, inside its VM
 * (rig/vm-upstream.sh --bench):
 *
 *   upstream-bench builtin TEST_KO       boot with the in-kernel kreloc
 *   upstream-bench module KRELOC_KO TEST_KO   boot with kreloc=off
 *
 * builtin: what kreloc's initcalls cost the boot (initcall_debug's lines
 * in the kernel log), and a module load and unload with kreloc recording.
 * module: what insmod kreloc.ko costs (median of alternate loads), and the
 * same module load and unload with kreloc.ko loaded and with nothing.
 * Prints "BENCH ..." lines; numbers are reported, never asserted.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CYCLES	41

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int load(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

static int unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK);
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

/* Median seconds of a load and an unload of @ko (module @name). */
static double cycle(const char *ko, const char *name)
{
	double t[CYCLES], t0;
	int i;

	for (i = 0; i < CYCLES; i++) {
		t0 = now();
		if (load(ko) || unload(name)) {
			perror(ko);
			exit(1);
		}
		t[i] = now() - t0;
	}
	return median(t, CYCLES);
}

/* The sum of kreloc's initcalls in the log, in microseconds. */
static long initcalls(int *found)
{
	char rec[1024];
	long usecs, total = 0;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ssize_t n;

	*found = 0;
	while (fd >= 0 && (n = read(fd, rec, sizeof(rec) - 1)) > 0) {
		char *p;

		rec[n] = '\0';
		p = strstr(rec, "initcall ");
		if (!p || !(strstr(p, "kreloc") || strstr(p, "mod_reloc")))
			continue;
		p = strstr(p, " after ");
		if (p && sscanf(p, " after %ld usecs", &usecs) == 1) {
			total += usecs;
			(*found)++;
		}
	}
	if (fd >= 0)
		close(fd);
	return total;
}

int main(int argc, char **argv)
{
	double with, without, t0, ins[CYCLES], rm[CYCLES];
	int found, i;
	long boot;

	if (argc == 3 && !strcmp(argv[1], "builtin")) {
		boot = initcalls(&found);
		printf("BENCH upstream builtin: boot cost %ld us (%d initcalls of kreloc)\n",
		       boot, found);
		with = cycle(argv[2], "test_kreloc");
		printf("BENCH upstream builtin: test_kreloc load+unload %.3f ms, recorded by the loader\n",
		       with * 1e3);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "module")) {
		fprintf(stderr, "usage: upstream-bench builtin TEST_KO | module KRELOC_KO TEST_KO\n");
		return 2;
	}
	without = cycle(argv[3], "test_kreloc");
	for (i = 0; i < CYCLES; i++) {
		t0 = now();
		if (load(argv[2])) {
			perror(argv[2]);
			return 1;
		}
		ins[i] = now() - t0;
		t0 = now();
		if (unload("kreloc")) {
			perror("rmmod kreloc");
			return 1;
		}
		rm[i] = now() - t0;
	}
	printf("BENCH upstream module: insmod kreloc.ko %.3f ms, rmmod %.3f ms (median of %d)\n",
	       median(ins, CYCLES) * 1e3, median(rm, CYCLES) * 1e3, CYCLES);
	if (load(argv[2])) {
		perror(argv[2]);
		return 1;
	}
	with = cycle(argv[3], "test_kreloc");
	printf("BENCH upstream module: test_kreloc load+unload %.3f ms with kreloc.ko, %.3f ms with no kreloc: %.2fx\n",
	       with * 1e3, without * 1e3, with / without);
	return 0;
}
