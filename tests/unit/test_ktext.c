// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for tools/cli/ktext.c's times: ktext_seconds() (the SECONDS
 * of `kreloc resolve ADDR@SECONDS`) and ktext_line_time() (the time of a
 * perf script or ftrace line for `resolve --text --clock`).  The lines are
 * as perf script and ftrace printed them in a guest
 * (tests/tools/data/amd64-6.1-reuse): the time is the number they print.
 */
#include "unit.h"
#include "cli/ktext.h"

typedef bool (*time_fn)(const char *s, size_t n, uint64_t *ns, uint64_t *span);

struct want {
	const char *s;
	uint64_t ns, span;
};

/* fn finds each want's time and window, and none in each of no[]. */
static void check_times(time_fn fn, const struct want *ok, size_t nok, const char * const *no,
			size_t nno)
{
	uint64_t ns, span;
	size_t i;

	for (i = 0; i < nok; i++) {
		ns = span = 7;
		if (!CHECK(fn(ok[i].s, strlen(ok[i].s), &ns, &span))) {
			unit_diag("  no time in \"%s\"", ok[i].s);
			continue;
		}
		CHECK_U64(ns, ok[i].ns);
		CHECK_U64(span, ok[i].span);
	}
	for (i = 0; i < nno; i++)
		if (!CHECK(!fn(no[i], strlen(no[i]), &ns, &span)))
			unit_diag("  took %" PRIu64 " ns from \"%s\"", ns, no[i]);
}

static void test_seconds(void)
{
	static const struct want ok[] = {
		{ "1234.567890", 1234567890000ULL, 999 },	/* perf script: microseconds */
		{ "8", 8000000000ULL, 999999999 },		/* a whole second */
		{ "8.1", 8100000000ULL, 99999999 },
		{ "0.000000001", 1, 0 },			/* nanoseconds: no window */
		{ "6.612457123", 6612457123ULL, 0 },
		{ "0", 0, 999999999 },
		{ "18446744069.999999999", 18446744069999999999ULL, 0 },
	};
	static const char * const bad[] = {
		"", ".", "1.", ".5", "1e9", "1.2.3", "-1", " 1", "1 ", "0x10", "1.5:",
		"12.1234567891",		/* ten fraction digits: finer than a nanosecond */
		"18446744070", "99999999999999999999",	/* past 2^64 nanoseconds */
	};
	uint64_t ns, span;

	check_times(ktext_seconds, ok, UNIT_ARRAY_SIZE(ok), bad, UNIT_ARRAY_SIZE(bad));
	/* The length given is the end: "12.5" of "12.5xyz". */
	CHECK(ktext_seconds("12.5xyz", 4, &ns, &span));
	CHECK_U64(ns, 12500000000ULL);
}

static void test_line_time(void)
{
	static const struct want ok[] = {
		/* perf script -F comm,tid,cpu,time,event,ip,sym,dso */
		{ "              sh   104 [001]     6.645660: cpu-clock:  ffffffffc0581030 "
		  "kreloc_busy_spin ([kernel.kallsyms])", 6645660000ULL, 999 },
		/* ftrace (trace, trace_pipe) */
		{ "          insmod-107     [001] .....     6.612457: busy_init: "
		  "(kreloc_busy_init+0x0/0x1000 [kreloc_busy]) ip=0xffffffffc0586001", 6612457000ULL, 999 },
		{ "6.645660123: at the start, in nanoseconds (perf script --ns)", 6645660123ULL, 0 },
		{ "x 1.5:", 1500000000ULL, 99999999 },		/* the end of the text */
		{ "x 1.5:\n", 1500000000ULL, 99999999 },
		{ "a 1.5: b 2.5: c", 1500000000ULL, 99999999 },	/* the first */
		{ "a 12: b 3.25: c", 3250000000ULL, 9999999 },	/* one with a fraction */
		/* the kernel log: an Oops line, its printk time */
		{ "[   20.473785] RIP: 0010:0xffffffffc0494018", 20473785000ULL, 999 },
		{ "[12345.000001] Kernel panic - not syncing: Fatal exception", 12345000001000ULL, 999 },
	};
	static const char * const none[] = {
		/* a call chain line of perf script: no time of its own */
		"\tffffffffc0581030 kreloc_busy_spin+0x30 ([kernel.kallsyms])",
		"RIP: 0010:kreloc_busy_oops+0x5/0x10 [kreloc_busy]",
		"12:34:56 a clock time", "a 1.5 b", "a 1.5:b", "ip=0x1.5: x", "a .5: b", "a 5.: b",
		"a\n 1.5: on the next line",
		"[   20] no fraction", "[ 1.5 ] x", "x [ 1.5] not at the start", "[ 1.5 x",
		"[Tue Dec  1 10:00:00 2026] dmesg -T",
		"",
	};
	check_times(ktext_line_time, ok, UNIT_ARRAY_SIZE(ok), none, UNIT_ARRAY_SIZE(none));
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_seconds),
	UNIT_CASE(test_line_time),
};
UNIT_MAIN(cases)
