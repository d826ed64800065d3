// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_lookup_test - selftest of /sys/kernel/debug/kreloc/lookup.
 *
 *   kreloc_lookup_test --ko kreloc.ko [--hooks-ko kreloc-hooks.ko]
 *                      [--dup-ko kreloc_test_dupname.ko]
 *                      [--samples 200] [--fuzz 10000]
 *
 * Compares lookup's answers with /proc/kallsyms and with where the kernel
 * itself puts a kprobe (/sys/kernel/debug/kprobes/list), places a kprobe
 * from an answer and checks that it fires, and feeds the file malformed
 * specs, checking that every failed write leaves exactly one line
 * "ERR ERRNO-NAME reason" to read (ENOMEM through a test build's injected
 * allocation failure).  Knows the three ABIs: x86_64 (IBT), ppc64 ELFv1 (".sym" code,
 * "sym" descriptor) and ppc64 ELFv2 (local entry, ftrace site); on arm64
 * the probe stays at the symbol (BTI and PACIASP are stepped like any hint)
 * and kallsyms may lack _text.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"
#include "../../tools/sysmap.h"

#define LOOKUP KRELOC_DIR "/lookup"
#define TRACING "/sys/kernel/tracing"

static struct sysmap ks;
static int abi_v1;		/* ppc64 ELFv1: ".sym" code symbols */
/* A text marker kallsyms has: _text, or _stext where it lacks _text (arm64). */
static const char *text_sym = "_text";
static int x86;			/* x86_64: probes move past ENDBR on IBT kernels */
static int samples = 200, fuzz = 10000;

struct answer {
	char spec[640], module[64], type[32];
	uint64_t addr, probe;
};

/* Write @spec to a fresh fd and read the answer: 0 or -errno. */
static int lookup_fd(int fd, const char *spec, size_t len, struct answer *a)
{
	char buf[1024], addr[32], probe[32];
	ssize_t n;

	if (write(fd, spec, len) != (ssize_t)len)
		return -errno;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (sscanf(buf, "%639s %31s %31s %63s %31s", a->spec, addr, probe, a->module,
		   a->type) != 5 || kr_hex(addr, &a->addr) || kr_hex(probe, &a->probe))
		return -EBADMSG;
	return 0;
}

static int lookup(const char *spec, struct answer *a)
{
	int fd = open(LOOKUP, O_RDWR), ret;

	if (fd < 0)
		return -errno;
	ret = lookup_fd(fd, spec, strlen(spec), a);
	close(fd);
	return ret;
}

static int write_file(const char *path, const char *s, int append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Is @s a plain core-kernel function in text we may sample? */
static int sample_ok(const struct sysmap_sym *s)
{
	const char *n = s->name;

	if (s->module || (s->type != 'T' && s->type != 't'))
		return 0;
	if (abi_v1 != (n[0] == '.'))
		return 0;
	n += abi_v1;
	if (strchr(n, '.') || !strncmp(n, "__pfx_", 6) || !strncmp(n, "__cfi_", 6) ||
	    !strncmp(n, "_text", 5) || !strncmp(n, "_stext", 6) || !strncmp(n, "_etext", 6))
		return 0;
	return sysmap_count(&ks, s->name) == 1 && (!abi_v1 || sysmap_count(&ks, n) <= 1);
}

/* Indices of all sampleable functions, and how many. */
static size_t *cands, nr_cands;

static void collect_candidates(void)
{
	size_t i;

	cands = calloc(ks.nr + 1, sizeof(*cands));
	for (i = 0; cands && i < ks.nr; i++)
		if (sample_ok(&ks.syms[i]))
			cands[nr_cands++] = i;
	ksft_print_msg("%zu candidate functions\n", nr_cands);
}

static void test_sampled(void)
{
	size_t k, n = 0, bad = 0, desc = 0;

	for (k = 0; k < (size_t)samples && nr_cands; k++) {
		const struct sysmap_sym *s = &ks.syms[cands[k * nr_cands / samples]], *d;
		const char *plain;
		struct answer a;
		int ret;

		plain = s->name + abi_v1;
		ret = lookup(plain, &a);
		n++;
		if (ret || a.addr != s->addr || strcmp(a.module, "vmlinux")) {
			if (bad++ < 5)
				ksft_print_msg("lookup %s: %d, 0x%llx, kallsyms %s 0x%llx\n", plain, ret,
					       (unsigned long long)a.addr, s->name,
					       (unsigned long long)s->addr);
		}
		d = abi_v1 ? sysmap_lookup(&ks, plain) : NULL;
		if (d) {
			desc++;
			if (a.addr == d->addr)
				bad++;
		}
	}
	ksft_print_msg("%zu functions sampled, %zu with a descriptor twin, %zu wrong\n", n, desc, bad);
	ksft_test_result(n >= (size_t)samples && !bad,
			 "%d sampled functions: ADDRESS is the %s address in /proc/kallsyms%s\n",
			 samples, abi_v1 ? "\".sym\" code" : "symbol's",
			 abi_v1 ? ", never the descriptor" : " (no IBT +4)");
}

/* arm64's kallsyms has no _text without KALLSYMS_ALL: then it is ENOENT. */
static void test_markers(void)
{
	static const char * const m[] = { "_text", "_stext" };
	struct answer a;
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		const struct sysmap_sym *s = sysmap_lookup(&ks, m[i]);
		int ret = lookup(m[i], &a);

		if (!s && !strcmp(m[i], "_text")) {
			ksft_print_msg("no _text in /proc/kallsyms: lookup says %s\n",
				       strerror(-ret));
			bad |= ret != -ENOENT;
		} else if (!s || ret || a.addr != s->addr) {
			bad = 1;
		}
	}
	ksft_test_result(!bad, "_text and _stext resolve to themselves (ENOENT where kallsyms lacks _text)\n");
}

