// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_modules_test - selftest of kreloc's module records.
 *
 *   kreloc_modules_test --ko kreloc.ko --test-ko kreloc_test_mod.ko
 *                       --dummy-ko dummy.ko [--anchor-ko kreloc_test_anchor.ko]
 *                       [--cycles 200]
 *
 * Needs modprobe and the kernel's vfat and bridge modules (with their
 * dependencies) in /lib/modules/$(uname -r).  Output is KTAP.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"

#define MAX_SECTS 512
#define MAX_REGIONS 8

struct rec_line {
	char kind[16], name[128], state[16];
	uint64_t addr, size;
	int has_size;
};

struct mrec {
	char name[64], state[16];
	unsigned long long load_gen, unload_gen;
	struct rec_line regions[MAX_REGIONS];
	int nr_regions;
	struct rec_line sects[MAX_SECTS];
	int nr_sects;
};

static const char *kreloc_ko, *test_ko, *dummy_ko, *anchor_ko, *hooks_ko, *arch_ko;

/* Parse module/SPEC; 0, -ENOENT, or -EINVAL (with a diagnostic). */
static int read_mrec(const char *spec, struct mrec *r)
{
	char path[256], *text, *line, *save = NULL;
	int bad = 0;

	snprintf(path, sizeof(path), KRELOC_DIR "/module/%s", spec);
	text = kr_read_file(path, NULL);
	if (!text)
		return -errno;
	memset(r, 0, sizeof(*r));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct rec_line l = { 0 };
		char a[32], s[32];

		if (!strncmp(line, "# module ", 9)) {
			char ug[32];

			if (sscanf(line, "# module %63s state %15s load_gen %llu unload_gen %31s",
				   r->name, r->state, &r->load_gen, ug) != 4)
				bad = 1;
			r->unload_gen = strcmp(ug, "-") ? strtoull(ug, NULL, 10) : 0;
			continue;
		}
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%15s %127s %31s %31s %15s", l.kind, l.name, a, s, l.state) != 5 ||
		    kr_hex(a, &l.addr) != 0 || kr_hex(s, &l.size) < 0) {
			bad = 1;
			break;
		}
		l.has_size = strcmp(s, "-") != 0;
		if (!strcmp(l.kind, "region") && r->nr_regions < MAX_REGIONS)
			r->regions[r->nr_regions++] = l;
		else if (!strcmp(l.kind, "section") && r->nr_sects < MAX_SECTS)
			r->sects[r->nr_sects++] = l;
		else
			bad = 1;
	}
	free(text);
	if (bad || !r->name[0]) {
		ksft_print_msg("module/%s: malformed\n", spec);
		return -EINVAL;
	}
	return 0;
}

