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
#include "ofile.h"

static const char snapshot_help[] =
	"Usage: kreloc snapshot [--vmcore DUMP] [-o|--output FILE] [--json]\n"
	"Save everything needed to resolve this boot's addresses later, on any\n"
	"machine: release, build id, arch, endianness, ELF ABI, core sections and\n"
	"offsets, anchors, every module record (live and unloaded) with its build\n"
	"id, regions and sections, generation.  Format: SNAPSHOT.md.\n"
	"  --vmcore DUMP       the snapshot of the kernel DUMP was taken of, as it\n"
	"                      stood when it stopped (an ELF vmcore: QEMU's\n"
	"                      dump-guest-memory, /proc/vmcore, makedumpfile -E);\n"
	"                      records the dump does not hold whole are left out,\n"
	"                      with a warning each\n"
	"  -o, --output FILE   write to FILE (default: standard output): a regular\n"
	"                      file is created mode 0600 and replaced atomically; a\n"
	"                      character device or FIFO is written in place; a\n"
	"                      symbolic link or other special file is refused\n"
	"  --json              with -o: print what was written as JSON\n";

int do_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "vmcore", required_argument, NULL, 'v' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *vmcore = NULL;
	struct kreloc_snapshot_info si;
	struct kreloc_snapshot *s;
	char err[1024];
	struct ofile o;
	int c, ret, e;

	while ((c = getopt_long(argc, argv, "+:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'v': vmcore = optarg; break;
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
	if (vmcore) {
		ret = kreloc_snapshot_vmcore(vmcore, &s);
		ret = ret ? lib_err(ret) : EXIT_OK;
	} else {
		ret = snapshot_open(NULL, &s);
	}
	if (ret)
		return ret;
	kreloc_snapshot_info(s, &si, sizeof(si));
	if (!si.modules_tracked)
		p_warn("%s/sys/kernel/debug/kreloc/modules missing: the snapshot has no module "
		       "records (kreloc without module tracking)", root);
	if (strcmp(si.status, "ok"))
		p_warn("STATUS=%s: sections without a published offset will not resolve",
		       si.status);
	if (ofile_open(&o, out, err, sizeof(err))) {
		p_err("%s", err);
		kreloc_snapshot_free(s);
		return EXIT_FAIL;
	}
	e = -kreloc_snapshot_write(s, o.f);
	if (ofile_commit(&o, e != 0, err, sizeof(err))) {
		if (e)
			p_err("%s: %s", out && strcmp(out, "-") ? out : "standard output", strerror(e));
		else
			p_err("%s", err);
		ret = EXIT_FAIL;
	} else if (json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "output", out);
		if (vmcore)
			jsonw_string_field(json_wtr, "vmcore", vmcore);
		jsonw_uint_field(json_wtr, "format", kreloc_snapshot_format());
		jsonw_string_field(json_wtr, "osrelease", si.osrelease);
		jsonw_string_field(json_wtr, "build_id", si.build_id);
		jsonw_string_field(json_wtr, "status", si.status);
		if (si.generation.known)
			jsonw_uint_field(json_wtr, "generation", si.generation.value);
		else
			jsonw_null_field(json_wtr, "generation");
		jsonw_uint_field(json_wtr, "anchors", si.nr_anchors);
		jsonw_uint_field(json_wtr, "modules", si.nr_modules);
		jsonw_bool_field(json_wtr, "modules_tracked", si.modules_tracked);
		json_doc_end();
	}
	kreloc_snapshot_free(s);
	return ret;
}
