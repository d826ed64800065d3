// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - kreloc probe: a kprobe from a symbol or a link-time address.
 *
 * libkreloc parses the spec and says where the probe goes
 * (kreloc_probe_locate(): kreloc's lookup file, /proc/kallsyms without
 * one, vmlinux:0xLINKED through the published text offset, freed init
 * text refused); this file names the event, checks the kprobe blacklist
 * and writes kprobe_events (tracefs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "main.h"
#include "tracefs.h"

/* The longest spec: module, ':', symbol, "+0x" and 16 digits. */
#define KRELOC_SPEC_TEXT_MAX (KRELOC_MODULE_NAME_MAX + KRELOC_SYMBOL_NAME_MAX + 24)

static const char probe_help[] =
	"Usage: kreloc probe [--dry-run] [--group G] [--event E] [--json] SPEC [FETCHARGS...]\n"
	"       kreloc probe [--json] --remove G/E\n"
	"SPEC: sym, sym+OFF, .sym, mod:sym[+OFF], or vmlinux:0xLINKED (a link-time\n"
	"address as objdump/DWARF tools print it).  Writes to tracefs kprobe_events\n"
	"  p:G/E 0xRUNTIME [FETCHARGS]      for the core kernel (unambiguous)\n"
	"  p:G/E MOD:SYM+0xOFF [FETCHARGS]  for a module symbol (follows reloads)\n"
	"Refuses blacklisted addresses and freed init text (exit 3).  Prints the\n"
	"kernel's reason for a refusal: lookup's ERR line, tracefs error_log.\n"
	"Defaults: G=kreloc, E derived from SPEC.\n";

static int probe_remove(const char *ge)
{
	char g[128], line[300];
	const char *slash = strchr(ge, '/');
	int ret;

	if (!slash || (size_t)(slash - ge) >= sizeof(g))
		return usage_err("probe", "--remove takes GROUP/EVENT");
	memcpy(g, ge, (size_t)(slash - ge));
	g[slash - ge] = '\0';
	if (!tracefs_event_name_ok(g) || !tracefs_event_name_ok(slash + 1))
		return usage_err("probe", "--remove %s: bad group or event name", ge);
	snprintf(line, sizeof(line), "-:%s/%s\n", g, slash + 1);
	ret = tracefs_write_events(line);
	if (!ret && json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "removed", ge);
		jsonw_name(json_wtr, "kprobe_events");
		jsonw_string_len(json_wtr, line, strlen(line) - 1);
		json_doc_end();
	}
	return ret;
}

static void default_event(char *ev, size_t len, const struct kreloc_probe_spec *cs)
{
	size_t i, n;

	if (cs->linked)
		snprintf(ev, len, "vmlinux_%" PRIx64, cs->linked_address);
	else if (cs->module[0])
		snprintf(ev, len, "%s_%s", cs->module, cs->symbol);
	else
		snprintf(ev, len, "%s", cs->symbol);
	n = strlen(ev);
	if (!cs->linked && cs->offset && n + 20 < len)
		snprintf(ev + n, len - n, "_%" PRIx64, cs->offset);
	for (i = 0; ev[i]; i++)
		if (!((ev[i] >= 'a' && ev[i] <= 'z') || (ev[i] >= 'A' && ev[i] <= 'Z') ||
		      (ev[i] >= '0' && ev[i] <= '9') || ev[i] == '_'))
			ev[i] = '_';
	while (ev[0] == '_' && ev[1])
		memmove(ev, ev + 1, strlen(ev));
	if (ev[0] >= '0' && ev[0] <= '9')
		ev[0] = '_';
	ev[63] = '\0';
}

