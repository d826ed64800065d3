/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ofile.h - the one way kreloc writes an output file (snapshot -o, gdb -o,
 * kallsyms -o, the decompressed-module cache).  What it writes holds kernel
 * addresses, so:
 *   - a new or existing regular file is written to a temporary of mode
 *     0600 beside it (mkostemp: a random name, O_CREAT|O_EXCL, so nothing
 *     planted there is ever followed), fsync'ed and renamed over it, and
 *     the directory fsync'ed: a crash leaves the old file or the new one;
 *   - a character device or a FIFO (a terminal, /dev/null, a pipe made
 *     with mkfifo) is written in place: opened O_WRONLY|O_NOFOLLOW without
 *     O_CREAT or O_TRUNC, never replaced or unlinked;
 *   - anything else is refused with the reason: a symbolic link (kreloc
 *     neither writes through one nor replaces it), a directory, a block
 *     device, a socket, a regular file the caller may not write.
 * NULL or "-" is standard output.  Errors are local (EXIT_FAIL for the
 * caller), one line in err.
 */
#ifndef KRELOC_OFILE_H
#define KRELOC_OFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ofile_kind { OFILE_STDOUT, OFILE_REPLACE, OFILE_INPLACE };

struct ofile {
	FILE *f;
	enum ofile_kind kind;
	const char *path;
	char *tmp;			/* OFILE_REPLACE: the temporary's name */
};

/* Open path for writing as above.  Returns 0, or -1 with err set. */
int ofile_open(struct ofile *o, const char *path, char *err, size_t errlen);

/*
 * Finish: flush, sync and rename into place (or write in place).  With
 * failed, or on any error, the temporary is removed and the old file is
 * left as it was.  Returns 0, or -1 with err set (unless failed).
 */
int ofile_commit(struct ofile *o, bool failed, char *err, size_t errlen);

#endif
