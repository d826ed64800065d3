// SPDX-License-Identifier: GPL-2.0
/* common.c - output, errors and paths shared by every kreloc command. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
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

int cli_seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
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
	switch (e) {
	case EPERM:
	case EACCES:
		return EXIT_REFUSED;
	case ECONNREFUSED:
	case ECONNRESET:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case ETIME:
	case ETIMEDOUT:
		return EXIT_UNAVAILABLE;
	default:
		return EXIT_FAIL;
	}
}

int lib_err(int ret)
{
	p_err("%s", *kreloc_errmsg() ? kreloc_errmsg() : strerror(-ret));
	return exit_for_errno(-ret);
}

const char *lib_root(void)
{
	return *root ? root : NULL;
}

static void lib_print(enum kreloc_print_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == KRELOC_WARN)
		p_warn("%s", msg);
	else if (level == KRELOC_INFO)
		fprintf(stderr, "kreloc: %s\n", msg);
}

void lib_print_init(void)
{
	kreloc_set_print(lib_print, NULL);
}

const char *val_hex(char buf[VAL_BUF], const struct kreloc_value *v)
{
	if (!v->known)
		return "-";
	snprintf(buf, VAL_BUF, "0x%" PRIx64, v->value);
	return buf;
}

const char *val_dec(char buf[VAL_BUF], const struct kreloc_value *v)
{
	if (!v->known)
		return "-";
	snprintf(buf, VAL_BUF, "%" PRIu64, v->value);
	return buf;
}

int snapshot_open(const char *path, struct kreloc_snapshot **s)
{
	int ret;

	if (!path)
		ret = kreloc_snapshot_live(lib_root(), s);
	else if (!strcmp(path, "-"))
		ret = kreloc_snapshot_read(stdin, "-", s);
	else
		ret = kreloc_snapshot_load(path, s);
	return ret ? lib_err(ret) : EXIT_OK;
}

void json_gen(const char *name, const struct kreloc_value *v)
{
	if (v->known)
		jsonw_uint_field(json_wtr, name, v->value);
	else
		jsonw_null_field(json_wtr, name);
}

int parse_clock(const char *s, enum kreloc_clock *clock)
{
	if (!strcmp(s, "perf"))
		*clock = KRELOC_CLOCK_LOCAL;
	else if (!strcmp(s, "mono"))
		*clock = KRELOC_CLOCK_MONOTONIC;
	else
		return -1;
	return 0;
}

const char *clock_name(enum kreloc_clock clock)
{
	return clock == KRELOC_CLOCK_MONOTONIC ? "mono" : "perf";
}

const char *file_status_name(enum kreloc_file_status st)
{
	static const char *const names[] = {
		[KRELOC_FILE_OK] = "ok",
		[KRELOC_FILE_MISSING] = "missing",
		[KRELOC_FILE_MISMATCH] = "mismatch",
		[KRELOC_FILE_UNAVAILABLE] = "unavailable",
		[KRELOC_FILE_CORRUPT] = "corrupt",
	};

	return (unsigned int)st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}
