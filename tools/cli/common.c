// SPDX-License-Identifier: GPL-2.0
/* common.c - output, errors and paths shared by every kreloc command. */
#define _GNU_SOURCE
#include <errno.h>
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

void p_err(const char *fmt, ...)
{
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "kreloc: %s\n", buf);
	/* Scripts read a JSON error, never prose, on stdout. */
	if (json_output && !json_doc_open && !json_doc_done && json_wtr) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "error", buf);
		json_doc_end();
	}
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
	if (json_output && json_wtr && !json_doc_open && !json_doc_done) {
		json_doc_begin();
		jsonw_string_field(json_wtr, "error", buf);
		json_doc_end();
	}
	fprintf(stderr, "kreloc %s: %s\nTry 'kreloc %s --help'.\n", cmd, buf, cmd);
	return EXIT_USAGE;
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

void path_in(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s%s", root, rel);
}

int exit_for_errno(int e)
{
	return e == EPERM || e == EACCES ? EXIT_REFUSED : EXIT_FAIL;
}