static const struct rec_line *find_line(const struct rec_line *v, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static int region_of(const struct mrec *r, uint64_t addr)
{
	int i;

	for (i = 0; i < r->nr_regions; i++)
		if (addr >= r->regions[i].addr && addr - r->regions[i].addr < r->regions[i].size)
			return i;
	return -1;
}

/* Number of entries in a directory, or -1. */
static int count_dir(const char *path)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(path);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

/* Every section in /sys/module/NAME/sections equals kreloc's, and vice versa. */
static int sections_match_sysfs(const char *name, const struct mrec *r)
{
	char dir[256];
	struct dirent *de;
	int n = 0, bad = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/module/%s/sections", name);
	d = opendir(dir);
	if (!d) {
		ksft_print_msg("%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char path[512], *v;
		const struct rec_line *l;
		uint64_t addr;

		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		v = kr_read_file(path, NULL);
		if (!v)
			continue;
		v[strcspn(v, "\n")] = '\0';
		n++;
		l = find_line(r->sects, r->nr_sects, de->d_name);
		if (kr_hex(v, &addr) || !l || l->addr != addr) {
			ksft_print_msg("%s: section %s sysfs %s kreloc 0x%llx\n", name, de->d_name, v,
				       l ? (unsigned long long)l->addr : 0ULL);
			bad = 1;
		}
		free(v);
	}
	closedir(d);
	if (n != r->nr_sects) {
		ksft_print_msg("%s: %d sections in sysfs, %d in kreloc\n", name, n, r->nr_sects);
		bad = 1;
	}
	return bad ? -1 : n;
}

/*
 * Sections of a module loaded after kreloc lie in its regions.  One loaded
 * before has no recorded init regions: its sections outside the core
 * regions must then be shown freed.
 */
static int sections_in_regions(const struct mrec *r, int init_seen)
{
	int i, bad = 0;

	for (i = 0; i < r->nr_sects; i++) {
		/* Per-CPU data lives in the per-CPU area, not in the module. */
		if (!strcmp(r->sects[i].name, ".data..percpu"))
			continue;
		if (!init_seen && region_of(r, r->sects[i].addr) < 0 &&
		    !strcmp(r->sects[i].state, "freed"))
			continue;
		if (region_of(r, r->sects[i].addr) < 0) {
			ksft_print_msg("%s: section %s at 0x%llx in no region\n", r->name,
				       r->sects[i].name, (unsigned long long)r->sects[i].addr);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return st == 0 ? 0 : -1;
}

static int load_kreloc(const char *params)
{
	kr_unload_module("kreloc");
	return kr_load_module(kreloc_ko, params);
}

static uint64_t generation(void)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL);
	char v[32];
	uint64_t g = 0;

	if (info && !kr_kv(info, "GENERATION", v, sizeof(v)))
		g = strtoull(v, NULL, 10);
	free(info);
	return g;
}

/* Count records named @name in state @state in the modules file. */
static int count_records(const char *name, const char *state)
{
	char *text = kr_read_file(KRELOC_DIR "/modules", NULL), *line, *save = NULL;
	int n = 0;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char nm[64], st[16];

		if (line[0] != '#' && sscanf(line, "%63s %15s", nm, st) == 2 &&
		    !strcmp(nm, name) && (!state || !strcmp(st, state)))
			n++;
	}
	free(text);
	return n;
}

/* Wait until module/NAME reports @state (going turns gone asynchronously). */
static int wait_state(const char *spec, const char *state, struct mrec *r)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!read_mrec(spec, r) && !strcmp(r->state, state))
			return 0;
		usleep(20000);
	}
	return -1;
}

/* The BUILD_ID column of the last record NAME in STATE in the modules file. */
static int record_build_id(const char *name, const char *state, char *out, size_t len)
{
	char *text = kr_read_file(KRELOC_DIR "/modules", NULL), *line, *save = NULL;
	int found = -1;

	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char nm[64], st[16], a[32], b[32], c[32], d[32], id[160];

		if (line[0] != '#' &&
		    sscanf(line, "%63s %15s %31s %31s %31s %31s %159s", nm, st, a, b, c, d, id) == 7 &&
		    !strcmp(nm, name) && !strcmp(st, state)) {
			snprintf(out, len, "%s", id);
			found = 0;
		}
	}
	free(text);
	return found;
}

/* /sys/module/NAME/notes/.note.gnu.build-id, the kernel's own copy, as hex. */
static int sysfs_build_id(const char *name, char *out, size_t len)
{
	char path[256];
	unsigned char *n;
	size_t sz, i, off;
	uint32_t namesz, descsz;

	snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name);
	n = (unsigned char *)kr_read_file(path, &sz);
	if (!n || sz < 12) {
		free(n);
		return -1;
	}
	memcpy(&namesz, n, 4);
	memcpy(&descsz, n + 4, 4);
	off = 12 + ((namesz + 3) & ~3u);
	if (off + descsz > sz || 2 * descsz + 1 > len) {
		free(n);
		return -1;
	}
	for (i = 0; i < descsz; i++)
		sprintf(out + 2 * i, "%02x", n[off + i]);
	free(n);
	return 0;
}

static void test_before_and_sysfs(void)
{
	static const char * const mods[] = { "dummy", "fat", "vfat", "llc", "stp", "bridge",
					      "kreloc" };
	struct mrec r;
	size_t i;
	int bad = 0, inreg = 0, ok;

	kr_unload_module("kreloc");
	ok = !kr_load_module(dummy_ko, NULL) && !load_kreloc(NULL);
	ok = ok && !read_mrec("dummy", &r) && !strcmp(r.state, "live") &&
	     sections_match_sysfs("dummy", &r) > 0;
	ksft_test_result(ok, "dummy loaded before kreloc is recorded live with its sections\n");

	ok = !run("modprobe vfat") && !run("modprobe bridge");
	ksft_test_result(ok, "modprobe vfat and bridge (with fat, stp, llc) after kreloc\n");

	for (i = 0; i < ARRAY_SIZE(mods); i++) {
		if (read_mrec(mods[i], &r) || sections_match_sysfs(mods[i], &r) <= 0)
			bad = 1;
		else if (sections_in_regions(&r, strcmp(mods[i], "dummy")))
			inreg = 1;
	}
	ksft_test_result(!bad, "module/NAME sections equal /sys/module/NAME/sections for dummy fat vfat llc stp bridge kreloc\n");
	ksft_test_result(!bad && !inreg, "every section lies inside one of its module's regions\n");

	for (i = 0, bad = 0; i < ARRAY_SIZE(mods); i++) {
		char rec_id[160], sys_id[160];

		if (record_build_id(mods[i], "live", rec_id, sizeof(rec_id)) ||
		    sysfs_build_id(mods[i], sys_id, sizeof(sys_id)) || strcmp(rec_id, sys_id)) {
			ksft_print_msg("%s: modules says BUILD_ID %s\n", mods[i], rec_id);
			bad = 1;
		}
	}
	ksft_test_result(!bad, "modules BUILD_ID equals /sys/module/NAME/notes/.note.gnu.build-id for dummy fat vfat llc stp bridge kreloc\n");
}

