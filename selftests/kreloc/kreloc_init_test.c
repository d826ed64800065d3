// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_init_test - a failing kreloc init leaves nothing behind and no
 * file that was open across it; a failing setup leaves files that say so.
 *
 *   kreloc_init_test --hooks-ko kreloc-hooks.ko
 *
 * A debugfs file opened while a module's init runs pins nothing: the
 * module is COMING, try_module_get() succeeds, and when init fails the
 * kernel frees the module whatever its reference count.  Closing such a
 * file afterwards calls into freed code.  So kreloc creates its files only
 * after every step of init that can fail.  With the test build's
 * test_fail_after=params test_fail_delay_ms=M, init sleeps M ms after
 * checking its parameters and fails; meanwhile this test opens every file
 * it can find and holds it across the failure, then reads and closes it.
 *
 * The other steps (calls, core, modules) are kreloc's setup, a work item
 * after init: there the load succeeds, an open waits for the setup and
 * then fails with its errno (ENOTRECOVERABLE, the hook's), dmesg says the
 * setup failed, and kreloc unloads cleanly.
 *
 * kreloc reads no file: loaded where /sys/kernel/notes is a forged note
 * (a bind mount, in the loader's own mount namespace and in the initial
 * one), it must still report the running kernel's build id.  Output is
 * KTAP.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

#define MAX_FDS 256

static const char * const setup_steps[] = { "calls", "core", "modules" };

static int fds[MAX_FDS], nr_fds;
static char opened[MAX_FDS][64];

static int is_open(const char *name)
{
	int i;

	for (i = 0; i < nr_fds; i++)
		if (!strcmp(opened[i], name))
			return 1;
	return 0;
}

static void try_open(const char *dir, const char *name)
{
	char path[512];
	int fd;

	if (nr_fds == MAX_FDS || is_open(name))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, !strcmp(name, "lookup") ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return;
	snprintf(opened[nr_fds], sizeof(opened[0]), "%s", name);
	fds[nr_fds++] = fd;
}

/* Open whatever kreloc has published so far. */
static void open_all(void)
{
	static const char * const top[] = { "info", "sections", "anchors", "modules", "lookup" };
	struct dirent *de;
	size_t i;
	DIR *d;

	for (i = 0; i < ARRAY_SIZE(top); i++)
		try_open(KRELOC_DIR, top[i]);
	d = opendir(KRELOC_DIR "/module");
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			try_open(KRELOC_DIR "/module", de->d_name);
	if (d)
		closedir(d);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail_in_init(const char *ko, const char *step)
{
	char params[128], buf[256], *log;
	long long seq;
	double t0;
	int pid, err, i, splat;
	struct stat st;

	free(kr_kmsg(-1, &seq));
	kr_unload_module("kreloc");
	snprintf(params, sizeof(params), "test_fail_after=%s test_fail_delay_ms=1500", step);
	pid = kr_load_module_async(ko, params);
	nr_fds = 0;
	/* Until the load has surely failed: the delay, and some margin. */
	for (t0 = now(); now() - t0 < 2.5; usleep(20000))
		open_all();
	err = kr_wait_load(pid);
	for (i = 0; i < nr_fds; i++) {
		ksft_print_msg("held %s open across the failed init\n", opened[i]);
		if (read(fds[i], buf, sizeof(buf)) < 0)
			ksft_print_msg("  read after it: %s\n", strerror(errno));
		close(fds[i]);
	}
	log = kr_kmsg(seq, NULL);
	splat = !log || kr_kmsg_splat(log);
	if (splat && log)
		ksft_print_msg("dmesg:\n%s", log);
	free(log);
	ksft_test_result(err == ENOTRECOVERABLE && !nr_fds && stat(KRELOC_DIR, &st) && !splat,
			 "init failing after step %s: load fails (%s), no file could be opened during it, no debugfs entry left, no Oops\n",
			 step, err > 0 ? strerror(err) : err ? "?" : "loaded");
}

/* Open @path in a child (it blocks until the setup is done): its errno or 0. */
static int open_errno_async(const char *path)
{
	int pid = fork();

	if (!pid) {
		int fd = open(path, O_RDONLY);

		_exit(fd < 0 ? errno : 0);
	}
	return pid;
}

static int wait_errno(int pid)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static void fail_in_setup(const char *ko, const char *step)
{
	char params[128], num[64], *log;
	int err, early, late, lookup, splat, said, gone;
	long long seq;
	struct stat st;
	int pid, fd;

	free(kr_kmsg(-1, &seq));
	kr_unload_module("kreloc");
	snprintf(params, sizeof(params), "test_fail_after=%s test_fail_delay_ms=1500", step);
	err = kr_load_module_nowait(ko, params) ? errno : 0;
	/* Right after the load, while the setup sleeps: the open waits for it. */
	pid = open_errno_async(KRELOC_DIR "/info");
	early = wait_errno(pid);
	fd = open(KRELOC_DIR "/sections", O_RDONLY);
	late = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	fd = open(KRELOC_DIR "/lookup", O_RDWR);
	lookup = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	gone = !kr_unload_module("kreloc") && stat(KRELOC_DIR, &st);
	log = kr_kmsg(seq, NULL);
	/* The errno's name, or its number without CONFIG_SYMBOLIC_ERRNAME. */
	snprintf(num, sizeof(num), "kreloc: setup failed (%d)", ENOTRECOVERABLE);
	said = log && (strstr(log, "kreloc: setup failed (ENOTRECOVERABLE)") || strstr(log, num));
	splat = !log || kr_kmsg_splat(log);
	if ((splat || !said) && log)
		ksft_print_msg("dmesg:\n%s", log);
	free(log);
	ksft_print_msg("setup failing after %s: load %s; info opened during the setup: %s; sections, lookup after: %s, %s\n",
		       step, err ? strerror(err) : "ok", strerror(early), strerror(late),
		       strerror(lookup));
	ksft_test_result(!err && early == ENOTRECOVERABLE && late == ENOTRECOVERABLE &&
			 lookup == ENOTRECOVERABLE && said && gone && !splat,
			 "setup failing after step %s: the load succeeds, every open answers ENOTRECOVERABLE (one made during the setup too), dmesg says so, kreloc unloads, no Oops\n",
			 step);
}

/*
 * A GNU build id note (namesz 4, descsz 20, NT_GNU_BUILD_ID) with 20
 * bytes of 0x5a, in the host's byte order, as /sys/kernel/notes holds it.
 */
static int write_forged_notes(const char *path)
{
	unsigned char note[12 + 4 + 20];
	uint32_t h[3] = { 4, 20, 3 };
	FILE *f = fopen(path, "w");
	int ok;

	memcpy(note, h, sizeof(h));
	memcpy(note + 12, "GNU", 4);
	memset(note + 16, 0x5a, 20);
	if (!f)
		return -1;
	ok = fwrite(note, sizeof(note), 1, f) == 1;
	return fclose(f) || !ok ? -1 : 0;
}

/* info's BUILD_ID, or "" (after a load, which waits for the setup). */
static void info_build_id(char *out, size_t len)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL);

	*out = '\0';
	if (info)
		kr_kv(info, "BUILD_ID", out, len);
	free(info);
}

