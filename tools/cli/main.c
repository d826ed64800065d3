// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc - show the running kernel's relocation, save it as a snapshot,
 * resolve addresses offline, and place kprobes from link-time addresses.
 *
 * main.c holds only the global options, the command table and the
 * dispatcher; each command is in its own file (see main.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "main.h"

static int do_help(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "show", do_show, "show the running kernel's relocation (debugfs)" },
	{ "snapshot", do_snapshot, "save it for offline use" },
	{ "resolve", do_resolve, "runtime addresses -> symbol+offset, offline" },
	{ "probe", do_probe, "add/remove a kprobe from a symbol or link-time address" },
	{ "gdb", do_gdb, "a gdb script: vmlinux and every module section where they run" },
	{ "kallsyms", do_kallsyms, "a /proc/kallsyms of the snapshot's boot, for perf" },
	{ "inject", do_inject, "a perf.data whose every module sample perf names" },
	{ "version", do_version, "version and compiled-in features" },
	{ "help", do_help, "this text" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: kreloc [OPTIONS] COMMAND [ARGS]\n\n"
		"Options: -j|--json  -p|--pretty (JSON, indented)  -V|--version  -h|--help\n\n"
		"Commands (a unique prefix will do):\n");
	for (c = cmds; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "\n'kreloc COMMAND --help' for details; man kreloc(8).\n"
		"Exit: 0 ok, 1 resolution failed, 2 usage, 3 kernel refused.\n");
}

static int do_help(int argc, char **argv)
{
	const struct cmd *c;

	(void)argc;
	(void)argv;
	if (!json_output) {
		usage(stdout);
		return EXIT_OK;
	}
	json_doc_begin();
	jsonw_name(json_wtr, "commands");
	jsonw_start_array(json_wtr);
	for (c = cmds; c->name; c++) {
		jsonw_start_object(json_wtr);
		jsonw_string_field(json_wtr, "name", c->name);
		jsonw_string_field(json_wtr, "help", c->help);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	json_doc_end();
	return EXIT_OK;
}

static const char version_help[] =
	"Usage: kreloc version [--json]\n"
	"Print kreloc's version (and libkreloc's), the snapshot format it writes\n"
	"(it reads every older one) and the optional features available: reading\n"
	"xz, zstd and gzip compressed modules (liblzma, libzstd, zlib), fetching\n"
	"files by build id from debuginfod (libdebuginfod.so.1, loaded when used).\n"
	"  --json   the same as one JSON object\n";

int do_version(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const enum kreloc_feature fmts[] = { KRELOC_FEATURE_XZ, KRELOC_FEATURE_ZSTD,
		KRELOC_FEATURE_GZIP, KRELOC_FEATURE_DEBUGINFOD };
	size_t i;
	int first = 1, c;

	while ((c = getopt_long(argc, argv, "+:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json_output = true; break;
		case 'h': fputs(version_help, stdout); return EXIT_OK;
		default: return opt_err("version", c, argv);
		}
	}
	if (optind != argc)
		return usage_err("version", "unexpected argument '%s'", argv[optind]);
	if (json_output) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "version", KRELOC_VERSION);
		jsonw_string_field(json_wtr, "libkreloc", kreloc_version());
		jsonw_uint_field(json_wtr, "snapshot_format", kreloc_snapshot_format());
		jsonw_name(json_wtr, "features");
		jsonw_start_object(json_wtr);
		for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
			jsonw_bool_field(json_wtr, kreloc_feature_name(fmts[i]),
					 kreloc_feature(fmts[i]) == 1);
		jsonw_end_object(json_wtr);
		json_doc_end();
		return EXIT_OK;
	}
	printf("kreloc v%s\nlibkreloc v%s\nsnapshot format %u (reads 1..%u)\nfeatures:", KRELOC_VERSION,
	       kreloc_version(), kreloc_snapshot_format(), kreloc_snapshot_format());
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (kreloc_feature(fmts[i]) != 1)
			continue;
		printf("%s%s", first ? " " : ", ", kreloc_feature_name(fmts[i]));
		first = 0;
	}
	printf("%s\n", first ? " none" : "");
	return EXIT_OK;
}

