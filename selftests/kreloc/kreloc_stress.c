// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_stress - load for kreloc's debugfs files while modules come and go
 * (the debug-kernel run, rig/vm-debug.sh).
 *
 *   kreloc_stress readers STOPFILE   read every kreloc file until STOPFILE exists
 *   kreloc_stress fuzz STOPFILE      fuzz lookup until STOPFILE exists
 *   kreloc_stress load [-f] [-n N] [-p PARAMS] KO...   finit_module each KO in turn
 *   kreloc_stress unload [-f] [--force] NAME...   delete_module each NAME
 *   kreloc_stress records DIR [SYSMOD]  every live record of DIR/modules equals
 *                                    SYSMOD/NAME/sections (default /sys/module)
 *
 * load/unload stop at the first failure and exit with its errno.  -f sets
 * /proc/self/make-it-fail around the system calls only, so fault injection
 * with a task filter hits the module loader and the module notifiers, not
 * the shell's fork and exec.  -n N writes N to /proc/thread-self/fail-nth
 * right before finit_module(), so that exactly the Nth fault-injection site
 * the load passes (slab, page allocation) fails; it prints "nth injected" if
 * that happened, "nth not reached CALLS" if the load passed fewer sites
 * (CALLS of them: N minus what fail-nth still holds).
 *
 * readers: every read must succeed or fail with ENOENT (a record removed
 * under the reader).  fuzz: samples names unique in /proc/kallsyms (start
 * it with the churn's modules loaded and wait for its "sampled" line); a
 * unique core symbol must resolve to its
 * /proc/kallsyms address; an unknown one must give ENOENT; a malformed spec
 * EINVAL; and after any failed write the next read must not return an
 * earlier answer (ENODATA or a line "ERR ...").  Module-scoped specs may
 * resolve or give ENOENT (the module may be gone).  Prints one "# " summary
 * line and exits 1 on any violation, also if nothing was read.
 *
 * records: for each module DIR/modules lists as live and sysfs has, the
 * "section NAME ADDR" lines of DIR/module/NAME must be exactly the files
 * of SYSMOD/NAME/sections and their addresses (a record kreloc no longer
 * has, ENOENT, is skipped, as for a module gone meanwhile).  One process
 * for what took one cat per section file; a section file answers only one
 * read at offset 0 (module_sect_read), so each is read with one read().
 * Prints "# " lines for each difference; exits 1 on any.
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
#include "kreloc_util.h"

#define LOOKUP KRELOC_DIR "/lookup"
#define MAX_SYMS 4096

struct sym {
	char name[128];
	char mod[80];
	unsigned long long addr;
};

static struct sym syms[MAX_SYMS];
static int nsyms;

static int stopped(const char *stop)
{
	return access(stop, F_OK) == 0;
}

static long bad;

static void violation(const char *what, const char *detail, int err)
{
	if (bad++ < 10)
		printf("# violation: %s: %s (%s)\n", what, detail, strerror(err));
}

/*
 * pace: sleep PACE_RATIO times the CPU time this process used since the
 * last call, so that a reader or the fuzzer keeps at most an eighth of a
 * CPU.  Unpaced (a fixed 20 ms nap) the two tripled the time of a churn
 * cycle on the debug kernel under TCG (1.5 s, 0.5 s without them) and kept
 * a second host core busy: they must race the churn, not starve it.
 */
#define PACE_RATIO 7

static long long cpu_ns(void)
{
	struct timespec now;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now))
		return 0;
	return now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void pace(long long *used)
{
	struct timespec nap;
	long long ns = cpu_ns(), spent = ns - *used;

	*used = ns;
	ns = spent * PACE_RATIO + 1000000;	/* and 1 ms at least */
	nap.tv_sec = ns / 1000000000LL;
	nap.tv_nsec = ns % 1000000000LL;
	nanosleep(&nap, NULL);
}

/* Read a file to the end; 0, or -errno of the first failure. */
static int slurp(const char *path)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