/*
 * kreloc's bootstrap kprobe on kallsyms_lookup_name is gone once its setup
 * is done (kr_load_module() waits for that): kprobes/list names no probe
 * on it.
 */
static void test_kprobe_gone(void)
{
	char *list = kr_read_file("/sys/kernel/debug/kprobes/list", NULL);
	char *line, *save = NULL;
	int found = 0;

	for (line = list ? strtok_r(list, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "kallsyms_lookup_name+")) {
			ksft_print_msg("kprobes/list: %s\n", line);
			found = 1;
		}
	}
	ksft_test_result(list && !found,
			 "after the setup, kprobes/list has no probe on kallsyms_lookup_name\n");
	free(list);
}

/*
 * Address the kernel's own kprobe for @sym has, from kprobes/list; -errno
 * of the refused kprobe_events write, or -ENOENT if the list lacks it.
 */
static int kernel_probe_addr(const char *sym, uint64_t *addr)
{
	char cmd[700], *list, *line, *save = NULL;
	int ret = -ENOENT;

	/*
	 * ELFv1: the kernel's kprobe_events refuses a plain function name on
	 * 6.1 (seen: "Failed to register probe event" for vfs_read), so ask
	 * for the code symbol the kernel itself would probe.
	 */
	snprintf(cmd, sizeof(cmd), "p:kreloc_t/cmp %s%s", abi_v1 ? "." : "", sym);
	errno = 0;
	if (write_file(TRACING "/kprobe_events", cmd, 1))
		return errno ? -errno : -EIO;
	list = kr_read_file("/sys/kernel/debug/kprobes/list", NULL);
	for (line = list ? strtok_r(list, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char a[32], t[8], where[640];

		const char *w = where;

		/* "ADDR  k  sym+0xOFF    [FTRACE]"; ELFv1 lists the code, ".sym" */
		if (sscanf(line, "%31s %7s %639s", a, t, where) != 3)
			continue;
		w += abi_v1 && where[0] == '.';
		if (!strncmp(w, sym, strlen(sym)) && w[strlen(sym)] == '+') {
			*addr = strtoull(a, NULL, 16);
			ret = 0;
		}
	}
	free(list);
	write_file(TRACING "/kprobe_events", "-:kreloc_t/cmp", 1);
	return ret;
}

/*
 * Compare PROBE_ADDRESS with the kernel's own kprobe for @s; classify the
 * function by its first bytes (from /proc/kcore) where the kernel moved the
 * probe: ENDBR64/32, or else the seal apply_seal_endbr() wrote over it.
 */
static int compare_probe(const struct sysmap_sym *s, size_t *n, size_t *endbr, size_t *sealed)
{
	unsigned char b[4];
	struct answer a;
	uint64_t k;

	if (lookup(s->name + abi_v1, &a))
		return 0;
	/* Not every function may be probed (blacklist, notrace). */
	if (kernel_probe_addr(s->name + abi_v1, &k))
		return 0;
	(*n)++;
	if (x86 && k == a.addr + 4 && !kr_kcore_read(a.addr, b, sizeof(b))) {
		if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && (b[3] & 0xfe) == 0xfa)
			(*endbr)++;
		else
			(*sealed)++;
		if (*endbr + *sealed <= 4 || (b[0] != 0xf3 && *sealed <= 2))
			ksft_print_msg("%s starts %02x %02x %02x %02x: the kernel probes it at +4\n",
				       s->name, b[0], b[1], b[2], b[3]);
	}
	if (k != a.probe) {
		ksft_print_msg("%s: PROBE_ADDRESS 0x%llx, kprobes/list 0x%llx\n", s->name,
			       (unsigned long long)a.probe, (unsigned long long)k);
		return -1;
	}
	if (*n <= 3)
		ksft_print_msg("%s: ADDRESS 0x%llx PROBE_ADDRESS 0x%llx = kprobes/list\n",
			       s->name, (unsigned long long)a.addr, (unsigned long long)a.probe);
	return 0;
}