int cmd_select(const struct cmd *table, int argc, char **argv, int (*help)(int, char **))
{
	const struct cmd *c, *hit = NULL;
	size_t n;
	int matches = 0;

	if (argc < 1 || !argv[0])
		return help(argc, argv);
	n = strlen(argv[0]);
	for (c = table; c->name; c++) {
		if (!strcmp(c->name, argv[0])) {
			hit = c;
			matches = 1;
			break;
		}
		if (n && !strncmp(c->name, argv[0], n)) {
			hit = c;
			matches++;
		}
	}
	if (matches == 1) {
		optind = 0;	/* GNU getopt: start afresh for the command */
		optopt = 0;
		return hit->func(argc, argv);
	}
	if (matches > 1) {
		char msg[512];
		size_t len;

		len = (size_t)snprintf(msg, sizeof(msg), "'%s' is ambiguous:", argv[0]);
		for (c = table; c->name && len < sizeof(msg); c++)
			if (!strncmp(c->name, argv[0], n))
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, " %s", c->name);
		json_error(msg);
		fprintf(stderr, "kreloc: %s\n", msg);
	} else {
		fprintf(stderr, "kreloc: unknown command '%s'\n", argv[0]);
		if (json_output) {
			char msg[512];

			snprintf(msg, sizeof(msg), "unknown command '%.400s'", argv[0]);
			json_error(msg);
		}
	}
	usage(stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ "root", required_argument, NULL, 'R' },	/* hidden: a fake / for tests */
		{ NULL, 0, NULL, 0 },
	};
	const char *env = getenv("KRELOC_ROOT");
	static char rbuf[KRELOC_ROOT_MAX];
	int c, ret, version = 0;
	size_t rlen;

	/* Output reaches a pipe line by line (resolve behind trace_pipe). */
	setlinebuf(stdout);
	lib_print_init();
	/* Each getopt error is reported once, by kreloc (opt_err()). */
	opterr = 0;
	if (env)
		root = env;
	json_wtr = jsonw_new(stdout);
	if (!json_wtr) {
		fprintf(stderr, "kreloc: out of memory\n");
		return EXIT_FAIL;
	}
	while ((c = getopt_long(argc, argv, "+:jpVh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json_output = true; break;
		case 'p': json_output = pretty_output = true; break;
		case 'V': version = 1; break;
		case 'h': usage(stdout); ret = EXIT_OK; goto out;
		case 'R': root = optarg; break;
		default:
			/* The global options come before the command. */
			ret = opt_err("", c, argv);
			goto out;
		}
	}
	/* A trailing '/' on --root would double up in paths. */
	rlen = strlen(root);
	if (rlen >= sizeof(rbuf)) {
		ret = usage_err("", "--root/KRELOC_ROOT: longer than %zu bytes", sizeof(rbuf) - 1);
		goto out;
	}
	if (rlen && root[rlen - 1] == '/') {
		memcpy(rbuf, root, rlen - 1);
		rbuf[rlen - 1] = '\0';
		root = rbuf;
	}
	if (version) {
		char *vargv[] = { (char *)"version", NULL };

		optind = 0;
		ret = do_version(1, vargv);
	} else if (optind >= argc) {
		json_error("no command");
		usage(stderr);
		ret = EXIT_USAGE;
	} else {
		ret = cmd_select(cmds, argc - optind, argv + optind, do_help);
	}
out:
	jsonw_destroy(&json_wtr);
	if (fflush(stdout) && !ret) {
		fprintf(stderr, "kreloc: stdout: %s\n", strerror(errno));
		ret = EXIT_FAIL;
	}
	return ret;
}
