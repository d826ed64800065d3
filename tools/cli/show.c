// SPDX-License-Identifier: GPL-2.0
/* show.c - kreloc show: the running kernel's relocation (or a snapshot's). */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "main.h"

static void jval(const char *name, const struct kreloc_value *v, bool hex)
{
	if (!v->known)
		jsonw_null_field(json_wtr, name);
	else if (hex)
		jsonw_hex_field(json_wtr, name, v->value);
	else
		jsonw_uint_field(json_wtr, name, v->value);
}

/* The getters of kreloc's times, alike: what (an event or a snapshot time) of record i. */
typedef int (*time_fn)(const struct kreloc_snapshot *s, size_t i, int what,
		       enum kreloc_clock clock, uint64_t *ns);

static int snapshot_time(const struct kreloc_snapshot *s, size_t i, int what,
			 enum kreloc_clock clock, uint64_t *ns)
{
	(void)i;
	return kreloc_snapshot_time(s, (enum kreloc_snapshot_time)what, clock, ns);
}

static int module_time(const struct kreloc_snapshot *s, size_t i, int what,
		       enum kreloc_clock clock, uint64_t *ns)
{
	return kreloc_snapshot_module_time(s, i, (enum kreloc_module_event)what, clock, ns);
}

/*
 * WHAT_local_ns and WHAT_mono_ns for each of the n names (in the order of
 * the getter's enum): decimal nanoseconds, or null where kreloc did not
 * see it.
 */
static void json_times(const struct kreloc_snapshot *s, size_t i, const char *const *names,
		       int n, time_fn get)
{
	static const enum kreloc_clock clocks[] = { KRELOC_CLOCK_LOCAL, KRELOC_CLOCK_MONOTONIC };
	char name[32];
	uint64_t ns;
	int w, c;

	for (w = 0; w < n; w++)
		for (c = 0; c < 2; c++) {
			snprintf(name, sizeof(name), "%s_%s_ns", names[w], c ? "mono" : "local");
			if (get(s, i, w, clocks[c], &ns))
				jsonw_null_field(json_wtr, name);
			else
				jsonw_uint_field(json_wtr, name, ns);
		}
}

