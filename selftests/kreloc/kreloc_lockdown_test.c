// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_lockdown_test - kreloc under kernel lockdown, raised at run time.
 *
 *   kreloc_lockdown_test --ko kreloc.ko [--import-ko kreloc_test_import.ko]
 *
 * Lockdown can only be raised, so this test must run last in a boot.  It
 * loads kreloc, opens lookup, then writes "integrity" and later
 * "confidentiality" to /sys/kernel/security/lockdown.  At each level:
 *   - the 0400 files still open and read (debugfs lets read-only files be);
 *   - they follow /proc/kallsyms, not /proc/kcore (kreloc's choice, in
 *     Documentation/ABI/testing/debugfs-kreloc): root still reads real
 *     addresses in /proc/kallsyms, /proc/kcore is refused (EPERM) at
 *     confidentiality, and info's REF_RUNTIME is kallsyms' address of
 *     REF_SYMBOL;
 *   - a fresh open of lookup (0600) gets EPERM from debugfs;
 *   - a write to the lookup fd opened before lockdown gets EPERM from
 *     kreloc itself, and the next read is "ERR EPERM lockdown ...";
 *   - dmesg says that lockdown refused it;
 *   - with --import-ko, loaded before lockdown: a module's call of
 *     kreloc_kprobe_lookup_name() still answers, the same address as
 *     before (in-kernel callers are not userspace: lockdown does not
 *     apply to them, as to kallsyms_lookup_name()).
 * Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define LOOKUP KRELOC_DIR "/lookup"

static int read_only_files_ok(void)
{
	static const char * const f[] = { "info", "sections", "anchors", "modules",
					   "module/kreloc" };
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(f); i++) {
		char path[128], *t;

		snprintf(path, sizeof(path), KRELOC_DIR "/%s", f[i]);
		t = kr_read_file(path, NULL);
		if (!t || !*t) {
			ksft_print_msg("%s: %s\n", path, strerror(errno));
			bad = 1;
		}
		free(t);
	}
	return bad ? -1 : 0;
}

/* /proc/kallsyms' address of @sym, 0 if none or shown as 0. */
static unsigned long long kallsyms_addr(const char *sym)
{
	char *t = kr_read_file("/proc/kallsyms", NULL), *line, *save = NULL;
	unsigned long long a = 0;

	for (line = t ? strtok_r(t, "\n", &save) : NULL; line && !a;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[256];
		unsigned long long v;

		if (sscanf(line, "%llx %*s %255s", &v, name) == 2 && !strcmp(name, sym))
			a = v;
	}
	free(t);
	return a;
}

/*
 * kreloc follows /proc/kallsyms: where root sees real addresses there, it
 * sees them in kreloc's files too, whatever /proc/kcore does.
 */
static void follows_kallsyms(const char *level)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL), sym[64] = "";
	unsigned long long ks = 0;
	uint64_t rt = 0;
	int kcore, err;

	kcore = open("/proc/kcore", O_RDONLY);
	err = errno;
	if (kcore >= 0)
		close(kcore);
	if (info && !kr_kv(info, "REF_SYMBOL", sym, sizeof(sym)))
		ks = kallsyms_addr(sym);
	if (info)
		kr_kv_hex(info, "REF_RUNTIME", &rt);
	free(info);
	ksft_print_msg("%s: /proc/kcore: %s; /proc/kallsyms %s 0x%llx; info REF_RUNTIME 0x%llx\n",
		       level, kcore >= 0 ? "opens" : strerror(err), sym, ks,
		       (unsigned long long)rt);
	ksft_test_result(ks && rt == ks && (strcmp(level, "confidentiality") ||
					    (kcore < 0 && err == EPERM)),
			 "%s: kreloc's addresses follow /proc/kallsyms (root reads the same), not /proc/kcore%s\n",
			 level, strcmp(level, "confidentiality") ? "" : " (refused)");
}

