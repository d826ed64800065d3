// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - `kreloc kallsyms`: a /proc/kallsyms of a recorded boot,
 * modules unloaded before the snapshot included, for perf --kallsyms and
 * any other tool that reads that format.
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
#include "kresolve.h"
#include "ofile.h"
#include "../sysmap.h"

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
	"Symbols in core sections without a published offset are left out.  A .ko\n"
	"of another build is left out with the reason (exit 1); a module without a\n"
	"found .ko gets no symbols (a warning).\n";

/* The lowest link-time section start: x86_64's per-CPU symbols lie below. */
static uint64_t lowest_core(const struct ksnap *s)
{
	uint64_t lowest = UINT64_MAX;
	size_t i;

	for (i = 0; i < s->nr_core; i++)
		if (s->core[i].linked.ok && s->core[i].linked.v < lowest)
			lowest = s->core[i].linked.v;
	return lowest;
}

struct core_out {
	FILE *f;
	const struct ks_area *a;
	size_t na;
	uint64_t lowest;
	int width;
	size_t written, dropped;
};

static void core_sym(struct core_out *c, uint64_t addr, char type, const char *name)
{
	size_t i;

	if (type == 'A' || type == 'a' || addr < c->lowest) {
		/* absolute, or per-CPU on x86_64: not moved */
		fprintf(c->f, "%0*" PRIx64 " %c %s\n", c->width, addr, type, name);
		c->written++;
		return;
	}
	for (i = 0; i < c->na; i++)
		if (addr >= c->a[i].lo && addr < c->a[i].hi) {
			fprintf(c->f, "%0*" PRIx64 " %c %s\n", c->width, addr + c->a[i].off, type,
				name);
			c->written++;
			return;
		}
	c->dropped++;
}

/* Section and file symbols are not in kallsyms; the rest is, .LC* labels too. */
static int skip_sym(const struct ksf_sym *y)
{
	return y->stt != STT_NOTYPE && y->stt != STT_FUNC && y->stt != STT_OBJECT;
}

static void core_from_vmlinux(struct core_out *c, const struct ksymfile *v)
{
	size_t i;

	for (i = 0; i < v->nr_syms; i++) {
		const struct ksf_sym *y = &v->syms[i];
		const struct kplace_sec *sec = y->shn == KPLACE_SHN_SEC ? &v->secs[y->shndx] : NULL;
		char t;

		if (skip_sym(y) || y->shn == KPLACE_SHN_UNDEF)
			continue;
		if (sec && !(sec->flags & SHF_ALLOC))
			continue;
		/* nm's letter: upper case for global symbols */
		t = kplace_type(sec, y->shn, y->bind, y->stt, y->bind == STB_GLOBAL);
		core_sym(c, y->value, t, y->name);
	}
}

/* Write one module record's symbols; returns how many. */
static size_t module_syms(FILE *f, int width, const struct kdbg_mod *d, const char *tag)
{
	const struct ksymfile *ko = &d->ko;
	size_t i, n = 0;

	for (i = 0; i < ko->nr_syms; i++) {
		const struct ksf_sym *y = &ko->syms[i];
		const struct kplace_sec *sec;
		const struct ks_mem *k;

		if (skip_sym(y) || y->shn != KPLACE_SHN_SEC)
			continue;
		sec = &ko->secs[y->shndx];
		if (!sec->name || !(sec->flags & SHF_ALLOC) || kplace_unplaced(sec->name))
			continue;
		k = ksnap_mod_section(d->m, sec->name);
		if (!k || !kplace_section_placed(d->m, k))
			continue;
		fprintf(f, "%0*" PRIx64 " %c %s\t[%s]\n", width, k->addr.v + y->value,
			kplace_type(sec, y->shn, y->bind, y->stt, ksf_exported(ko, y->name)),
			y->name, tag);
		n++;
	}
	return n;
}