static void show_json(const struct kreloc_snapshot *s)
{
	struct kreloc_snapshot_info si;
	struct kreloc_section_info c;
	struct kreloc_anchor_info a;
	struct kreloc_module_info m;
	struct kreloc_mem_info k;
	size_t i, j;
	int kind;

	kreloc_snapshot_info(s, &si, sizeof(si));
	json_doc_begin();
	jsonw_uint_field(json_wtr, "format", si.format);
	jsonw_string_field(json_wtr, "osrelease", si.osrelease);
	jsonw_string_field(json_wtr, "arch", si.arch);
	jsonw_string_field(json_wtr, "endian", si.endian);
	jsonw_string_field(json_wtr, "elf_abi", si.elf_abi);
	jsonw_string_field(json_wtr, "build_id", si.build_id);
	jsonw_string_field(json_wtr, "status", si.status);
	jsonw_string_field(json_wtr, "init", si.init);
	jsonw_string_field(json_wtr, "linked_source", si.linked_source);
	jval("generation", &si.generation, false);
	jval("kerneloffset", &si.kerneloffset, true);
	jval("ref_linked", &si.ref_linked, true);
	jval("ref_runtime", &si.ref_runtime, true);
	json_times(s, 0, (const char *const[]){ "taken", "since", "init_freed_by" }, 3,
		   snapshot_time);
	jsonw_name(json_wtr, "sections");
	jsonw_start_array(json_wtr);
	for (i = 0; !kreloc_snapshot_section(s, i, &c, sizeof(c)); i++) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", c.name);
		jval("linked", &c.linked, true);
		jval("runtime", &c.runtime, true);
		jval("size", &c.size, true);
		jval("offset", &c.offset, true);
		jsonw_string_field(json_wtr, "status", c.status);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_name(json_wtr, "anchors");
	jsonw_start_array(json_wtr);
	for (i = 0; !kreloc_snapshot_anchor(s, i, &a, sizeof(a)); i++) {
		struct kreloc_value v = { a.linked, true };

		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", a.name);
		jval("linked", &v, true);
		jsonw_string_field(json_wtr, "section", a.section);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_bool_field(json_wtr, "modules_tracked", si.modules_tracked);
	jsonw_name(json_wtr, "modules");
	jsonw_start_array(json_wtr);
	for (i = 0; !kreloc_snapshot_module(s, i, &m, sizeof(m)); i++) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", m.name);
		jsonw_string_field(json_wtr, "state", m.state);
		jval("text_base", &m.text_base, true);
		jval("text_size", &m.text_size, true);
		jval("load_gen", &m.load_gen, false);
		jval("unload_gen", &m.unload_gen, false);
		jsonw_string_field(json_wtr, "build_id", m.build_id);
		json_times(s, i, (const char *const[]){ "load", "init", "unload" }, 3, module_time);
		for (kind = KRELOC_MEM_REGION; kind <= KRELOC_MEM_SECTION; kind++) {
			jsonw_name(json_wtr, kind == KRELOC_MEM_REGION ? "regions" : "sections");
			jsonw_start_array(json_wtr);
			for (j = 0; !kreloc_snapshot_module_mem(s, i, j, &k, sizeof(k)); j++) {
				if ((int)k.kind != kind)
					continue;
				jsonw_start_object(json_wtr);
				jsonw_string_field(json_wtr, "name", k.name);
				jval("address", &k.address, true);
				jval("size", &k.size, true);
				jsonw_string_field(json_wtr, "state", k.state);
				jsonw_end_object(json_wtr);
			}
			jsonw_end_array(json_wtr);
		}
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	json_doc_end();
}

static void show_text(const struct kreloc_snapshot *s)
{
	char a[VAL_BUF], b[VAL_BUF], c[VAL_BUF], d[VAL_BUF];
	struct kreloc_snapshot_info si;
	struct kreloc_section_info k;
	struct kreloc_module_info m;
	struct kreloc_mem_info r;
	size_t i, j;

	kreloc_snapshot_info(s, &si, sizeof(si));
	printf("kernel      %s %s (%s-endian, ELF ABI %s)\n", si.osrelease, si.arch, si.endian,
	       si.elf_abi);
	printf("build id    %s\n", si.build_id);
	printf("status      %s   init %s   generation %s\n", si.status, si.init,
	       val_dec(a, &si.generation));
	printf("offset      %s   (_text linked %s, runtime %s)\n", val_hex(a, &si.kerneloffset),
	       val_hex(b, &si.ref_linked), val_hex(c, &si.ref_runtime));
	printf("\n%-10s %-18s %-18s %-10s %-18s %s\n", "SECTION", "LINKED", "RUNTIME", "SIZE",
	       "OFFSET", "STATUS");
	for (i = 0; !kreloc_snapshot_section(s, i, &k, sizeof(k)); i++)
		printf("%-10s %-18s %-18s %-10s %-18s %s\n", k.name, val_hex(a, &k.linked),
		       val_hex(b, &k.runtime), val_hex(c, &k.size), val_hex(d, &k.offset), k.status);
	if (!si.modules_tracked) {
		printf("\nmodules     (this kreloc module does not track modules)\n");
		return;
	}
	printf("\n%-24s %-7s %-18s %-10s %s\n", "MODULE", "STATE", "TEXT", "SIZE", "LOADED..UNLOADED");
	for (i = 0; !kreloc_snapshot_module(s, i, &m, sizeof(m)); i++) {
		printf("%-24s %-7s %-18s %-10s %s..%s\n", m.name, m.state, val_hex(a, &m.text_base),
		       val_hex(b, &m.text_size), val_dec(c, &m.load_gen), val_dec(d, &m.unload_gen));
		for (j = 0; !kreloc_snapshot_module_mem(s, i, j, &r, sizeof(r)); j++)
			if (r.kind == KRELOC_MEM_REGION && r.size.known && r.size.value)
				printf("    %-20s %-18s %-10s %s\n", r.name, val_hex(a, &r.address),
				       val_hex(b, &r.size), r.state);
	}
}

static const char show_help[] =
	"Usage: kreloc show [--json] [--snapshot FILE]\n"
	"Show the running kernel's relocation from /sys/kernel/debug/kreloc\n"
	"(or a saved snapshot): core sections, offsets and module records.\n";

int do_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "snapshot", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *snap_path = NULL;
	struct kreloc_snapshot *s;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+:js:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json_output = true; break;
		case 's': snap_path = optarg; break;
		case 'h': fputs(show_help, stdout); return EXIT_OK;
		default: return opt_err("show", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("show", "unexpected argument '%s'", argv[optind]);
	ret = snapshot_open(snap_path, &s);
	if (ret)
		return ret;
	if (json_output)
		show_json(s);
	else
		show_text(s);
	kreloc_snapshot_free(s);
	return EXIT_OK;
}
