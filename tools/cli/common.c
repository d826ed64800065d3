// SPDX-License-Identifier: GPL-2.0
/* common.c - output, errors and paths shared by every kreloc command. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "main.h"

const char *root = "";
bool json_output, pretty_output;
json_writer_t *json_wtr;
static bool json_doc_open, json_doc_done;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "kreloc: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void json_error(const char *msg)
{
	/* Scripts read a JSON error, never prose, on stdout: one per invocation. */
	if (json_output && !json_doc_open && !json_doc_done && json_wtr) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "error", msg);
		json_doc_end();
	}
}

void p_err(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kreloc: %s\n", buf);
	json_error(buf);
}

void p_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

int usage_err(const char *cmd, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_error(buf);
	fprintf(stderr, "kreloc%s%s: %s\nTry 'kreloc%s%s --help'.\n", *cmd ? " " : "", cmd, buf,
		*cmd ? " " : "", cmd);
	return EXIT_USAGE;
}

int opt_err(const char *cmd, int c, char **argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";

	if (c == ':')
		return usage_err(cmd, "option '%s' needs an argument", word);
	if (optopt)
		return usage_err(cmd, "unknown option '-%c'", optopt);
	return usage_err(cmd, "unknown option '%s'", word);
}

void json_doc_begin(void)
{
	jsonw_pretty(json_wtr, pretty_output);
	jsonw_start_object(json_wtr);
	jsonw_uint_field(json_wtr, "schema", KRELOC_JSON_SCHEMA);
	json_doc_open = true;
}

void json_doc_end(void)
{
	jsonw_end_object(json_wtr);
	fputc('\n', stdout);
	fflush(stdout);
	json_doc_open = false;
	json_doc_done = true;
}

int path_in(char *buf, size_t len, const char *rel)
{
	if ((size_t)snprintf(buf, len, "%s%s", root, rel) < len)
		return 0;
	/* Never a path cut short: an empty one fails to open. */
	buf[0] = '\0';
	errno = ENAMETOOLONG;
	return -1;
}

int exit_for_errno(int e)
{
	return e == EPERM || e == EACCES ? EXIT_REFUSED : EXIT_FAIL;
}