static int readers(const char *stop)
{
	static const char *const top[] = { "info", "sections", "anchors", "modules" };
	long reads = 0, enoent = 0;
	long long used = cpu_ns();
	unsigned int i;

	while (!stopped(stop)) {
		struct dirent *de;
		DIR *d;
		char path[512];
		int ret;

		for (i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
			snprintf(path, sizeof(path), KRELOC_DIR "/%s", top[i]);
			ret = slurp(path);
			reads++;
			if (ret == -ENOENT && stopped(stop))
				break;
			if (ret)
				violation("read", path, -ret);
		}
		d = opendir(KRELOC_DIR "/module");
		if (!d) {
			pace(&used);
			continue;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), KRELOC_DIR "/module/%s", de->d_name);
			ret = slurp(path);
			reads++;
			if (ret == -ENOENT)
				enoent++;
			else if (ret)
				violation("read", path, -ret);
		}
		closedir(d);
		pace(&used);
	}
	printf("# readers: %ld reads, %ld ENOENT, %ld violations\n", reads, enoent, bad);
	return bad || !reads;
}

static struct sym all[300000];
static char alltype[300000];

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct sym *const *)a)->name, (*(struct sym *const *)b)->name);
}

/*
 * Functions whose name is unique in /proc/kallsyms, core and module, sampled
 * evenly.  The caller loads every module the churn will load before this
 * runs: a core name that one of them shares (bridge.ko has its own
 * rht_key_get_hash.constprop.0, fat.ko its own delayed_free) is ambiguous
 * while that module is loaded, and kreloc rightly answers ENOTUNIQ.
 */
static void load_syms(void)
{
	static struct sym *sorted[300000];
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	int n = 0, i, j, step;

	if (!f)
		return;
	while (n < 300000 && fgets(line, sizeof(line), f)) {
		char name[128], mod[64] = "";

		if (sscanf(line, "%llx %c %127s %63s", &all[n].addr, &alltype[n], name, mod) < 3)
			continue;
		strcpy(all[n].name, name);
		all[n].mod[0] = '\0';
		if (mod[0] == '[') {
			mod[strcspn(mod, "]")] = '\0';
			snprintf(all[n].mod, sizeof(all[n].mod), "%s", mod + 1);
		}
		sorted[n] = &all[n];
		n++;
	}
	fclose(f);
	qsort(sorted, n, sizeof(*sorted), by_name);
	/* Mark duplicates by clearing their type. */
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(sorted[j]->name, sorted[i]->name); j++)
			;
		if (j - i > 1)
			while (i < j)
				alltype[sorted[i++] - all] = 0;
	}
	step = n / MAX_SYMS + 1;
	for (i = 0; i < n && nsyms < MAX_SYMS; i += step)
		for (j = i; j < n && j < i + step; j++)
			if (alltype[j] == 't' || alltype[j] == 'T') {
				syms[nsyms++] = all[j];
				break;
			}
}

/* One lookup on @fd; 0 and the answer in @ans, or -errno. */
static int lookup(int fd, const char *spec, size_t len, char *ans, size_t anslen)
{
	ssize_t n;

	if (write(fd, spec, len) < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read(fd, ans, anslen - 1);
	if (n < 0)
		return -errno;
	ans[n] = '\0';
	return 0;
}

/* After a failed write: no earlier answer may be readable. */
static void check_cleared(int fd, const char *spec)
{
	char ans[512];
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, ans, sizeof(ans) - 1);
	if (n < 0 && errno == ENODATA)
		return;
	if (n > 0) {
		ans[n] = '\0';
		if (!strncmp(ans, "ERR ", 4))
			return;
	}
	violation("stale answer after a failed write", spec, n < 0 ? errno : 0);
}