int do_probe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "group", required_argument, NULL, 'g' },
		{ "event", required_argument, NULL, 'e' },
		{ "remove", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *group = "kreloc", *event = NULL, *remove = NULL;
	char ev[KRELOC_SPEC_TEXT_MAX + 160], bl[4200];
	char blsym[512], target[KRELOC_SPEC_TEXT_MAX + 128], dir[4096];
	int c, dry = 0, ret, i, modstyle;
	struct kreloc_probe_spec cs;
	struct kreloc_probe_info pi;
	struct kreloc_snapshot *s;
	const char *name;
	uint64_t addr;
	char *line = NULL;
	size_t linelen = 0;
	FILE *lf;

	while ((c = getopt_long(argc, argv, "+:ng:e:r:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'g': group = optarg; break;
		case 'e': event = optarg; break;
		case 'r': remove = optarg; break;
		case 'j': json_output = true; break;
		case 'h': fputs(probe_help, stdout); return EXIT_OK;
		default: return opt_err("probe", c, argv);
		}
	}
	if (remove) {
		if (optind != argc)
			return usage_err("probe", "--remove takes no SPEC");
		return probe_remove(remove);
	}
	if (optind >= argc)
		return usage_err("probe", "missing SPEC");
	if (kreloc_probe_spec_parse(argv[optind], &cs, sizeof(cs)))
		return usage_err("probe", "%s: %s", argv[optind], kreloc_errmsg());
	if (!tracefs_event_name_ok(group))
		return usage_err("probe", "bad group name '%s'", group);
	if (event && !tracefs_event_name_ok(event))
		return usage_err("probe", "bad event name '%s'", event);
	for (i = optind + 1; i < argc; i++)
		if (strpbrk(argv[i], "\n\r") || !argv[i][0])
			return usage_err("probe", "bad FETCHARG '%s'", argv[i]);

	ret = snapshot_open(NULL, &s);
	if (ret)
		return ret;
	ret = kreloc_probe_locate(s, lib_root(), argv[optind], &pi, sizeof(pi));
	if (ret) {
		ret = lib_err(ret);
		goto out_snap;
	}
	addr = pi.address;
	name = pi.symbol[0] ? pi.symbol : cs.symbol;
	modstyle = pi.module[0] != '\0';
	if (tracefs_blacklisted(addr, blsym, sizeof(blsym), bl, sizeof(bl))) {
		p_err("%s (0x%" PRIx64 ") is on the kprobe blacklist (%s: %s)", argv[optind], addr,
		      bl, blsym);
		ret = EXIT_REFUSED;
		goto out_snap;
	}
	if (!event) {
		default_event(ev, sizeof(ev), &cs);
		event = ev;
	}
	/*
	 * Core kernel: the absolute runtime address, which names exactly one
	 * instruction (no duplicate-name ambiguity, no _text+OFF on ppc64 ELFv1).
	 * Module: MOD:SYM+OFF, so the kernel re-arms it when the module reloads.
	 */
	if (modstyle)
		snprintf(target, sizeof(target), "%s:%s+0x%" PRIx64, cs.module, name, cs.offset);
	else
		snprintf(target, sizeof(target), "0x%" PRIx64, addr);
	lf = open_memstream(&line, &linelen);
	if (!lf) {
		ret = EXIT_FAIL;
		goto out_snap;
	}
	fprintf(lf, "p:%s/%s %s", group, event, target);
	for (i = optind + 1; i < argc; i++)
		fprintf(lf, " %s", argv[i]);
	fputc('\n', lf);
	if (fclose(lf)) {
		ret = EXIT_FAIL;
		goto out_snap;
	}
	if (!dry)
		ret = tracefs_write_events(line);
	if (!ret && json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "spec", argv[optind]);
		jsonw_hex_field(json_wtr, "address", addr);
		jsonw_string_field(json_wtr, "group", group);
		jsonw_string_field(json_wtr, "event", event);
		jsonw_name(json_wtr, "kprobe_events");
		jsonw_string_len(json_wtr, line, strlen(line) - 1);
		jsonw_bool_field(json_wtr, "added", !dry);
		json_doc_end();
	} else if (!ret) {
		fputs(line, stdout);
	}
	if (!ret && !dry)
		fprintf(stderr, "kreloc: added %s/%s at 0x%" PRIx64 "; enable with: echo 1 > "
			"%s/events/%s/%s/enable\n", group, event, addr,
			tracefs_dir(dir, sizeof(dir)) ? dir : "TRACEFS", group, event);
	free(line);
out_snap:
	kreloc_snapshot_free(s);
	return ret;
}
