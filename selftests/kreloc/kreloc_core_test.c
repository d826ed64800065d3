// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_core_test - selftest of kreloc's core relocation interface.
 *
 *   kreloc_core_test --ko kreloc.ko --source system.map|vmlinux|arch
 *                    --map LINKTIME_MAP [--expect ok|mismatch] [--cycles N]
 *                    [--dmesg TEXT]
 *
 * With --expect mismatch, dmesg must say why: TEXT (default "disagree", the
 * report of anchors that disagree).
 *
 * Loads the module, checks /sys/kernel/debug/kreloc/{info,sections,anchors}
 * against /proc/kallsyms and the kernel's link-time map (a System.map, or on
 * x86_64 and arm64 the /proc/kallsyms of a nokaslr boot), and KERNELOFFSET
 * against the kernel's own VMCOREINFO, checks the credential rules, reloads
 * it N times and unloads it.  Output is KTAP; exit 4 means skip.
 *
 * The reference symbol is _text, as in VMCOREINFO, except on arm64, whose
 * kallsyms has no _text without KALLSYMS_ALL: there it is _stext.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>
#include "kselftest.h"
#include "kreloc_util.h"
#include "../../tools/sysmap.h"

#define NR_SECTIONS 6
#define SAMPLE_WANT 1000

static const char * const files[] = { "info", "sections", "anchors" };
static const char * const section_names[NR_SECTIONS] = {
	"text", "rodata", "data", "bss", "init.text", "init.data",
};

static struct sysmap kallsyms, linkmap;
static const char *source, *ko, *ref = "_text";
static char *info, *sections_txt, *anchors_txt;

struct section_row {
	char name[32], status[16];
	uint64_t linked, runtime, size, offset;
	int has_linked, has_runtime, has_size, has_offset;
};

static struct section_row rows[NR_SECTIONS];
static int nr_rows;
/* Anchors per section that resolved, from the anchors file. */
static int resolved_in[NR_SECTIONS];

static int read_all(void)
{
	free(info);
	free(sections_txt);
	free(anchors_txt);
	info = kr_read_file(KRELOC_DIR "/info", NULL);
	sections_txt = kr_read_file(KRELOC_DIR "/sections", NULL);
	anchors_txt = kr_read_file(KRELOC_DIR "/anchors", NULL);
	return info && sections_txt && anchors_txt ? 0 : -1;
}

static int field(const char *s, uint64_t *v, int *has)
{
	int r = kr_hex(s, v);

	*has = r == 0;
	return r < 0 ? -1 : 0;
}

static int parse_sections(void)
{
	char *copy = strdup(sections_txt), *line, *save = NULL;
	int bad = 0;

	nr_rows = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char l[32], r[32], sz[32], o[32];
		struct section_row *row;

		if (line[0] == '#')
			continue;
		if (nr_rows == NR_SECTIONS) {
			bad = 1;
			break;
		}
		row = &rows[nr_rows++];
		if (sscanf(line, "%31s %31s %31s %31s %31s %15s", row->name, l, r, sz, o,
			   row->status) != 6 ||
		    field(l, &row->linked, &row->has_linked) ||
		    field(r, &row->runtime, &row->has_runtime) ||
		    field(sz, &row->size, &row->has_size) ||
		    field(o, &row->offset, &row->has_offset)) {
			ksft_print_msg("malformed sections line: %s\n", line);
			bad = 1;
		}
	}
	free(copy);
	return bad ? -1 : 0;
}

static const struct sysmap_sym *unique(const struct sysmap *m, const char *name)
{
	return sysmap_count(m, name) == 1 ? sysmap_lookup(m, name) : NULL;
}

static void test_files_mode(void)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char path[128];
		struct stat st;

		snprintf(path, sizeof(path), KRELOC_DIR "/%s", files[i]);
		if (stat(path, &st) || (st.st_mode & 07777) != 0400 || st.st_uid != 0) {
			ksft_print_msg("%s: missing or not 0400 root\n", path);
			bad = 1;
		}
	}
	ksft_test_result(!bad, "debugfs info, sections, anchors exist, mode 0400\n");
}

