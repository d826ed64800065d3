// SPDX-License-Identifier: GPL-2.0
/*
 * libcontract.c MODE SNAPSHOT KALLSYMS MODULES_DIR [ROOT]: libkreloc's
 * contract with its callers, as <kreloc/kreloc.h> states it, checked from
 * outside (only the public header).  One line per check, "ok ..." or
 * "FAIL ..."; exit 1 if any failed.
 *
 *   nulls      every public function called with each pointer argument
 *              NULL in turn (the others valid), each in a child process
 *              of its own: "FUNC PARAM nullable|required RESULT".  A
 *              required one must be refused (-EINVAL; a string function
 *              returns NULL or says so in the buffer), a nullable one
 *              taken; a crash is a failure.  test_lib.sh compares the
 *              pairs with the header's (which says "or NULL").
 *   growth     info structs as libbpf's tests take them: a caller's
 *              struct larger than the library's is zeroed past it, a
 *              smaller one is not written past its size.
 *   opts       options structs as libbpf's OPTS_VALID takes them: sz 0 and
 *              nonzero bytes past the library's size are refused with a
 *              message; zeros past it, and an older caller's smaller
 *              struct, are taken.
 *   owner      the snapshot freed before its resolver: the resolver keeps
 *              answering as before (run under AddressSanitizer).
 *   vmcore     the crash dump $KRELOC_TEST_VMCORE: its snapshot, twice,
 *              goes with its caller's kreloc_snapshot_free() (LeakSanitizer).
 *   callbacks  one rule for every callback: 0 goes on, nonzero stops and
 *              the call returns a negative value (the callback's own, or
 *              -ECANCELED for a positive one), never a count.
 *   growth, states, files, sections: see each below.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <kreloc/kreloc.h>

static const char *mode, *snap_path, *map_path, *mods_dir, *root;
static struct kreloc_snapshot *g_snap;
static struct kreloc_resolver *g_r;
static struct kreloc_files *g_files;
static size_t g_mod;			/* a record with a usable .ko */
static uint64_t g_addr;			/* an address in it */
static int failed;

static void result(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed |= !ok;
}

static int count_sym(void *ctx, const struct kreloc_symbol *s)
{
	(void)s;
	if (ctx)
		(*(int *)ctx)++;
	return 0;
}

static int count_cand(void *ctx, const struct kreloc_addr_info *i)
{
	(void)i;
	if (ctx)
		(*(int *)ctx)++;
	return 0;
}

static int setup(void)
{
	KRELOC_OPTS(kreloc_files_opts, fo, .modules_dir = mods_dir);
	struct kreloc_module_file_info mf;
	struct kreloc_module_info m;
	struct kreloc_mem_info k;
	size_t i, j;

	if (kreloc_snapshot_load(snap_path, &g_snap) || kreloc_files_new(&fo, &g_files)) {
		fprintf(stderr, "libcontract: %s\n", kreloc_errmsg());
		return -1;
	}
	KRELOC_OPTS(kreloc_resolver_opts, ro, .map_kind = KRELOC_MAP_KALLSYMS, .map_path = map_path,
		    .files = g_files);
	if (kreloc_resolver_new(g_snap, &ro, &g_r)) {
		fprintf(stderr, "libcontract: %s\n", kreloc_errmsg());
		return -1;
	}
	/* A live record with its .ko, and the start of its .text. */
	for (i = 0; kreloc_snapshot_module(g_snap, i, &m, sizeof(m)) == 0; i++) {
		if (!m.loaded || kreloc_resolver_module_file(g_r, i, &mf, sizeof(mf)) ||
		    mf.status != KRELOC_FILE_OK)
			continue;
		for (j = 0; kreloc_snapshot_module_mem(g_snap, i, j, &k, sizeof(k)) == 0; j++)
			if (k.kind == KRELOC_MEM_SECTION && !strcmp(k.name, ".text") &&
			    k.address.known) {
				g_mod = i;
				g_addr = k.address.value + 1;
				return 0;
			}
	}
	fprintf(stderr, "libcontract: no live module record with its .ko in %s\n", mods_dir);
	return strcmp(mode, "files") ? -1 : 0;
}

/* ------------------------------------------------------------------ nulls */

enum want { W_EINVAL, W_TAKEN, W_NULLSTR, W_SAYS };

struct nullcase {
	const char *fn, *param;
	enum want want;
	long (*call)(void);
};

static char buf[256];
static struct kreloc_time when = { KRELOC_CLOCK_LOCAL, 0, UINT64_MAX };

