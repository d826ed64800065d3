// SPDX-License-Identifier: GPL-2.0
/*
 * probe.c - kreloc probe: a kprobe from a symbol or a link-time address.
 *
 * The spec grammar is the module's (lib/kreloc_spec.c: sym, .sym, mod:sym,
 * each with +OFF), plus vmlinux:0xLINKED, which only the CLI knows: it is
 * turned into a runtime address with the published text offset and never
 * sent to the module.  Symbols go to the module's lookup file, which knows
 * where kprobes put a probe; without one (an older kreloc), /proc/kallsyms
 * with the same dot-first policy (kreloc_spec_candidates()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "main.h"
#include "debugfs.h"
#include "ksnap.h"
#include "spec.h"
#include "tracefs.h"
#include "../sysmap.h"

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

/*
 * Without a lookup file: a unique kallsyms entry for the spec's
 * candidates, in order (core when the spec has no module).
 */
static int kallsyms_unique(const struct cli_spec *cs, bool dot_first, uint64_t *addr,
			   char *used, size_t usedlen)
{
	char cand[2][KRELOC_SPEC_MAX], kpath[4200];
	const struct sysmap_sym *hit = NULL;
	struct sysmap map;
	struct kreloc_spec bare = cs->spec;
	size_t cnt = 0, i;
	int nc, k;

	path_in(kpath, sizeof(kpath), "/proc/kallsyms");
	if (sysmap_load(&map, kpath)) {
		p_err("%s", map.err);
		return EXIT_FAIL;
	}
	bare.mod[0] = '\0';	/* candidates without "mod:": the module is matched apart */
	nc = kreloc_spec_candidates(&bare, dot_first, cand);
	for (k = 0; k < nc && !cnt; k++) {
		for (i = 0; i < map.nr; i++) {
			const struct sysmap_sym *s = &map.syms[i];

			if (strcmp(s->name, cand[k]))
				continue;
			if (cs->spec.mod[0] ? !s->module || strcmp(s->module, cs->mod) : !!s->module)
				continue;
			if (!cnt++)
				hit = s;
		}
		if (cnt)
			snprintf(used, usedlen, "%.*s", (int)usedlen - 1, cand[k]);
	}
	if (!cnt) {
		p_err("%s: no symbol %s", kpath, cs->text);
		sysmap_free(&map);
		return EXIT_FAIL;
	}
	if (cnt > 1) {
		p_err("%s: symbol %s is not unique (%zu entries): use vmlinux:0xLINKED, or "
		      "mod:sym for a module", kpath, used, cnt);
		sysmap_free(&map);
		return EXIT_FAIL;
	}
	if (!hit->addr) {
		p_err("%s: %s shows address 0: not allowed to see kernel addresses (need root "
		      "or CAP_SYSLOG, kptr_restrict)", kpath, used);
		sysmap_free(&map);
		return EXIT_REFUSED;
	}
	/*
	 * The core kernel is probed by absolute address: the kernel cannot
	 * check SYM+OFF, so it is checked here, as lookup does (the size up to
	 * the next symbol, as kallsyms_lookup_size_offset() gives it).
	 */
	if (cs->spec.offset) {
		uint64_t size = sysmap_extent(&map, hit);

		if (!size || cs->spec.offset >= size || hit->addr + cs->spec.offset < hit->addr) {
			if (size)
				p_err("%s: offset 0x%" PRIx64 " past the end of %s (size 0x%" PRIx64 ")",
				      cs->text, (uint64_t)cs->spec.offset, used, size);
			else
				p_err("%s: offset 0x%" PRIx64 ": %s has no following symbol in %s to "
				      "tell its size", cs->text, (uint64_t)cs->spec.offset, used, kpath);
			sysmap_free(&map);
			return EXIT_FAIL;
		}
	}
	*addr = hit->addr + cs->spec.offset;
	sysmap_free(&map);
	return EXIT_OK;
}