static void test_info_basics(const char *expect)
{
	struct utsname u;
	char v[256];
	int ok = !uname(&u);

	ok = ok && !kr_kv(info, "FORMAT", v, sizeof(v)) && !strcmp(v, "1");
	ok = ok && !kr_kv(info, "OSRELEASE", v, sizeof(v)) && !strcmp(v, u.release);
	ok = ok && !kr_kv(info, "ARCH", v, sizeof(v)) && !strcmp(v, u.machine);
	ok = ok && !kr_kv(info, "REF_SYMBOL", v, sizeof(v)) && !strcmp(v, ref);
	ksft_test_result(ok, "info: FORMAT=1, OSRELEASE and ARCH as uname, REF_SYMBOL=%s\n", ref);

	ok = !kr_kv(info, "LINKED_SOURCE", v, sizeof(v)) && !strcmp(v, source);
	ksft_test_result(ok, "info: LINKED_SOURCE=%s\n", source);

	ok = !kr_kv(info, "STATUS", v, sizeof(v)) && !strcmp(v, expect);
	if (!ok)
		ksft_print_msg("STATUS=%s\n", v);
	ksft_test_result(ok, "info: STATUS=%s\n", expect);
}

/* True runtime offset from kallsyms and the link-time map. */
static int true_offset(uint64_t *off)
{
	const struct sysmap_sym *k = unique(&kallsyms, ref);
	const struct sysmap_sym *l = unique(&linkmap, ref);

	if (!k || !l)
		return -1;
	*off = k->addr - l->addr;
	return 0;
}

/*
 * The kernel's own offset, from the VMCOREINFO note that crash dump tools
 * read (in /proc/kcore's first pages): "KERNELOFFSET=%lx".  1 if absent.
 */