static void test_probe_addresses(void)
{
	/*
	 * Besides a sample: on x86 IBT kernels kallsyms_lookup_name() is
	 * sealed (its address is never taken) and sprint_symbol() keeps its
	 * ENDBR (exported), so both ways a probe moves are compared.
	 */
	static const char * const named[] = { "kallsyms_lookup_name", "sprint_symbol" };
	size_t i, n = 0, bad = 0, endbr = 0, sealed = 0;

	for (i = 0; i < ARRAY_SIZE(named) && x86; i++) {
		const struct sysmap_sym *s = sysmap_lookup(&ks, named[i]);

		if (s && compare_probe(s, &n, &endbr, &sealed))
			bad++;
	}
	for (i = 0; i < 400 && n < 22 && nr_cands; i++)
		if (compare_probe(&ks.syms[cands[(i * 7919) % nr_cands]], &n, &endbr, &sealed))
			bad++;
	ksft_print_msg("%zu functions compared; the kernel moved %zu probes past ENDBR, %zu past its seal\n",
		       n, endbr, sealed);
	/* Where the kernel moves probes (IBT), the seal must have been seen too. */
	ksft_test_result(n >= 10 && !bad && (endbr + sealed == 0 || sealed > 0),
			 "PROBE_ADDRESS equals where register_kprobe() puts the probe (%zu functions, %zu sealed)\n",
			 n, sealed);
}

