// SPDX-License-Identifier: GPL-2.0
/*
 * gdb.c - `kreloc gdb`: a gdb script that loads vmlinux at the boot's
 * offset and every module's .ko with each section at its recorded address,
 * from the running kernel or a snapshot, unloaded modules included.
 * libkreloc finds and checks the files; this file picks the records and
 * writes the script (or JSON).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "main.h"
#include "kcache.h"
#include "ofile.h"

static const char gdb_help[] =
	"Usage: kreloc gdb [--snapshot FILE] [--vmlinux FILE] [--modules-dir DIR]\n"
	"                  [--history] [--module NAME[@LOAD_GEN]]... [-o|--output FILE]\n"
	"                  [--json]\n"
	"Print a gdb script (gdb 8.2 or later) that loads the symbols of the running\n"
	"kernel (or of the snapshot's boot) where they are: vmlinux moved by the\n"
	"boot's KASLR offset (symbol-file -o), and each module's .ko with every\n"
	"section at its address (add-symbol-file FILE TEXT -s SECTION ADDR...),\n"
	"init sections while they live.  Source it in gdb after connecting.\n"
	"  --vmlinux FILE      the vmlinux with symbols (default: the -dbg package's,\n"
	"                      /boot/vmlinux-REL or /lib/modules/REL/build/vmlinux with\n"
	"                      the snapshot's build id; then, with DEBUGINFOD_URLS set,\n"
	"                      fetched by build id)\n"
	"  --modules-dir DIR   where NAME.ko files are searched, recursively (default:\n"
	"                      /usr/lib/debug/lib/modules/REL, else /lib/modules/REL;\n"
	"                      with DEBUGINFOD_URLS set, one not found is fetched)\n"
	"  --history           also modules unloaded before the snapshot, at the\n"
	"                      addresses they had (skipped where a newer module sits)\n"
	"  --module NAME[@GEN] only these records (NAME: its newest record)\n"
	"  -o, --output FILE   write the script to FILE instead of stdout (as snapshot -o:\n"
	"                      0600, atomic; devices and FIFOs in place; links refused)\n"
	"  --json              print the placement as JSON instead of a script\n"
	"A compressed .ko (.xz, .zst, .gz), which gdb cannot read, is unpacked once into\n"
	"${XDG_CACHE_HOME:-~/.cache}/kreloc/ko/BUILD_ID/NAME.ko and the script names that.\n"
	"The vmlinux must be the snapshot's build (build id, _text) and each .ko the\n"
	"module that was loaded (vermagic release, name, section layout); a module\n"
	"whose .ko is of another build is left out with the reason (exit 1), one\n"
	"without a .ko is left out with a warning.\n";

struct sel {
	char *name;
	uint64_t gen;
	int has_gen, used;
};

struct gdb_opts {
	const char *snap, *vmlinux, *moddir, *out;
	bool history;
	struct sel *sels;
	size_t nsel;
};

/* A record gdb gets, and what it reads for it. */
struct gmod {
	size_t idx;
	struct kreloc_module_info m;
	struct kreloc_module_file_info f;
	char why[1200];			/* f.why, or why its unpacked copy failed */
	char *gdb_path;			/* the .ko, or its unpacked copy */
	bool ok;
};

static int parse_sel(const char *arg, struct sel *s)
{
	const char *at = strchr(arg, '@');
	size_t n = at ? (size_t)(at - arg) : strlen(arg);
	char *end;

	memset(s, 0, sizeof(*s));
	if (!n || n >= KRELOC_SYMBOL_NAME_MAX)
		return -1;
	if (at) {
		/* Digits only, and a value that fits: no sign, no wrap to ULLONG_MAX. */
		errno = 0;
		s->gen = strtoull(at + 1, &end, 10);
		if (!at[1] || *end || errno || strspn(at + 1, "0123456789") != strlen(at + 1))
			return -1;
		s->has_gen = 1;
	}
	s->name = strndup(arg, n);
	return s->name ? 0 : -1;
}

