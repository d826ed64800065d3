// SPDX-License-Identifier: GPL-2.0
/*
 * openshim.so - LD_PRELOAD for the CLI tests: the Nth fopen() of the file
 * named by $KRELOC_SHIM_PATH opens PATH.N instead (while PATH.N exists), so
 * a test can make a file change between two reads, as kreloc's `info`
 * does when GENERATION moves.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	static int n;
	const char *want = getenv("KRELOC_SHIM_PATH");
	char alt[4096];

	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	if (want && !strcmp(path, want)) {
		snprintf(alt, sizeof(alt), "%s.%d", path, ++n);
		if (!access(alt, R_OK))
			return real(alt, mode);
	}
	return real(path, mode);
}
