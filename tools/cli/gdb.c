// SPDX-License-Identifier: GPL-2.0
/*
 * gdb.c - `kreloc gdb`: a gdb script that loads vmlinux at the boot's
 * offset and every module's .ko with each section at its recorded address,
 * from the running kernel or a snapshot, unloaded modules included.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "main.h"
#include "debugfs.h"
#include "kdbg.h"
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
	"                      /boot/vmlinux-REL or /lib/modules/REL/build/vmlinux)\n"
	"  --modules-dir DIR   where NAME.ko files are searched, recursively (default:\n"
	"                      /usr/lib/debug/lib/modules/REL, else /lib/modules/REL)\n"
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

/* The defaults for a release, when they exist. */
static const char *default_vmlinux(const char *rel, char *buf, size_t len)
{
	static const char *const fmt[] = {
		"/usr/lib/debug/boot/vmlinux-%s",		/* Debian, Ubuntu -dbg(sym) */
		"/usr/lib/debug/lib/modules/%s/vmlinux",	/* Fedora, RHEL debuginfo */
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		NULL,
	};
	struct stat st;
	size_t i;

	for (i = 0; fmt[i]; i++) {
		if ((size_t)snprintf(buf, len, fmt[i], rel) >= len)
			return NULL;
		if (!stat(buf, &st) && S_ISREG(st.st_mode))
			return buf;
	}
	return NULL;
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

struct sel {
	char name[KSNAP_NAME_MAX];
	uint64_t gen;
	int has_gen, used;
};

static int parse_sel(const char *arg, struct sel *s)
{
	const char *at = strchr(arg, '@');
	size_t n = at ? (size_t)(at - arg) : strlen(arg);

	memset(s, 0, sizeof(*s));
	if (!n || n >= sizeof(s->name))
		return -1;
	memcpy(s->name, arg, n);
	if (at) {
		struct kval v;

		/* Digits only, and a value that fits: no sign, no wrap to ULLONG_MAX. */
		if (ksnap_parse_dec(at + 1, &v) || !v.ok)
			return -1;
		s->gen = v.v;
		s->has_gen = 1;
	}
	return 0;
}

static int same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return 0;
	return !*a && !*b;
}

/* The newest record of that name. */
static const struct ks_mod *newest(const struct ksnap *s, const char *name)
{
	const struct ks_mod *best = NULL;
	size_t i;

	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		if (same_name(m->name, name) &&
		    (!best || (m->load_gen.ok && (!best->load_gen.ok ||
						  m->load_gen.v >= best->load_gen.v))))
			best = m;
	}
	return best;
}

/* Does any region of a overlap any region of b? */
static int overlaps(const struct ks_mod *a, const struct ks_mod *b)
{
	size_t i, j;

	for (i = 0; i < a->nr_mem; i++) {
		const struct ks_mem *x = &a->mem[i];

		if (x->kind != KS_REGION || !x->addr.ok || !x->size.ok || !x->size.v)
			continue;
		for (j = 0; j < b->nr_mem; j++) {
			const struct ks_mem *y = &b->mem[j];

			if (y->kind == KS_REGION && y->addr.ok && y->size.ok && y->size.v &&
			    x->addr.v < y->addr.v + y->size.v && y->addr.v < x->addr.v + x->size.v)
				return 1;
		}
	}
	return 0;
}

/* The record sections gdb should place: loaded by the kernel and by gdb. */
static int gdb_section(const struct kdbg_mod *d, const struct ks_mem *k)
{
	const struct kplace_sec *s;

	if (!kplace_section_placed(d->m, k))
		return 0;
	s = ksf_section(&d->ko, k->name);
	return s && (s->flags & SHF_ALLOC) && s->size;
}

static void emit_module(FILE *f, const struct kdbg_mod *d)
{
	const struct ks_mod *m = d->m;
	const struct ks_mem *text = ksnap_mod_section(m, ".text");
	size_t i, n = 0;

	for (i = 0; i < m->nr_mem; i++)
		n += gdb_section(d, &m->mem[i]);
	fprintf(f, "# %s: %s, load generation %" PRIu64, m->name, m->state, m->load_gen.v);
	if (m->unload_gen.ok)
		fprintf(f, ", unloaded at generation %" PRIu64 " (its memory may since hold "
			"something else)", m->unload_gen.v);
	fprintf(f, "; %zu sections", n);
	if (strcmp(d->gdb_path, d->path))
		fprintf(f, "; unpacked from %s", d->path);
	fprintf(f, "\nadd-symbol-file ");
	gdb_quote(f, d->gdb_path);
	if (text && gdb_section(d, text))
		fprintf(f, " 0x%" PRIx64, text->addr.v);
	else
		text = NULL;
	for (i = 0; i < m->nr_mem; i++) {
		const struct ks_mem *k = &m->mem[i];

		if (k != text && gdb_section(d, k))
			fprintf(f, " -s %s 0x%" PRIx64, k->name, k->addr.v);
	}
	fputc('\n', f);
}