static void test_init_text(void)
{
	const struct rec_line *reg, *sec;
	struct mrec r;
	uint64_t init_addr = 0;
	int ok, i, core_init;
	char *v;

	ok = !kr_load_module(test_ko, NULL);
	v = kr_read_file("/sys/module/kreloc_test_mod/parameters/init_addr", NULL);
	if (v)
		init_addr = strtoull(v, NULL, 10);
	free(v);
	ok = ok && init_addr && !read_mrec("kreloc_test_mod", &r);
	/*
	 * The region holding the init function: init.text, which the kernel
	 * forgets once ->init returns, so only a record made while it ran can
	 * hold it; or, where the arch keeps init code with the core text
	 * (seen on ppc64), the text region, and then it stays live.
	 */
	i = ok ? region_of(&r, init_addr) : -1;
	reg = i >= 0 ? &r.regions[i] : NULL;
	sec = ok ? find_line(r.sects, r.nr_sects, ".init.text") : NULL;
	ksft_print_msg("init function at 0x%llx, in region %s 0x%llx+0x%llx %s\n",
		       (unsigned long long)init_addr, reg ? reg->name : "-",
		       reg ? (unsigned long long)reg->addr : 0ULL,
		       reg ? (unsigned long long)reg->size : 0ULL, reg ? reg->state : "-");
	core_init = reg && !strcmp(reg->name, "text") && !find_line(r.regions, r.nr_regions, "init.text");
	ksft_test_result(reg && (!strcmp(reg->name, "init.text") || core_init),
			 "test module: its init function lies in the init.text region recorded while ->init ran%s\n",
			 core_init ? " (this kernel keeps init text in the core text region)" : "");
	ksft_test_result(reg && sec && region_of(&r, sec->addr) == i &&
			 !strcmp(reg->state, core_init ? "live" : "freed") &&
			 !strcmp(sec->state, reg->state) &&
			 sections_match_sysfs("kreloc_test_mod", &r) > 0,
			 "test module: init.text region and .init.text section shown %s after init\n",
			 core_init ? "live (kept in core)" : "freed");
	kr_unload_module("kreloc_test_mod");
}

/*
 * The test module, loaded with scramble_sections=1, swaps two entries of
 * its section attribute list before kreloc reads it: kreloc must publish
 * none of its sections (and say why), though sysfs still lists them, and
 * record the next, intact load in full again.
 */
static void test_refused_layout(void)
{
	struct mrec r;
	char *text;
	int ok, sysfs;

	ok = !kr_load_module(test_ko, "scramble_sections=1");
	text = ok ? kr_read_file(KRELOC_DIR "/module/kreloc_test_mod", NULL) : NULL;
	ok = text && strstr(text, "# sections unknown") && !read_mrec("kreloc_test_mod", &r) &&
	     r.nr_sects == 0 && r.nr_regions > 0;
	sysfs = count_dir("/sys/module/kreloc_test_mod/sections");
	ksft_print_msg("scrambled: %d sections in sysfs, kreloc says: %s\n", sysfs,
		       text && strstr(text, "# sections") ? strstr(text, "# sections") : "-");
	free(text);
	kr_unload_module("kreloc_test_mod");
	ksft_test_result(ok && sysfs > 1,
			 "a section attribute list out of order is refused: no section published, regions kept\n");
	ok = !kr_load_module(test_ko, NULL) && !read_mrec("kreloc_test_mod", &r) &&
	     sections_match_sysfs("kreloc_test_mod", &r) > 1;
	kr_unload_module("kreloc_test_mod");
	ksft_test_result(ok, "the same module loaded intact: its sections are recorded again\n");
}

