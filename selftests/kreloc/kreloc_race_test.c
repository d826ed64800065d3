// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_race_test - kreloc's initial module scan meets modules that die
 * while it runs.
 *
 *   kreloc_race_test --hooks-ko kreloc-hooks.ko --slow-ko kreloc_test_slowinit.ko
 *                    --test-ko kreloc_test_mod.ko --dummy-ko dummy.ko
 *
 * try_module_get() keeps neither a module whose ->init fails nor one
 * removed with rmmod -f alive.  The test build's test_scan_delay_ms makes
 * the scan sleep while it holds the first live module it met, so each
 * race happens every time:
 *   1. a module blocked in ->init (COMING) fails while the scan sleeps;
 *   2. the live module the scan holds is force-removed (rmmod -f) while
 *      it sleeps, and a new module is loaded meanwhile;
 *   3. a module is loaded between kreloc's notifier (registered in
 *      ->init) and its scan (in the setup work), which test_scan_window_ms
 *      holds open: the notifier records it and the scan finds it on the
 *      kernel's list; it must have one record, and none left live once
 *      it is unloaded.
 * Afterwards no record may be live under a name the kernel no longer has,
 * every live record's text must be where /proc/modules says,
 * and the kernel log must be free of Oops/BUG/WARNING.  Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

#define DELAY_MS "3000"

static const char *hooks_ko, *slow_ko, *test_ko, *dummy_ko;

/* Wait until test_scan_state is @state; 0 or -1. */
static int wait_scan_state(const char *state)
{
	char v[16];
	int i;

	for (i = 0; i < 500; i++) {
		if (!kr_module_param("kreloc", "test_scan_state", v, sizeof(v)) && !strcmp(v, state))
			return 0;
		usleep(10000);
	}
	return -1;
}

/* Wait until the scan sleeps (test_scan_delay_ms). */
static int wait_scan_sleeping(void)
{
	return wait_scan_state("1");
}

/* The records of @name in "modules": live or coming ones, and all. */
static void count_records(const char *name, int *live, int *all)
{
	char *text = kr_read_file(KRELOC_DIR "/modules", NULL), *line, *save = NULL;

	*live = *all = 0;
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char nm[64], st[16];

		if (line[0] == '#' || sscanf(line, "%63s %15s", nm, st) != 2 || strcmp(nm, name))
			continue;
		(*all)++;
		if (!strcmp(st, "live") || !strcmp(st, "coming"))
			(*live)++;
		ksft_print_msg("record: %s\n", line);
	}
	free(text);
}

static int wait_initstate(const char *mod, const char *state)
{
	char path[128], *v;
	int i, ok;

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", mod);
	for (i = 0; i < 500; i++) {
		v = kr_read_file(path, NULL);
		ok = v && !strncmp(v, state, strlen(state));
		free(v);
		if (ok)
			return 0;
		usleep(10000);
	}
	return -1;
}

/* The module's base address as /proc/modules gives it (its text); 0 or -1. */
static int proc_modules_base(const char *name, uint64_t *base)
{
	char *text = kr_read_file("/proc/modules", NULL), *line, *save = NULL;
	int ret = -1;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char nm[64], addr[32];

		/* NAME SIZE REFS DEPS STATE ADDRESS [TAINTS] */
		if (sscanf(line, "%63s %*s %*s %*s %*s %31s", nm, addr) == 2 &&
		    !strcmp(nm, name) && !kr_hex(addr, base)) {
			ret = 0;
			break;
		}
	}
	free(text);
	return ret;
}

/*
 * Every record in "modules": a live or coming one must name a module the
 * kernel has, with its text where /proc/modules says.  Returns the number
 * of bad records; *found is set if a record named @name is live.
 */
static int check_records(const char *name, int *found)
{
	char *text = kr_read_file(KRELOC_DIR "/modules", NULL), *line, *save = NULL;
	int bad = 0;

	*found = 0;
	if (!text)
		return 1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char nm[64], st[16], base[32];
		uint64_t rec_text, sys_text;

		if (line[0] == '#' || sscanf(line, "%63s %15s %31s", nm, st, base) != 3)
			continue;
		if (strcmp(st, "live") && strcmp(st, "coming"))
			continue;
		if (name && !strcmp(nm, name))
			*found = 1;
		if (!strcmp(base, "-"))
			continue;	/* no core text */
		if (kr_hex(base, &rec_text) || proc_modules_base(nm, &sys_text) ||
		    rec_text != sys_text) {
			ksft_print_msg("record %s %s text %s: not what /proc/modules says\n",
				       nm, st, base);
			bad++;
		}
	}
	free(text);
	return bad;
}

static int log_has(const char *log, const char *s)
{
	return log && strstr(log, s);
}

/* The result: dmesg since SEQ has no Oops, BUG or WARNING (else it is shown). */
static void result_no_splat(long long seq)
{
	char *log = kr_kmsg(seq, NULL);
	int splat = !log || kr_kmsg_splat(log);

	if (splat && log)
		ksft_print_msg("dmesg:\n%s", log);
	ksft_test_result(!splat, "no Oops, BUG or WARNING\n");
	free(log);
}

