// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_bench - run inside a VM by `make bench`; prints measurements taken
 * in one run, each next to the alternative a tool would use today.
 *
 *   kreloc_bench KRELOC_KO STRIPPED_KO HOOKS_KO DUMMY_KO TWIN_KO TWIN_STRIPPED_KO
 *
 * STRIPPED_KO is KRELOC_KO after strip -g (as DKMS installs it); HOOKS_KO
 * the test build (make KRELOC_TEST_HOOKS=1), which times each step of its
 * init and setup and can time lookups inside the kernel (test/); TWIN_KO
 * kreloc's twin (make KRELOC_BENCH_TWIN=1, test/twin.c): kreloc's objects,
 * built the same way, with an ->init that does nothing, so that the
 * loader's own cost for a module of kreloc's size shows apart from
 * kreloc's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
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

/* Time of one finit_module() (read, relocation, ->init), or -1. */
static double load_time(const char *ko, const char *name, const char *params)
{
	int fd = open(ko, O_RDONLY);
	double t0, t;

	if (fd < 0)
		return -1;
	syscall(SYS_delete_module, name, O_NONBLOCK);
	t0 = now();
	if (syscall(SYS_finit_module, fd, params, 0)) {
		close(fd);
		return -1;
	}
	t = now() - t0;
	close(fd);
	return t;
}