static int vmcoreinfo_offset(uint64_t *off)
{
	static const char key[] = "\nKERNELOFFSET=";
	char buf[65536], *p, *end;
	ssize_t n = 0, r;
	int fd = open("/proc/kcore", O_RDONLY);

	if (fd < 0)
		return 1;
	while (n < (ssize_t)sizeof(buf) - 1 &&
	       (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	p = memmem(buf, n, key, sizeof(key) - 1);
	if (!p)
		return 1;
	p += sizeof(key) - 1;
	errno = 0;
	*off = strtoull(p, &end, 16);
	return errno || end == p || *end != '\n' ? -1 : 0;
}

static void test_ok_numbers(void)
{
	const struct sysmap_sym *k = unique(&kallsyms, ref);
	const struct sysmap_sym *l = unique(&linkmap, ref);
	uint64_t v, off = 0;
	char id[64], rid[64];
	int ok;

	ok = kr_running_build_id(rid, sizeof(rid)) == 0 &&
	     !kr_kv(info, "BUILD_ID", id, sizeof(id)) && !strcmp(id, rid);
	ksft_test_result(ok, "info: BUILD_ID equals the build id in /sys/kernel/notes\n");

	ok = k && l && !kr_kv_hex(info, "REF_RUNTIME", &v) && v == k->addr &&
	     !kr_kv_hex(info, "REF_LINKED", &v) && v == l->addr;
	ksft_test_result(ok, "info: REF_RUNTIME is kallsyms %s, REF_LINKED is the map's %s\n",
			 ref, ref);

	ok = !true_offset(&off) && !kr_kv_hex(info, "KERNELOFFSET", &v) && v == off;
	ksft_print_msg("KERNELOFFSET=0x%llx expected 0x%llx\n",
		       (unsigned long long)v, (unsigned long long)off);
	ksft_test_result(ok, "info: KERNELOFFSET = kallsyms %s - System.map %s\n", ref, ref);

	ok = vmcoreinfo_offset(&off);
	if (ok > 0) {
		ksft_test_result_skip("info: KERNELOFFSET = VMCOREINFO's (no VMCOREINFO in /proc/kcore)\n");
	} else {
		ok = !ok && !kr_kv_hex(info, "KERNELOFFSET", &v) && v == off;
		ksft_print_msg("VMCOREINFO KERNELOFFSET=%llx\n", (unsigned long long)off);
		ksft_test_result(ok, "info: KERNELOFFSET = VMCOREINFO's, the kernel's own\n");
	}

	/* ppc64 ELFv1: the code is ".kallsyms_lookup_name", the plain name a descriptor. */
	k = unique(&kallsyms, ".kallsyms_lookup_name");
	if (!k)
		k = unique(&kallsyms, "kallsyms_lookup_name");
	ok = k && !kr_kv_hex(info, "KALLSYMS_LOOKUP_NAME", &v) && v == k->addr;
	if (!ok && k)
		ksft_print_msg("recovered 0x%llx, /proc/kallsyms 0x%llx\n",
			       (unsigned long long)v, (unsigned long long)k->addr);
	ksft_test_result(ok, "kallsyms_lookup_name recovered exactly as in /proc/kallsyms\n");
}

static void test_anchors(int expect_ok)
{
	char *copy = strdup(anchors_txt), *line, *save = NULL;
	unsigned int n = 0, resolved = 0, bad = 0, want;
	uint64_t toff = 0;

	true_offset(&toff);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], l[32], r[32], d[32], sec[32];
		uint64_t lv, rv, dv;
		const struct sysmap_sym *ks, *ls;
		int hl, hr, hd;

		if (line[0] == '#')
			continue;
		n++;
		if (sscanf(line, "%255s %31s %31s %31s %31s", name, l, r, d, sec) != 5 ||
		    field(l, &lv, &hl) || field(r, &rv, &hr) || field(d, &dv, &hd) || !hl) {
			ksft_print_msg("malformed anchor line: %s\n", line);
			bad++;
			continue;
		}
		ks = sysmap_lookup(&kallsyms, name);
		if (!hr) {
			/* Fine only if kallsyms lacks it (no KALLSYMS_ALL). */
			ksft_print_msg("anchor %s did not resolve%s\n", name,
				       ks ? " but is in /proc/kallsyms" : ", not in /proc/kallsyms");
			if (ks && expect_ok)
				bad++;
			continue;
		}
		resolved++;
		for (int g = 0; g < NR_SECTIONS; g++)
			if (!strcmp(sec, section_names[g]))
				resolved_in[g]++;
		ls = sysmap_lookup(&linkmap, name);
		if (!ks || ks->addr != rv || !hd || dv != rv - lv) {
			ksft_print_msg("anchor %s runtime 0x%llx, kallsyms 0x%llx\n", name,
				       (unsigned long long)rv,
				       ks ? (unsigned long long)ks->addr : 0ULL);
			bad++;
		}
		/* The link-time value must be the map's, whatever the source. */
		if (expect_ok && (!ls || ls->addr != lv)) {
			ksft_print_msg("anchor %s linked 0x%llx, map 0x%llx\n", name,
				       (unsigned long long)lv,
				       ls ? (unsigned long long)ls->addr : 0ULL);
			bad++;
		}
	}
	free(copy);
	want = strcmp(source, "arch") ? 12 : 1;
	ksft_print_msg("%u anchors, %u resolved\n", n, resolved);
	ksft_test_result(n >= want && resolved >= 1,
			 "anchors: at least %u in the table\n", want);
	ksft_test_result(!bad, "anchors: RUNTIME is /proc/kallsyms%s, DELTA = RUNTIME - LINKED%s\n",
			 expect_ok ? ", LINKED is the link-time map" : "",
			 expect_ok ? ", unresolved only if kallsyms lacks them" : "");
}