static void test_unload_history(void)
{
	struct mrec before, after, again, old;
	uint64_t g0 = generation(), g1, g2;
	char spec[96], id_live[160] = "", id_gone[160] = "";
	int ok, i;

	record_build_id("dummy", "live", id_live, sizeof(id_live));
	ok = !read_mrec("dummy", &before) && !kr_unload_module("dummy") &&
	     !wait_state("dummy", "gone", &after);
	ksft_test_result(ok && !record_build_id("dummy", "gone", id_gone, sizeof(id_gone)) &&
			 strlen(id_live) == 40 && !strcmp(id_live, id_gone),
			 "the unloaded record keeps the .ko build id (%s)\n", id_gone);
	g1 = generation();
	if (ok) {
		ok = after.load_gen == before.load_gen && after.unload_gen > 0 &&
		     after.nr_regions == before.nr_regions && after.nr_sects == before.nr_sects;
		for (i = 0; ok && i < after.nr_sects; i++)
			ok = after.sects[i].addr == before.sects[i].addr &&
			     !strcmp(after.sects[i].state, "gone");
		for (i = 0; ok && i < after.nr_regions; i++)
			ok = after.regions[i].addr == before.regions[i].addr &&
			     !strcmp(after.regions[i].state, "gone");
	}
	ksft_test_result(ok && count_records("dummy", "gone") == 1,
			 "unloaded dummy moves to history, gone, with its addresses intact\n");

	ok = !kr_load_module(dummy_ko, NULL) && !read_mrec("dummy", &again) &&
	     !strcmp(again.state, "live") && again.load_gen > after.unload_gen;
	snprintf(spec, sizeof(spec), "dummy@%llu", before.load_gen);
	ok = ok && !read_mrec(spec, &old) && !strcmp(old.state, "gone") &&
	     old.load_gen == before.load_gen;
	g2 = generation();
	ksft_test_result(ok, "loaded again: a new live record; the old one stays as module/%s\n", spec);
	ksft_test_result(g0 < g1 && g1 < g2, "GENERATION increases on every change (%llu %llu %llu)\n",
			 (unsigned long long)g0, (unsigned long long)g1, (unsigned long long)g2);
}

static void test_history_bound(void)
{
	struct mrec first;
	char spec[96];
	int i, ok, n;

	kr_unload_module("dummy");
	ok = !load_kreloc("history=3");
	for (i = 0; ok && i < 5; i++) {
		ok = !kr_load_module(dummy_ko, NULL);
		if (ok && i == 0)
			ok = !read_mrec("dummy", &first);
		ok = ok && !kr_unload_module("dummy");
	}
	usleep(300000);
	n = count_records("dummy", NULL);
	snprintf(spec, sizeof(spec), "dummy@%llu", first.load_gen);
	ksft_test_result(ok && n == 3 && read_mrec(spec, &first) == -ENOENT,
			 "history=3 keeps the last 3 unloaded records (%d) and drops module/%s\n", n, spec);
}

/* Reader: loop over modules and every module/ file until killed. */
static void reader_loop(int fd)
{
	unsigned long reads = 0, enoent = 0, bad = 0;
	time_t until = time(NULL) + 3600;

	while (time(NULL) < until) {
		char *t = kr_read_file(KRELOC_DIR "/modules", NULL);
		struct dirent *de;
		DIR *d;

		free(t);
		reads++;
		d = opendir(KRELOC_DIR "/module");
		while (d && (de = readdir(d))) {
			struct mrec r;
			int ret;

			if (de->d_name[0] == '.')
				continue;
			ret = read_mrec(de->d_name, &r);
			reads++;
			if (ret == -ENOENT)
				enoent++;
			else if (ret)
				bad++;
		}
		if (d)
			closedir(d);
		dprintf(fd, "%lu %lu %lu\n", reads, enoent, bad);
	}
}

