// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - `kreloc kallsyms`: a /proc/kallsyms of a recorded boot,
 * modules unloaded before the snapshot included, for perf --kallsyms and
 * any other tool that reads that format.  libkreloc gives the symbols at
 * their runtime addresses; this file chooses the tags and writes lines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "main.h"
#include "ofile.h"

static const char kallsyms_help[] =
	"Usage: kreloc kallsyms [--snapshot FILE] (--system-map FILE | --vmlinux FILE)\n"
	"                       [--modules-dir DIR] [--generation N] [-o|--output FILE]\n"
	"                       [--json]\n"
	"Write a file in /proc/kallsyms format for the snapshot's boot (or the\n"
	"running one): the core kernel's symbols from the System.map or vmlinux\n"
	"moved by the boot's section offsets, and every module record's symbols\n"
	"from its .ko at the recorded section addresses, modules unloaded before\n"
	"the snapshot included.  perf report/script --kallsyms=FILE then names\n"
	"samples in modules unloaded during the recording.\n"
	"  --modules-dir DIR   where NAME.ko files are searched, recursively\n"
	"  --generation N      the module records live at generation N (when perf\n"
	"                      record started) get [NAME]; a name with several\n"
	"                      records otherwise gets [NAME@LOAD_GEN] on each\n"
	"  -o, --output FILE   write to FILE (default: stdout; as snapshot -o: 0600,\n"
	"                      atomic; devices and FIFOs in place; links refused)\n"
	"  --json              print a summary as JSON (on stdout; needs -o)\n"
	"With DEBUGINFOD_URLS set, the map may be left out (the vmlinux of the\n"
	"snapshot's build id is fetched), and a .ko not found is fetched by its\n"
	"build id.  Symbols in core sections without a published offset are left\n"
	"out.  A .ko of another build is left out with the reason (exit 1); a\n"
	"module without a found .ko gets no symbols (a warning).  A /proc/kallsyms\n"
	"has no time: records that held the same memory one after the other are\n"
	"listed all, each named in a warning; for perf, `kreloc inject` keeps them\n"
	"apart.\n";

struct ks_opts {
	const char *snap, *map, *vmlinux, *moddir, *out;
	bool have_gen;
	uint64_t gen;
};

