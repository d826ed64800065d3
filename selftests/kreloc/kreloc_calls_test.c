// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_calls_test - how kreloc calls the kernel functions it found by
 * name, checked against the kernel's own memory in /proc/kcore.
 *
 *   kreloc_calls_test --ko kreloc.ko [--decoy-ko kreloc-hooks.ko]
 *                     [--static-call-inline y|n]
 *
 * On a kernel built with CONFIG_X86_KERNEL_IBT the kernel overwrites the
 * ENDBR64 (f3 0f 1e fa) of every function whose address it never takes
 * with a 4-byte NOP (66 0f 1f 00): on a CPU with IBT an indirect call to
 * such a "sealed" function is a #CP fault.  QEMU's TCG does not enforce
 * IBT, so this test reads the code instead:
 *   - info lists CALL_PATH and each function with CALL(name)=address;
 *   - CALL_PATH is static_call only on x86_64 with
 *     CONFIG_HAVE_STATIC_CALL_INLINE (--static-call-inline y, from the
 *     kernel's configuration), where every static call is a direct call,
 *     and indirect everywhere else;
 *   - with CALL_PATH=indirect every function must start with ENDBR64;
 *   - with CALL_PATH=static_call every call site of kreloc.ko (its
 *     .static_call_sites, as the kernel keeps them in module memory) must
 *     be a direct call/jmp rel32 to its function, and each trampoline a
 *     jmp rel32 to it;
 *   - the same check, run on a test build whose kallsyms_show_value call
 *     was pointed at a decoy, must fail.
 * Output is KTAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"
#include "../../tools/sysmap.h"

#define MAX_CALLS 16
#define SITE_TAIL 1	/* STATIC_CALL_SITE_TAIL in the key field */
#define SITE_INIT 2	/* STATIC_CALL_SITE_INIT: in freed init text */

static const unsigned char endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char seal[4] = { 0x66, 0x0f, 0x1f, 0x00 };

struct call {
	char name[128];
	uint64_t addr;
	int sites;
};

static struct call calls[MAX_CALLS];
static int nr_calls;
static char path[32];
static struct sysmap ks;
static int x86;

/* CALL_PATH and the CALL(name)=0x... lines of info. */
static int read_calls(void)
{
	char *info = kr_read_file(KRELOC_DIR "/info", NULL), *line, *save = NULL;

	nr_calls = 0;
	if (!info || kr_kv(info, "CALL_PATH", path, sizeof(path))) {
		free(info);
		return -1;
	}
	for (line = strtok_r(info, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct call *c = &calls[nr_calls];
		char v[32];

		if (nr_calls == MAX_CALLS ||
		    sscanf(line, "CALL(%127[^)])=%31s", c->name, v) != 2)
			continue;
		if (kr_hex(v, &c->addr)) {
			free(info);
			return -1;
		}
		c->sites = 0;
		nr_calls++;
	}
	free(info);
	return 0;
}

static struct call *find_call(const char *name)
{
	int i;

	for (i = 0; i < nr_calls; i++)
		if (!strcmp(calls[i].name, name))
			return &calls[i];
	return NULL;
}

static void show_bytes(const char *what, uint64_t addr, const unsigned char *b)
{
	ksft_print_msg("%s at 0x%llx starts %02x %02x %02x %02x%s\n", what,
		       (unsigned long long)addr, b[0], b[1], b[2], b[3],
		       !memcmp(b, endbr64, 4) ? " (ENDBR64)" :
		       !memcmp(b, seal, 4) ? " (sealed: an indirect call here is a #CP fault)" : "");
}

/* Each listed function is the vmlinux symbol of that name in /proc/kallsyms. */
static int calls_match_kallsyms(void)
{
	int i, bad = 0;

	for (i = 0; i < nr_calls; i++) {
		char dot[130];
		const struct sysmap_sym *s;
		unsigned char b[4];

		/* ppc64 ELFv1: the code is ".name", the plain name a descriptor. */
		snprintf(dot, sizeof(dot), ".%.127s", calls[i].name);
		s = sysmap_lookup(&ks, dot);
		if (!s)
			s = sysmap_lookup(&ks, calls[i].name);

		if (!s || sysmap_count(&ks, s->name) != 1 || s->addr != calls[i].addr) {
			ksft_print_msg("CALL(%s)=0x%llx, /proc/kallsyms 0x%llx\n", calls[i].name,
				       (unsigned long long)calls[i].addr,
				       s ? (unsigned long long)s->addr : 0ULL);
			bad = 1;
		}
		if (x86 && !kr_kcore_read(calls[i].addr, b, 4))
			show_bytes(calls[i].name, calls[i].addr, b);
	}
	return bad ? -1 : 0;
}

/* True if the kernel has IBT: an exported function starts with ENDBR64. */
static int ibt_kernel(void)
{
	const struct sysmap_sym *s = sysmap_lookup(&ks, "sprint_symbol");
	unsigned char b[4];

	if (!s || kr_kcore_read(s->addr, b, 4))
		return -1;
	show_bytes("sprint_symbol (exported)", s->addr, b);
	return !memcmp(b, endbr64, 4);
}

/* Every function kreloc calls through a pointer starts with ENDBR64. */
static int indirect_targets_ok(void)
{
	int i, bad = 0;

	for (i = 0; i < nr_calls; i++) {
		unsigned char b[4];

		if (kr_kcore_read(calls[i].addr, b, 4) || memcmp(b, endbr64, 4)) {
			ksft_print_msg("%s is called indirectly but does not start with ENDBR64\n",
				       calls[i].name);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* The kreloc symbol (module kreloc) at @addr, or NULL. */
static const char *kreloc_sym_at(uint64_t addr)
{
	size_t i;

	for (i = 0; i < ks.nr; i++)
		if (ks.syms[i].addr == addr && ks.syms[i].module &&
		    !strcmp(ks.syms[i].module, "kreloc"))
			return ks.syms[i].name;
	return NULL;
}

static uint64_t kreloc_sym(const char *name)
{
	size_t i;

	for (i = 0; i < ks.nr; i++)
		if (ks.syms[i].module && !strcmp(ks.syms[i].module, "kreloc") &&
		    !strcmp(ks.syms[i].name, name))
			return ks.syms[i].addr;
	return 0;
}

/* A direct call (e8) or jmp (e9) rel32 at @at: its destination, or 0. */
static uint64_t rel32_dest(uint64_t at, unsigned char op)
{
	unsigned char b[5];
	int32_t rel;

	if (kr_kcore_read(at, b, 5) || b[0] != op)
		return 0;
	memcpy(&rel, b + 1, 4);
	return at + 5 + (int64_t)rel;
}

/*
 * Each live site in kreloc's .static_call_sites (struct static_call_site
 * { s32 addr; s32 key; }, both relative to the field) calls its key's
 * function directly; each trampoline jumps to it.  Returns the number of
 * sites checked, or -1.
 */
static int sites_ok(const char *ko, int *bad_out)
{
	uint64_t sect, size, i;
	int n = 0, bad = 0, c;

	if (kr_elf_section_size(ko, ".static_call_sites", &size) ||
	    kr_module_section("kreloc", ".static_call_sites", &sect)) {
		ksft_print_msg("kreloc.ko has no .static_call_sites\n");
		return -1;
	}
	for (c = 0; c < nr_calls; c++)
		calls[c].sites = 0;
	for (i = 0; i + 8 <= size; i += 8) {
		int32_t f[2];
		uint64_t site, key, dest;
		const char *kname;
		struct call *call;
		int flags;

		if (kr_kcore_read(sect + i, f, 8))
			return -1;
		site = sect + i + (int64_t)f[0];
		key = sect + i + 4 + (int64_t)f[1];
		flags = key & 3;
		key &= ~3ULL;
		kname = kreloc_sym_at(key);
		if (!kname) {
			/* The kernel's own static calls (preempt_schedule...). */
			ksft_print_msg("site 0x%llx: a kernel static call, not kreloc's\n",
				       (unsigned long long)site);
			continue;
		}
		if (strncmp(kname, "__SCK__kreloc_", 14) || !(call = find_call(kname + 14))) {
			ksft_print_msg("site 0x%llx: key %s is not a listed call\n",
				       (unsigned long long)site, kname ? kname : "?");
			bad = 1;
			continue;
		}
		if (flags & SITE_INIT)
			continue;	/* init text, freed */
		dest = rel32_dest(site, flags & SITE_TAIL ? 0xe9 : 0xe8);
		if (dest != call->addr) {
			ksft_print_msg("site 0x%llx (%s): %s to 0x%llx, not %s at 0x%llx\n",
				       (unsigned long long)site, kname,
				       flags & SITE_TAIL ? "jmp" : "call",
				       (unsigned long long)dest, call->name,
				       (unsigned long long)call->addr);
			bad = 1;
		}
		call->sites++;
		n++;
	}
	for (c = 0; c < nr_calls; c++) {
		char tramp[160];
		uint64_t t;

		snprintf(tramp, sizeof(tramp), "__SCT__kreloc_%.127s", calls[c].name);
		t = kreloc_sym(tramp);
		if (!t || rel32_dest(t, 0xe9) != calls[c].addr) {
			ksft_print_msg("trampoline %s does not jump to %s\n", tramp, calls[c].name);
			bad = 1;
		}
		ksft_print_msg("%s: %d direct call sites\n", calls[c].name, calls[c].sites);
		if (!calls[c].sites)
			bad = 1;
	}
	*bad_out = bad;
	return n;
}

static int load_and_read(const char *ko, const char *params)
{
	kr_unload_module("kreloc");
	sysmap_free(&ks);
	memset(&ks, 0, sizeof(ks));
	if (kr_load_module(ko, params) || read_calls() ||
	    sysmap_load(&ks, "/proc/kallsyms") || sysmap_index(&ks)) {
		ksft_print_msg("load %s %s: %s\n", ko, params ? params : "", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "decoy-ko", required_argument, NULL, 'd' },
		{ "static-call-inline", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL, *decoy = NULL, *inl = "";
	int c, ibt, n, bad = 0;
	struct utsname u;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 'd': decoy = optarg; break;
		case 'i': inl = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko)
		ksft_exit_fail_msg("usage: --ko KO [--decoy-ko KO]\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	uname(&u);
	x86 = !strcmp(u.machine, "x86_64");
	ksft_set_plan(x86 ? 6 : 2);

	ksft_test_result(!load_and_read(ko, NULL) && nr_calls >= 2 &&
			 find_call("kallsyms_lookup_name") && find_call("kallsyms_show_value") &&
			 !calls_match_kallsyms(),
			 "info: CALL_PATH=%s; %d CALL(name)= lines, each at its /proc/kallsyms address\n",
			 path, nr_calls);
	if (!x86) {
		/* Any static call here may be indirect: targets are checked. */
		ksft_test_result(!strcmp(path, "indirect"), "CALL_PATH=indirect here\n");
		kr_unload_module("kreloc");
		ksft_finished();
	}
	ibt = ibt_kernel();
	ksft_print_msg("IBT kernel: %s; CONFIG_HAVE_STATIC_CALL_INLINE: %s\n",
		       ibt > 0 ? "yes" : ibt == 0 ? "no" : "unknown", *inl ? inl : "not given");
	ksft_test_result(!strcmp(path, strcmp(inl, "n") ? "static_call" : "indirect"),
			 "CALL_PATH=static_call exactly where static calls are inline (x86_64, HAVE_STATIC_CALL_INLINE=%s)\n",
			 *inl ? inl : "y");
	ksft_test_result(ibt >= 0 && (!ibt || strcmp(path, "indirect") || !indirect_targets_ok()),
			 "no function kreloc calls through a pointer lacks ENDBR64 (IBT kernel: %s)\n",
			 ibt > 0 ? "yes" : "no");
	n = sites_ok(ko, &bad);
	ksft_test_result(n > 0 && !bad,
			 "each of %d static call sites in kreloc.ko is a direct call/jmp rel32 to its function in /proc/kcore; each trampoline jumps to it\n",
			 n);
	ksft_test_result(!kr_unload_module("kreloc"), "unload\n");

	if (!decoy) {
		ksft_test_result_skip("no test build given: the decoy check does not run\n");
		ksft_finished();
	}
	bad = 0;
	n = load_and_read(decoy, "test_call_decoy=1") ? -1 : sites_ok(decoy, &bad);
	ksft_test_result(n > 0 && bad,
			 "the same check fails on a build whose kallsyms_show_value call goes to a decoy\n");
	kr_unload_module("kreloc");
	ksft_finished();
}
