/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - a tiny KTAP harness for kreloc's host unit tests.
 *
 * Each test program is one KTAP document:
 *
 *	TAP version 13
 *	1..N
 *	# diagnostics of a failed check
 *	not ok 1 name
 *	ok 2 name
 *
 * Usage:
 *
 *	static void test_foo(void)
 *	{
 *		CHECK(1 + 1 == 2);
 *		CHECK_INT(foo(), -EINVAL);
 *		REQUIRE(ptr != NULL);	// ends the case when false
 *	}
 *
 *	static const struct unit_case cases[] = {
 *		UNIT_CASE(test_foo),
 *	};
 *	UNIT_MAIN(cases)
 *
 * A case passes when none of its checks failed.  The program exits 0 when
 * every case passed, 1 otherwise.
 */
#ifndef KRELOC_UNIT_H
#define KRELOC_UNIT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Helpers a test file may not use must not warn under -Werror. */
#define UNIT_FN static inline __attribute__((unused))

struct unit_case {
	const char *name;
	void (*fn)(void);
};

#define UNIT_CASE(fn) { #fn, fn }

/* Failed checks in the current case, and checks run in it. */
static unsigned int unit_case_failed, unit_case_checks;

UNIT_FN void unit_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
UNIT_FN void unit_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* Records one check; returns its truth so that callers can bail out. */
UNIT_FN int unit_check(int ok, const char *file, int line, const char *expr)
{
	unit_case_checks++;
	if (!ok) {
		unit_case_failed++;
		unit_diag("%s:%d: check failed: %s", file, line, expr);
	}
	return ok;
}

UNIT_FN int unit_check_s64(int64_t got, int64_t want, const char *file,
			   int line, const char *expr)
{
	if (unit_check(got == want, file, line, expr))
		return 1;
	unit_diag("  got %" PRId64 ", want %" PRId64, got, want);
	return 0;
}

UNIT_FN int unit_check_u64(uint64_t got, uint64_t want, const char *file,
			   int line, const char *expr)
{
	if (unit_check(got == want, file, line, expr))
		return 1;
	unit_diag("  got 0x%" PRIx64 ", want 0x%" PRIx64, got, want);
	return 0;
}

UNIT_FN int unit_check_str(const char *got, const char *want, const char *file,
			   int line, const char *expr)
{
	int ok = got && want ? !strcmp(got, want) : got == want;

	if (unit_check(ok, file, line, expr))
		return 1;
	unit_diag("  got \"%s\", want \"%s\"", got ? got : "(null)",
		  want ? want : "(null)");
	return 0;
}

#define CHECK(cond) unit_check(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_INT(got, want) \
	unit_check_s64((int64_t)(got), (int64_t)(want), __FILE__, __LINE__, \
		       #got " == " #want)
#define CHECK_U64(got, want) \
	unit_check_u64((uint64_t)(got), (uint64_t)(want), __FILE__, __LINE__, \
		       #got " == " #want)
#define CHECK_STR(got, want) \
	unit_check_str((got), (want), __FILE__, __LINE__, #got " == " #want)
/* Ends the current case when the condition does not hold. */
#define REQUIRE(cond) do { if (!CHECK(cond)) return; } while (0)

#define UNIT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

UNIT_FN int unit_run(const struct unit_case *cases, unsigned int n)
{
	unsigned int i, failed = 0;

	/* Keep our lines in order with sanitizer reports on stderr. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..%u\n", n);
#ifdef UNIT_NO_SANITIZERS
	unit_diag("sanitizers unavailable: built without -fsanitize");
#endif
	for (i = 0; i < n; i++) {
		unit_case_failed = 0;
		unit_case_checks = 0;
		cases[i].fn();
		if (!unit_case_checks) {
			/* A case that checks nothing proves nothing. */
			unit_diag("%s: no checks ran", cases[i].name);
			unit_case_failed = 1;
		}
		if (unit_case_failed)
			failed++;
		printf("%sok %u %s\n", unit_case_failed ? "not " : "", i + 1,
		       cases[i].name);
	}
	if (failed)
		unit_diag("%u of %u cases failed", failed, n);
	fflush(stdout);
	return failed ? 1 : 0;
}

#define UNIT_MAIN(cases) \
	int main(void) \
	{ \
		return unit_run(cases, UNIT_ARRAY_SIZE(cases)); \
	}

#endif /* KRELOC_UNIT_H */
