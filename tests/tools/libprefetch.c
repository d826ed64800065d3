// SPDX-License-Identifier: GPL-2.0
/*
 * libprefetch.c MODE SNAPSHOT VMLINUX|KALLSYMS MODULES_DIR|- TIMEOUT_MS ADDRS:
 * a profiler's hot path with libkreloc, from <kreloc/kreloc.h> alone.
 *
 * MODE is prefetch, lazy, prefetch-seccomp or lazy-seccomp.  A resolver
 * of SNAPSHOT, its core symbols from the map (a name with "kallsyms" in it
 * is one, anything else a vmlinux), modules from MODULES_DIR ("-": none)
 * and, with DEBUGINFOD_URLS set, from debuginfod.  With prefetch,
 * kreloc_resolver_prefetch() (TIMEOUT_MS, 0 for none) first; it prints
 * "prefetch RC MS ERRMSG".  With seccomp, a filter then makes every
 * open, openat, openat2, creat, socket, connect and execve of the process
 * raise SIGSYS, which prints "SIGSYS: syscall N" and exits 9: the loop
 * that follows must do no file or network I/O.  The loop resolves each
 * address of ADDRS (read before), and prints per address one line: its
 * answer (or why not) and its record's file status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <kreloc/kreloc.h>

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char msg[64];
	int n = snprintf(msg, sizeof(msg), "SIGSYS: syscall %d\n", si->si_syscall);

	(void)sig;
	(void)uc;
	if (write(STDOUT_FILENO, msg, (size_t)n) < 0)
		_exit(10);
	_exit(9);
}

#define TRAP(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
		 BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP)

/* No file opened, no socket made or connected from here on. */
static int no_io(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		TRAP(__NR_open), TRAP(__NR_openat), TRAP(__NR_creat), TRAP(__NR_socket),
		TRAP(__NR_connect), TRAP(__NR_execve),
#ifdef __NR_openat2
		TRAP(__NR_openat2),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGSYS, &sa, NULL) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return -1;
	}
	return 0;
}

static const char *const status[] = { "ok", "missing", "mismatch", "unavailable", "corrupt" };

int main(int argc, char **argv)
{
	KRELOC_OPTS(kreloc_files_opts, fo, .debuginfod = getenv("DEBUGINFOD_URLS") != NULL);
	struct kreloc_snapshot *s = NULL;
	struct kreloc_resolver *r = NULL;
	struct kreloc_files *files = NULL;
	struct kreloc_module_file_info mf;
	struct kreloc_addr_info a;
	struct timespec t0, t1;
	static uint64_t addr[65536];
	size_t n = 0, i;
	char why[512];
	FILE *in;
	int rc;

	if (argc != 7) {
		fprintf(stderr, "usage: libprefetch MODE SNAPSHOT MAP MODULES_DIR|- TIMEOUT_MS ADDRS\n");
		return 2;
	}
	if (strcmp(argv[4], "-"))
		fo.modules_dir = argv[4];
	KRELOC_OPTS(kreloc_resolver_opts, ro,
		    .map_kind = strstr(argv[3], "kallsyms") ? KRELOC_MAP_KALLSYMS : KRELOC_MAP_VMLINUX,
		    .map_path = argv[3]);
	KRELOC_OPTS(kreloc_prefetch_opts, po, .timeout_ms = (unsigned int)atoi(argv[5]));
	in = fopen(argv[6], "r");
	while (in && n < sizeof(addr) / sizeof(addr[0]) && fscanf(in, "%" SCNx64, &addr[n]) == 1)
		n++;
	if (!in || kreloc_snapshot_load(argv[2], &s) || kreloc_files_new(&fo, &files)) {
		fprintf(stderr, "libprefetch: %s\n", in ? kreloc_errmsg() : argv[6]);
		return 2;
	}
	fclose(in);
	ro.files = files;
	if (kreloc_resolver_new(s, &ro, &r)) {
		fprintf(stderr, "libprefetch: %s\n", kreloc_errmsg());
		return 2;
	}
	kreloc_snapshot_free(s);
	kreloc_files_free(files);
	if (!strncmp(argv[1], "prefetch", 8)) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = kreloc_resolver_prefetch(r, &po);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("prefetch %d %ld %s\n", rc, (long)((t1.tv_sec - t0.tv_sec) * 1000 +
			(t1.tv_nsec - t0.tv_nsec) / 1000000), rc < 0 ? kreloc_errmsg() : "");
	}
	fflush(stdout);
	if (strstr(argv[1], "seccomp") && no_io())
		return 2;
	for (i = 0; i < n; i++) {
		rc = kreloc_resolve(r, addr[i], 0, &a, sizeof(a));
		if (rc <= 0) {
			printf("0x%" PRIx64 " ? %s\n", addr[i],
			       kreloc_resolve_why(r, addr[i], 0, why, sizeof(why)));
			continue;
		}
		printf("0x%" PRIx64 " %s+0x%" PRIx64 " [%s] %s", addr[i], a.symbol ? a.symbol : a.section,
		       a.offset, a.module_name ? a.module_name : "", a.section);
		if (a.module >= 0 && !kreloc_resolver_module_file(r, (size_t)a.module, &mf, sizeof(mf)))
			printf(" %s%s%s", (unsigned int)mf.status < 5 ? status[mf.status] : "?",
			       mf.why ? ": " : "", mf.why ? mf.why : "");
		printf("\n");
	}
	kreloc_resolver_free(r);
	return 0;
}
