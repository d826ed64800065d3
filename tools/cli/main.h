/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.h - what the kreloc CLI's command files share.
 *
 * The layout follows bpftool: main.c parses the global options and
 * dispatches on the first word through a table; each command lives in its
 * own file with a do_NAME(argc, argv) entry point, its own options and
 * --help.  To add a command:
 *   1. NAME.c with `int do_NAME(int argc, char **argv)` (declared below);
 *   2. one line in the cmds[] table in main.c;
 *   3. Documentation/kreloc-NAME.8 (installed by make install);
 *   4. its words in bash-completion/kreloc.
 * Output: text on stdout; with --json one JSON object per invocation,
 * started by json_doc_begin() (it carries "schema": KRELOC_JSON_SCHEMA);
 * errors through p_err(), which in JSON mode prints {"schema":..,"error":..}
 * on stdout.  Exit codes: the EXIT_* below, as kreloc(8) documents them.
 */
#ifndef KRELOC_MAIN_H
#define KRELOC_MAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <kreloc/kreloc.h>
#include "json_writer.h"

#define EXIT_OK		0
#define EXIT_FAIL	1	/* resolution failed, bad input data, kreloc not loaded */
#define EXIT_USAGE	2
#define EXIT_REFUSED	3	/* the kernel refused (EPERM, lockdown, kprobes) */
#define EXIT_UNAVAILABLE 4	/* a debuginfod server could not be asked (down, too slow): try again */

/* Bumped only when a JSON member changes meaning; members are added freely. */
#define KRELOC_JSON_SCHEMA 1

#ifndef KRELOC_VERSION
#define KRELOC_VERSION "unknown"
#endif

extern const char *root;		/* --root / KRELOC_ROOT: a fake / for tests */
/*
 * The longest --root: with it, ROOT + any path kreloc reads (a module name
 * is at most MODULE_NAME_LEN) fits the PATH_MAX buffers path_in() fills.
 */
#define KRELOC_ROOT_MAX	2048
extern bool json_output, pretty_output;
extern json_writer_t *json_wtr;

void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* In JSON mode, the invocation's {"schema":..,"error":msg} (once). */
void json_error(const char *msg);
void p_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A one-line reason into err (len bytes); returns -1. */
int cli_seterr(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "kreloc CMD: reason" + a hint to --help ("" for the global options); returns EXIT_USAGE. */
int usage_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The usage error for what getopt_long() returned instead of an option
 * ('?' unknown, ':' missing argument: option strings start with "+:" and
 * getopt itself prints nothing, opterr being 0).  Returns EXIT_USAGE.
 */
int opt_err(const char *cmd, int c, char **argv);

/* "name": the value, or null, into the invocation's JSON document. */
void json_gen(const char *name, const struct kreloc_value *v);

/* Start/end the invocation's JSON object (with "schema"). */
void json_doc_begin(void);
void json_doc_end(void);

/*
 * ROOT + rel into buf; 0, or -1 (ENAMETOOLONG, buf "") if it does not fit,
 * which KRELOC_ROOT_MAX rules out for a buffer of PATH_MAX and a rel
 * shorter than PATH_MAX - KRELOC_ROOT_MAX.
 */
int path_in(char *buf, size_t len, const char *rel);
/*
 * EXIT_REFUSED for EPERM/EACCES, EXIT_UNAVAILABLE for the errors of a
 * server that could not be asked (ECONNREFUSED, ETIME, EHOSTUNREACH...),
 * else EXIT_FAIL.
 */
int exit_for_errno(int e);
/* Print libkreloc's reason for the failure ret (a negative errno); returns its exit code. */
int lib_err(int ret);
/* root for libkreloc: NULL for the real / */
const char *lib_root(void);
/* Route libkreloc's warnings (p_warn) and notes ("kreloc: ...") to stderr. */
void lib_print_init(void);

/*
 * --clock: "perf" (local_clock(), perf's default clock) or "mono"
 * (CLOCK_MONOTONIC); 0, or -1 for anything else.
 */
int parse_clock(const char *s, enum kreloc_clock *clock);
/* The --clock name of a clock. */
const char *clock_name(enum kreloc_clock clock);
/* A .ko's status in JSON ("ok", "missing", "mismatch", "unavailable", "corrupt"). */
const char *file_status_name(enum kreloc_file_status st);

/* Room for a value printed by val_hex() or val_dec(). */
#define VAL_BUF 24
/* "0x..." (or "-" when not published), as the debugfs files print it. */
const char *val_hex(char buf[VAL_BUF], const struct kreloc_value *v);
/* The same in decimal. */
const char *val_dec(char buf[VAL_BUF], const struct kreloc_value *v);

/*
 * The snapshot of path ("-": standard input), or with NULL the running
 * kernel's (under --root).  Returns EXIT_OK, or the exit code with the
 * reason printed.
 */
int snapshot_open(const char *path, struct kreloc_snapshot **s);

/*
 * Is DEBUGINFOD_URLS set, and can libkreloc use it?  A warning says why
 * not when it is set but cannot be used.
 */
bool debuginfod_wanted(void);

struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *help;
};

/*
 * Run the command named by argv[0] (an exact name or a unique prefix of
 * one) with argv[0..argc); without argv[0], help().
 */
int cmd_select(const struct cmd *cmds, int argc, char **argv, int (*help)(int, char **));

int do_show(int argc, char **argv);
int do_snapshot(int argc, char **argv);
int do_resolve(int argc, char **argv);
int do_probe(int argc, char **argv);
int do_gdb(int argc, char **argv);
int do_kallsyms(int argc, char **argv);
int do_inject(int argc, char **argv);
int do_version(int argc, char **argv);

#endif