static void test_stress(int cycles)
{
	unsigned long reads = 0, enoent = 0, bad = 0;
	int pfd[2], i, ok = 1, n;
	char buf[4096];
	pid_t pid;

	ok = !load_kreloc(NULL) && !pipe(pfd);
	pid = ok ? fork() : -1;
	if (!pid) {
		close(pfd[0]);
		reader_loop(pfd[1]);
		_exit(0);
	}
	close(pfd[1]);
	for (i = 0; ok && i < cycles; i++) {
		if (kr_load_module(dummy_ko, NULL) || kr_unload_module("dummy")) {
			ksft_print_msg("cycle %d: %s\n", i, strerror(errno));
			ok = 0;
		}
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		/* The last complete report of the reader. */
		while ((n = read(pfd[0], buf, sizeof(buf) - 1)) > 0) {
			char *last, *end;

			buf[n] = '\0';
			end = strrchr(buf, '\n');
			if (!end)
				continue;
			*end = '\0';
			last = strrchr(buf, '\n');
			sscanf(last ? last + 1 : buf, "%lu %lu %lu", &reads, &enoent, &bad);
		}
	}
	close(pfd[0]);
	usleep(300000);
	n = count_records("dummy", "gone");
	ksft_print_msg("%d cycles; reader: %lu reads, %lu ENOENT, %lu malformed; %d dummy records in history\n",
		       cycles, reads, enoent, bad, n);
	ksft_test_result(ok && pid > 0 && reads > 0 && !bad && n == 64 &&
			 count_records("dummy", "live") == 0 && count_records("dummy", "going") == 0,
			 "%d load/unload cycles against a concurrent reader: every read consistent or ENOENT, history bounded\n",
			 cycles);
}

static void test_permissions(void)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		static const char * const f[] = { KRELOC_DIR "/modules",
						  KRELOC_DIR "/module/bridge" };
		size_t i;

		/* Root without CAP_SYSLOG can reach the files but must not read them. */
		if (kr_drop_syslog())
			_exit(2);
		for (i = 0; i < ARRAY_SIZE(f); i++) {
			int fd = open(f[i], O_RDONLY);

			if (fd >= 0 || errno != EPERM)
				_exit(1);
		}
		_exit(0);
	}
	ksft_test_result(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
			 WEXITSTATUS(st) == 0,
			 "modules and module/NAME: EPERM without CAP_SYSLOG\n");
}

/*
 * The module list head must be found exactly (the scan walks from it):
 * by kallsyms' "modules" or by its link-time address, never guessed.
 */
static void test_module_list(void)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL);
	char how[32] = "";

	if (info)
		kr_kv(info, "MODULE_LIST", how, sizeof(how));
	free(info);
	ksft_test_result(!strcmp(how, "kallsyms") || !strcmp(how, "linked") ||
			 !strcmp(how, "image"),
			 "module list head found exactly: MODULE_LIST=%s\n", how);
}

/* MODULE_LIST of kreloc @ko loaded with @params, dummy loaded before it. */
static int list_with_dummy_before(const char *ko, const char *params, char *how, size_t len,
				  struct mrec *r, int *live)
{
	char *info;
	int ok;

	kr_unload_module("kreloc");
	kr_load_module(dummy_ko, NULL);
	ok = !kr_load_module(ko, params) && (info = kr_read_file(KRELOC_DIR "/info", NULL));
	*how = '\0';
	if (ok) {
		kr_kv(info, "MODULE_LIST", how, len);
		free(info);
	}
	*live = ok && !read_mrec("dummy", r) && !strcmp(r->state, "live") &&
		sections_match_sysfs("dummy", r) > 0;
	return ok ? 0 : -1;
}

/*
 * Without kallsyms' "modules" or a link-time one, the head is the one node
 * of kreloc's list inside the kernel image.  A test build that may use no
 * other way (test_module_list=image) must find it, and record dummy,
 * loaded before it, with its sections.  And a build from the arch link
 * base alone, which has no link-time "modules" (what a Debian user of
 * arm64 6.1 has: no KALLSYMS_ALL, a placeholder System.map), must find
 * it one way or another, except where the arch cannot tell the image's
 * size from the link base (ppc64: its users have the vmlinux).
 */
static void test_module_list_image(void)
{
	char how[32];
	struct mrec r;
	int live;
	struct utsname u;

	if (!hooks_ko) {
		ksft_test_result_skip("no test build given: the image method is not forced\n");
	} else {
		list_with_dummy_before(hooks_ko, "test_module_list=image", how, sizeof(how), &r,
				       &live);
		ksft_test_result(!strcmp(how, "image") && live,
				 "module list head found as the one node in the kernel image (MODULE_LIST=%s), dummy loaded before kreloc recorded live with its sections\n",
				 how);
	}
	if (!arch_ko || access(arch_ko, R_OK)) {
		ksft_test_result_skip("no build from the arch link base given\n");
		load_kreloc(NULL);
		return;
	}
	list_with_dummy_before(arch_ko, NULL, how, sizeof(how), &r, &live);
	uname(&u);
	if (!strcmp(how, "none") && !strncmp(u.machine, "ppc64", 5))
		ksft_test_result_skip("built from the arch link base, ppc64 knows no image size: MODULE_LIST=none\n");
	else
		ksft_test_result(strcmp(how, "none") && *how && live,
				 "built from the arch link base alone: MODULE_LIST=%s, dummy loaded before kreloc recorded live with its sections\n",
				 how);
	/* The tests after this one read the main build's records. */
	load_kreloc(NULL);
}