static void default_event(char *ev, size_t len, const struct cli_spec *cs)
{
	size_t i, n;

	if (cs->linked_ok)
		snprintf(ev, len, "vmlinux_%" PRIx64, cs->linked);
	else if (cs->spec.mod[0])
		snprintf(ev, len, "%s_%s", cs->mod, cs->spec.name);
	else
		snprintf(ev, len, "%s", cs->spec.name);
	n = strlen(ev);
	if (!cs->linked_ok && cs->spec.offset && n + 20 < len)
		snprintf(ev + n, len - n, "_%" PRIx64, (uint64_t)cs->spec.offset);
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

/* vmlinux:0xLINKED -> runtime, through the section that holds it. */
static int linked_to_runtime(const struct ksnap *s, const struct cli_spec *cs, uint64_t *addr)
{
	const struct ks_core *t = ksnap_core(s, "text");
	const struct ks_core *it = ksnap_core(s, "init.text");
	const struct ks_core *hit = NULL;

	if (t && t->linked.ok && t->size.ok && cs->linked - t->linked.v < t->size.v)
		hit = t;
	else if (it && it->linked.ok && it->size.ok && cs->linked - it->linked.v < it->size.v)
		hit = it;
	if (!hit) {
		p_err("vmlinux:0x%" PRIx64 " is outside the kernel's text section%s", cs->linked,
		      t && t->linked.ok && t->size.ok ? "" : " (its link-time range is unknown)");
		return EXIT_FAIL;
	}
	if (!strcmp(hit->status, "freed")) {
		p_err("vmlinux:0x%" PRIx64 " is in init.text, which the kernel has freed "
		      "(%s%s/sections: init.text freed)", cs->linked, root, KRELOC_DEBUGFS_DIR);
		return EXIT_REFUSED;
	}
	if (!ksnap_core_usable(hit)) {
		p_err("vmlinux:0x%" PRIx64 ": section %s has STATUS=%s: kreloc publishes no "
		      "offset for it", cs->linked, hit->name, hit->status);
		return EXIT_FAIL;
	}
	*addr = cs->linked + hit->offset.v;
	return EXIT_OK;
}

/* Freed init text: the core's init.text, or a module's init.text region. */
static int refuse_freed_init(const struct ksnap *s, const char *spec, uint64_t addr)
{
	const struct ks_core *it = ksnap_core(s, "init.text");
	size_t k, j;

	if (it && it->runtime.ok && it->size.ok && addr - it->runtime.v < it->size.v &&
	    (!strcmp(it->status, "freed") || !strcmp(s->init, "freed"))) {
		p_err("%s (0x%" PRIx64 ") is in the kernel's init text, freed after boot "
		      "(%s%s/sections: init.text %s)", spec, addr, root, KRELOC_DEBUGFS_DIR,
		      it->status);
		return EXIT_REFUSED;
	}
	/*
	 * A module loaded after another's init memory was freed may sit in
	 * it (seen on arm64): an address in a live region is live.
	 */
	for (k = 0; k < s->nr_mods; k++) {
		for (j = 0; j < s->mods[k].nr_mem; j++) {
			const struct ks_mem *r = &s->mods[k].mem[j];

			if (r->kind == KS_REGION && !strcmp(r->state, "live") &&
			    r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v)
				return EXIT_OK;
		}
	}
	for (k = 0; k < s->nr_mods; k++) {
		const struct ks_mod *m = &s->mods[k];

		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *r = &m->mem[j];

			if (r->kind == KS_REGION && !strcmp(r->name, "init.text") &&
			    r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v &&
			    strcmp(r->state, "live")) {
				p_err("%s (0x%" PRIx64 ") is in module %s's init text, which is %s",
				      spec, addr, m->name, r->state);
				return EXIT_REFUSED;
			}
		}
	}
	return EXIT_OK;
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
	const char *group = "kreloc", *event = NULL, *remove = NULL, *why;
	char err[1024], ev[KRELOC_SPEC_MAX + 160], name[KRELOC_SPEC_MAX] = "", bl[4200];
	char blsym[512], target[KRELOC_SPEC_MAX + 128], dir[4096];
	int c, dry = 0, ret, no_modules, i, modstyle = 0;
	struct lookup_answer ans;
	struct cli_spec cs;
	struct ksnap s;
	uint64_t addr = 0;
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
	if (cli_spec_parse(argv[optind], &cs, &why))
		return usage_err("probe", "%s: %s", argv[optind], why);
	if (!tracefs_event_name_ok(group))
		return usage_err("probe", "bad group name '%s'", group);
	if (event && !tracefs_event_name_ok(event))
		return usage_err("probe", "bad event name '%s'", event);
	for (i = optind + 1; i < argc; i++)
		if (strpbrk(argv[i], "\n\r") || !argv[i][0])
			return usage_err("probe", "bad FETCHARG '%s'", argv[i]);

	ret = kreloc_live(&s, &no_modules, err, sizeof(err));
	if (ret) {
		p_err("%s", err);
		return ret;
	}
	if (cs.linked_ok) {
		ret = linked_to_runtime(&s, &cs, &addr);
	} else {
		ret = kreloc_lookup(cs.text, &ans);
		if (ret == EXIT_OK) {
			/* lookup applied +OFF; name the symbol as given. */
			addr = ans.probe;
			snprintf(name, sizeof(name), "%s", cs.spec.name);
			modstyle = cs.spec.mod[0] && ans.module[0];
		} else if (ret < 0) {
			ret = kallsyms_unique(&cs, !strcmp(s.abi, "v1"), &addr, name, sizeof(name));
			modstyle = !!cs.spec.mod[0];
		}
	}
	if (ret)
		goto out_snap;
	if (!name[0])
		snprintf(name, sizeof(name), "%s", cs.spec.name);
	ret = refuse_freed_init(&s, argv[optind], addr);
	if (ret)
		goto out_snap;
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
		snprintf(target, sizeof(target), "%s:%s+0x%" PRIx64, cs.mod, name,
			 (uint64_t)cs.spec.offset);
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
	ksnap_free(&s);
	return ret;
}