int do_kallsyms(int argc, char **argv)
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
	static const char *const st[] = { "ok", "missing", "compressed", "mismatch" };
	const char *snap_path = NULL, *map_path = NULL, *vmlinux = NULL, *moddir = NULL;
	const char *out = NULL;
	struct ks_area areas[KSNAP_MAX_CORE];
	struct core_out co = { 0 };
	struct ko_index ix = { 0 };
	struct ksymfile v = { 0 };
	struct kdbg_mod *dm = NULL;
	struct sysmap map = { 0 };
	char err[1024], **tags = NULL;
	size_t *counts = NULL, i, j;
	int c, no_modules = 0, ret = 0, have_gen = 0, have_map = 0;
	uint64_t gen = 0;
	struct ofile o;
	struct ksnap s;
	struct stat sb;

	while ((c = getopt_long(argc, argv, "+:s:m:v:d:g:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's': snap_path = optarg; break;
		case 'm': map_path = optarg; break;
		case 'v': vmlinux = optarg; break;
		case 'd': moddir = optarg; break;
		case 'g': {
			struct kval v;

			if (ksnap_parse_dec(optarg, &v) || !v.ok)
				return usage_err("kallsyms", "--generation %s: a decimal generation",
						 optarg);
			gen = v.v;
			have_gen = 1;
			break;
		}
		case 'o': out = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(kallsyms_help, stdout); return 0;
		default: return opt_err("kallsyms", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("kallsyms", "unexpected argument '%s'", argv[optind]);
	if (!map_path == !vmlinux)
		return usage_err("kallsyms", "give exactly one of --system-map FILE and --vmlinux FILE");
	if (json_output && (!out || !strcmp(out, "-")))
		return usage_err("kallsyms", "--json prints a summary: write the symbols with -o FILE");
	if (moddir && (stat(moddir, &sb) || !S_ISDIR(sb.st_mode)))
		return usage_err("kallsyms", "--modules-dir %s: %s", moddir,
				 errno ? strerror(errno) : "not a directory");
	ret = snap_path ? (ksnap_load(&s, snap_path, err, sizeof(err)) ? EXIT_FAIL : EXIT_OK) :
	      kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		return ret;
	}
	co.na = ksnap_core_areas(&s, areas);
	co.lowest = lowest_core(&s);
	co.a = areas;
	co.width = s.ref_linked.ok && s.ref_linked.v <= 0xffffffffu ? 8 : 16;
	if (!co.na) {
		for (i = 0; i < s.nr_core && !ksnap_core_usable(&s.core[i]); i++)
			;
		if (i < s.nr_core)
			/* An offset, but no section's end: the arch link base alone. */
			p_err("kreloc knows where the kernel moved but not where any core section "
			    "ends (LINKED_SOURCE=%s): build it with the kernel's System.map or "
			    "vmlinux", s.linked_source ? s.linked_source : "unknown");
		else
			p_err("kreloc published no offset for any core section of this boot "
			    "(STATUS=%s)", s.status);
		ret = EXIT_FAIL;
		goto out;
	}
	if (vmlinux) {
		if (ksf_load(&v, vmlinux, 1, err, sizeof(err)) ||
		    kdbg_check_vmlinux(&v, &s, err, sizeof(err))) {
			p_err("%s", err);
			ret = EXIT_FAIL;
			goto out;
		}
	} else {
		const struct sysmap_sym *t;

		if (sysmap_load(&map, map_path)) {
			p_err("%s", map.err);
			ret = EXIT_FAIL;
			goto out;
		}
		have_map = 1;
		if (map.placeholder && !map.nr) {
			p_err("%s: Debian's placeholder System.map (the real one is in the "
			    "linux-image-*-dbg package)", map_path);
			ret = EXIT_FAIL;
			goto out;
		}
		t = sysmap_find(&map, "_text");
		if (!t || !s.ref_linked.ok || t->addr != s.ref_linked.v) {
			p_err("%s: _text is %s, the snapshot's kernel links it at 0x%" PRIx64
			    ": the map of another build", map_path, t ? "elsewhere" : "missing",
			    s.ref_linked.v);
			ret = EXIT_FAIL;
			goto out;
		}
		/* One right _text is not enough: the snapshot's anchors must agree. */
		if (kres_check_map(&s, &map, 0, map_path, err, sizeof(err))) {
			p_err("%s", err);
			ret = EXIT_FAIL;
			goto out;
		}
	}
	ko_index_init(&ix, moddir, true);

	dm = calloc(s.nr_mods + 1, sizeof(*dm));
	tags = calloc(s.nr_mods + 1, sizeof(*tags));
	counts = calloc(s.nr_mods + 1, sizeof(*counts));
	if (!dm || !tags || !counts) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	for (i = 0; i < s.nr_mods; i++) {
		const struct ks_mod *m = &s.mods[i];
		size_t same = 0;
		int plain;

		for (j = 0; j < s.nr_mods; j++)
			same += !strcmp(s.mods[j].name, m->name);
		/*
		 * perf gives a module's [NAME] symbols to the map it found when
		 * recording started: with several records of a name, only the one
		 * live then may carry the plain name.
		 */
		plain = same == 1 || (have_gen && kdbg_live_at(m, gen));
		if (plain)
			tags[i] = strdup(m->name);
		else if (asprintf(&tags[i], "%s@%" PRIu64, m->name, m->load_gen.v) < 0)
			tags[i] = NULL;
		if (!tags[i]) {
			p_err("out of memory");
			ret = EXIT_FAIL;
			goto out;
		}
		if (!plain && !have_gen) {
			for (j = 0; j < i && strcmp(s.mods[j].name, m->name); j++)
				;
			if (j == i)
				p_warn("%s has %zu records: each is tagged [%s@LOAD_GEN]; give "
				    "--generation N (when perf record started) to tag the one live "
				    "then [%s]", m->name, same, m->name, m->name);
		}
		switch (kdbg_place(&dm[i], m, &s, &ix, 1)) {
		case KDBG_OK:
			break;
		case KDBG_MISSING:
		case KDBG_COMPRESSED:
			p_warn("%s: %s: its symbols are left out", m->name, dm[i].why);
			break;
		case KDBG_MISMATCH:
			p_err("%s: %s; left out", m->name, dm[i].why);
			ret = EXIT_FAIL;
			break;
		}
	}

	if (ofile_open(&o, out, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	co.f = o.f;
	if (vmlinux) {
		core_from_vmlinux(&co, &v);
	} else {
		for (i = 0; i < map.nr; i++)
			if (!map.syms[i].module)
				core_sym(&co, map.syms[i].addr, map.syms[i].type, map.syms[i].name);
	}
	for (i = 0; i < s.nr_mods; i++)
		if (dm[i].status == KDBG_OK)
			counts[i] = module_syms(o.f, co.width, &dm[i], tags[i]);
	if (ofile_commit(&o, false, err, sizeof(err))) {
		p_err("%s", err);
		ret = EXIT_FAIL;
		goto out;
	}
	if (json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "output", out);
		jsonw_string_field(json_wtr, "osrelease", s.osrelease);
		jsonw_uint_field(json_wtr, "core_symbols", co.written);
		jsonw_uint_field(json_wtr, "core_left_out", co.dropped);
		jsonw_name(json_wtr, "modules");
		jsonw_start_array(json_wtr);
		for (i = 0; i < s.nr_mods; i++) {
			jsonw_start_object(json_wtr);
			jsonw_string_field(json_wtr, "name", s.mods[i].name);
			jsonw_string_field(json_wtr, "tag", tags[i]);
			jsonw_string_field(json_wtr, "state", s.mods[i].state);
			kdbg_json_gen("load_gen", &s.mods[i].load_gen);
			kdbg_json_gen("unload_gen", &s.mods[i].unload_gen);
			jsonw_string_field(json_wtr, "ko", dm[i].path);
			jsonw_string_field(json_wtr, "status", st[dm[i].status]);
			jsonw_string_field(json_wtr, "reason", dm[i].why[0] ? dm[i].why : NULL);
			jsonw_uint_field(json_wtr, "symbols", counts[i]);
			jsonw_end_object(json_wtr);
		}
		jsonw_end_array(json_wtr);
		json_doc_end();
	}
out:
	for (i = 0; dm && i < s.nr_mods; i++)
		kdbg_mod_free(&dm[i]);
	for (i = 0; tags && i < s.nr_mods; i++)
		free(tags[i]);
	free(tags);
	free(counts);
	free(dm);
	ko_index_free(&ix);
	ksf_free(&v);
	if (have_map)
		sysmap_free(&map);
	ksnap_free(&s);
	return ret;
}