/* Every case: X(FUNCTION, PARAMETER, WANT, the call with that parameter NULL). */
#define NULLCASES(X) \
	X(kreloc_set_print, fn, W_TAKEN, (kreloc_set_print(NULL, buf), 0)) \
	X(kreloc_set_print, ctx, W_TAKEN, (kreloc_set_print(NULL, NULL), 0)) \
	X(kreloc_snapshot_load, path, W_EINVAL, kreloc_snapshot_load(NULL, &tmp_snap)) \
	X(kreloc_snapshot_load, snap, W_EINVAL, kreloc_snapshot_load(snap_path, NULL)) \
	X(kreloc_snapshot_read, f, W_EINVAL, kreloc_snapshot_read(NULL, "x", &tmp_snap)) \
	X(kreloc_snapshot_read, name, W_TAKEN, kreloc_snapshot_read(snap_stream(), NULL, &tmp_snap)) \
	X(kreloc_snapshot_read, snap, W_EINVAL, kreloc_snapshot_read(snap_stream(), "x", NULL)) \
	X(kreloc_snapshot_live, root, W_TAKEN, kreloc_snapshot_live(NULL, &tmp_snap)) \
	X(kreloc_snapshot_live, snap, W_EINVAL, kreloc_snapshot_live(root, NULL)) \
	X(kreloc_snapshot_vmcore, path, W_EINVAL, kreloc_snapshot_vmcore(NULL, &tmp_snap)) \
	X(kreloc_snapshot_vmcore, snap, W_EINVAL, kreloc_snapshot_vmcore(snap_path, NULL)) \
	X(kreloc_snapshot_write, snap, W_EINVAL, kreloc_snapshot_write(NULL, stdout)) \
	X(kreloc_snapshot_write, f, W_EINVAL, kreloc_snapshot_write(g_snap, NULL)) \
	X(kreloc_snapshot_free, snap, W_TAKEN, (kreloc_snapshot_free(NULL), 0)) \
	X(kreloc_snapshot_info, snap, W_EINVAL, kreloc_snapshot_info(NULL, &si, sizeof(si))) \
	X(kreloc_snapshot_info, info, W_EINVAL, kreloc_snapshot_info(g_snap, NULL, sizeof(si))) \
	X(kreloc_snapshot_section, snap, W_EINVAL, kreloc_snapshot_section(NULL, 0, &sec, sizeof(sec))) \
	X(kreloc_snapshot_section, info, W_EINVAL, kreloc_snapshot_section(g_snap, 0, NULL, sizeof(sec))) \
	X(kreloc_snapshot_anchor, snap, W_EINVAL, kreloc_snapshot_anchor(NULL, 0, &an, sizeof(an))) \
	X(kreloc_snapshot_anchor, info, W_EINVAL, kreloc_snapshot_anchor(g_snap, 0, NULL, sizeof(an))) \
	X(kreloc_snapshot_module, snap, W_EINVAL, kreloc_snapshot_module(NULL, 0, &mi, sizeof(mi))) \
	X(kreloc_snapshot_module, info, W_EINVAL, kreloc_snapshot_module(g_snap, 0, NULL, sizeof(mi))) \
	X(kreloc_snapshot_module_mem, snap, W_EINVAL, kreloc_snapshot_module_mem(NULL, 0, 0, &memi, sizeof(memi))) \
	X(kreloc_snapshot_module_mem, info, W_EINVAL, kreloc_snapshot_module_mem(g_snap, 0, 0, NULL, sizeof(memi))) \
	X(kreloc_snapshot_module_find, snap, W_EINVAL, kreloc_snapshot_module_find(NULL, "vfat", NULL)) \
	X(kreloc_snapshot_module_find, name, W_EINVAL, kreloc_snapshot_module_find(g_snap, NULL, NULL)) \
	X(kreloc_snapshot_module_find, load_gen, W_TAKEN, kreloc_snapshot_module_find(g_snap, "vfat", NULL)) \
	X(kreloc_snapshot_module_live_at, snap, W_EINVAL, kreloc_snapshot_module_live_at(NULL, 0, 1)) \
	X(kreloc_snapshot_module_superseded, snap, W_EINVAL, kreloc_snapshot_module_superseded(NULL, 0)) \
	X(kreloc_snapshot_module_time, snap, W_EINVAL, kreloc_snapshot_module_time(NULL, 0, KRELOC_EVENT_LOAD, KRELOC_CLOCK_LOCAL, &u64)) \
	X(kreloc_snapshot_module_time, ns, W_EINVAL, kreloc_snapshot_module_time(g_snap, 0, KRELOC_EVENT_LOAD, KRELOC_CLOCK_LOCAL, NULL)) \
	X(kreloc_snapshot_module_mem_time, snap, W_EINVAL, kreloc_snapshot_module_mem_time(NULL, 0, 0, KRELOC_CLOCK_LOCAL, &u64, &u64b)) \
	X(kreloc_snapshot_module_mem_time, from, W_EINVAL, kreloc_snapshot_module_mem_time(g_snap, 0, 0, KRELOC_CLOCK_LOCAL, NULL, &u64b)) \
	X(kreloc_snapshot_module_mem_time, until, W_EINVAL, kreloc_snapshot_module_mem_time(g_snap, 0, 0, KRELOC_CLOCK_LOCAL, &u64, NULL)) \
	X(kreloc_snapshot_time, snap, W_EINVAL, kreloc_snapshot_time(NULL, KRELOC_TIME_TAKEN, KRELOC_CLOCK_LOCAL, &u64)) \
	X(kreloc_snapshot_time, ns, W_EINVAL, kreloc_snapshot_time(g_snap, KRELOC_TIME_TAKEN, KRELOC_CLOCK_LOCAL, NULL)) \
	X(kreloc_snapshot_image_offset, snap, W_EINVAL, kreloc_snapshot_image_offset(NULL, &u64)) \
	X(kreloc_snapshot_image_offset, offset, W_EINVAL, kreloc_snapshot_image_offset(g_snap, NULL)) \
	X(kreloc_live_lockdown, root, W_TAKEN, kreloc_live_lockdown(NULL, buf, sizeof(buf))) \
	X(kreloc_live_lockdown, buf, W_EINVAL, kreloc_live_lockdown(root, NULL, 16)) \
	X(kreloc_probe_spec_parse, text, W_EINVAL, kreloc_probe_spec_parse(NULL, &ps, sizeof(ps))) \
	X(kreloc_probe_spec_parse, spec, W_EINVAL, kreloc_probe_spec_parse("vfs_read", NULL, sizeof(ps))) \
	X(kreloc_probe_locate, live, W_EINVAL, kreloc_probe_locate(NULL, root, "vfs_read", &pi, sizeof(pi))) \
	X(kreloc_probe_locate, root, W_TAKEN, kreloc_probe_locate(g_snap, NULL, "vfs_read", &pi, sizeof(pi))) \
	X(kreloc_probe_locate, text, W_EINVAL, kreloc_probe_locate(g_snap, root, NULL, &pi, sizeof(pi))) \
	X(kreloc_probe_locate, info, W_EINVAL, kreloc_probe_locate(g_snap, root, "vfs_read", NULL, sizeof(pi))) \
	X(kreloc_files_new, opts, W_TAKEN, kreloc_files_new(NULL, &tmp_files)) \
	X(kreloc_files_new, files, W_EINVAL, kreloc_files_new(NULL, NULL)) \
	X(kreloc_files_free, files, W_TAKEN, (kreloc_files_free(NULL), 0)) \
	X(kreloc_resolver_new, snap, W_EINVAL, kreloc_resolver_new(NULL, NULL, &tmp_r)) \
	X(kreloc_resolver_new, opts, W_TAKEN, kreloc_resolver_new(g_snap, NULL, &tmp_r)) \
	X(kreloc_resolver_new, r, W_EINVAL, kreloc_resolver_new(g_snap, NULL, NULL)) \
	X(kreloc_resolver_free, r, W_TAKEN, (kreloc_resolver_free(NULL), 0)) \
	X(kreloc_resolve, r, W_EINVAL, kreloc_resolve(NULL, g_addr, 0, &ai, sizeof(ai))) \
	X(kreloc_resolve, info, W_EINVAL, kreloc_resolve(g_r, g_addr, 0, NULL, sizeof(ai))) \
	X(kreloc_resolve_at, r, W_EINVAL, kreloc_resolve_at(NULL, g_addr, 0, &when, &ai, sizeof(ai))) \
	X(kreloc_resolve_at, when, W_TAKEN, kreloc_resolve_at(g_r, g_addr, 0, NULL, &ai, sizeof(ai))) \
	X(kreloc_resolve_at, info, W_EINVAL, kreloc_resolve_at(g_r, g_addr, 0, &when, NULL, sizeof(ai))) \
	X(kreloc_resolve_candidates, r, W_EINVAL, kreloc_resolve_candidates(NULL, g_addr, NULL, count_cand, NULL)) \
	X(kreloc_resolve_candidates, when, W_TAKEN, kreloc_resolve_candidates(g_r, g_addr, NULL, count_cand, NULL)) \
	X(kreloc_resolve_candidates, fn, W_EINVAL, kreloc_resolve_candidates(g_r, g_addr, NULL, NULL, NULL)) \
	X(kreloc_resolve_candidates, ctx, W_TAKEN, kreloc_resolve_candidates(g_r, g_addr, &when, count_cand, NULL)) \
	X(kreloc_resolve_why, r, W_SAYS, str_rc(kreloc_resolve_why(NULL, 1, 0, buf, sizeof(buf)))) \
	X(kreloc_resolve_why, buf, W_NULLSTR, str_rc(kreloc_resolve_why(g_r, 1, 0, NULL, 64))) \
	X(kreloc_resolve_why_at, r, W_SAYS, str_rc(kreloc_resolve_why_at(NULL, 1, 0, &when, buf, sizeof(buf)))) \
	X(kreloc_resolve_why_at, when, W_TAKEN, str_rc(kreloc_resolve_why_at(g_r, 1, 0, NULL, buf, sizeof(buf))) == 2 ? 0 : -EINVAL) \
	X(kreloc_resolve_why_at, buf, W_NULLSTR, str_rc(kreloc_resolve_why_at(g_r, 1, 0, &when, NULL, 64))) \
	X(kreloc_resolver_core_file, r, W_EINVAL, kreloc_resolver_core_file(NULL, &fi, sizeof(fi))) \
	X(kreloc_resolver_core_file, info, W_EINVAL, kreloc_resolver_core_file(g_r, NULL, sizeof(fi))) \
	X(kreloc_resolver_core_symbols, r, W_EINVAL, kreloc_resolver_core_symbols(NULL, count_sym, NULL, &zs)) \
	X(kreloc_resolver_core_symbols, fn, W_EINVAL, kreloc_resolver_core_symbols(g_r, NULL, NULL, &zs)) \
	X(kreloc_resolver_core_symbols, ctx, W_TAKEN, kreloc_resolver_core_symbols(g_r, count_sym, NULL, &zs)) \
	X(kreloc_resolver_core_symbols, left_out, W_TAKEN, kreloc_resolver_core_symbols(g_r, count_sym, NULL, NULL)) \
	X(kreloc_resolver_module_file, r, W_EINVAL, kreloc_resolver_module_file(NULL, 0, &mfi, sizeof(mfi))) \
	X(kreloc_resolver_module_file, info, W_EINVAL, kreloc_resolver_module_file(g_r, 0, NULL, sizeof(mfi))) \
	X(kreloc_resolver_module_image, r, W_EINVAL, kreloc_resolver_module_image(NULL, g_mod, &vp, &zs)) \
	X(kreloc_resolver_module_image, data, W_EINVAL, kreloc_resolver_module_image(g_r, g_mod, NULL, &zs)) \
	X(kreloc_resolver_module_image, len, W_EINVAL, kreloc_resolver_module_image(g_r, g_mod, &vp, NULL)) \
	X(kreloc_resolver_module_symbols, r, W_EINVAL, kreloc_resolver_module_symbols(NULL, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_module_symbols, fn, W_EINVAL, kreloc_resolver_module_symbols(g_r, g_mod, NULL, NULL)) \
	X(kreloc_resolver_module_symbols, ctx, W_TAKEN, kreloc_resolver_module_symbols(g_r, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_module_symbols_all, r, W_EINVAL, kreloc_resolver_module_symbols_all(NULL, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_module_symbols_all, fn, W_EINVAL, kreloc_resolver_module_symbols_all(g_r, g_mod, NULL, NULL)) \
	X(kreloc_resolver_module_symbols_all, ctx, W_TAKEN, kreloc_resolver_module_symbols_all(g_r, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_module_sections, r, W_EINVAL, kreloc_resolver_module_sections(NULL, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_module_sections, fn, W_EINVAL, kreloc_resolver_module_sections(g_r, g_mod, NULL, NULL)) \
	X(kreloc_resolver_module_sections, ctx, W_TAKEN, kreloc_resolver_module_sections(g_r, g_mod, count_sym, NULL)) \
	X(kreloc_resolver_prefetch, r, W_EINVAL, kreloc_resolver_prefetch(NULL, NULL)) \
	X(kreloc_resolver_prefetch, opts, W_TAKEN, kreloc_resolver_prefetch(g_r, NULL)) \
	/* (end) */

/* A string function's answer: 0 for NULL, 1 for the buffer saying "no resolver". */
static long str_rc(const char *s)
{
	return !s ? 0 : strstr(s, "no resolver") ? 1 : 2;
}

static FILE *snap_stream(void)
{
	return fopen(snap_path, "r");
}

static struct kreloc_snapshot *tmp_snap;
static struct kreloc_resolver *tmp_r;
static struct kreloc_files *tmp_files;
static struct kreloc_snapshot_info si;
static struct kreloc_section_info sec;
static struct kreloc_anchor_info an;
static struct kreloc_module_info mi;
static struct kreloc_mem_info memi;
static struct kreloc_probe_spec ps;
static struct kreloc_probe_info pi;
static struct kreloc_addr_info ai;
static struct kreloc_file_info fi;
static struct kreloc_module_file_info mfi;
static uint64_t u64, u64b;
static const void *vp;
static size_t zs;

#define NULLCASE_FN(f, p, w, expr) \
	static long nc_##f##_##p(void) { return (long)(expr); }
#define NULLCASE_ENTRY(f, p, w, expr) { #f, #p, w, nc_##f##_##p },
NULLCASES(NULLCASE_FN)

static const struct nullcase nullcases[] = { NULLCASES(NULLCASE_ENTRY) };

static int nulls(void)
{
	static const char *const wants[] = { "-EINVAL", "taken", "NULL", "a reason" };
	size_t i;

	for (i = 0; i < sizeof(nullcases) / sizeof(nullcases[0]); i++) {
		const struct nullcase *c = &nullcases[i];
		int p[2], st;
		long rc = 0;
		pid_t pid;
		bool ok;

		fflush(stdout);
		if (pipe(p) || (pid = fork()) < 0)
			return 1;
		if (!pid) {
			close(p[0]);
			rc = c->call();
			if (write(p[1], &rc, sizeof(rc)) != sizeof(rc))
				_exit(3);
			_exit(0);
		}
		close(p[1]);
		if (read(p[0], &rc, sizeof(rc)) != sizeof(rc))
			rc = LONG_MIN;
		close(p[0]);
		waitpid(pid, &st, 0);
		if (rc == LONG_MIN || !WIFEXITED(st) || WEXITSTATUS(st)) {
			result(0, "%s %s %s: crashed (%s %d)", c->fn, c->param,
			       c->want == W_TAKEN ? "nullable" : "required",
			       WIFSIGNALED(st) ? "signal" : "exit",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			continue;
		}
		ok = c->want == W_EINVAL ? rc == -EINVAL : c->want == W_TAKEN ? rc != -EINVAL :
		     c->want == W_NULLSTR ? rc == 0 : rc == 1;
		result(ok, "%s %s %s: %s (want %s)", c->fn, c->param,
		       c->want == W_TAKEN ? "nullable" : "required",
		       c->want == W_NULLSTR || c->want == W_SAYS ?
		       (rc == 0 ? "NULL" : rc == 1 ? "a reason" : "a string") :
		       rc == -EINVAL ? "-EINVAL" : "taken", wants[c->want]);
	}
	return 0;
}

/* ------------------------------------------------------------------ growth */

/*
 * GROWTH(NAME, TYPE, SMALL, CALL): CALL (using info and sz) with a caller's
 * struct 64 bytes larger than the library's, all 0xa5: the bytes past the
 * library's must come back zero; then with sz SMALL (an older caller's
 * struct): no byte at or past SMALL may change.
 */
#define GROWTH(name, T, small, CALL) do {						\
	unsigned char b_[sizeof(T) + 64];						\
	size_t k_, bad_ = 0;								\
	long rc_;									\
											\
	memset(b_, 0xa5, sizeof(b_));							\
	{ void *info = b_; size_t sz = sizeof(b_); rc_ = (CALL); }			\
	for (k_ = sizeof(T); k_ < sizeof(b_); k_++)					\
		bad_ += b_[k_] != 0;							\
	result(rc_ >= 0 && !bad_, "growth: %s fills a caller's %s 64 bytes larger than "	\
	       "its own and zeroes those (%zu not zero, rc %ld)", name, #T, bad_, rc_);	\
	memset(b_, 0xa5, sizeof(b_));							\
	{ void *info = b_; size_t sz = (small); rc_ = (CALL); }			\
	for (bad_ = 0, k_ = (small); k_ < sizeof(b_); k_++)				\
		bad_ += b_[k_] != 0xa5;							\
	for (k_ = 0; k_ < (small) && b_[k_] == 0xa5; k_++)				\
		;									\
	result(rc_ >= 0 && !bad_ && k_ < (small), "growth: %s fills an older caller's %zu "	\
	       "bytes of %s and writes nothing past them (%zu written, rc %ld)", name,	\
	       (size_t)(small), #T, bad_, rc_);						\
} while (0)

static int growth(void)
{
	struct kreloc_time t = { KRELOC_CLOCK_LOCAL, 0, UINT64_MAX };

	GROWTH("kreloc_snapshot_info", struct kreloc_snapshot_info,
	       offsetof(struct kreloc_snapshot_info, arch), kreloc_snapshot_info(g_snap, info, sz));
	GROWTH("kreloc_snapshot_section", struct kreloc_section_info,
	       offsetof(struct kreloc_section_info, runtime),
	       kreloc_snapshot_section(g_snap, 0, info, sz));
	GROWTH("kreloc_snapshot_anchor", struct kreloc_anchor_info,
	       offsetof(struct kreloc_anchor_info, linked), kreloc_snapshot_anchor(g_snap, 0, info, sz));
	GROWTH("kreloc_snapshot_module", struct kreloc_module_info,
	       offsetof(struct kreloc_module_info, build_id),
	       kreloc_snapshot_module(g_snap, g_mod, info, sz));
	GROWTH("kreloc_snapshot_module_mem", struct kreloc_mem_info,
	       offsetof(struct kreloc_mem_info, address),
	       kreloc_snapshot_module_mem(g_snap, g_mod, 0, info, sz));
	GROWTH("kreloc_probe_spec_parse", struct kreloc_probe_spec,
	       offsetof(struct kreloc_probe_spec, module),
	       kreloc_probe_spec_parse("vfat:vfat_lookup+0x4", info, sz));
	GROWTH("kreloc_probe_locate", struct kreloc_probe_info,
	       offsetof(struct kreloc_probe_info, symbol),
	       kreloc_probe_locate(g_snap, root, "vfs_read", info, sz));
	GROWTH("kreloc_resolve (a module address)", struct kreloc_addr_info,
	       offsetof(struct kreloc_addr_info, section), kreloc_resolve(g_r, g_addr, 0, info, sz));
	GROWTH("kreloc_resolve (an address of no section)", struct kreloc_addr_info,
	       offsetof(struct kreloc_addr_info, section), kreloc_resolve(g_r, 1, 0, info, sz));
	GROWTH("kreloc_resolve_at", struct kreloc_addr_info,
	       offsetof(struct kreloc_addr_info, offset),
	       kreloc_resolve_at(g_r, g_addr, 0, &t, info, sz));
	GROWTH("kreloc_resolver_core_file", struct kreloc_file_info,
	       offsetof(struct kreloc_file_info, build_id), kreloc_resolver_core_file(g_r, info, sz));
	GROWTH("kreloc_resolver_module_file", struct kreloc_module_file_info,
	       offsetof(struct kreloc_module_file_info, file),
	       kreloc_resolver_module_file(g_r, g_mod, info, sz));
	return 0;
}

/* ------------------------------------------------------------------ opts */

static int opts(void)
{
	struct kreloc_resolver_opts ro;
	struct kreloc_files_opts fo;
	struct kreloc_files *f = NULL;
	struct kreloc_resolver *r = NULL;
	struct kreloc_addr_info i;
	struct {
		struct kreloc_resolver_opts o;
		uint64_t newer;
	} big;
	int rc;

	/* A caller that forgot KRELOC_OPTS(): sz 0. */
	memset(&ro, 0, sizeof(ro));
	ro.map_kind = KRELOC_MAP_KALLSYMS;
	ro.map_path = map_path;
	rc = kreloc_resolver_new(g_snap, &ro, &r);
	result(rc == -EINVAL && strstr(kreloc_errmsg(), "KRELOC_OPTS"), "opts: kreloc_resolver_opts "
	       "with sz 0 is refused: %d, \"%s\"", rc, kreloc_errmsg());
	kreloc_resolver_free(r);
	r = NULL;
	memset(&fo, 0, sizeof(fo));
	fo.modules_dir = mods_dir;
	rc = kreloc_files_new(&fo, &f);
	result(rc == -EINVAL && strstr(kreloc_errmsg(), "KRELOC_OPTS"), "opts: kreloc_files_opts "
	       "with sz 0 is refused: %d, \"%s\"", rc, kreloc_errmsg());
	kreloc_files_free(f);
	f = NULL;
	{
		struct kreloc_prefetch_opts po;

		memset(&po, 0, sizeof(po));
		po.timeout_ms = 1;
		rc = kreloc_resolver_prefetch(g_r, &po);
		result(rc == -EINVAL && strstr(kreloc_errmsg(), "KRELOC_OPTS"), "opts: "
		       "kreloc_prefetch_opts with sz 0 is refused: %d, \"%s\"", rc, kreloc_errmsg());
	}
	/* A newer caller's struct: zeros past the library's are taken, anything else refused. */
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.map_kind = KRELOC_MAP_KALLSYMS;
	big.o.map_path = map_path;
	rc = kreloc_resolver_new(g_snap, &big.o, &r);
	result(rc == 0, "opts: a newer caller's kreloc_resolver_opts (%zu bytes), zero past the "
	       "library's %zu, is taken: %d %s", sizeof(big), sizeof(big.o), rc, rc ? kreloc_errmsg() : "");
	kreloc_resolver_free(r);
	r = NULL;
	big.newer = 1;
	rc = kreloc_resolver_new(g_snap, &big.o, &r);
	result(rc == -EINVAL && strstr(kreloc_errmsg(), "past the"), "opts: ... with a byte set past "
	       "the library's size, refused: %d, \"%s\"", rc, kreloc_errmsg());
	kreloc_resolver_free(r);
	r = NULL;
	/* An older caller's struct: only map_kind and map_path; no modules then. */
	memset(&ro, 0xa5, sizeof(ro));
	ro.sz = offsetof(struct kreloc_resolver_opts, files);
	ro.map_kind = KRELOC_MAP_KALLSYMS;
	ro.map_path = map_path;
	rc = kreloc_resolver_new(g_snap, &ro, &r);
	if (!rc)
		kreloc_resolve(r, g_addr, 0, &i, sizeof(i));
	result(rc == 0 && i.module >= 0 && !i.symbol && i.note, "opts: an older caller's "
	       "kreloc_resolver_opts of %zu bytes gets the defaults of the rest (no .ko files: %s)",
	       ro.sz, rc ? kreloc_errmsg() : i.note ? i.note : "(a symbol)");
	kreloc_resolver_free(r);
	return 0;
}

/* ------------------------------------------------------------------ owner */

struct addrs {
	uint64_t a[4096];
	size_t n, seen;
};

/* Every 37th symbol, a byte in. */
static int pick(void *ctx, const struct kreloc_symbol *s)
{
	struct addrs *x = ctx;

	if (x->seen++ % 37 == 0 && x->n < sizeof(x->a) / sizeof(x->a[0]))
		x->a[x->n++] = s->address + 1;
	return 0;
}

/* An address's answer as one line of text (what a caller keeps or prints). */
static void answer(const struct kreloc_resolver *r, uint64_t a, char *out, size_t len)
{
	struct kreloc_module_file_info mf;
	struct kreloc_addr_info i;
	char why[256];
	int k = kreloc_resolve(r, a, 0, &i, sizeof(i));

	if (k <= 0) {
		snprintf(out, len, "? %s", kreloc_resolve_why(r, a, 0, why, sizeof(why)));
		return;
	}
	snprintf(out, len, "%s+0x%" PRIx64 " [%s %s] %s %s", i.symbol ? i.symbol : "-", i.offset,
		 i.module_name ? i.module_name : "", i.module_state ? i.module_state : "", i.section,
		 i.module >= 0 && !kreloc_resolver_module_file(r, (size_t)i.module, &mf, sizeof(mf)) &&
		 mf.file.path ? mf.file.build_id : "");
}

static int owner(void)
{
	KRELOC_OPTS(kreloc_resolver_opts, ro, .map_kind = KRELOC_MAP_KALLSYMS, .map_path = map_path,
		    .modules_dir = mods_dir);
	static char before[4096][300], after[300];
	struct kreloc_snapshot *s;
	struct kreloc_resolver *r;
	static struct addrs x;
	size_t i, differ = 0;

	if (kreloc_snapshot_load(snap_path, &s) || kreloc_resolver_new(s, &ro, &r)) {
		result(0, "owner: %s", kreloc_errmsg());
		return 1;
	}
	kreloc_resolver_core_symbols(r, pick, &x, NULL);
	x.seen = 0;
	kreloc_resolver_module_symbols(r, g_mod, pick, &x);
	/* Half of the module records' files are read after the snapshot is gone. */
	for (i = 0; i < x.n / 2; i++)
		answer(r, x.a[i], before[i], sizeof(before[i]));
	kreloc_snapshot_free(s);
	for (i = 0; i < x.n / 2; i++) {
		answer(r, x.a[i], after, sizeof(after));
		differ += strcmp(before[i], after) != 0;
	}
	for (; i < x.n; i++)
		answer(r, x.a[i], before[i], sizeof(before[i]));
	result(!differ && x.n > 100, "owner: the snapshot freed first, its resolver answers %zu "
	       "addresses as before (%zu differ) and %zu more", x.n / 2, differ, x.n - x.n / 2);
	kreloc_resolver_free(r);
	return 0;
}

/* ------------------------------------------------------------------ callbacks */

/* A callback that returns ret at its stop-th call (0: never), counting its calls. */
struct cb {
	int calls, stop, ret;
};

static int cb_sym(void *ctx, const struct kreloc_symbol *s)
{
	struct cb *c = ctx;

	(void)s;
	return ++c->calls == c->stop ? c->ret : 0;
}

static int cb_cand(void *ctx, const struct kreloc_addr_info *i)
{
	struct cb *c = ctx;

	(void)i;
	return ++c->calls == c->stop ? c->ret : 0;
}

/* A walk to its end, stopped at the first call by 1 and by -EIO. */
static void walk(const char *name, bool counts, int (*call)(struct cb *c))
{
	struct cb c = { 0, 0, 0 };
	int all, rc;

	all = call(&c);
	result(counts ? all == c.calls && all > 0 : all == 0 && c.calls > 0,
	       "callbacks: %s walked to its end returns %s (%d; %d calls)", name,
	       counts ? "the count" : "0", all, c.calls);
	c = (struct cb){ 0, 1, 1 };
	rc = call(&c);
	result(rc == -ECANCELED && c.calls == 1, "callbacks: %s stopped by a callback's 1 returns "
	       "-ECANCELED, never a count (%d; %d calls)", name, rc, c.calls);
	c = (struct cb){ 0, 1, -EIO };
	rc = call(&c);
	result(rc == -EIO && c.calls == 1, "callbacks: %s stopped by a callback's -EIO returns "
	       "it (%d; %d calls)", name, rc, c.calls);
}

static int w_core(struct cb *c)
{
	return kreloc_resolver_core_symbols(g_r, cb_sym, c, NULL);
}

static int w_modsyms(struct cb *c)
{
	return kreloc_resolver_module_symbols(g_r, g_mod, cb_sym, c);
}

static int w_modsyms_all(struct cb *c)
{
	return kreloc_resolver_module_symbols_all(g_r, g_mod, cb_sym, c);
}

static int w_sections(struct cb *c)
{
	return kreloc_resolver_module_sections(g_r, g_mod, cb_sym, c);
}

static int w_cands(struct cb *c)
{
	return kreloc_resolve_candidates(g_r, g_addr, NULL, cb_cand, c);
}

static int callbacks(void)
{
	walk("kreloc_resolver_core_symbols", false, w_core);
	walk("kreloc_resolver_module_symbols", true, w_modsyms);
	walk("kreloc_resolver_module_symbols_all", true, w_modsyms_all);
	walk("kreloc_resolver_module_sections", true, w_sections);
	walk("kreloc_resolve_candidates", true, w_cands);
	return 0;
}

/* ------------------------------------------------------------------ sections */

static int print_section(void *ctx, const struct kreloc_symbol *s)
{
	(void)ctx;
	printf("section %s 0x%" PRIx64 " 0x%" PRIx64 "\n", s->name, s->address, s->size);
	return 0;
}

/* Each placed section of the record named by $KRELOC_TEST_MODULE: "section NAME ADDRESS SIZE". */
static int sections(void)
{
	const char *name = getenv("KRELOC_TEST_MODULE");
	int mod = name ? kreloc_snapshot_module_find(g_snap, name, NULL) : (int)g_mod;

	if (mod < 0 || kreloc_resolver_module_sections(g_r, (size_t)mod, print_section, NULL) < 0) {
		result(0, "sections: %s", kreloc_errmsg());
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ states */

/* The kernel's names of the states, and the value each must be. */
static int want_state(const char *s, const char *const *names)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i + 1;
	return 0;	/* one a newer kreloc wrote: OTHER */
}

static int states(void)
{
	static const char *const mod[] = { "coming", "live", "going", "gone", NULL };
	static const char *const mem[] = { "live", "freed", "gone", NULL };
	struct kreloc_module_info m;
	struct kreloc_addr_info a;
	struct kreloc_mem_info k;
	size_t i, j, n = 0, bad = 0, nres = 0;

	for (i = 0; kreloc_snapshot_module(g_snap, i, &m, sizeof(m)) == 0; i++) {
		printf("state %s %s %d\n", m.name, m.state, (int)m.state_code);
		n++;
		if ((int)m.state_code != want_state(m.state, mod)) {
			result(0, "states: record %s is %s, state_code %d", m.name, m.state,
			       (int)m.state_code);
			bad++;
		}
		for (j = 0; kreloc_snapshot_module_mem(g_snap, i, j, &k, sizeof(k)) == 0; j++) {
			n++;
			if ((int)k.state_code != want_state(k.state, mem)) {
				result(0, "states: %s %s is %s, state_code %d", m.name, k.name, k.state,
				       (int)k.state_code);
				bad++;
			}
			/* A lookup names its record's state as the record does. */
			if (k.kind != KRELOC_MEM_REGION || !k.address.known ||
			    kreloc_resolve(g_r, k.address.value, 0, &a, sizeof(a)) != KRELOC_MODULE ||
			    a.module != (int)i)
				continue;
			nres++;
			if (a.module_state_code != m.state_code || strcmp(a.module_state, m.state)) {
				result(0, "states: an address of %s has module_state_code %d, %s's is %d",
				       m.name, (int)a.module_state_code, m.state, (int)m.state_code);
				bad++;
			}
		}
	}
	result(!bad && n && nres, "states: the state_code of %zu records, regions and sections is "
	       "their state's (coming, live, going, gone; live, freed, gone; else OTHER), and of "
	       "%zu lookups their record's", n, nres);
	return 0;
}

/* ------------------------------------------------------------------ files */

/* Each module record's .ko: "NAME STATUS: WHY" (MODULES_DIR as given). */
static int files(void)
{
	static const char *const st[] = { "ok", "missing", "mismatch", "unavailable", "corrupt" };
	struct kreloc_module_file_info mf;
	struct kreloc_module_info m;
	size_t i;

	for (i = 0; kreloc_snapshot_module(g_snap, i, &m, sizeof(m)) == 0; i++) {
		if (kreloc_resolver_module_file(g_r, i, &mf, sizeof(mf)))
			printf("%s error: %s\n", m.name, kreloc_errmsg());
		else
			printf("%s %s: %s\n", m.name, (unsigned int)mf.status < 5 ? st[mf.status] : "?",
			       mf.why ? mf.why : "");
	}
	return 0;
}

/*
 * A snapshot read from a crash dump holds one reference, its caller's, as
 * every snapshot does: kreloc_snapshot_free() frees it (a leak fails the
 * run at exit).
 */
static int vmcore_owner(void)
{
	const char *dump = getenv("KRELOC_TEST_VMCORE");
	struct kreloc_snapshot_info in;
	struct kreloc_snapshot *s;
	int i;

	for (i = 0; i < 2; i++) {
		if (!dump || kreloc_snapshot_vmcore(dump, &s)) {
			result(0, "vmcore: %s", dump ? kreloc_errmsg() : "no KRELOC_TEST_VMCORE");
			return 1;
		}
		result(!kreloc_snapshot_info(s, &in, sizeof(in)),
		       "vmcore: the dump's snapshot %d, then kreloc_snapshot_free()", i + 1);
		kreloc_snapshot_free(s);
		s = NULL;
	}
	return 0;
}

static const struct {
	const char *name;
	int (*run)(void);
} modes[] = {
	{ "nulls", nulls }, { "owner", owner }, { "growth", growth }, { "opts", opts },
	{ "files", files }, { "states", states }, { "callbacks", callbacks },
	{ "sections", sections }, { "vmcore", vmcore_owner },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 5) {
		fprintf(stderr, "usage: libcontract MODE SNAPSHOT KALLSYMS MODULES_DIR [ROOT]\n");
		return 2;
	}
	mode = argv[1];
	snap_path = argv[2];
	map_path = argv[3];
	mods_dir = argv[4];
	root = argc > 5 ? argv[5] : "/nonexistent";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setup())
		return 2;
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]) && strcmp(argv[1], modes[i].name); i++)
		;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return 2;
	modes[i].run();
	kreloc_resolver_free(g_r);
	kreloc_files_free(g_files);
	kreloc_snapshot_free(g_snap);
	return failed;
}
