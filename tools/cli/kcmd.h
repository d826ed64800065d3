/* SPDX-License-Identifier: GPL-2.0 */
/* kcmd.h - what the command files share with kreloc.c's main(). */
#ifndef KRELOC_KCMD_H
#define KRELOC_KCMD_H

#include <stdio.h>
#include "ksnap.h"

#define EXIT_RESOLVE	1
#define EXIT_USAGE	2
#define EXIT_REFUSED	3

extern const char *root;	/* --root / KRELOC_ROOT: a fake / for tests */
extern int json;		/* --json */

void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int usage_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void jstr(FILE *f, const char *s);
void jdec(FILE *f, const struct kval *v);

int cmd_gdb(int argc, char **argv);
int cmd_kallsyms(int argc, char **argv);

#endif