static int fuzz(const char *stop)
{
	long ok = 0, enoent = 0, einval = 0, other = 0, n = 0;
	long long used;
	unsigned int seed = 4242;
	char spec[600], ans[512];
	int fd;

	load_syms();
	fd = open(LOOKUP, O_RDWR);
	if (fd < 0 || !nsyms) {
		printf("# fuzz: cannot open lookup or read kallsyms\n");
		return 1;
	}
	/* The caller waits for this line before it unloads the modules. */
	printf("# fuzz: %d unique functions sampled\n", nsyms);
	fflush(stdout);
	used = cpu_ns();
	while (!stopped(stop)) {
		struct sym *s = &syms[rand_r(&seed) % nsyms];
		unsigned long long got;
		int kind = rand_r(&seed) % 4, ret;
		size_t len, i;

		switch (kind) {
		case 0:	/* a real symbol, scoped when it is a module's */
			len = s->mod[0] ? snprintf(spec, sizeof(spec), "%s:%s", s->mod, s->name)
					: snprintf(spec, sizeof(spec), "%s", s->name);
			break;
		case 1:	/* unknown */
			len = snprintf(spec, sizeof(spec), "kreloc_nosuch_%u", rand_r(&seed));
			break;
		case 2:	/* garbage, always with a byte no spec may hold */
			len = 1 + rand_r(&seed) % 100;
			for (i = 0; i < len; i++)
				spec[i] = rand_r(&seed);
			spec[rand_r(&seed) % len] = " {/*"[rand_r(&seed) % 4];
			break;
		default: /* a bad offset */
			len = snprintf(spec, sizeof(spec), "%s+%s", s->name,
				       (const char *[]){ "0x", "-1", "0x1g", "99999999999999999999999" }
				       [rand_r(&seed) % 4]);
			break;
		}
		ret = lookup(fd, spec, len, ans, sizeof(ans));
		if (++n % 8 == 0)
			pace(&used);
		if (!ret) {
			ok++;
			if (kind >= 1) {
				violation("malformed or unknown spec accepted", ans, 0);
			} else if (!s->mod[0] &&
				   (sscanf(ans, "%*s %llx", &got) != 1 || got != s->addr)) {
				violation("wrong address", ans, 0);
			}
			continue;
		}
		check_cleared(fd, kind == 2 ? "(garbage)" : spec);
		if (ret == -ENOENT) {
			enoent++;
			if (kind == 0 && !s->mod[0])
				violation("core symbol not found", spec, ENOENT);
		} else if (ret == -EINVAL) {
			einval++;
			if (kind <= 1)
				violation("valid spec refused", spec, EINVAL);
		} else {
			other++;
			violation("unexpected errno", kind == 2 ? "(garbage)" : spec, -ret);
		}
	}
	close(fd);
	printf("# fuzz: %ld lookups: %ld answered, %ld ENOENT, %ld EINVAL, %ld other; %ld violations\n",
	       n, ok, enoent, einval, other, bad);
	return bad || !n;
}

/* Opened once: opening it while failing could itself fail. */
static int mif_fd = -1;

static void make_it_fail(int on)
{
	if (mif_fd >= 0 && pwrite(mif_fd, on ? "1" : "0", 1, 0) < 0)
		perror("make-it-fail");
}

static int modules(int argc, char **argv)
{
	int load = !strcmp(argv[1], "load"), fail = 0, force = 0, i, ret = 0;
	const char *params = "";
	int nth = 0, nth_fd = -1;

	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-f"))
			fail = 1;
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			params = argv[++i];
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			nth = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--force"))
			force = 1;
	}
	if (fail) {
		mif_fd = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
		if (mif_fd < 0)
			return errno;
	}
	if (nth) {
		nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
		if (nth_fd < 0)
			return errno;
	}
	for (; i < argc && !ret; i++) {
		char num[32];
		int fd = -1;

		if (load) {
			fd = open(argv[i], O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return errno;
		}
		if (fail)
			make_it_fail(1);
		if (nth_fd >= 0) {
			snprintf(num, sizeof(num), "%d", nth);
			if (pwrite(nth_fd, num, strlen(num), 0) < 0)
				return errno;
		}
		if (load)
			ret = syscall(SYS_finit_module, fd, params, 0) ? errno : 0;
		else
			ret = syscall(SYS_delete_module, argv[i],
				      O_NONBLOCK | (force ? O_TRUNC : 0)) ? errno : 0;
		if (fail)
			make_it_fail(0);
		if (nth_fd >= 0) {
			ssize_t n = pread(nth_fd, num, sizeof(num) - 1, 0);

			/*
			 * Disarm first: a fail-nth the load did not use up
			 * would fail the pipe write of the answer below.
			 */
			if (pwrite(nth_fd, "0", 1, 0) < 0)
				perror("fail-nth");
			num[n > 0 ? n : 0] = '\0';
			/*
			 * fail-nth counts down at each fault-injection site
			 * the task passes and fails the one where it reaches
			 * 0; what is left says how many the load passed.
			 */
			if (n > 0 && atoi(num) == 0)
				printf("nth injected\n");
			else
				printf("nth not reached %d\n", n > 0 ? nth - atoi(num) : -1);
			fflush(stdout);
		}
		if (fd >= 0)
			close(fd);
	}
	return ret;
}