static double unload_time(const char *name)
{
	double t0 = now();

	if (syscall(SYS_delete_module, name, O_NONBLOCK))
		return -1;
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long file_size(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	return n;
}

#define LOADS 21
#define NLOAD 5

/* Time from finit_module() until an open of info returns (the setup's end). */
static double ready_time(const char *ko)
{
	int fd = open(ko, O_RDONLY), info;
	double t0, t;

	if (fd < 0)
		return -1;
	syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
	t0 = now();
	if (syscall(SYS_finit_module, fd, "", 0)) {
		close(fd);
		return -1;
	}
	info = open(KDIR "/info", O_RDONLY);
	t = now() - t0;
	if (info >= 0)
		close(info);
	close(fd);
	syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
	return info >= 0 ? t : -1;
}

/*
 * Rotated loads in one boot: dummy, kreloc, kreloc stripped, the twin,
 * the twin stripped, each unloaded before the next.  The order rotates
 * from round to round, so that each comes at every place equally often,
 * and its stride changes every NLOAD rounds, so that each follows every
 * other: an unload's deferred work slows whatever load follows it (with
 * a stride of 1 the twin always followed kreloc stripped, and measured
 * slower than kreloc).  A pause after each unload lets that work end
 * before the next load is timed.  kreloc's
 * setup runs in a work item after its ->init, off insmod: the time until
 * an open of info returns is measured apart.
 */
static void bench_load(const char *ko, const char *stripped, const char *dummy,
		       const char *twin, const char *twin_stripped)
{
	static const struct timespec settle = { .tv_nsec = 200000000 };
	static double v[NLOAD][LOADS], u[LOADS], r[LOADS];
	static const char * const names[NLOAD] = { "dummy", "kreloc", "kreloc", "kreloc",
						    "kreloc" };
	const char *kos[NLOAD] = { dummy, ko, stripped, twin, twin_stripped };
	double m[NLOAD];
	int i, j, k;

	for (i = 0; i < LOADS; i++) {
		for (j = 0; j < NLOAD; j++) {
			k = (i + j * (1 + i / NLOAD % (NLOAD - 1))) % NLOAD;
			v[k][i] = load_time(kos[k], names[k], "");
			if (k == 1)
				u[i] = unload_time("kreloc");
			else
				syscall(SYS_delete_module, names[k], O_NONBLOCK);
			nanosleep(&settle, NULL);
		}
		r[i] = ready_time(ko);
		nanosleep(&settle, NULL);
	}
	for (k = 0; k < NLOAD; k++)
		m[k] = median(v[k], LOADS);
	printf("BENCH module load (insmod), median of %d rotated loads: dummy %.2f ms; kreloc.ko (%ld bytes) %.2f ms, %.2fx dummy; its twin (kreloc's objects, empty ->init; %ld bytes) %.2f ms, %.2fx dummy; kreloc %.2fx its twin\n",
	       LOADS, m[0] * 1e3, file_size(ko), m[1] * 1e3, m[1] / m[0], file_size(twin),
	       m[3] * 1e3, m[3] / m[0], m[1] / m[3]);
	printf("BENCH module load, stripped as DKMS installs it: kreloc (%ld bytes) %.2f ms, %.2fx dummy; twin (%ld bytes) %.2f ms, %.2fx dummy; kreloc %.2fx its twin\n",
	       file_size(stripped), m[2] * 1e3, m[2] / m[0], file_size(twin_stripped),
	       m[4] * 1e3, m[4] / m[0], m[2] / m[4]);
	printf("BENCH kreloc load until its files answer (insmod + the setup work): %.2f ms (median); unload %.2f ms\n",
	       median(r, LOADS) * 1e3, median(u, LOADS) * 1e3);
}

/*
 * A module event's cost with kreloc loaded: insmod and rmmod of dummy,
 * without kreloc and with it (its notifier, the record, the record's text
 * written again for crash dumps), in blocks of EVENT_BLOCK that alternate.
 * kreloc's own load or unload between two blocks leaves work behind (RCU,
 * freeing module memory) that slowed the next load more than a pause
 * lets end: the first event after each is not timed.
 */
#define EVENT_BLOCK 7

static void bench_events(const char *ko, const char *dummy)
{
	static const struct timespec settle = { .tv_nsec = 200000000 };
	static double l[2][LOADS], u[2][LOADS];
	int b, i, with, info, n[2] = { 0, 0 };

	for (b = 0; b < 2 * LOADS / EVENT_BLOCK; b++) {
		with = b % 2;
		syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
		if (with) {
			if (load_time(ko, "kreloc", "") < 0)
				return;
			/* the setup's end, and its scan: an open of info waits for it */
			info = open(KDIR "/info", O_RDONLY);
			if (info >= 0)
				close(info);
		}
		for (i = -1; i < EVENT_BLOCK; i++) {
			double lt, ut;

			nanosleep(&settle, NULL);
			lt = load_time(dummy, "dummy", "");
			nanosleep(&settle, NULL);
			ut = unload_time("dummy");
			if (i < 0)
				continue;
			l[with][n[with]] = lt;
			u[with][n[with]++] = ut;
		}
	}
	syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
	printf("BENCH a module event with kreloc loaded (median of %d): insmod dummy %.2f ms, %.2fx without kreloc (%.2f ms); rmmod dummy %.2f ms, %.2fx without (%.2f ms)\n",
	       LOADS, median(l[1], LOADS) * 1e3, median(l[1], LOADS) / median(l[0], LOADS),
	       median(l[0], LOADS) * 1e3, median(u[1], LOADS) * 1e3,
	       median(u[1], LOADS) / median(u[0], LOADS), median(u[0], LOADS) * 1e3);
}

/* The kernel log since boot, as one string (static buffer). */
static const char *kmsg(void)
{
	static char log[1 << 20];
	char rec[8192];
	size_t len = 0;
	ssize_t n;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	while (fd >= 0 && (n = read(fd, rec, sizeof(rec) - 1)) != 0) {
		char *msg;
		size_t m;

		if (n < 0) {
			if (errno == EPIPE)
				continue;
			break;
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		m = strcspn(++msg, "\n");
		if (len + m + 2 >= sizeof(log))
			len = 0;	/* keep the newest */
		memcpy(log + len, msg, m);
		len += m;
		log[len++] = '\n';
	}
	if (fd >= 0)
		close(fd);
	log[len] = '\0';
	return log;
}

#define PROFILE_LOADS 11
#define MAX_STEPS 24

/* Where kreloc's init spends its time: the test build's marks, medians. */
static void bench_profile(const char *hooks, const char *params, const char *what)
{
	static char names[MAX_STEPS][96];
	static double v[MAX_STEPS][PROFILE_LOADS];
	int nsteps = 0, i, j, loads = 0;
	double total[PROFILE_LOADS];

	for (i = 0; i < PROFILE_LOADS; i++) {
		const char *log, *p;
		int step = 0;

		/* Only this load's lines: from its first mark onwards. */
		total[i] = load_time(hooks, "kreloc", params);
		syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
		if (total[i] < 0)
			continue;
		log = kmsg();
		p = log;
		for (const char *q = log; (q = strstr(q, "kreloc: test: time ")); q++)
			if (strstr(q, "time register_module_notifier") == q + 14)
				p = q;
		for (; (p = strstr(p, "kreloc: test: time ")); p++) {
			char name[96];
			long us;
			const char *end = strchr(p, '\n');
			const char *u = end ? end : p + strlen(p);

			while (u > p && *u != ' ')
				u--;	/* " us" */
			while (u > p && u[-1] != ' ')
				u--;	/* the number */
			if (u - p - 19 <= 1 || sscanf(u, "%ld", &us) != 1)
				break;
			snprintf(name, sizeof(name), "%.*s", (int)(u - p - 20), p + 19);
			if (step == nsteps && nsteps < MAX_STEPS)
				strcpy(names[nsteps++], name);
			if (step < nsteps && !strcmp(names[step], name))
				v[step][loads] = us / 1e3;
			step++;
		}
		loads++;
	}
	if (!loads)
		return;
	printf("BENCH init profile, %s (test build, median of %d loads, ms): load %.2f total\n",
	       what, loads, median(total, loads) * 1e3);
	for (j = 0; j < nsteps; j++)
		printf("BENCH   %-60s %7.3f\n", names[j], median(v[j], loads));
}

/* In-kernel cost of kreloc_kprobe_lookup_name() next to kallsyms_lookup_name(). */
static void bench_lookup_kernel(const char *hooks)
{
	const char *log, *p, *last = NULL;
	unsigned long long a, b;
	int fd;

	syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
	if (load_time(hooks, "kreloc", "") < 0)
		return;
	fd = open("/sys/module/kreloc/parameters/test_bench_lookup", O_WRONLY);
	if (fd < 0 || write(fd, "200", 3) != 3)
		printf("BENCH lookup in the kernel: cannot run\n");
	if (fd >= 0)
		close(fd);
	log = kmsg();
	for (p = log; (p = strstr(p, "kreloc: test: bench lookup: ")); p++)
		last = p;
	if (last && (p = strstr(last, "kreloc_kprobe_lookup_name ")) &&
	    sscanf(p, "kreloc_kprobe_lookup_name %llu ns, kallsyms_lookup_name %llu", &a, &b) == 2)
		printf("BENCH lookup in the kernel: kreloc_kprobe_lookup_name %llu ns, kallsyms_lookup_name %llu ns per call: %.2fx\n",
		       a, b, (double)a / b);
	syscall(SYS_delete_module, "kreloc", O_NONBLOCK);
}

/* One lookup through debugfs: open, write, read, close. */
static double lookup_round_trip(void)
{
	char buf[256];
	int fd = open(KDIR "/lookup", O_RDWR);

	if (fd < 0)
		return -1;
	if (write(fd, "vfs_read", 8) != 8 || read(fd, buf, sizeof(buf)) <= 0)
		buf[0] = '\0';
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	double a, b;

	if (argc != 7) {
		fprintf(stderr, "usage: kreloc_bench KRELOC_KO STRIPPED_KO HOOKS_KO DUMMY_KO TWIN_KO TWIN_STRIPPED_KO\n");
		return 2;
	}
	setlinebuf(stdout);
	bench_load(argv[1], argv[2], argv[4], argv[5], argv[6]);
	bench_events(argv[1], argv[4]);
	bench_profile(argv[3], "", "init and setup");
	bench_profile(argv[3], "test_anchors_by_name=1", "every anchor looked up by name");
	bench_lookup_kernel(argv[3]);
	if (load_time(argv[1], "kreloc", "") < 0)
		return 1;
	a = per_call(lookup_round_trip, 2.0);
	printf("BENCH lookup through debugfs (open, write, read, close): %.1f us\n", a * 1e6);

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