/* Options into o; returns -1 to go on, or the exit code. */
static int parse_opts(int argc, char **argv, struct ks_opts *o)
{
	static const struct option opts[] = {
		{ "snapshot", required_argument, NULL, 's' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "generation", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat sb;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "+:s:m:v:d:g:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's': o->snap = optarg; break;
		case 'm': o->map = optarg; break;
		case 'v': o->vmlinux = optarg; break;
		case 'd': o->moddir = optarg; break;
		case 'g':
			/* Digits only, and a value that fits: no sign, no wrap. */
			errno = 0;
			o->gen = strtoull(optarg, &end, 10);
			if (!*optarg || *end || errno || strspn(optarg, "0123456789") != strlen(optarg))
				return usage_err("kallsyms", "--generation %s: a decimal generation",
						 optarg);
			o->have_gen = true;
			break;
		case 'o': o->out = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(kallsyms_help, stdout); return EXIT_OK;
		default: return opt_err("kallsyms", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("kallsyms", "unexpected argument '%s'", argv[optind]);
	if ((o->map && o->vmlinux) || (!o->map && !o->vmlinux && !debuginfod_wanted()))
		return usage_err("kallsyms", "give exactly one of --system-map FILE and --vmlinux FILE"
				 " (or set DEBUGINFOD_URLS: the vmlinux of the snapshot's build id "
				 "is fetched)");
	if (json_output && (!o->out || !strcmp(o->out, "-")))
		return usage_err("kallsyms", "--json prints a summary: write the symbols with -o FILE");
	if (o->moddir && (stat(o->moddir, &sb) || !S_ISDIR(sb.st_mode)))
		return usage_err("kallsyms", "--modules-dir %s: %s", o->moddir,
				 errno ? strerror(errno) : "not a directory");
	return -1;
}

/* The resolver of the snapshot's symbols: the map given, or its build's vmlinux. */
static int open_resolver(const struct ks_opts *o, const struct kreloc_snapshot *s,
			 struct kreloc_resolver **r)
{
	KRELOC_OPTS(kreloc_resolver_opts, ro,
		    .map_kind = o->map ? KRELOC_MAP_SYSTEM_MAP :
				o->vmlinux ? KRELOC_MAP_VMLINUX : KRELOC_MAP_NONE,
		    .map_path = o->map ? o->map : o->vmlinux,
		    .modules_dir = o->moddir,
		    .debuginfod = debuginfod_wanted());
	int ret = kreloc_resolver_new(s, &ro, r);

	return ret ? lib_err(ret) : EXIT_OK;
}

/*
 * Each record's [TAG]: perf gives a module's [NAME] symbols to the map it
 * found when recording started, so with several records of a name only
 * the one live then (--generation) may carry the plain name; the others
 * are NAME@LOAD_GEN.  NULL without memory.
 */
static char **module_tags(const struct kreloc_snapshot *s, size_t n, const struct ks_opts *o)
{
	struct kreloc_module_info m, x;
	char **tags = calloc(n + 1, sizeof(*tags));
	size_t i, j, same;
	bool plain, first;

	for (i = 0; tags && i < n; i++) {
		kreloc_snapshot_module(s, i, &m, sizeof(m));
		same = 0;
		first = true;
		for (j = 0; j < n; j++) {
			kreloc_snapshot_module(s, j, &x, sizeof(x));
			if (!strcmp(x.name, m.name)) {
				same++;
				first &= j >= i;
			}
		}
		plain = same == 1 || (o->have_gen && kreloc_snapshot_module_live_at(s, i, o->gen) == 1);
		if (plain)
			tags[i] = strdup(m.name);
		else if (asprintf(&tags[i], "%s@%" PRIu64, m.name, m.load_gen.value) < 0)
			tags[i] = NULL;
		if (!tags[i]) {
			while (i--)
				free(tags[i]);
			free(tags);
			return NULL;
		}
		if (!plain && !o->have_gen && first)
			p_warn("%s has %zu records: each is tagged [%s@LOAD_GEN]; give "
			       "--generation N (when perf record started) to tag the one live "
			       "then [%s]", m.name, same, m.name, m.name);
	}
	return tags;
}

/* Do the regions whose symbols the file lists (not freed init) of records i and j overlap? */
static bool listed_overlap(const struct kreloc_snapshot *s, size_t i, size_t j)
{
	struct kreloc_module_info a, b;
	struct kreloc_mem_info x, y;
	size_t k, l;

	kreloc_snapshot_module(s, i, &a, sizeof(a));
	kreloc_snapshot_module(s, j, &b, sizeof(b));
	for (k = 0; k < a.nr_mem; k++) {
		kreloc_snapshot_module_mem(s, i, k, &x, sizeof(x));
		if (x.kind != KRELOC_MEM_REGION || !x.address.known || !x.size.known ||
		    !strcmp(x.state, "freed"))
			continue;
		for (l = 0; l < b.nr_mem; l++) {
			kreloc_snapshot_module_mem(s, j, l, &y, sizeof(y));
			if (y.kind == KRELOC_MEM_REGION && y.address.known && y.size.known &&
			    strcmp(y.state, "freed") &&
			    x.address.value < y.address.value + y.size.value &&
			    y.address.value < x.address.value + x.size.value)
				return true;
		}
	}
	return false;
}

/*
 * A /proc/kallsyms has no time: two records whose memory overlapped (the
 * loader reuses freed memory) both list symbols at those addresses, and a
 * reader cannot tell which held them when.  Say which.  Returns, per
 * record, the index of the next one over it (or -1).
 */
static int *overlaps(const struct kreloc_snapshot *s, size_t n, char **tags)
{
	int *next = malloc((n + 1) * sizeof(*next));
	size_t i, j;

	for (i = 0; next && i < n; i++) {
		next[i] = -1;
		for (j = i + 1; j < n && next[i] < 0; j++)
			if (listed_overlap(s, i, j))
				next[i] = (int)j;
		if (next[i] >= 0)
			p_warn("[%s] and [%s] held the same addresses one after the other: the file "
			       "lists both, and no reader of it can tell which held an address "
			       "when; for perf, use kreloc inject", tags[i], tags[next[i]]);
	}
	return next;
}

/* Each record's .ko, found and checked; warnings and errors said.  Returns the exit code. */
static int check_modules(const struct kreloc_resolver *r, const struct kreloc_snapshot *s,
			 size_t n, enum kreloc_file_status *st)
{
	struct kreloc_module_file_info mf;
	struct kreloc_module_info m;
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < n; i++) {
		kreloc_snapshot_module(s, i, &m, sizeof(m));
		kreloc_resolver_module_file(r, i, &mf, sizeof(mf));
		st[i] = mf.status;
		switch (mf.status) {
		case KRELOC_FILE_OK:
			break;
		case KRELOC_FILE_MISSING:
			p_warn("%s: %s: its symbols are left out", m.name, mf.why);
			break;
		case KRELOC_FILE_UNAVAILABLE:
			p_err("%s: %s; left out", m.name, mf.why);
			if (ret == EXIT_OK)
				ret = EXIT_UNAVAILABLE;
			break;
		case KRELOC_FILE_MISMATCH:
		case KRELOC_FILE_CORRUPT:
			p_err("%s: %s; left out", m.name, mf.why);
			ret = EXIT_FAIL;
			break;
		}
	}
	return ret;
}

struct writer {
	FILE *f;
	int width;
	const char *tag;		/* NULL for the core kernel */
	size_t n;
};

static int write_sym(void *ctx, const struct kreloc_symbol *y)
{
	struct writer *w = ctx;

	if (w->tag)
		fprintf(w->f, "%0*" PRIx64 " %c %s\t[%s]\n", w->width, y->address, y->type, y->name,
			w->tag);
	else
		fprintf(w->f, "%0*" PRIx64 " %c %s\n", w->width, y->address, y->type, y->name);
	w->n++;
	return 0;
}

static void print_json(const struct ks_opts *o, const struct kreloc_snapshot *s,
		       const struct kreloc_resolver *r, char **tags, const int *over,
		       const size_t *counts, size_t core, size_t left_out)
{
	struct kreloc_snapshot_info si;
	struct kreloc_module_file_info mf;
	struct kreloc_module_info m;
	size_t i;

	kreloc_snapshot_info(s, &si, sizeof(si));
	json_doc_begin();
	jsonw_string_field(json_wtr, "output", o->out);
	jsonw_string_field(json_wtr, "osrelease", si.osrelease);
	jsonw_uint_field(json_wtr, "core_symbols", core);
	jsonw_uint_field(json_wtr, "core_left_out", left_out);
	jsonw_name(json_wtr, "modules");
	jsonw_start_array(json_wtr);
	for (i = 0; i < si.nr_modules; i++) {
		kreloc_snapshot_module(s, i, &m, sizeof(m));
		kreloc_resolver_module_file(r, i, &mf, sizeof(mf));
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", m.name);
		jsonw_string_field(json_wtr, "tag", tags[i]);
		jsonw_string_field(json_wtr, "state", m.state);
		json_gen("load_gen", &m.load_gen);
		json_gen("unload_gen", &m.unload_gen);
		jsonw_string_field(json_wtr, "ko", mf.file.path);
		jsonw_string_field(json_wtr, "origin", mf.file.path ?
				   kreloc_origin_name(mf.file.origin) : NULL);
		jsonw_string_field(json_wtr, "status", file_status_name(mf.status));
		jsonw_string_field(json_wtr, "reason", mf.why);
		jsonw_uint_field(json_wtr, "symbols", counts[i]);
		jsonw_string_field(json_wtr, "overlapped_by", over && over[i] >= 0 ?
				   tags[over[i]] : NULL);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	json_doc_end();
}

int do_kallsyms(int argc, char **argv)
{
	struct ks_opts o = { 0 };
	struct kreloc_snapshot *s = NULL;
	struct kreloc_resolver *r = NULL;
	struct kreloc_snapshot_info si = { 0 };
	enum kreloc_file_status *st = NULL;
	struct writer w = { 0 };
	size_t *counts = NULL, i, left_out = 0, core;
	char err[1024], **tags = NULL;
	int *over = NULL;
	struct ofile of;
	int ret, mret;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	ret = snapshot_open(o.snap, &s);
	if (ret)
		return ret;
	ret = open_resolver(&o, s, &r);
	if (ret)
		goto out;
	kreloc_snapshot_info(s, &si, sizeof(si));
	tags = module_tags(s, si.nr_modules, &o);
	counts = calloc(si.nr_modules + 1, sizeof(*counts));
	st = calloc(si.nr_modules + 1, sizeof(*st));
	if (!tags || !counts || !st) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	over = overlaps(s, si.nr_modules, tags);
	mret = check_modules(r, s, si.nr_modules, st);
	if (ofile_open(&of, o.out, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	w.f = of.f;
	w.width = si.ref_linked.known && si.ref_linked.value <= 0xffffffffu ? 8 : 16;
	ret = kreloc_resolver_core_symbols(r, write_sym, &w, &left_out);
	if (ret) {
		ofile_commit(&of, true, err, sizeof(err));
		ret = lib_err(ret);
		goto out;
	}
	core = w.n;
	for (i = 0; i < si.nr_modules; i++) {
		if (st[i] != KRELOC_FILE_OK)
			continue;
		w.tag = tags[i];
		w.n = 0;
		kreloc_resolver_module_symbols(r, i, write_sym, &w);
		counts[i] = w.n;
	}
	if (ofile_commit(&of, false, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	ret = mret;
	if (json_output)
		print_json(&o, s, r, tags, over, counts, core, left_out);
out:
	for (i = 0; tags && i < si.nr_modules; i++)
		free(tags[i]);
	free(tags);
	free(over);
	free(counts);
	free(st);
	kreloc_resolver_free(r);
	kreloc_snapshot_free(s);
	return ret;
}