static const char *import_ko;
static unsigned long long import_addr;

/* kreloc_test_import looks vfs_read up again; its answer, or 0. */
static unsigned long long import_lookup(void)
{
	char v[64];

	if (kr_set_module_param("kreloc_test_import", "again", "1") ||
	    kr_module_param("kreloc_test_import", "addr", v, sizeof(v)))
		return 0;
	return strtoull(v, NULL, 0);
}

static void at_level(const char *level, int fd)
{
	char buf[512], *log;
	long long seq;
	ssize_t n;
	int fresh, err;

	free(kr_kmsg(-1, &seq));
	if (kr_write_file(LOCKDOWN, level)) {
		ksft_exit_fail_msg("cannot raise lockdown to %s: %s\n", level, strerror(errno));
		return;
	}
	log = kr_read_file(LOCKDOWN, NULL);
	ksft_print_msg("%s: %s", LOCKDOWN, log ? log : "?\n");
	free(log);

	ksft_test_result(!read_only_files_ok(),
			 "%s: info, sections, anchors, modules, module/kreloc still read\n", level);
	follows_kallsyms(level);
	fresh = open(LOOKUP, O_RDWR);
	err = errno;
	if (fresh >= 0)
		close(fresh);
	ksft_test_result(fresh < 0 && err == EPERM, "%s: a fresh open of lookup: EPERM (debugfs)\n",
			 level);

	errno = 0;
	n = write(fd, "_stext", 6);
	err = errno;
	buf[0] = '\0';
	if (lseek(fd, 0, SEEK_SET) == 0 && (n = read(fd, buf, sizeof(buf) - 1)) >= 0)
		buf[n] = '\0';
	ksft_print_msg("write to the earlier fd: %s; read: %s", strerror(err), buf);
	ksft_test_result(err == EPERM && !strncmp(buf, "ERR EPERM lockdown", 18),
			 "%s: a write to lookup opened before: EPERM, read gives ERR EPERM lockdown\n",
			 level);
	log = kr_kmsg(seq, NULL);
	ksft_test_result(log && strstr(log, "kreloc: lookup: EPERM lockdown"),
			 "%s: dmesg names lockdown as the reason\n", level);
	free(log);
	if (import_ko) {
		unsigned long long a = import_lookup();

		ksft_print_msg("kreloc_test_import looked vfs_read up again: 0x%llx (before lockdown: 0x%llx)\n",
			       a, import_addr);
		ksft_test_result(a && a == import_addr,
				 "%s: the in-kernel kreloc_kprobe_lookup_name() answers as before\n",
				 level);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "import-ko", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL;
	char buf[256];
	int c, fd;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 'i': import_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko)
		ksft_exit_fail_msg("usage: --ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
	if (access(LOCKDOWN, W_OK))
		ksft_exit_skip("%s: %s\n", LOCKDOWN, strerror(errno));
	if (import_ko && access(import_ko, R_OK))
		import_ko = NULL;
	ksft_set_plan(import_ko ? 15 : 12);

	kr_unload_module("kreloc_test_import");
	kr_unload_module("kreloc");
	fd = -1;
	if (!kr_load_module(ko, NULL))
		fd = open(LOOKUP, O_RDWR);
	if (import_ko) {
		import_addr = !kr_load_module(import_ko, NULL) ? import_lookup() : 0;
		ksft_test_result(import_addr, "kreloc_test_import loads and finds vfs_read\n");
	}
	ksft_test_result(fd >= 0 && write(fd, "_stext", 6) == 6 &&
			 lseek(fd, 0, SEEK_SET) == 0 && read(fd, buf, sizeof(buf)) > 0,
			 "load; lookup works before lockdown\n");
	at_level("integrity", fd);
	at_level("confidentiality", fd);
	close(fd);
	kr_unload_module("kreloc_test_import");
	ksft_test_result(!kr_unload_module("kreloc"), "unload under lockdown\n");
	ksft_finished();
}