static void free_opts(struct gdb_opts *o)
{
	size_t i;

	for (i = 0; i < o->nsel; i++)
		free(o->sels[i].name);
	free(o->sels);
}

/* Options into o; returns -1 to go on, or the exit code. */
static int parse_opts(int argc, char **argv, struct gdb_opts *o)
{
	static const struct option opts[] = {
		{ "snapshot", required_argument, NULL, 's' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "history", no_argument, NULL, 'H' },
		{ "module", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sel *n;
	struct stat st;
	int c;

	while ((c = getopt_long(argc, argv, "+:s:v:d:Hm:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's': o->snap = optarg; break;
		case 'v': o->vmlinux = optarg; break;
		case 'd': o->moddir = optarg; break;
		case 'H': o->history = true; break;
		case 'm':
			n = realloc(o->sels, (o->nsel + 1) * sizeof(*n));
			if (!n) {
				p_err("out of memory");
				return EXIT_FAIL;
			}
			o->sels = n;
			if (parse_sel(optarg, &o->sels[o->nsel]))
				return usage_err("gdb", "--module %s: NAME or NAME@LOAD_GEN", optarg);
			o->nsel++;
			break;
		case 'o': o->out = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(gdb_help, stdout); return EXIT_OK;
		default: return opt_err("gdb", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("gdb", "unexpected argument '%s'", argv[optind]);
	if (o->moddir && (stat(o->moddir, &st) || !S_ISDIR(st.st_mode)))
		return usage_err("gdb", "--modules-dir %s: %s", o->moddir,
				 errno ? strerror(errno) : "not a directory");
	return -1;
}

static const char *default_moddir(const char *rel, char *buf, size_t len)
{
	struct stat st;

	if ((size_t)snprintf(buf, len, "/usr/lib/debug/lib/modules/%s", rel) < len &&
	    !stat(buf, &st) && S_ISDIR(st.st_mode))
		return buf;
	if ((size_t)snprintf(buf, len, "/lib/modules/%s", rel) < len &&
	    !stat(buf, &st) && S_ISDIR(st.st_mode))
		return buf;
	return NULL;
}

/*
 * The resolver with the vmlinux (given; else at the distributions'
 * places or from debuginfod, by build id) and the modules directory.
 */
static int open_resolver(const struct gdb_opts *o, const struct kreloc_snapshot *s,
			 struct kreloc_resolver **r)
{
	struct kreloc_snapshot_info si;
	struct kreloc_files *files;
	char dbuf[4096];
	int ret;

	kreloc_snapshot_info(s, &si, sizeof(si));
	{
		KRELOC_OPTS(kreloc_files_opts, fo,
			    .modules_dir = o->moddir ? o->moddir :
					   default_moddir(si.osrelease, dbuf, sizeof(dbuf)),
			    .debuginfod = debuginfod_wanted(), .default_paths = true);

		ret = kreloc_files_new(&fo, &files);
		if (ret)
			return lib_err(ret);
	}
	{
		KRELOC_OPTS(kreloc_resolver_opts, ro,
			    .map_kind = o->vmlinux ? KRELOC_MAP_VMLINUX : KRELOC_MAP_NONE,
			    .map_path = o->vmlinux, .files = files);

		ret = kreloc_resolver_new(s, &ro, r);
	}
	kreloc_files_free(files);
	if (ret == -ENOENT && !o->vmlinux) {
		p_err("%s (install the kernel's -dbg package, give --vmlinux FILE or set "
		      "DEBUGINFOD_URLS)", kreloc_errmsg());
		return EXIT_FAIL;
	}
	return ret ? lib_err(ret) : EXIT_OK;
}

/*
 * The records gdb gets: the chosen ones (--module), or the loaded ones and
 * with --history the unloaded ones no newer record sits on (that would
 * give an address two names).  Returns how many, into g.
 */
static size_t pick_records(const struct kreloc_snapshot *s, struct gdb_opts *o, struct gmod *g,
			   int *ret)
{
	struct kreloc_snapshot_info si;
	struct kreloc_module_info m, n;
	size_t i, j, nd = 0;
	int k;

	kreloc_snapshot_info(s, &si, sizeof(si));
	for (j = 0; j < o->nsel; j++) {
		k = kreloc_snapshot_module_find(s, o->sels[j].name,
						o->sels[j].has_gen ? &o->sels[j].gen : NULL);
		if (k < 0)
			continue;
		o->sels[j].used = 1;
		for (i = 0; i < nd && g[i].idx != (size_t)k; i++)
			;
		if (i == nd)
			g[nd++].idx = (size_t)k;
	}
	for (j = 0; j < o->nsel; j++) {
		if (o->sels[j].used)
			continue;
		if (o->sels[j].has_gen)
			p_err("--module %s@%" PRIu64 ": no such record", o->sels[j].name,
			      o->sels[j].gen);
		else
			p_err("--module %s: no such record", o->sels[j].name);
		*ret = EXIT_FAIL;
	}
	if (o->nsel) {
		/* In the snapshot's order, as without --module. */
		for (i = 1; i < nd; i++)
			for (j = i; j > 0 && g[j - 1].idx > g[j].idx; j--) {
				size_t t = g[j].idx;

				g[j].idx = g[j - 1].idx;
				g[j - 1].idx = t;
			}
		return nd;
	}
	for (i = 0; i < si.nr_modules; i++) {
		kreloc_snapshot_module(s, i, &m, sizeof(m));
		if (!m.loaded && !o->history)
			continue;
		k = m.loaded ? -1 : kreloc_snapshot_module_superseded(s, i);
		if (k >= 0) {
			kreloc_snapshot_module(s, (size_t)k, &n, sizeof(n));
			p_err("%s@%" PRIu64 " (unloaded) left out: %s@%" PRIu64 " was loaded into its "
			      "memory later (select it with --module)", m.name, m.load_gen.value,
			      n.name, n.load_gen.value);
			continue;
		}
		g[nd++].idx = i;
	}
	return nd;
}

/* Each record's .ko, checked, and for gdb (which reads no .ko.xz) a plain copy. */
static int place_records(const struct kreloc_resolver *r, const struct kreloc_snapshot *s,
			 struct gmod *g, size_t nd)
{
	const void *data;
	size_t i, len;
	char err[700];
	int ret = EXIT_OK;

	for (i = 0; i < nd; i++) {
		struct gmod *d = &g[i];

		kreloc_snapshot_module(s, d->idx, &d->m, sizeof(d->m));
		kreloc_resolver_module_file(r, d->idx, &d->f, sizeof(d->f));
		snprintf(d->why, sizeof(d->why), "%s", d->f.why ? d->f.why : "");
		if (d->f.status == KRELOC_FILE_OK) {
			if (!d->f.file.compressed) {
				d->gdb_path = strdup(d->f.file.path);
			} else if (!kreloc_resolver_module_image(r, d->idx, &data, &len)) {
				/* Unpacked once per build id, into kreloc's cache. */
				d->gdb_path = kcache_module(d->f.file.build_id, d->m.name, data, len,
							    err, sizeof(err));
				if (!d->gdb_path)
					snprintf(d->why, sizeof(d->why), "%s is compressed, which gdb "
						 "cannot read, and it could not be unpacked: %s",
						 d->f.file.path, err);
			}
			d->ok = d->gdb_path != NULL;
			if (d->ok)
				continue;
			if (!d->why[0])
				snprintf(d->why, sizeof(d->why), "out of memory");
			p_warn("%s: %s: its symbols are left out", d->m.name, d->why);
			continue;
		}
		if (d->f.status == KRELOC_FILE_MISSING) {
			p_warn("%s: %s: its symbols are left out", d->m.name, d->why);
		} else {
			p_err("%s: %s; left out", d->m.name, d->why);
			if (d->f.status == KRELOC_FILE_UNAVAILABLE && ret == EXIT_OK)
				ret = EXIT_UNAVAILABLE;
			else if (d->f.status == KRELOC_FILE_MISMATCH ||
				 d->f.status == KRELOC_FILE_CORRUPT)
				ret = EXIT_FAIL;
		}
	}
	return ret;
}

/* A file name as gdb's argument parser (gdb_buildargv) reads it back. */
static void gdb_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

struct secs {
	FILE *f;
	json_writer_t *jw;
	uint64_t text;
	bool have_text, text_only;
	size_t n;
};

/* One section gdb places: counted, written as -s NAME ADDR, or as JSON. */
static int one_section(void *ctx, const struct kreloc_symbol *y)
{
	struct secs *c = ctx;

	if (c->jw) {
		jsonw_start_object(c->jw);
		jsonw_string_field(c->jw, "name", y->name);
		jsonw_hex_field(c->jw, "address", y->address);
		jsonw_end_object(c->jw);
	} else if (c->f && !(c->have_text && !strcmp(y->name, ".text"))) {
		fprintf(c->f, " -s %s 0x%" PRIx64, y->name, y->address);
	} else if (!c->f && !strcmp(y->name, ".text")) {
		c->text = y->address;
		c->have_text = true;
	}
	c->n++;
	return 0;
}

static void emit_module(FILE *f, const struct kreloc_resolver *r, const struct gmod *d)
{
	struct secs c = { 0 };

	/* First pass: how many, and .text (add-symbol-file's address). */
	kreloc_resolver_module_sections(r, d->idx, one_section, &c);
	fprintf(f, "# %s: %s, load generation %" PRIu64, d->m.name, d->m.state,
		d->m.load_gen.value);
	if (d->m.unload_gen.known)
		fprintf(f, ", unloaded at generation %" PRIu64 " (its memory may since hold "
			"something else)", d->m.unload_gen.value);
	fprintf(f, "; %zu sections", c.n);
	if (strcmp(d->gdb_path, d->f.file.path))
		fprintf(f, "; unpacked from %s", d->f.file.path);
	if (d->f.file.origin != KRELOC_ORIGIN_LOCAL)
		fprintf(f, "; from %s", kreloc_origin_name(d->f.file.origin));
	fprintf(f, "\nadd-symbol-file ");
	gdb_quote(f, d->gdb_path);
	if (c.have_text)
		fprintf(f, " 0x%" PRIx64, c.text);
	c.f = f;
	kreloc_resolver_module_sections(r, d->idx, one_section, &c);
	fputc('\n', f);
}

static void json_module(json_writer_t *jw, const struct kreloc_resolver *r, const struct gmod *d)
{
	struct secs c = { .jw = jw };

	jsonw_start_object(jw);
	jsonw_string_field(jw, "name", d->m.name);
	jsonw_string_field(jw, "state", d->m.state);
	if (d->m.load_gen.known)
		jsonw_uint_field(jw, "load_gen", d->m.load_gen.value);
	else
		jsonw_null_field(jw, "load_gen");
	if (d->m.unload_gen.known)
		jsonw_uint_field(jw, "unload_gen", d->m.unload_gen.value);
	else
		jsonw_null_field(jw, "unload_gen");
	jsonw_string_field(jw, "ko", d->f.file.path);
	jsonw_string_field(jw, "origin", d->f.file.path ? kreloc_origin_name(d->f.file.origin) :
			   NULL);
	jsonw_string_field(jw, "gdb_file", d->ok ? d->gdb_path : NULL);
	jsonw_string_field(jw, "status", d->f.status == KRELOC_FILE_OK && !d->ok ? "compressed" :
			   file_status_name(d->f.status));
	jsonw_string_field(jw, "reason", d->why[0] ? d->why : NULL);
	jsonw_name(jw, "sections");
	jsonw_start_array(jw);
	if (d->ok)
		kreloc_resolver_module_sections(r, d->idx, one_section, &c);
	jsonw_end_array(jw);
	jsonw_end_object(jw);
}

/* The script (or JSON) into o's file. */
static int write_out(const struct gdb_opts *o, const struct kreloc_snapshot *s,
		     const struct kreloc_resolver *r, const struct gmod *g, size_t nd, uint64_t off)
{
	struct kreloc_snapshot_info si;
	struct kreloc_file_info vf;
	char err[1024];
	struct ofile of;
	json_writer_t *jw;
	size_t i;
	FILE *f;

	kreloc_snapshot_info(s, &si, sizeof(si));
	kreloc_resolver_core_file(r, &vf, sizeof(vf));
	if (ofile_open(&of, o->out, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_FAIL;
	}
	f = of.f;
	if (json_output) {
		/* The placement, to stdout or -o FILE: one object, as every --json. */
		jw = jsonw_new(f);
		if (!jw) {
			p_err("out of memory");
			ofile_commit(&of, true, err, sizeof(err));
			return EXIT_FAIL;
		}
		jsonw_pretty(jw, pretty_output);
		jsonw_start_object(jw);
		jsonw_uint_field(jw, "schema", KRELOC_JSON_SCHEMA);
		jsonw_string_field(jw, "osrelease", si.osrelease);
		jsonw_string_field(jw, "build_id", si.build_id);
		jsonw_string_field(jw, "vmlinux", vf.path);
		jsonw_string_field(jw, "vmlinux_origin", kreloc_origin_name(vf.origin));
		jsonw_hex_field(jw, "offset", off);
		jsonw_name(jw, "modules");
		jsonw_start_array(jw);
		for (i = 0; i < nd; i++)
			json_module(jw, r, &g[i]);
		jsonw_end_array(jw);
		jsonw_end_object(jw);
		fputc('\n', f);
		jsonw_destroy(&jw);
	} else {
		fprintf(f, "# kreloc gdb: symbols of %s (%s, build id %s) from %s\n", si.osrelease,
			si.arch, si.build_id, o->snap ? o->snap : "the running kernel");
		fprintf(f, "# gdb 8.2 or later; source this after connecting to the target.\n");
		fprintf(f, "# vmlinux moved by KERNELOFFSET 0x%" PRIx64 " (_text at 0x%" PRIx64 ")%s%s\n",
			off, si.ref_runtime.known ? si.ref_runtime.value : 0,
			vf.origin != KRELOC_ORIGIN_LOCAL ? "; from " : "",
			vf.origin != KRELOC_ORIGIN_LOCAL ? kreloc_origin_name(vf.origin) : "");
		fprintf(f, "symbol-file -o 0x%" PRIx64 " ", off);
		gdb_quote(f, vf.path);
		fputc('\n', f);
		for (i = 0; i < nd; i++) {
			if (g[i].ok)
				emit_module(f, r, &g[i]);
			else
				fprintf(f, "# %s: left out (%s)\n", g[i].m.name, g[i].why);
		}
	}
	if (ofile_commit(&of, false, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int do_gdb(int argc, char **argv)
{
	struct gdb_opts o = { 0 };
	struct kreloc_snapshot *s = NULL;
	struct kreloc_resolver *r = NULL;
	struct kreloc_snapshot_info si;
	struct gmod *g = NULL;
	size_t i, nd = 0;
	uint64_t off;
	int ret, w;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0) {
		free_opts(&o);
		return ret;
	}
	ret = snapshot_open(o.snap, &s);
	if (ret)
		goto out;
	ret = open_resolver(&o, s, &r);
	if (ret)
		goto out;
	ret = kreloc_snapshot_image_offset(s, &off);
	if (ret) {
		ret = lib_err(ret);
		goto out;
	}
	kreloc_snapshot_info(s, &si, sizeof(si));
	g = calloc(si.nr_modules + 1, sizeof(*g));
	if (!g) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	nd = pick_records(s, &o, g, &ret);
	w = place_records(r, s, g, nd);
	if (w && !ret)
		ret = w;
	w = write_out(&o, s, r, g, nd, off);
	if (w)
		ret = w;
out:
	for (i = 0; i < nd; i++)
		free(g[i].gdb_path);
	free(g);
	free_opts(&o);
	kreloc_resolver_free(r);
	kreloc_snapshot_free(s);
	return ret;
}
