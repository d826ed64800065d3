/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktext.h - finding the numbers in free text (trace_pipe, perf script, an
 * Oops) that may be kernel addresses, for `kreloc resolve --text`.
 *
 * A candidate is a run of 1 to 16 hex digits, with or without 0x/0X,
 * standing alone: the byte before it and the byte after it are not
 * letters, digits or '_' (so "ip=0xffffffff81000000", "[<ffffffff...>]",
 * "(ffffffff...)" and "RBX: ffff..." are found, but not the hex letters of
 * a word such as "add" or "deadbeef_fn").  Whether it is an address is for
 * the resolver to say.
 */
#ifndef KRELOC_KTEXT_H
#define KRELOC_KTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ktext_num {
	size_t start, len;		/* the token, 0x included */
	size_t end;			/* past the closing brackets that follow it: )]>} */
	uint64_t value;
};

/*
 * The first candidate in s[from..n); returns true and fills *t, or false.
 * A run of hex digits that ends at n is not taken unless at_end (the text
 * may go on in the next read).
 */
bool ktext_next(const char *s, size_t n, size_t from, bool at_end, struct ktext_num *t);

/*
 * Where s[0..n) may be cut without cutting a candidate (for a line longer
 * than the reader's buffer): the last position after a byte that is not a
 * letter, digit, '_' or 'x'; 0 if there is none.
 */
size_t ktext_safe_cut(const char *s, size_t n);

/*
 * A time in seconds, "SECONDS[.FRACTION]" (FRACTION 1 to 9 digits), the
 * whole of s[0..n): true with *ns its value in nanoseconds and *span its
 * precision (999 for six fraction digits: the time lies in [*ns, *ns +
 * *span]), false if it is no such number or does not fit.
 */
bool ktext_seconds(const char *s, size_t n, uint64_t *ns, uint64_t *span);

/*
 * The time of a kernel log, perf script or ftrace line: the kernel log's
 * "[SECONDS.FRACTION]" that starts the line (printk stamps with
 * local_clock(), perf's clock), else the first "SECONDS.FRACTION:" in
 * s[0..n) that follows a blank or starts the line and is followed by a
 * blank or the end; as ktext_seconds().
 */
bool ktext_line_time(const char *s, size_t n, uint64_t *ns, uint64_t *span);

#endif
