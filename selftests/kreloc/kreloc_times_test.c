// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_times_test - selftest of the times in kreloc's module records.
 *
 *   kreloc_times_test --ko kreloc.ko --dummy-ko dummy.ko
 *                     --slow-ko kreloc_test_slowinit.ko
 *
 * Each time kreloc publishes is checked against the clock it names, read
 * by this program around the event: CLOCK_MONOTONIC with clock_gettime(),
 * and perf's clock (local_clock()) as perf itself reports it
 * (kr_perf_clock_now()).  Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

enum { LOCAL, MONO, NR_CLOCKS };
static const char * const clock_name[NR_CLOCKS] = { "local", "mono" };

/* The times of one record: load, init, unload per clock; -1 unknown. */
struct rtimes {
	char state[16];
	long long t[NR_CLOCKS][3];
};

static const char *kreloc_ko, *dummy_ko, *slow_ko;

static long long mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Both clocks, read by the test itself. */
static void now(long long t[NR_CLOCKS])
{
	t[LOCAL] = kr_perf_clock_now();
	t[MONO] = mono_now();
}

static long long num(const char *s)
{
	return strcmp(s, "-") ? strtoll(s, NULL, 10) : -1;
}

/* The times of the newest record of @name in the modules file. */
static int record_times(const char *name, struct rtimes *r)
{
	char *text = kr_read_file(KRELOC_DIR "/modules", NULL), *line, *save = NULL;
	int found = -1;

	memset(r, 0, sizeof(*r));
	memset(r->t, 0xff, sizeof(r->t));	/* -1: unknown */
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char nm[64], st[16], f[13][160];
		int c, e;

		if (line[0] == '#' ||
		    sscanf(line, "%63s %15s %159s %159s %159s %159s %159s %159s %159s %159s %159s %159s %159s",
			   nm, st, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9],
			   f[10]) != 13 || strcmp(nm, name))
			continue;
		snprintf(r->state, sizeof(r->state), "%s", st);
		for (c = 0; c < NR_CLOCKS; c++)
			for (e = 0; e < 3; e++)
				r->t[c][e] = num(f[5 + 3 * c + e]);
		found = 0;
	}
	free(text);
	return found;
}

static long long info_num(const char *info, const char *key)
{
	char v[32];

	return info && !kr_kv(info, key, v, sizeof(v)) ? strtoll(v, NULL, 10) : -1;
}

/* a <= b <= c, all known. */
static int ordered(long long a, long long b, long long c)
{
	return a >= 0 && b >= 0 && c >= 0 && a <= b && b <= c;
}

static void test_info(void)
{
	long long before[NR_CLOCKS], after[NR_CLOCKS];
	char *info, key[64];
	int c, ok_now = 1, ok_since = 1;

	now(before);
	info = kr_read_file(KRELOC_DIR "/info", NULL);
	now(after);
	for (c = 0; c < NR_CLOCKS; c++) {
		long long n, s, f;

		snprintf(key, sizeof(key), "NOW_%s_NS", c == LOCAL ? "LOCAL" : "MONO");
		n = info_num(info, key);
		snprintf(key, sizeof(key), "SINCE_%s_NS", c == LOCAL ? "LOCAL" : "MONO");
		s = info_num(info, key);
		snprintf(key, sizeof(key), "INIT_FREED_BY_%s_NS", c == LOCAL ? "LOCAL" : "MONO");
		f = info_num(info, key);
		ksft_print_msg("%s: read between %lld and %lld: NOW %lld SINCE %lld INIT_FREED_BY %lld\n",
			       clock_name[c], before[c], after[c], n, s, f);
		ok_now &= ordered(before[c], n, after[c]);
		/* kreloc loads after the kernel freed its init: it stamps that at load. */
		ok_since &= ordered(0, s, n) && ordered(s, f, n);
	}
	ksft_test_result(info && ok_now,
			 "info NOW_LOCAL_NS and NOW_MONO_NS lie between perf's clock and CLOCK_MONOTONIC read before and after\n");
	ksft_test_result(info && ok_since,
			 "SINCE_*_NS <= INIT_FREED_BY_*_NS <= NOW_*_NS (INIT=freed at kreloc's load)\n");
	free(info);
}

static void test_load_unload(void)
{
	long long t0[NR_CLOCKS], t1[NR_CLOCKS], t2[NR_CLOCKS], t3[NR_CLOCKS];
	struct rtimes live, gone;
	int c, ok_load, ok_unload, loaded;

	kr_unload_module("dummy");
	now(t0);
	loaded = !kr_load_module(dummy_ko, NULL);
	now(t1);
	ok_load = loaded && !record_times("dummy", &live) && !strcmp(live.state, "live");
	usleep(50000);
	now(t2);
	ok_unload = !kr_unload_module("dummy");
	now(t3);
	ok_unload = ok_unload && !record_times("dummy", &gone);
	for (c = 0; c < NR_CLOCKS; c++) {
		ksft_print_msg("%s: insmod [%lld, %lld] load %lld init %lld; rmmod [%lld, %lld] unload %lld\n",
			       clock_name[c], t0[c], t1[c], live.t[c][0], live.t[c][1],
			       t2[c], t3[c], gone.t[c][2]);
		ok_load &= ordered(t0[c], live.t[c][0], live.t[c][1]) &&
			   ordered(live.t[c][0], live.t[c][1], t1[c]) && live.t[c][2] == -1;
		ok_unload &= ordered(t2[c], gone.t[c][2], t3[c]) &&
			     gone.t[c][0] == live.t[c][0] && gone.t[c][1] == live.t[c][1];
	}
	ksft_test_result(ok_load,
			 "dummy loaded: insmod started <= LOAD <= INIT <= insmod returned, in both clocks; UNLOAD '-'\n");
	ksft_test_result(ok_unload,
			 "dummy unloaded: rmmod started <= UNLOAD <= rmmod returned, LOAD and INIT kept\n");
}