/* 1: a module whose ->init fails while the scan sleeps. */
static void race_failing_init(void)
{
	long long seq;
	char *log;
	int slow, kr, kr_err, slow_err, found, bad;

	free(kr_kmsg(-1, &seq));
	kr_unload_module("kreloc");
	kr_load_module(dummy_ko, NULL);		/* a live module for the scan to hold */
	slow = kr_load_module_async(slow_ko, NULL);
	if (wait_initstate("kreloc_test_slowinit", "coming"))
		ksft_print_msg("kreloc_test_slowinit never reached its ->init\n");
	kr = kr_load_module_async(hooks_ko, "test_scan_delay_ms=" DELAY_MS);
	if (wait_scan_sleeping())
		ksft_print_msg("the scan never slept\n");
	/* The scan has met the slow module; now its ->init fails. */
	kr_set_module_param("kreloc_test_slowinit", "release", "1");
	kr_err = kr_wait_load(kr);
	slow_err = kr_wait_load(slow);
	log = kr_kmsg(seq, NULL);
	ksft_print_msg("kreloc load: %s; slowinit load: %s\n", strerror(kr_err), strerror(slow_err));
	ksft_test_result(!kr_err && slow_err == EBUSY &&
			 log_has(log, "kreloc: test: scan meets kreloc_test_slowinit"),
			 "the scan met kreloc_test_slowinit in ->init, which failed while the scan slept\n");
	bad = check_records("kreloc_test_slowinit", &found);
	ksft_test_result(!bad && !found,
			 "no record is live under kreloc_test_slowinit's name; every live record's text is where /proc/modules says\n");
	/* Likely at the freed module's address: must get its own record. */
	kr_load_module(test_ko, NULL);
	bad = check_records("kreloc_test_mod", &found);
	ksft_test_result(!bad && found,
			 "a module loaded next has a live record under its own name, text as in /proc/modules\n");
	kr_unload_module("kreloc_test_mod");
	free(log);
	result_no_splat(seq);
}

/* 2: the live module the scan holds is force-removed while it sleeps. */
static void race_force_remove(void)
{
	int kr, rm, kr_err, st, found, bad, loaded;
	uint64_t text = 0;
	long long seq;
	char *log;

	free(kr_kmsg(-1, &seq));
	kr_unload_module("kreloc");
	kr_unload_module("dummy");
	kr_load_module(dummy_ko, NULL);		/* newest live module: the scan holds it */
	kr_module_section("dummy", ".text", &text);
	kr = kr_load_module_async(hooks_ko, "test_scan_delay_ms=" DELAY_MS);
	if (wait_scan_sleeping())
		ksft_print_msg("the scan never slept\n");
	rm = fork();
	if (!rm)	/* rmmod -f: O_TRUNC forces */
		_exit(syscall(SYS_delete_module, "dummy", O_NONBLOCK | O_TRUNC) ? errno : 0);
	loaded = kr_load_module_async(test_ko, NULL);
	kr_err = kr_wait_load(kr);
	waitpid(rm, &st, 0);
	log = kr_kmsg(seq, NULL);
	ksft_print_msg("kreloc load: %s; rmmod -f dummy: %s\n", strerror(kr_err),
		       WIFEXITED(st) ? strerror(WEXITSTATUS(st)) : "killed");
	ksft_test_result(!kr_err && WIFEXITED(st) && !WEXITSTATUS(st) &&
			 log_has(log, "kreloc: test: scan meets dummy (live)"),
			 "the scan held live dummy while rmmod -f removed it\n");
	bad = check_records("dummy", &found);
	ksft_test_result(!bad && !found, "no record of dummy is live; every live record's text is where /proc/modules says\n");
	ksft_test_result(!kr_wait_load(loaded) && !check_records("kreloc_test_mod", &found) && found &&
			 !access(KRELOC_DIR "/module/kreloc_test_mod", R_OK),
			 "kreloc_test_mod, loaded while kreloc's init ran, has its record and its file\n");
	kr_unload_module("kreloc_test_mod");
	kr_load_module(dummy_ko, NULL);
	bad = check_records("dummy", &found);
	ksft_test_result(!bad && found, "dummy loaded again: a live record with its text as in /proc/modules\n");
	free(log);
	result_no_splat(seq);
	kr_unload_module("kreloc");
	kr_unload_module("dummy");
}

/* 3: a module loaded between kreloc's notifier and its scan. */
static void race_window(void)
{
	int kr, kr_err, loaded, live, all, live_after, all_after;
	long long seq;

	free(kr_kmsg(-1, &seq));
	kr_unload_module("kreloc");
	kr_unload_module("kreloc_test_mod");
	kr = kr_load_module_async(hooks_ko, "test_scan_window_ms=" DELAY_MS);
	if (wait_scan_state("3"))
		ksft_print_msg("the setup never slept before the scan\n");
	loaded = !kr_load_module(test_ko, NULL);
	kr_err = kr_wait_load(kr);
	count_records("kreloc_test_mod", &live, &all);
	ksft_test_result(!kr_err && loaded && live == 1 && all == 1,
			 "a module loaded between the notifier and the scan has one record, live (%d live, %d in all)\n",
			 live, all);
	kr_unload_module("kreloc_test_mod");
	count_records("kreloc_test_mod", &live_after, &all_after);
	ksft_test_result(live_after == 0 && all_after == 1,
			 "unloaded, no record of it is left live, one is in the history (%d live, %d in all)\n",
			 live_after, all_after);
	result_no_splat(seq);
	kr_unload_module("kreloc");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hooks-ko", required_argument, NULL, 'h' },
		{ "slow-ko", required_argument, NULL, 's' },
		{ "test-ko", required_argument, NULL, 't' },
		{ "dummy-ko", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': hooks_ko = optarg; break;
		case 's': slow_ko = optarg; break;
		case 't': test_ko = optarg; break;
		case 'd': dummy_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!hooks_ko || !slow_ko || !test_ko || !dummy_ko)
		ksft_exit_fail_msg("usage: --hooks-ko KO --slow-ko KO --test-ko KO --dummy-ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(dummy_ko, R_OK))
		ksft_exit_skip("%s: %s\n", dummy_ko, strerror(errno));
	ksft_set_plan(12);
	race_failing_init();
	race_force_remove();
	race_window();
	ksft_finished();
}