static void test_probe_fires(void)
{
	static const char * const fns[] = { "do_sys_openat2", "do_sys_open", "ksys_read" };
	char line[128], *trace;
	struct answer a;
	size_t i;
	int hits = 0, placed = 0, fd;

	write_file(TRACING "/trace", "", 0);
	for (i = 0; i < ARRAY_SIZE(fns) && !placed; i++) {
		if (lookup(fns[i], &a))
			continue;
		snprintf(line, sizeof(line), "p:kreloc_t/fire 0x%llx", (unsigned long long)a.probe);
		placed = !write_file(TRACING "/kprobe_events", line, 1);
		ksft_print_msg("%s: %s (%s)\n", fns[i], line, placed ? "registered" : strerror(errno));
	}
	if (placed && !write_file(TRACING "/events/kreloc_t/fire/enable", "1", 0)) {
		for (i = 0; i < 5; i++) {
			fd = open("/proc/version", O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
		write_file(TRACING "/events/kreloc_t/fire/enable", "0", 0);
		trace = kr_read_file(TRACING "/trace", NULL);
		for (char *p = trace; p && (p = strstr(p, "fire:")); p++)
			hits++;
		free(trace);
	}
	write_file(TRACING "/kprobe_events", "-:kreloc_t/fire", 1);
	ksft_print_msg("%d hits\n", hits);
	ksft_test_result(placed && hits >= 5,
			 "a kprobe_events line from lookup's PROBE_ADDRESS registers and fires\n");
}

static void test_module_scope(void)
{
	const struct sysmap_sym *s = NULL;
	struct answer a;
	size_t i;
	char want[64];

	snprintf(want, sizeof(want), "%skreloc_kprobe_lookup_name", abi_v1 ? "." : "");
	for (i = 0; i < ks.nr; i++)
		if (ks.syms[i].module && !strcmp(ks.syms[i].module, "kreloc") &&
		    !strcmp(ks.syms[i].name, want))
			s = &ks.syms[i];
	ksft_test_result(s && !lookup("kreloc:kreloc_kprobe_lookup_name", &a) &&
			 a.addr == s->addr && !strcmp(a.module, "kreloc") &&
			 !strcmp(a.type, "text"),
			 "kreloc:kreloc_kprobe_lookup_name resolves in module kreloc, TYPE text\n");
}

/* A static name kallsyms has more than once (code, as lookup finds it). */
static const struct sysmap_sym *find_dup(void)
{
	size_t i;

	for (i = 0; i < ks.nr; i++) {
		const char *n = ks.syms[i].name;

		if (!ks.syms[i].module && ks.syms[i].type == 't' && (n[0] == '.') == abi_v1 &&
		    !strchr(n + abi_v1, '.') && strncmp(n + abi_v1, "__pfx_", 6) &&
		    sysmap_count(&ks, n) > 1)
			return &ks.syms[i];
	}
	return NULL;
}

/* The first line of the newest entry of tracefs error_log (NULL if none). */
static char *last_error_log(void)
{
	char *log = kr_read_file(TRACING "/error_log", NULL), *p, *last = NULL, *ret;

	/* Each entry begins "[ seconds] "; its command follows on the next lines. */
	for (p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (*p == '[')
			last = p;
	ret = last ? strndup(last, strcspn(last, "\n")) : NULL;
	free(log);
	return ret;
}

/* info's value of @key, or "" */
static void info_value(const char *key, char *buf, size_t len)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL);

	if (!info || kr_kv(info, key, buf, len))
		snprintf(buf, len, "%s", "");
	free(info);
}

/*
 * A name vmlinux has once, which a loaded module has too (vfs_write,
 * defined again by kreloc_test_dupname).  The kernel's own kprobe_events
 * is the judge: trace_kprobe counts vmlinux alone when vmlinux has the
 * name (since 7.0.10: kprobe_events takes it and probes vmlinux's), or
 * vmlinux and every module together (it refuses the name as not unique:
 * EADDRNOTAVAIL on 5.10 and 6.1, EINVAL since 6.12, and error_log says
 * why).  lookup must answer the same, and info's KPROBE_UNIQUE= name the
 * rule the kernel followed.
 */
static void test_dup_module(const char *dup_ko)
{
	static const char name[] = "vfs_write";
	char kname[32], rule[32], *why = NULL;
	const struct sysmap_sym *v = NULL;
	struct answer a0, a1;
	int before, kret, lret, accepted = 0, notuniq = 0, ok;
	uint64_t k0 = 0, k1 = 0;
	size_t i, core = 0;

	if (!dup_ko) {
		for (i = 0; i < 3; i++)
			ksft_test_result_skip("no kreloc_test_dupname.ko given\n");
		return;
	}
	snprintf(kname, sizeof(kname), "%s%s", abi_v1 ? "." : "", name);
	for (i = 0; i < ks.nr; i++) {
		if (!ks.syms[i].module && !strcmp(ks.syms[i].name, kname)) {
			core++;
			v = &ks.syms[i];
		}
	}
	/* Without the module: one vfs_write, which both take. */
	before = lookup(name, &a0);
	kret = kernel_probe_addr(name, &k0);
	ksft_print_msg("vmlinux has %zu %s; without the module: lookup %s, kprobe_events %s\n",
		       core, kname, strerror(-before), strerror(-kret));
	ksft_test_result(core == 1 && !before && !kret && a0.addr == v->addr && a0.probe == k0,
			 "%s, once in vmlinux and in no module: kprobe_events and lookup take it\n",
			 name);

	kr_unload_module("kreloc_test_dupname");
	if (kr_load_module(dup_ko, NULL)) {
		ksft_print_msg("cannot load %s: %s\n", dup_ko, strerror(errno));
		ksft_test_result_fail("lookup's verdict on %s with a module's loaded\n", name);
		ksft_test_result_fail("info's KPROBE_UNIQUE is the rule kprobe_events follows\n");
		return;
	}
	kret = kernel_probe_addr(name, &k1);
	if (!kret) {
		accepted = 1;
	} else {
		why = last_error_log();
		notuniq = why && strstr(why, "not unique");
	}
	if (accepted)
		ksft_print_msg("with kreloc_test_dupname's %s: kprobe_events takes it, at 0x%llx\n",
			       kname, (unsigned long long)k1);
	else
		ksft_print_msg("with kreloc_test_dupname's %s: kprobe_events: %s; error_log: %s\n",
			       kname, strerror(-kret), why ? why : "(empty)");
	lret = lookup(name, &a1);
	ksft_print_msg("lookup %s: %s, ADDRESS 0x%llx MODULE %s PROBE_ADDRESS 0x%llx\n",
		       name, strerror(-lret), lret ? 0ULL : (unsigned long long)a1.addr,
		       lret ? "-" : a1.module, lret ? 0ULL : (unsigned long long)a1.probe);
	ok = accepted ? !lret && a1.addr == a0.addr && !strcmp(a1.module, "vmlinux") &&
			a1.probe == k1 :
			notuniq && lret == -ENOTUNIQ;
	ksft_test_result(ok, "with a module's %s loaded, lookup says what kprobe_events says: %s\n",
			 name, accepted ? "vmlinux's, where the kernel probes it" :
			 notuniq ? "not unique (ENOTUNIQ)" : "(refused for another reason)");
	info_value("KPROBE_UNIQUE", rule, sizeof(rule));
	ksft_test_result((accepted || notuniq) &&
			 !strcmp(rule, accepted ? "vmlinux-first" : "all"),
			 "info's KPROBE_UNIQUE=%s is the rule kprobe_events follows\n", rule);
	free(why);
	kr_unload_module("kreloc_test_dupname");
}

static void test_errors(void)
{
	const struct sysmap_sym *dup = find_dup();
	char longname[700];
	struct answer a;
	int fd, ret;

	if (dup) {
		/* ELFv1: the plain name must find the duplicate ".name" code symbols. */
		ret = lookup(dup->name + abi_v1, &a);
		ksft_print_msg("%s occurs %zu times: %s\n", dup->name,
			       sysmap_count(&ks, dup->name), strerror(-ret));
		ksft_test_result(ret == -ENOTUNIQ, "an ambiguous name is refused (ENOTUNIQ)\n");
	} else {
		ksft_test_result_skip("no duplicate static name in this kernel\n");
	}
	ksft_test_result(lookup("kreloc_no_such_symbol_xyz", &a) == -ENOENT,
			 "unknown symbol: ENOENT\n");

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	fd = open(LOOKUP, O_RDWR);
	ret = fd >= 0 && lookup_fd(fd, "_text\0x", 7, &a) == -EINVAL &&
	      lookup("a b", &a) == -EINVAL && lookup(longname, &a) == -EINVAL &&
	      lookup("_stext+0xzz", &a) == -EINVAL && lookup(":x", &a) == -EINVAL &&
	      lookup("schedule+0x10000000", &a) == -EINVAL;
	if (fd >= 0)
		close(fd);
	ksft_test_result(ret, "embedded NUL, bad characters, over-long name, bad offset, offset past the symbol: EINVAL\n");
}

static void test_fuzz(void)
{
	static char buf[70000];
	unsigned int seed = 12345;
	int fd = open(LOOKUP, O_RDWR), i, errs = 0, oks = 0;
	struct answer a;

	for (i = 0; fd >= 0 && i < fuzz; i++) {
		size_t len, j;
		ssize_t n;

		switch (i % 4) {
		case 0:	/* random bytes, always with a byte no spec may hold */
			len = 1 + rand_r(&seed) % 200;
			for (j = 0; j < len; j++)
				buf[j] = rand_r(&seed);
			buf[rand_r(&seed) % len] = "{\0 /*"[rand_r(&seed) % 5];
			break;
		case 1:	/* huge */
			len = 600 + rand_r(&seed) % (sizeof(buf) - 600);
			memset(buf, 'x', len);
			break;
		case 2:	/* partial write of a malformed spec */
			strcpy(buf, "kreloc:.kreloc_kprobe_lookup_name+0x12345678901234567890");
			len = 40 + rand_r(&seed) % 20;
			break;
		default: /* bad offsets */
			len = snprintf(buf, sizeof(buf), "%s+%s", text_sym,
				       (const char *[]){ "", "0x", "-1", "0x1g", "99999999999999999999999" }[rand_r(&seed) % 5]);
			break;
		}
		n = write(fd, buf, len);
		if (n < 0)
			errs++;
		else
			oks++;
	}
	if (fd >= 0)
		close(fd);
	ksft_print_msg("%d malformed writes: %d errors, %d accepted\n", fuzz, errs, oks);
	ksft_test_result(fd >= 0 && errs == fuzz && !lookup(text_sym, &a),
			 "%d malformed writes all fail with an errno; a valid lookup still works\n", fuzz);
}

static void test_per_open(void)
{
	int f1 = open(LOOKUP, O_RDWR), f2 = open(LOOKUP, O_RDWR);
	struct answer a1, a2, b1;
	int ok = f1 >= 0 && f2 >= 0 &&
		 !lookup_fd(f1, "_etext", 6, &a1) && !lookup_fd(f2, "_stext", 6, &a2);

	/* Re-read f1: still its own answer. */
	ok = ok && lseek(f1, 0, SEEK_SET) == 0;
	if (ok) {
		char buf[256];
		ssize_t n = read(f1, buf, sizeof(buf) - 1);

		ok = n > 0 && (buf[n] = '\0', sscanf(buf, "%639s", b1.spec) == 1) &&
		     !strcmp(b1.spec, "_etext") && !strcmp(a2.spec, "_stext");
	}
	if (f1 >= 0)
		close(f1);
	if (f2 >= 0)
		close(f2);
	ksft_test_result(ok, "answers are per open file\n");
}

/* The whole text a read of @fd returns from offset 0; NULL on error. */
static char *read_back(int fd, int *err)
{
	static char buf[1024];
	ssize_t n;

	*err = 0;
	if (lseek(fd, 0, SEEK_SET) < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0) {
		*err = errno;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/*
 * After a lookup of text_sym, write @len bytes at @spec to the same fd: the
 * write must fail with @err and the next read return exactly one line
 * "ERR @name reason"; the reason is copied to @reason.  With @inject, the
 * test build's next allocation fails.
 */
static int err_line(int fd, const void *spec, size_t len, int err, const char *name,
		    char *reason, size_t rlen, int inject)
{
	struct answer a;
	char *text, want[32];
	int e;

	if (lookup_fd(fd, text_sym, strlen(text_sym), &a)) {
		ksft_print_msg("lookup of %s failed\n", text_sym);
		return -1;
	}
	if (inject && kr_set_module_param("kreloc", "test_fail_alloc", "1")) {
		ksft_print_msg("cannot set test_fail_alloc: %s\n", strerror(errno));
		return -1;
	}
	errno = 0;
	if (write(fd, spec, len) >= 0 || errno != err) {
		ksft_print_msg("write: %s, expected %s\n", strerror(errno), name);
		return -1;
	}
	text = read_back(fd, &e);
	snprintf(want, sizeof(want), "ERR %s ", name);
	if (!text || strncmp(text, want, strlen(want)) || strchr(text, '\n') != text + strlen(text) - 1 ||
	    strlen(text) <= strlen(want) + 1) {
		ksft_print_msg("after %s: read %s\n", name, text ? text : strerror(e));
		return -1;
	}
	ksft_print_msg("%s", text);
	snprintf(reason, rlen, "%.*s", (int)(strlen(text) - 5), text + 4);
	return 0;
}

static void test_err_lines(void)
{
	char reason[512], r2[512], *log;
	int fd = open(LOOKUP, O_RDWR), e = 0, ok;

	ok = fd >= 0 && !read_back(fd, &e) && e == ENODATA;
	ksft_test_result(ok, "a read before any write: ENODATA\n");
	ok = fd >= 0 && !err_line(fd, "kreloc_no_such_symbol_xyz", 25, ENOENT, "ENOENT",
				  reason, sizeof(reason), 0);
	log = kr_kmsg(-1, NULL);
	ok = ok && log && strstr(log, reason);
	if (!ok && log)
		ksft_print_msg("dmesg lacks \"%s\"\n", reason);
	free(log);
	ksft_test_result(ok, "after ENOENT the next read is one line ERR ENOENT, the reason dmesg gives\n");
	ok = fd >= 0 && !err_line(fd, "a b", 3, EINVAL, "EINVAL", r2, sizeof(r2), 0);
	ksft_test_result(ok, "after EINVAL the next read is one line ERR EINVAL, not the earlier answer\n");
	ok = fd >= 0 && !err_line(fd, (const void *)16, 5, EFAULT, "EFAULT", r2, sizeof(r2), 0);
	ksft_test_result(ok, "after EFAULT the next read is one line ERR EFAULT, not the earlier answer\n");
	if (fd >= 0)
		close(fd);
}

/* ENOMEM, by a test build whose next allocation fails. */
static void test_err_enomem(const char *ko, const char *hooks_ko)
{
	char reason[512];
	int fd, ok;

	if (!hooks_ko) {
		ksft_test_result_skip("no test build given: ENOMEM is not injected\n");
		return;
	}
	kr_unload_module("kreloc");
	ok = !kr_load_module(hooks_ko, NULL) && (fd = open(LOOKUP, O_RDWR)) >= 0;
	if (ok) {
		struct answer a;

		ok = !err_line(fd, "_stext", 6, ENOMEM, "ENOMEM", reason, sizeof(reason), 1) &&
		     !lookup_fd(fd, "_stext", 6, &a);
		close(fd);
	}
	kr_unload_module("kreloc");
	kr_load_module(ko, NULL);
	ksft_test_result(ok, "after an injected ENOMEM the next read is one line ERR ENOMEM; the next lookup works\n");
}

/*
 * Without the kernel's symbol iterators (a test build's
 * test_no_iterators=1) kreloc cannot tell whether a name is unique: it
 * must refuse (EOPNOTSUPP), the ambiguous name included, not answer with
 * the first match.
 */
static void test_err_no_iterators(const char *ko, const char *hooks_ko)
{
	const struct sysmap_sym *dup = find_dup();
	const char *name = dup ? dup->name + abi_v1 : text_sym;
	struct answer a;
	int r1 = 0, r2 = 0, ok;

	if (!hooks_ko) {
		ksft_test_result_skip("no test build given: the iterators are not taken away\n");
		return;
	}
	kr_unload_module("kreloc");
	ok = !kr_load_module(hooks_ko, "test_no_iterators=1");
	if (ok) {
		r1 = lookup(name, &a);
		r2 = lookup(text_sym, &a);
	}
	ksft_print_msg("without the iterators: %s: %s; %s: %s\n", name, strerror(-r1), text_sym,
		       strerror(-r2));
	kr_unload_module("kreloc");
	kr_load_module(ko, NULL);
	ksft_test_result(ok && r1 == -EOPNOTSUPP && r2 == -EOPNOTSUPP,
			 "without the kernel's symbol iterators a name, ambiguous or not, is refused (EOPNOTSUPP)\n");
}

static void test_perm(void)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		int fd;

		if (kr_drop_syslog())
			_exit(2);
		fd = open(LOOKUP, O_RDWR);
		_exit(fd < 0 && errno == EPERM ? 0 : 1);
	}
	ksft_test_result(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			 !WEXITSTATUS(st), "lookup: EPERM without CAP_SYSLOG\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "samples", required_argument, NULL, 's' },
		{ "fuzz", required_argument, NULL, 'f' },
		{ "hooks-ko", required_argument, NULL, 'h' },
		{ "dup-ko", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL, *hooks_ko = NULL, *dup_ko = NULL;
	struct utsname u;
	struct stat st;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 's': samples = atoi(optarg); break;
		case 'f': fuzz = atoi(optarg); break;
		case 'h': hooks_ko = optarg; break;
		case 'd': dup_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko)
		ksft_exit_fail_msg("usage: --ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	ksft_set_plan(23);
	kr_unload_module("kreloc");
	ksft_test_result(!kr_load_module(ko, NULL) && !stat(LOOKUP, &st) &&
			 (st.st_mode & 0777) == 0600, "load; lookup is 0600\n");
	test_kprobe_gone();
	if (sysmap_load(&ks, "/proc/kallsyms") || sysmap_index(&ks))
		ksft_exit_fail_msg("cannot read /proc/kallsyms\n");
	abi_v1 = sysmap_lookup(&ks, ".kernel_clone") != NULL;
	if (!sysmap_lookup(&ks, "_text"))
		text_sym = "_stext";
	x86 = !uname(&u) && !strcmp(u.machine, "x86_64");
	ksft_print_msg("%s\n", abi_v1 ? "ppc64 ELF ABIv1: dot symbols" : "no dot symbols");
	collect_candidates();
	test_err_lines();
	test_sampled();
	test_markers();
	test_probe_addresses();
	test_probe_fires();
	test_module_scope();
	test_errors();
	test_dup_module(dup_ko);
	test_fuzz();
	test_per_open();
	test_perm();
	test_err_enomem(ko, hooks_ko);
	test_err_no_iterators(ko, hooks_ko);
	ksft_test_result(kr_unload_module("kreloc") == 0, "unload\n");
	ksft_finished();
}