struct sect {
	char name[256];
	unsigned long long addr;
};

#define MAX_SECTS 512

static int by_sect(const void *a, const void *b)
{
	return strcmp(((const struct sect *)a)->name, ((const struct sect *)b)->name);
}

/* The sections of /sys/module/@mod (under @sysmod); count, or -1. */
static int sysfs_sections(const char *sysmod, const char *mod, struct sect *s)
{
	char path[512], buf[64];
	struct dirent *de;
	int n = 0, fd;
	ssize_t len;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s/sections", sysmod, mod);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < MAX_SECTS) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s/sections/%s", sysmod, mod, de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;	/* not a file, or gone */
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		snprintf(s[n].name, sizeof(s[n].name), "%s", de->d_name);
		s[n].addr = strtoull(buf, NULL, 16);
		n++;
	}
	closedir(d);
	qsort(s, n, sizeof(*s), by_sect);
	return n;
}

/* The "section NAME ADDR" lines of kreloc's record @path; count, or -1. */
static int record_sections(const char *path, struct sect *s)
{
	char line[512], name[256];
	unsigned long long addr;
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAX_SECTS)
		if (sscanf(line, "section %255s %llx", name, &addr) == 2) {
			snprintf(s[n].name, sizeof(s[n].name), "%s", name);
			s[n].addr = addr;
			n++;
		}
	fclose(f);
	qsort(s, n, sizeof(*s), by_sect);
	return n;
}

static int records(const char *dir, const char *sysmod)
{
	static struct sect sys[MAX_SECTS], rec[MAX_SECTS];
	char path[512], line[512], name[128], state[32];
	int mods = 0, diffs = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules", dir);
	f = fopen(path, "r");
	if (!f) {
		printf("# records: cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		int ns, nr, i = 0, j = 0, shown = 0;

		if (line[0] == '#' || sscanf(line, "%127s %31s", name, state) != 2 ||
		    strcmp(state, "live"))
			continue;
		ns = sysfs_sections(sysmod, name, sys);
		if (ns < 0)
			continue;	/* not in sysfs (yet, or any more) */
		snprintf(path, sizeof(path), "%s/module/%s", dir, name);
		nr = record_sections(path, rec);
		if (nr <= 0)
			continue;	/* the shell's test -s: no record, or gone */
		mods++;
		/* Both sorted by name: a merge shows each difference. */
		while (i < ns || j < nr) {
			int c = i == ns ? 1 : j == nr ? -1 : strcmp(sys[i].name, rec[j].name);
			const char *what = NULL;

			if (c < 0)
				what = "in sysfs only";
			else if (c > 0)
				what = "in kreloc only";
			else if (sys[i].addr != rec[j].addr)
				what = "address differs";
			if (what && shown++ < 5)
				printf("#   %s: section %s %s (sysfs 0x%llx, kreloc 0x%llx)\n",
				       name, c > 0 ? rec[j].name : sys[i].name, what,
				       c > 0 ? 0 : sys[i].addr, c < 0 ? 0 : rec[j].addr);
			if (what)
				diffs++;
			if (c <= 0)
				i++;
			if (c >= 0)
				j++;
		}
		if (shown)
			printf("# %s: %d of kreloc's sections differ from sysfs\n", name, shown);
	}
	fclose(f);
	if (diffs)
		printf("# records: %d differences in %d modules compared\n", diffs, mods);
	return diffs ? 1 : 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "records"))
		return records(argv[2], argc == 4 ? argv[3] : "/sys/module");
	if (argc >= 3 && (!strcmp(argv[1], "load") || !strcmp(argv[1], "unload")))
		return modules(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "readers"))
		return readers(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fuzz"))
		return fuzz(argv[2]);
	fprintf(stderr, "usage: %s readers|fuzz STOPFILE | load [-f] [-n N] [-p PARAMS] KO... | unload [-f] [--force] NAME... | records DIR [SYSMOD]\n",
		argv[0]);
	return 2;
}