static void test_sections_ok(void)
{
	uint64_t koff = 0, toff = 0;
	char initv[16];
	int i, bad = 0, freed;

	kr_kv_hex(info, "KERNELOFFSET", &koff);
	true_offset(&toff);
	freed = !kr_kv(info, "INIT", initv, sizeof(initv)) && !strcmp(initv, "freed");
	if (parse_sections() || nr_rows != NR_SECTIONS) {
		ksft_test_result_fail("sections: six well-formed rows\n");
		return;
	}
	for (i = 0; i < NR_SECTIONS; i++) {
		struct section_row *r = &rows[i];
		int init = !strncmp(r->name, "init.", 5);
		/* Published only with enough corroboration: 2 anchors (arch: 1). */
		int known = resolved_in[i] >= (strcmp(source, "arch") ? 2 : 1);
		const char *want = !known ? "unknown" : init && freed ? "freed" : "ok";

		if (strcmp(r->name, section_names[i]) || strcmp(r->status, want)) {
			ksft_print_msg("section %s status %s, want %s\n", r->name, r->status, want);
			bad++;
			continue;
		}
		if (!known)
			continue;
		if (!r->has_linked || !r->has_runtime || !r->has_offset ||
		    r->offset != toff || r->runtime != r->linked + r->offset) {
			ksft_print_msg("section %s: offset 0x%llx, expected 0x%llx\n", r->name,
				       (unsigned long long)r->offset, (unsigned long long)toff);
			bad++;
		}
		if (!strcmp(source, "arch"))
			continue;
		if (!r->has_size || !r->size)
			bad++;
	}
	for (i = 0; i < NR_SECTIONS; i++)
		ksft_print_msg("section %s: %d anchors resolved, %s\n", rows[i].name,
			       resolved_in[i], rows[i].status);
	ksft_test_result(!bad && rows[0].offset == koff && rows[0].has_offset,
			 "sections: ok (init ones freed) where at least 2 anchors resolved (arch: 1), else unknown; offset = KERNELOFFSET, RUNTIME = LINKED + OFFSET\n");
	ksft_test_result(freed, "info: INIT=freed once the system runs\n");
}

static void test_sampled_symbols(void)
{
	const struct sysmap_sym *t0 = unique(&linkmap, "_text"), *t1 = unique(&linkmap, "_etext");
	size_t i, cand = 0, step, checked = 0, bad = 0, seen = 0;
	uint64_t off = rows[0].offset;

	if (!t0)	/* a map from arm64's kallsyms */
		t0 = unique(&linkmap, "_stext");
	if (!t0 || !t1 || !rows[0].has_offset) {
		ksft_test_result_fail("%d sampled text symbols\n", SAMPLE_WANT);
		return;
	}
	for (i = 0; i < linkmap.nr; i++) {
		const struct sysmap_sym *s = &linkmap.syms[i];

		if ((s->type == 'T' || s->type == 't') && s->addr >= t0->addr &&
		    s->addr < t1->addr)
			cand++;
	}
	step = cand / (SAMPLE_WANT + SAMPLE_WANT / 4);
	if (!step)
		step = 1;
	for (i = 0; i < linkmap.nr && checked < SAMPLE_WANT; i++) {
		const struct sysmap_sym *s = &linkmap.syms[i], *k;

		if (!(s->type == 'T' || s->type == 't') || s->addr < t0->addr ||
		    s->addr >= t1->addr || seen++ % step)
			continue;
		if (sysmap_count(&linkmap, s->name) != 1 || sysmap_count(&kallsyms, s->name) != 1)
			continue;
		k = sysmap_lookup(&kallsyms, s->name);
		checked++;
		if (k->addr != s->addr + off) {
			if (bad++ < 5)
				ksft_print_msg("%s: kallsyms 0x%llx != 0x%llx + 0x%llx\n", s->name,
					       (unsigned long long)k->addr,
					       (unsigned long long)s->addr,
					       (unsigned long long)off);
		}
	}
	ksft_print_msg("%zu of %zu candidate text symbols checked, %zu wrong\n", checked, cand, bad);
	ksft_test_result(checked >= SAMPLE_WANT && !bad,
			 "%d sampled text symbols: kallsyms = linked + text offset\n", SAMPLE_WANT);
}

