// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_bench - run inside a VM by `make bench`; prints measurements taken
 * in one run, each next to the alternative a tool would use today.
 *
 *   kreloc_bench KRELOC_KO DUMMY_KO
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define KDIR "/sys/kernel/debug/kreloc"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Read a file to the end, return bytes read (or -1). */
static long slurp(const char *path)
{
	static char buf[1 << 16];
	long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	return total;
}

/* Read every regular file in DIR (not recursive). */
static long slurp_dir(const char *dir, int *files)
{
	char path[512];
	struct dirent *de;
	long total = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		total += slurp(path) > 0;
		(*files)++;
	}
	closedir(d);
	return total;
}

static double core_kreloc(void)
{
	return slurp(KDIR "/info") + slurp(KDIR "/sections");
}

static double core_kallsyms(void)
{
	return slurp("/proc/kallsyms");
}

static int nfiles_kreloc, nfiles_sysfs;

static double full_kreloc(void)
{
	long n = slurp(KDIR "/info") + slurp(KDIR "/sections") + slurp(KDIR "/modules");

	nfiles_kreloc = 3;
	return n + slurp_dir(KDIR "/module", &nfiles_kreloc);
}

/* What a tool needs: modules, then each record once as module/NAME@GEN. */
static double full_kreloc_records(void)
{
	static char buf[1 << 16];
	long n = slurp(KDIR "/info") + slurp(KDIR "/sections");
	char *line, *save = NULL, path[256];
	int fd = open(KDIR "/modules", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return n;
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long long gen;

		if (line[0] == '#' || sscanf(line, "%63s %*s %*s %*s %llu", name, &gen) != 2)
			continue;
		snprintf(path, sizeof(path), KDIR "/module/%s@%llu", name, gen);
		n += slurp(path);
	}
	return n;
}

static double full_today(void)
{
	struct dirent *de;
	DIR *d = opendir("/sys/module");
	long n = slurp("/proc/kallsyms");
	char path[512];

	nfiles_sysfs = 1;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/module/%s/sections", de->d_name);
		n += slurp_dir(path, &nfiles_sysfs);
	}
	if (d)
		closedir(d);
	return n;
}

/* Seconds per call of fn, over at least min_s seconds. */
static double per_call(double (*fn)(void), double min_s)
{
	double t0 = now(), t;
	long n = 0;

	do {
		fn();
		n++;
		t = now() - t0;
	} while (t < min_s);
	return t / n;
}

static double load_time(const char *ko, const char *name)
{
	int fd = open(ko, O_RDONLY);
	double t0, t;

	if (fd < 0)
		return -1;
	syscall(SYS_delete_module, name, O_NONBLOCK);
	t0 = now();
	if (syscall(SYS_finit_module, fd, "", 0)) {
		close(fd);
		return -1;
	}
	t = now() - t0;
	close(fd);
	return t;
}

int main(int argc, char **argv)
{
	double a, b, k = 0, d = 0;
	int i, reps = 5;

	if (argc != 3) {
		fprintf(stderr, "usage: kreloc_bench KRELOC_KO DUMMY_KO\n");
		return 2;
	}
	/* Module init cost: kreloc (kprobe, anchors, module scan) vs dummy. */
	for (i = 0; i < reps; i++) {
		d += load_time(argv[2], "dummy");
		syscall(SYS_delete_module, "dummy", O_NONBLOCK);
		k += load_time(argv[1], "kreloc");
	}
	printf("BENCH module load: kreloc %.2f ms, dummy %.2f ms (ratio %.1fx), mean of %d\n",
	       k / reps * 1e3, d / reps * 1e3, k / d, reps);

	a = per_call(core_kreloc, 2.0);
	b = per_call(core_kallsyms, 2.0);
	printf("BENCH core offsets: kreloc info+sections %.1f us, /proc/kallsyms %.1f us: %.0fx faster\n",
	       a * 1e6, b * 1e6, b / a);

	a = per_call(full_kreloc, 2.0);
	b = per_call(full_today, 2.0);
	printf("BENCH full map: kreloc info+sections+modules+module/* (%d files) %.2f ms, "
	       "/proc/kallsyms + /sys/module/*/sections/* (%d files) %.2f ms: %.0fx faster\n",
	       nfiles_kreloc, a * 1e3, nfiles_sysfs, b * 1e3, b / a);
	a = per_call(full_kreloc_records, 2.0);
	printf("BENCH full map, each record read once (module/NAME@GEN, not the NAME aliases): "
	       "%.2f ms: %.0fx faster than kallsyms + sysfs\n", a * 1e3, b / a);
	return 0;
}
