// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - kreloc snapshot: save this boot's relocation for offline use.
 *
 * A snapshot holds the KASLR offset, which kptr_restrict exists to hide:
 * -o FILE goes through ofile.c (0600, replaced atomically; devices and
 * FIFOs written in place, links and other special files refused).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "main.h"
#include "debugfs.h"
#include "ksnap.h"
#include "ofile.h"

static const char snapshot_help[] =
	"Usage: kreloc snapshot [-o|--output FILE] [--json]\n"
	"Save everything needed to resolve this boot's addresses later, on any\n"
	"machine: release, build id, arch, endianness, ELF ABI, core sections and\n"
	"offsets, anchors, every module record (live and unloaded) with its build\n"
	"id, regions and sections, generation.  Format: SNAPSHOT.md.\n"
	"  -o, --output FILE   write to FILE (default: standard output): a regular\n"
	"                      file is created mode 0600 and replaced atomically; a\n"
	"                      character device or FIFO is written in place; a\n"
	"                      symbolic link or other special file is refused\n"
	"  --json              with -o: print what was written as JSON\n";

int do_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	char err[1024];
	struct ofile o;
	struct ksnap s;
	int c, no_modules, ret, e;

	while ((c = getopt_long(argc, argv, "+:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(snapshot_help, stdout); return EXIT_OK;
		default: return opt_err("snapshot", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("snapshot", "unexpected argument '%s'", argv[optind]);
	if (json_output && (!out || !strcmp(out, "-")))
		return usage_err("snapshot", "--json describes the file written: give -o FILE "
				 "(the snapshot itself is text; show --json prints the model)");
	ret = kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		return ret;
	}
	if (no_modules)
		p_warn("%s%s/modules missing: the snapshot has no module records (kreloc "
		       "without module tracking)", root, KRELOC_DEBUGFS_DIR);
	if (strcmp(s.status, "ok"))
		p_warn("STATUS=%s: sections without a published offset will not resolve",
		       s.status);
	if (ofile_open(&o, out, err, sizeof(err))) {
		p_err("%s", err);
		ksnap_free(&s);
		return EXIT_FAIL;
	}
	errno = 0;
	e = ksnap_write(&s, o.f) ? (errno ? errno : EIO) : 0;
	if (ofile_commit(&o, e != 0, err, sizeof(err))) {
		if (e)
			p_err("%s: %s", out && strcmp(out, "-") ? out : "standard output", strerror(e));
		else
			p_err("%s", err);
		ret = EXIT_FAIL;
	} else if (json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "output", out);
		jsonw_uint_field(json_wtr, "format", KSNAP_VERSION);
		jsonw_string_field(json_wtr, "osrelease", s.osrelease);
		jsonw_string_field(json_wtr, "build_id", s.build_id);
		jsonw_string_field(json_wtr, "status", s.status);
		if (s.generation.ok)
			jsonw_uint_field(json_wtr, "generation", s.generation.v);
		else
			jsonw_null_field(json_wtr, "generation");
		jsonw_uint_field(json_wtr, "anchors", s.nr_anchors);
		jsonw_uint_field(json_wtr, "modules", s.nr_mods);
		jsonw_bool_field(json_wtr, "modules_tracked", !no_modules);
		json_doc_end();
	}
	ksnap_free(&s);
	return ret;
}
