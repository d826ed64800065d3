// SPDX-License-Identifier: GPL-2.0
/* show.c - kreloc show: the running kernel's relocation (or a snapshot's). */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "main.h"
#include "debugfs.h"
#include "ksnap.h"

static void jval(const char *name, const struct kval *v, bool hex)
{
	if (!v->ok)
		jsonw_null_field(json_wtr, name);
	else if (hex)
		jsonw_hex_field(json_wtr, name, v->v);
	else
		jsonw_uint_field(json_wtr, name, v->v);
}

static void show_json(const struct ksnap *s, int no_modules)
{
	size_t i, j;
	int kind;

	json_doc_begin();
	jsonw_uint_field(json_wtr, "format", s->version);
	jsonw_string_field(json_wtr, "osrelease", s->osrelease);
	jsonw_string_field(json_wtr, "arch", s->arch);
	jsonw_string_field(json_wtr, "endian", s->endian);
	jsonw_string_field(json_wtr, "elf_abi", s->abi);
	jsonw_string_field(json_wtr, "build_id", s->build_id);
	jsonw_string_field(json_wtr, "status", s->status);
	jsonw_string_field(json_wtr, "init", s->init);
	jsonw_string_field(json_wtr, "linked_source", s->linked_source);
	jval("generation", &s->generation, false);
	jval("kerneloffset", &s->kerneloffset, true);
	jval("ref_linked", &s->ref_linked, true);
	jval("ref_runtime", &s->ref_runtime, true);
	jsonw_name(json_wtr, "sections");
	jsonw_start_array(json_wtr);
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];

		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", c->name);
		jval("linked", &c->linked, true);
		jval("runtime", &c->runtime, true);
		jval("size", &c->size, true);
		jval("offset", &c->offset, true);
		jsonw_string_field(json_wtr, "status", c->status);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_name(json_wtr, "anchors");
	jsonw_start_array(json_wtr);
	for (i = 0; i < s->nr_anchors; i++) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", s->anchors[i].name);
		jval("linked", &s->anchors[i].linked, true);
		jsonw_string_field(json_wtr, "section", s->anchors[i].section);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_bool_field(json_wtr, "modules_tracked", !no_modules);
	jsonw_name(json_wtr, "modules");
	jsonw_start_array(json_wtr);
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", m->name);
		jsonw_string_field(json_wtr, "state", m->state);
		jval("text_base", &m->text_base, true);
		jval("text_size", &m->text_size, true);
		jval("load_gen", &m->load_gen, false);
		jval("unload_gen", &m->unload_gen, false);
		jsonw_string_field(json_wtr, "build_id", m->build_id);
		for (kind = KS_REGION; kind <= KS_SECTION; kind++) {
			jsonw_name(json_wtr, kind == KS_REGION ? "regions" : "sections");
			jsonw_start_array(json_wtr);
			for (j = 0; j < m->nr_mem; j++) {
				const struct ks_mem *k = &m->mem[j];

				if ((int)k->kind != kind)
					continue;
				jsonw_start_object(json_wtr);
				jsonw_string_field(json_wtr, "name", k->name);
				jval("address", &k->addr, true);
				jval("size", &k->size, true);
				jsonw_string_field(json_wtr, "state", k->state);
				jsonw_end_object(json_wtr);
			}
			jsonw_end_array(json_wtr);
		}
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	json_doc_end();
}

static void show_text(const struct ksnap *s, int no_modules)
{
	char a[KVAL_BUF], b[KVAL_BUF], c[KVAL_BUF], d[KVAL_BUF];
	size_t i, j;

	printf("kernel      %s %s (%s-endian, ELF ABI %s)\n", s->osrelease, s->arch,
	       s->endian, s->abi);
	printf("build id    %s\n", s->build_id);
	printf("status      %s   init %s   generation %s\n", s->status, s->init,
	       kval_dec(a, &s->generation));
	printf("offset      %s   (_text linked %s, runtime %s)\n", kval_hex(a, &s->kerneloffset),
	       kval_hex(b, &s->ref_linked), kval_hex(c, &s->ref_runtime));
	printf("\n%-10s %-18s %-18s %-10s %-18s %s\n", "SECTION", "LINKED", "RUNTIME", "SIZE",
	       "OFFSET", "STATUS");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *k = &s->core[i];

		printf("%-10s %-18s %-18s %-10s %-18s %s\n", k->name, kval_hex(a, &k->linked),
		       kval_hex(b, &k->runtime), kval_hex(c, &k->size), kval_hex(d, &k->offset), k->status);
	}
	if (no_modules) {
		printf("\nmodules     (this kreloc module does not track modules)\n");
		return;
	}
	printf("\n%-24s %-7s %-18s %-10s %s\n", "MODULE", "STATE", "TEXT", "SIZE", "LOADED..UNLOADED");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		printf("%-24s %-7s %-18s %-10s %s..%s\n", m->name, m->state, kval_hex(a, &m->text_base),
		       kval_hex(b, &m->text_size), kval_dec(c, &m->load_gen), kval_dec(d, &m->unload_gen));
		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *k = &m->mem[j];

			if (k->kind == KS_REGION && k->size.ok && k->size.v)
				printf("    %-20s %-18s %-10s %s\n", k->name, kval_hex(a, &k->addr),
				       kval_hex(b, &k->size), k->state);
		}
	}
}

static const char show_help[] =
	"Usage: kreloc show [--json] [--snapshot FILE]\n"
	"Show the running kernel's relocation from " KRELOC_DEBUGFS_DIR "\n"
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
	char err[1024];
	struct ksnap s;
	int c, no_modules = 0, ret;

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
	if (snap_path)
		ret = ksnap_load(&s, snap_path, err, sizeof(err)) ? EXIT_FAIL : EXIT_OK;
	else
		ret = kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		return ret;
	}
	if (json_output)
		show_json(&s, no_modules);
	else
		show_text(&s, no_modules);
	ksnap_free(&s);
	return EXIT_OK;
}
