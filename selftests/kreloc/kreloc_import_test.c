// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_import_test - kreloc's export, kreloc_kprobe_lookup_name(), is in
 * the symbol namespace KRELOC.
 *
 *   kreloc_import_test --ko kreloc.ko --import-ko kreloc_test_import.ko
 *                      --noimport-ko kreloc_test_noimport.ko
 *
 * Both helpers call kreloc_kprobe_lookup_name("vfs_read", 0) at load; only
 * kreloc_test_import imports the namespace.  It must load and find what
 * kreloc's lookup file says (ADDRESS, or PROBE_ADDRESS where kprobes move
 * an entry probe before arch_adjust_kprobe_addr(): ppc64 ELFv2's ftrace
 * site); the other must be refused with EINVAL, the kernel saying it does
 * not import the namespace.  The helpers are built against the Module.symvers
 * of --ko, which must be loaded for them.  Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

/* lookup's ADDRESS and PROBE_ADDRESS for @spec; 0 or -1. */
static int lookup(const char *spec, uint64_t *addr, uint64_t *probe)
{
	char buf[512], a[32], p[32];
	int fd = open(KRELOC_DIR "/lookup", O_RDWR), ok;
	ssize_t n;

	if (fd < 0)
		return -1;
	ok = write(fd, spec, strlen(spec)) == (ssize_t)strlen(spec) &&
	     lseek(fd, 0, SEEK_SET) == 0 && (n = read(fd, buf, sizeof(buf) - 1)) > 0;
	close(fd);
	if (!ok)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%*s %31s %31s", a, p) != 2 || kr_hex(a, addr) || kr_hex(p, probe))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "import-ko", required_argument, NULL, 'i' },
		{ "noimport-ko", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL, *imp = NULL, *noimp = NULL;
	uint64_t addr = 0, probe = 0, got = 0;
	char v[64], *log;
	long long seq;
	int c, ok, err;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 'i': imp = optarg; break;
		case 'n': noimp = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko || !imp || !noimp)
		ksft_exit_fail_msg("usage: --ko KO --import-ko KO --noimport-ko KO\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(imp, R_OK) || access(noimp, R_OK))
		ksft_exit_skip("the import helpers were not built\n");
	ksft_set_plan(3);

	kr_unload_module("kreloc_test_import");
	kr_unload_module("kreloc_test_noimport");
	kr_unload_module("kreloc");
	ok = !kr_load_module(ko, NULL) && !lookup("vfs_read", &addr, &probe);
	ok = ok && !kr_load_module(imp, NULL) &&
	     !kr_module_param("kreloc_test_import", "addr", v, sizeof(v));
	got = ok ? strtoull(v, NULL, 0) : 0;
	ksft_print_msg("kreloc_test_import: 0x%llx; lookup: ADDRESS 0x%llx PROBE_ADDRESS 0x%llx\n",
		       (unsigned long long)got, (unsigned long long)addr,
		       (unsigned long long)probe);
	ksft_test_result(ok && got && (got == addr || got == probe),
			 "a module importing KRELOC loads, and its kreloc_kprobe_lookup_name(\"vfs_read\") is lookup's answer\n");

	free(kr_kmsg(-1, &seq));
	errno = 0;
	err = kr_load_module(noimp, NULL) ? errno : 0;
	log = kr_kmsg(seq, NULL);
	ksft_print_msg("kreloc_test_noimport: %s\n", err ? strerror(err) : "loaded");
	ksft_test_result(err == EINVAL && log && strstr(log, "kreloc_kprobe_lookup_name") &&
			 strstr(log, "KRELOC") && strstr(log, "does not import it"),
			 "a module using it without importing KRELOC is refused (EINVAL), the kernel says why\n");
	free(log);
	kr_unload_module("kreloc_test_noimport");
	ksft_test_result(!kr_unload_module("kreloc_test_import") && !kr_unload_module("kreloc"),
			 "both unload\n");
	ksft_finished();
}