static void json_module(json_writer_t *jw, const struct kdbg_mod *d)
{
	const struct ks_mod *m = d->m;
	static const char *const st[] = { "ok", "missing", "compressed", "mismatch" };
	size_t i;

	jsonw_start_object(jw);
	jsonw_string_field(jw, "name", m->name);
	jsonw_string_field(jw, "state", m->state);
	if (m->load_gen.ok)
		jsonw_uint_field(jw, "load_gen", m->load_gen.v);
	else
		jsonw_null_field(jw, "load_gen");
	if (m->unload_gen.ok)
		jsonw_uint_field(jw, "unload_gen", m->unload_gen.v);
	else
		jsonw_null_field(jw, "unload_gen");
	jsonw_string_field(jw, "ko", d->path);
	jsonw_string_field(jw, "gdb_file", d->status == KDBG_OK ? d->gdb_path : NULL);
	jsonw_string_field(jw, "status", st[d->status]);
	jsonw_string_field(jw, "reason", d->why[0] ? d->why : NULL);
	jsonw_name(jw, "sections");
	jsonw_start_array(jw);
	for (i = 0; d->status == KDBG_OK && i < m->nr_mem; i++) {
		if (!gdb_section(d, &m->mem[i]))
			continue;
		jsonw_start_object(jw);
		jsonw_string_field(jw, "name", m->mem[i].name);
		jsonw_hex_field(jw, "address", m->mem[i].addr.v);
		jsonw_end_object(jw);
	}
	jsonw_end_array(jw);
	jsonw_end_object(jw);
}