#define FORGED "/tmp/kreloc_forged_notes"

/*
 * kreloc reads no file for the build id: loaded where /sys/kernel/notes
 * is a forged note, it must report the running kernel's.  Twice: forged in
 * the loading process's own mount namespace (where ->init would resolve a
 * path), and in the initial one, where the setup work's kworker would.
 */
static void notes_forged(const char *ko)
{
	char real[64] = "", forged[64] = "", own[64] = "", initial[64] = "";
	int pid, st, ok_own, ok_initial;

	kr_unload_module("kreloc");
	if (kr_running_build_id(real, sizeof(real)) || write_forged_notes(FORGED)) {
		ksft_test_result_fail("cannot read the build id or write the forged note\n");
		return;
	}
	pid = fork();
	if (!pid) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(FORGED, "/sys/kernel/notes", NULL, MS_BIND, NULL))
			_exit(2);
		kr_running_build_id(forged, sizeof(forged));
		ksft_print_msg("in a namespace of its own /sys/kernel/notes says %s\n", forged);
		_exit(!strcmp(forged, real) || kr_load_module(ko, NULL) ? 3 : 0);
	}
	ok_own = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st);
	info_build_id(own, sizeof(own));
	kr_unload_module("kreloc");

	ok_initial = !mount(FORGED, "/sys/kernel/notes", NULL, MS_BIND, NULL);
	if (ok_initial) {
		kr_running_build_id(forged, sizeof(forged));
		ok_initial = strcmp(forged, real) && !kr_load_module(ko, NULL);
		info_build_id(initial, sizeof(initial));
		umount2("/sys/kernel/notes", MNT_DETACH);
	}
	ksft_print_msg("running kernel's build id %s; kreloc's BUILD_ID loaded in its own namespace %s, in the initial one %s\n",
		       real, own, initial);
	ksft_test_result(ok_own && ok_initial && !strcmp(own, real) && !strcmp(initial, real),
			 "loaded where /sys/kernel/notes is forged (the loader's namespace, the initial one), kreloc reports the running kernel's build id\n");
	kr_unload_module("kreloc");
	unlink(FORGED);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hooks-ko", required_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL;
	struct stat st;
	size_t i;
	int c, ok;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko)
		ksft_exit_fail_msg("usage: --hooks-ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	ksft_set_plan(ARRAY_SIZE(setup_steps) + 4);

	fail_in_init(ko, "params");
	for (i = 0; i < ARRAY_SIZE(setup_steps); i++)
		fail_in_setup(ko, setup_steps[i]);
	notes_forged(ko);

	kr_unload_module("kreloc");
	errno = 0;
	ok = kr_load_module(ko, "history=100000") && errno == EINVAL && stat(KRELOC_DIR, &st);
	ksft_test_result(ok, "history=100000 is refused (EINVAL) before anything is created\n");
	ok = !kr_load_module(ko, NULL) && !stat(KRELOC_DIR "/info", &st) &&
	     !kr_unload_module("kreloc");
	ksft_test_result(ok, "after all that, kreloc loads and unloads normally\n");
	ksft_finished();
}