/*
 * Load kreloc_test_slowinit with @result; once its ->init has waited 300 ms
 * or more, read the clocks into @rel and release it.
 */
static int slow_load(int result, long long rel[NR_CLOCKS], struct rtimes *r)
{
	char params[32];
	struct stat st;
	int pid, err, i;

	snprintf(params, sizeof(params), "result=%d", result);
	pid = kr_load_module_async(slow_ko, params);
	if (pid < 0)
		return -1;
	/* Its parameters appear in sysfs after COMING, before ->init. */
	for (i = 0; i < 1000 &&
	     stat("/sys/module/kreloc_test_slowinit/parameters/release", &st); i++)
		usleep(10000);
	usleep(300000);
	now(rel);
	kr_set_module_param("kreloc_test_slowinit", "release", "1");
	err = kr_wait_load(pid);
	if (record_times("kreloc_test_slowinit", r))
		return -1;
	return err;
}

static void test_slow_init(void)
{
	long long rel[NR_CLOCKS] = { -1, -1 };
	struct rtimes r;
	int c, ok;

	now(rel);
	ok = !slow_load(0, rel, &r) && !strcmp(r.state, "live");
	for (c = 0; c < NR_CLOCKS; c++) {
		ksft_print_msg("%s: load %lld, released at %lld, init %lld (%lld ms in ->init)\n",
			       clock_name[c], r.t[c][0], rel[c], r.t[c][1],
			       (r.t[c][1] - r.t[c][0]) / 1000000);
		ok &= ordered(r.t[c][0], rel[c], r.t[c][1]) &&
		      r.t[c][1] - r.t[c][0] >= 300000000LL;
	}
	ksft_test_result(ok,
			 "a slow ->init: LOAD <= the test's release <= INIT, 300 ms or more apart, in both clocks\n");
	kr_unload_module("kreloc_test_slowinit");

	ok = slow_load(EBUSY, rel, &r) == EBUSY && strcmp(r.state, "live");
	for (c = 0; c < NR_CLOCKS; c++) {
		ksft_print_msg("%s: failed load %lld init %lld unload %lld\n", clock_name[c],
			       r.t[c][0], r.t[c][1], r.t[c][2]);
		ok &= ordered(r.t[c][0], rel[c], r.t[c][1]) && r.t[c][1] == r.t[c][2];
	}
	ksft_test_result(ok, "a failed ->init: its record ends at the failure, INIT == UNLOAD\n");
}

static void test_loaded_before(void)
{
	long long t0[NR_CLOCKS], t1[NR_CLOCKS];
	struct rtimes r;
	int c, ok;

	kr_unload_module("kreloc");
	ok = !kr_load_module(dummy_ko, NULL) && !kr_load_module(kreloc_ko, NULL) &&
	     !record_times("dummy", &r) && !strcmp(r.state, "live");
	for (c = 0; c < NR_CLOCKS; c++)
		ok &= r.t[c][0] == -1 && r.t[c][1] == -1 && r.t[c][2] == -1;
	ksft_test_result(ok, "a module loaded before kreloc: LOAD, INIT and UNLOAD '-'\n");
	now(t0);
	ok = !kr_unload_module("dummy") && !record_times("dummy", &r);
	now(t1);
	for (c = 0; c < NR_CLOCKS; c++)
		ok &= r.t[c][0] == -1 && r.t[c][1] == -1 && ordered(t0[c], r.t[c][2], t1[c]);
	ksft_test_result(ok, "... its unload is stamped, its load stays unknown\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "dummy-ko", required_argument, NULL, 'd' },
		{ "slow-ko", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat st;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kreloc_ko = optarg; break;
		case 'd': dummy_ko = optarg; break;
		case 's': slow_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!kreloc_ko || !dummy_ko || !slow_ko)
		ksft_exit_fail_msg("usage: --ko KO --dummy-ko KO --slow-ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(kreloc_ko, R_OK) || access(dummy_ko, R_OK) || access(slow_ko, R_OK))
		ksft_exit_skip("modules not found\n");
	if (kr_perf_clock_open())
		ksft_exit_skip("perf_event_open: %s: perf's clock cannot be read\n", strerror(errno));
	ksft_set_plan(9);

	kr_unload_module("dummy");
	kr_unload_module("kreloc");
	if (kr_load_module(kreloc_ko, NULL))
		ksft_exit_fail_msg("cannot load %s\n", kreloc_ko);
	test_info();
	test_load_unload();
	test_slow_init();
	test_loaded_before();
	kr_unload_module("kreloc");
	ksft_test_result(stat(KRELOC_DIR, &st) != 0, "kreloc unloads\n");
	ksft_finished();
}