/*
 * In a child: become uid/gid 65534, keeping CAP_DAC_* if @keep_dac so the
 * files are reachable, then open each file.  Exit status: 0 if every open
 * failed (with EPERM when @want_eperm), 1 otherwise.
 */
static int child_open_all(int keep_dac, int want_eperm)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (!pid) {
		size_t i;
		int bad = 0;

		if (keep_dac && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
			_exit(2);
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		if (keep_dac && kr_set_effective_caps((1ULL << CAP_DAC_OVERRIDE) |
						 (1ULL << CAP_DAC_READ_SEARCH)))
			_exit(2);
		for (i = 0; i < ARRAY_SIZE(files); i++) {
			char path[128], buf[64];
			int fd;

			snprintf(path, sizeof(path), KRELOC_DIR "/%s", files[i]);
			fd = open(path, O_RDONLY);
			if (fd >= 0) {
				ssize_t n = read(fd, buf, sizeof(buf));

				printf("# %s: opened, read returned %zd\n", path, n);
				bad = 1;
				close(fd);
			} else if (want_eperm && errno != EPERM) {
				printf("# %s: errno %d, not EPERM\n", path, errno);
				bad = 1;
			}
		}
		fflush(stdout);
		_exit(bad);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static void test_permissions(void)
{
	char *saved = kr_read_file("/proc/sys/kernel/kptr_restrict", NULL);
	char buf[16];
	int fd, bad = 0;
	size_t i;

	write_str("/proc/sys/kernel/kptr_restrict", "1");
	ksft_test_result(child_open_all(1, 1) == 0,
			 "uid 65534 that can reach the files but lacks CAP_SYSLOG gets EPERM on open\n");
	ksft_test_result(child_open_all(0, 0) == 0, "plain uid 65534 cannot open any file\n");

	/* Each read checks too: an open file stops answering under kptr_restrict=2. */
	fd = open(KRELOC_DIR "/info", O_RDONLY);
	write_str("/proc/sys/kernel/kptr_restrict", "2");
	ksft_test_result(fd >= 0 && read(fd, buf, sizeof(buf)) < 0 && errno == EPERM,
			 "read of a file opened before kptr_restrict=2 gets EPERM\n");
	if (fd >= 0)
		close(fd);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		char path[128];

		snprintf(path, sizeof(path), KRELOC_DIR "/%s", files[i]);
		fd = open(path, O_RDONLY);
		if (fd >= 0 || errno != EPERM)
			bad = 1;
		if (fd >= 0)
			close(fd);
	}
	ksft_test_result(!bad, "root under kptr_restrict=2 gets EPERM on every file\n");
	write_str("/proc/sys/kernel/kptr_restrict", saved ? saved : "0\n");
	free(saved);
}

/* info without its times (KEY_NS= lines), which a load changes: a copy. */
static char *info_untimed(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *p = text;

	while (out && *p) {
		const char *nl = strchr(p, '\n'), *eq = strchr(p, '=');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		if (!(eq && eq - p > 3 && (size_t)(eq - p) < len && !strncmp(eq - 3, "_NS", 3))) {
			memcpy(o, p, len);
			o += len;
		}
		p += len;
	}
	if (out)
		*o = '\0';
	return out;
}

static void test_cycles(int cycles)
{
	char *i0 = info_untimed(info), *s0 = strdup(sections_txt), *a0 = strdup(anchors_txt);
	char *i1;
	int c, bad = 0;
	struct stat st;

	for (c = 0; c < cycles && !bad; c++) {
		if (kr_unload_module("kreloc")) {
			ksft_print_msg("cycle %d: unload: %s\n", c, strerror(errno));
			bad = 1;
			break;
		}
		if (!stat(KRELOC_DIR, &st)) {
			ksft_print_msg("cycle %d: %s left behind\n", c, KRELOC_DIR);
			bad = 1;
		}
		if (kr_load_module(ko, NULL) || read_all()) {
			ksft_print_msg("cycle %d: load: %s\n", c, strerror(errno));
			bad = 1;
			break;
		}
		i1 = info_untimed(info);
		if (!i1 || strcmp(i0, i1) || strcmp(s0, sections_txt) || strcmp(a0, anchors_txt)) {
			ksft_print_msg("cycle %d: different numbers\n", c);
			bad = 1;
		}
		free(i1);
	}
	free(i0);
	free(s0);
	free(a0);
	ksft_test_result(!bad, "%d unload/load cycles: same numbers, no debugfs entry left behind\n",
			 cycles);
}

static void test_mismatch(const char *why)
{
	uint64_t v, toff = 0;
	int i, bad = 0, fd;
	char buf[8192];
	ssize_t n;

	ksft_test_result(kr_kv_hex(info, "KERNELOFFSET", &v) != 0,
			 "mismatch: no KERNELOFFSET published\n");
	true_offset(&toff);
	if (parse_sections() || nr_rows != NR_SECTIONS)
		bad = 1;
	for (i = 0; i < nr_rows; i++) {
		/* Never a wrong number: any published offset must be the true one. */
		if (rows[i].has_offset && rows[i].offset != toff)
			bad = 1;
		if (!rows[i].has_offset && rows[i].has_runtime)
			bad = 1;
		if (rows[i].has_offset && strcmp(rows[i].status, "ok") &&
		    strcmp(rows[i].status, "freed"))
			bad = 1;
		ksft_print_msg("section %s status %s\n", rows[i].name, rows[i].status);
	}
	ksft_test_result(!bad, "mismatch: no section publishes a wrong offset\n");

	bad = 1;
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (strstr(buf, "kreloc:") && strstr(buf, why))
			bad = 0;
	}
	if (fd >= 0)
		close(fd);
	ksft_test_result(!bad, "mismatch: dmesg says why (\"%s\")\n", why);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "source", required_argument, NULL, 's' },
		{ "map", required_argument, NULL, 'm' },
		{ "expect", required_argument, NULL, 'e' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "dmesg", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	const char *map = NULL, *expect = "ok", *why = "disagree";
	int c, cycles = 20, ok;
	struct utsname u;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 's': source = optarg; break;
		case 'm': map = optarg; break;
		case 'e': expect = optarg; break;
		case 'c': cycles = atoi(optarg); break;
		case 'd': why = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko || !source || !map)
		ksft_exit_fail_msg("usage: --ko KO --source SRC --map MAP [--expect ok|mismatch]\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(ko, R_OK))
		ksft_exit_skip("%s: %s\n", ko, strerror(errno));
	ok = !strcmp(expect, "ok");
	ksft_set_plan(ok ? 21 : 11);
	if (!uname(&u) && !strcmp(u.machine, "aarch64"))
		ref = "_stext";

	if (sysmap_load(&kallsyms, "/proc/kallsyms") || sysmap_index(&kallsyms) ||
	    sysmap_load(&linkmap, map) || sysmap_index(&linkmap))
		ksft_exit_fail_msg("cannot read /proc/kallsyms or %s\n", map);
	kr_unload_module("kreloc");
	ksft_test_result(kr_load_module(ko, NULL) == 0, "load %s\n", ko);
	if (read_all())
		ksft_exit_fail_msg("cannot read %s: %s\n", KRELOC_DIR, strerror(errno));
	test_files_mode();
	test_info_basics(expect);
	if (ok) {
		test_ok_numbers();
		test_anchors(1);
		test_sections_ok();
		test_sampled_symbols();
		test_permissions();
		test_cycles(cycles);
	} else {
		test_anchors(0);
		test_mismatch(why);
	}
	ksft_test_result(kr_unload_module("kreloc") == 0, "unload\n");
	ksft_finished();
}