/*
 * A module with functions named like anchors (kreloc_test_anchor.ko):
 * where vmlinux's kallsyms lacks those names (no KALLSYMS_ALL),
 * kallsyms_lookup_name() answers with the module's.  kreloc must refuse
 * them: the same status and resolved anchors as without the module.
 */
static void test_anchor_decoys(void)
{
	char st0[32] = "", st1[32] = "", r0[16] = "", r1[16] = "";
	char *info;
	int ok;

	if (!anchor_ko || access(anchor_ko, R_OK)) {
		ksft_test_result_skip("no kreloc_test_anchor.ko\n");
		return;
	}
	ok = !load_kreloc(NULL) && (info = kr_read_file(KRELOC_DIR "/info", NULL));
	if (ok) {
		kr_kv(info, "STATUS", st0, sizeof(st0));
		kr_kv(info, "ANCHORS_RESOLVED", r0, sizeof(r0));
		free(info);
	}
	ok = ok && !kr_load_module(anchor_ko, NULL) && !load_kreloc(NULL) &&
	     (info = kr_read_file(KRELOC_DIR "/info", NULL));
	if (ok) {
		kr_kv(info, "STATUS", st1, sizeof(st1));
		kr_kv(info, "ANCHORS_RESOLVED", r1, sizeof(r1));
		free(info);
	}
	kr_unload_module("kreloc_test_anchor");
	ksft_print_msg("without the decoys: STATUS=%s ANCHORS_RESOLVED=%s; with them: STATUS=%s ANCHORS_RESOLVED=%s\n",
		       st0, r0, st1, r1);
	ksft_test_result(ok && !strcmp(st0, "ok") && !strcmp(st1, st0) && !strcmp(r1, r0),
			 "functions of a module named like anchors are not taken as anchors\n");
}

static void test_dmesg_clean(void)
{
	char buf[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), bad = 0;
	ssize_t n;

	while (fd >= 0 && (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (strstr(buf, "Oops") || strstr(buf, "BUG:") || strstr(buf, "WARNING: CPU:") ||
		    strstr(buf, "general protection")) {
			ksft_print_msg("dmesg: %s", strchr(buf, ';') ? strchr(buf, ';') + 1 : buf);
			bad = 1;
		}
	}
	if (fd >= 0)
		close(fd);
	ksft_test_result(fd >= 0 && !bad, "no Oops, BUG or WARNING in dmesg\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "test-ko", required_argument, NULL, 't' },
		{ "dummy-ko", required_argument, NULL, 'd' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "anchor-ko", required_argument, NULL, 'a' },
		{ "hooks-ko", required_argument, NULL, 'h' },
		{ "arch-ko", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	int c, cycles = 200;
	struct stat st;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': kreloc_ko = optarg; break;
		case 't': test_ko = optarg; break;
		case 'd': dummy_ko = optarg; break;
		case 'c': cycles = atoi(optarg); break;
		case 'a': anchor_ko = optarg; break;
		case 'h': hooks_ko = optarg; break;
		case 'A': arch_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!kreloc_ko || !test_ko || !dummy_ko)
		ksft_exit_fail_msg("usage: --ko KO --test-ko KO --dummy-ko KO [--cycles N]\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	if (access(kreloc_ko, R_OK) || access(test_ko, R_OK) || access(dummy_ko, R_OK))
		ksft_exit_skip("modules not found\n");
	ksft_set_plan(22);

	test_before_and_sysfs();
	test_module_list();
	test_init_text();
	test_refused_layout();
	test_unload_history();
	test_permissions();
	test_history_bound();
	test_stress(cycles);
	test_anchor_decoys();
	test_module_list_image();
	test_dmesg_clean();
	kr_unload_module("bridge");
	kr_unload_module("kreloc");
	ksft_test_result(stat(KRELOC_DIR, &st) != 0, "kreloc unloads and leaves no debugfs entry\n");
	ksft_finished();
}