int do_gdb(int argc, char **argv)
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
	const char *snap_path = NULL, *vmlinux = NULL, *moddir = NULL, *out = NULL;
	char err[1024], vbuf[4096], dbuf[4096];
	struct sel *sels = NULL;
	size_t nsel = 0, i, j, nd = 0;
	int c, history = 0, no_modules = 0, ret = 0;
	struct kdbg_mod *dm = NULL;
	struct ko_index ix = { 0 };
	struct ksymfile v = { 0 };
	struct ofile o;
	uint64_t off;
	struct ksnap s;
	struct stat st;
	FILE *f;

	while ((c = getopt_long(argc, argv, "+:s:v:d:Hm:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's': snap_path = optarg; break;
		case 'v': vmlinux = optarg; break;
		case 'd': moddir = optarg; break;
		case 'H': history = 1; break;
		case 'm': {
			struct sel *n = realloc(sels, (nsel + 1) * sizeof(*sels));

			if (!n) {
				free(sels);
				p_err("out of memory");
				return EXIT_FAIL;
			}
			sels = n;
			if (parse_sel(optarg, &sels[nsel])) {
				free(sels);
				return usage_err("gdb", "--module %s: NAME or NAME@LOAD_GEN", optarg);
			}
			nsel++;
			break;
		}
		case 'o': out = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(gdb_help, stdout); return 0;
		default: free(sels); return opt_err("gdb", c, argv);
		}
	}
	if (optind != argc) {
		free(sels);
		return usage_err("gdb", "unexpected argument '%s'", argv[optind]);
	}
	if (moddir && (stat(moddir, &st) || !S_ISDIR(st.st_mode))) {
		free(sels);
		return usage_err("gdb", "--modules-dir %s: %s", moddir,
				 errno ? strerror(errno) : "not a directory");
	}
	ret = snap_path ? (ksnap_load(&s, snap_path, err, sizeof(err)) ? EXIT_FAIL : EXIT_OK) :
	      kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		free(sels);
		return ret;
	}
	if (!vmlinux && !(vmlinux = default_vmlinux(s.osrelease, vbuf, sizeof(vbuf)))) {
		p_err("no vmlinux with symbols for %s found (install the kernel's -dbg package "
		    "or give --vmlinux FILE)", s.osrelease);
		ret = EXIT_FAIL;
		goto out;
	}
	if (ksf_load(&v, vmlinux, 1, err, sizeof(err)) ||
	    kdbg_check_vmlinux(&v, &s, err, sizeof(err)) ||
	    kdbg_image_offset(&s, &off, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	if (!moddir)
		moddir = default_moddir(s.osrelease, dbuf, sizeof(dbuf));
	ko_index_init(&ix, moddir, true);

	/* The records: chosen ones, or the loaded ones (and the history). */
	dm = calloc(s.nr_mods + 1, sizeof(*dm));
	if (!dm) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < s.nr_mods; i++) {
		const struct ks_mod *m = &s.mods[i];
		int want = 0;

		if (nsel) {
			for (j = 0; j < nsel; j++) {
				if (!same_name(sels[j].name, m->name))
					continue;
				if (sels[j].has_gen ? m->load_gen.ok && m->load_gen.v == sels[j].gen :
				    newest(&s, sels[j].name) == m) {
					want = 1;
					sels[j].used = 1;
				}
			}
		} else {
			want = kdbg_is_loaded(m) || history;
			/* An older record under a newer one would give two names per address. */
			for (j = 0; want && !kdbg_is_loaded(m) && j < s.nr_mods; j++) {
				const struct ks_mod *n = &s.mods[j];

				if (n != m && n->load_gen.ok && m->load_gen.ok &&
				    n->load_gen.v > m->load_gen.v && overlaps(m, n)) {
					p_err("%s@%" PRIu64 " (unloaded) left out: %s@%" PRIu64 " was "
					    "loaded into its memory later (select it with --module)",
					    m->name, m->load_gen.v, n->name, n->load_gen.v);
					want = 0;
				}
			}
		}
		if (!want)
			continue;
		switch (kdbg_place(&dm[nd], m, &s, &ix, 0)) {
		case KDBG_OK:
			/* gdb reads no .ko.xz: an unpacked copy, once per build id. */
			if (!kdbg_gdb_file(&dm[nd]))
				break;
			/* fall through */
		case KDBG_MISSING:
		case KDBG_COMPRESSED:
			p_warn("%s: %s: its symbols are left out", m->name, dm[nd].why);
			break;
		case KDBG_MISMATCH:
			p_err("%s: %s; left out", m->name, dm[nd].why);
			ret = EXIT_FAIL;
			break;
		}
		nd++;
	}
	for (j = 0; j < nsel; j++)
		if (!sels[j].used) {
			if (sels[j].has_gen)
				p_err("--module %s@%" PRIu64 ": no such record", sels[j].name,
				    sels[j].gen);
			else
				p_err("--module %s: no such record", sels[j].name);
			ret = EXIT_FAIL;
		}

	if (ofile_open(&o, out, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	f = o.f;
	if (json_output) {
		/* The placement, to stdout or -o FILE: one object, as every --json. */
		json_writer_t *jw = jsonw_new(f);

		if (!jw) {
			p_err("out of memory");
			ofile_commit(&o, true, err, sizeof(err));
			ret = EXIT_FAIL;
			goto out;
		}
		jsonw_pretty(jw, pretty_output);
		jsonw_start_object(jw);
		jsonw_uint_field(jw, "schema", KRELOC_JSON_SCHEMA);
		jsonw_string_field(jw, "osrelease", s.osrelease);
		jsonw_string_field(jw, "build_id", s.build_id);
		jsonw_string_field(jw, "vmlinux", v.path);
		jsonw_hex_field(jw, "offset", off);
		jsonw_name(jw, "modules");
		jsonw_start_array(jw);
		for (i = 0; i < nd; i++)
			json_module(jw, &dm[i]);
		jsonw_end_array(jw);
		jsonw_end_object(jw);
		fputc('\n', f);
		jsonw_destroy(&jw);
	} else {
		fprintf(f, "# kreloc gdb: symbols of %s (%s, build id %s) from %s\n", s.osrelease,
			s.arch, s.build_id, snap_path ? snap_path : "the running kernel");
		fprintf(f, "# gdb 8.2 or later; source this after connecting to the target.\n");
		fprintf(f, "# vmlinux moved by KERNELOFFSET 0x%" PRIx64 " (_text at 0x%" PRIx64 ")\n",
			off, s.ref_runtime.ok ? s.ref_runtime.v : 0);
		fprintf(f, "symbol-file -o 0x%" PRIx64 " ", off);
		gdb_quote(f, v.path);
		fputc('\n', f);
		for (i = 0; i < nd; i++) {
			if (dm[i].status == KDBG_OK)
				emit_module(f, &dm[i]);
			else
				fprintf(f, "# %s: left out (%s)\n", dm[i].m->name, dm[i].why);
		}
	}
	if (ofile_commit(&o, false, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
	}
out:
	for (i = 0; i < nd; i++)
		kdbg_mod_free(&dm[i]);
	free(dm);
	free(sels);
	ko_index_free(&ix);
	ksf_free(&v);
	ksnap_free(&s);
	return ret;
}
