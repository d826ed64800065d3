// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for kreloc_spec.c: lookup spec parsing and the ppc64 ELFv1
 * dot-symbol-first policy, against a fake symbol table.
 */
#include "unit.h"
#include "kreloc_spec.h"

static int parse(const char *s, struct kreloc_spec *spec, const char **why)
{
	return kreloc_spec_parse(s, strlen(s), spec, why);
}

static void test_parse_ok(void)
{
	struct kreloc_spec s;
	const char *why = NULL;

	CHECK_INT(parse("schedule", &s, &why), 0);
	CHECK_STR(s.mod, "");
	CHECK_STR(s.name, "schedule");
	CHECK_U64(s.offset, 0);
	CHECK_INT(parse(".schedule\n", &s, &why), 0);
	CHECK_STR(s.name, ".schedule");
	CHECK_INT(parse("bridge:br_dev_xmit+0x10", &s, &why), 0);
	CHECK_STR(s.mod, "bridge");
	CHECK_STR(s.name, "br_dev_xmit");
	CHECK_U64(s.offset, 0x10);
	CHECK_INT(parse("nf-conntrack:.x+16", &s, &why), 0);
	CHECK_STR(s.mod, "nf-conntrack");
	CHECK_STR(s.name, ".x");
	CHECK_U64(s.offset, 16);
	CHECK_INT(parse("_text+0xffffffffffffffff", &s, &why), 0);
	CHECK_U64(s.offset, 0xffffffffffffffffULL);
	CHECK_INT(parse("foo.cold$1", &s, &why), 0);
}

static void test_parse_bad(void)
{
	static const char * const bad[] = {
		"", "\n", ":", ":foo", "mod:", "mod:+1", ".", "mod:.", "a b", "a/b",
		"foo+", "foo+0x", "foo+0xg", "foo+12a", "foo+-1", "foo+0x10000000000000000",
		"foo+99999999999999999999", "m od:foo", "mod:foo:bar", "foo\n\n",
	};
	struct kreloc_spec s;
	const char *why;
	char longname[KRELOC_SPEC_NAME_MAX + 1], longmod[KRELOC_SPEC_MOD_MAX + 8];
	static char toolong[KRELOC_SPEC_MAX];
	size_t i;

	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		why = NULL;
		if (!CHECK_INT(parse(bad[i], &s, &why), -EINVAL))
			unit_diag("  accepted \"%s\"", bad[i]);
		CHECK(why && *why);
	}
	/* Embedded NUL: the length says where the spec ends. */
	CHECK_INT(kreloc_spec_parse("_text\0x", 7, &s, &why), -EINVAL);
	CHECK_STR(why, "NUL byte in spec");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_INT(parse(longname, &s, &why), -EINVAL);
	longname[KRELOC_SPEC_NAME_MAX - 1] = '\0';	/* 511 bytes: fits */
	CHECK_INT(parse(longname, &s, &why), 0);
	memset(longmod, 'm', sizeof(longmod));
	strcpy(longmod + KRELOC_SPEC_MOD_MAX, ":x");
	CHECK_INT(parse(longmod, &s, &why), -EINVAL);
	/* KRELOC_SPEC_MAX bytes, each of them valid, are one too many. */
	memset(toolong, 'x', sizeof(toolong));
	CHECK_INT(kreloc_spec_parse(toolong, sizeof(toolong), &s, &why), -EINVAL);
	CHECK_STR(why, "spec too long");
}

/* A fake kallsyms: ELFv1 has ".f" code and "f" descriptors; _text has no twin. */
static const struct {
	const char *name;
	unsigned long addr;
} fake[] = {
	{ "_text", 0xc000000000000000UL },
	{ ".kernel_clone", 0xc000000000100000UL },
	{ "kernel_clone", 0xc000000001800000UL },	/* descriptor in .opd */
	{ "jiffies", 0xc000000002000000UL },		/* data, no dot twin */
	{ "bridge:.br_dev_xmit", 0xc008000000010000UL },
	{ "bridge:br_dev_xmit", 0xc008000000040000UL },
};

static unsigned long fake_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < UNIT_ARRAY_SIZE(fake); i++)
		if (!strcmp(fake[i].name, name))
			return fake[i].addr;
	return 0;
}

/* The policy as the module applies it: first candidate that resolves. */
static unsigned long resolve(const char *spec, bool dot_first)
{
	char cand[2][KRELOC_SPEC_MAX];
	struct kreloc_spec s;
	const char *why;
	int i, n;

	if (parse(spec, &s, &why))
		return 0;
	n = kreloc_spec_candidates(&s, dot_first, cand);
	for (i = 0; i < n; i++)
		if (fake_lookup(cand[i]))
			return fake_lookup(cand[i]);
	return 0;
}

static void test_dot_first(void)
{
	char cand[2][KRELOC_SPEC_MAX];
	struct kreloc_spec s;
	const char *why;

	CHECK_INT(parse("bridge:br_dev_xmit", &s, &why), 0);
	CHECK_INT(kreloc_spec_candidates(&s, true, cand), 2);
	CHECK_STR(cand[0], "bridge:.br_dev_xmit");
	CHECK_STR(cand[1], "bridge:br_dev_xmit");
	CHECK_INT(kreloc_spec_candidates(&s, false, cand), 1);
	CHECK_STR(cand[0], "bridge:br_dev_xmit");
	CHECK_INT(parse(".kernel_clone", &s, &why), 0);
	CHECK_INT(kreloc_spec_candidates(&s, true, cand), 1);
	CHECK_STR(cand[0], ".kernel_clone");

	/* ELFv1: code, never the descriptor; no-twin symbols resolve to themselves. */
	CHECK_U64(resolve("kernel_clone", true), 0xc000000000100000UL);
	CHECK_U64(resolve(".kernel_clone", true), 0xc000000000100000UL);
	CHECK_U64(resolve("_text", true), 0xc000000000000000UL);
	CHECK_U64(resolve("jiffies", true), 0xc000000002000000UL);
	CHECK_U64(resolve("bridge:br_dev_xmit", true), 0xc008000000010000UL);
	CHECK_U64(resolve("bridge:.br_dev_xmit", true), 0xc008000000010000UL);
	CHECK_U64(resolve("no_such", true), 0);
	/* Without the policy (ELFv2, x86) the plain name is taken as it is. */
	CHECK_U64(resolve("kernel_clone", false), 0xc000000001800000UL);
}

/* What kreloc_spec_plain() must say: parse() takes all of s as a bare name. */
static int plain_by_parse(const char *s)
{
	struct kreloc_spec spec;
	const char *why;

	return !parse(s, &spec, &why) && !spec.mod[0] && !strcmp(spec.name, s);
}

static void test_plain(void)
{
	static const char * const some[] = {
		"schedule", ".schedule", "_text", "foo.cold$1", "a", "$", "0", "..",
		"", ".", "mod:sym", "sym+0", "sym+0x10", "sym\n", "a b", ":", "+",
	};
	static const char alpha[] = "ab_.$:+\n x0-";
	static char s[KRELOC_SPEC_MAX + 8];
	unsigned int seed = 1, i, j, n, differ = 0, plain = 0;

	for (i = 0; i < UNIT_ARRAY_SIZE(some); i++)
		CHECK_INT(kreloc_spec_plain(some[i]), plain_by_parse(some[i]));
	CHECK(kreloc_spec_plain("schedule"));
	CHECK(!kreloc_spec_plain("bridge:br_dev_xmit"));
	CHECK(!kreloc_spec_plain("schedule+0"));
	CHECK(!kreloc_spec_plain("schedule\n"));
	/* The longest name KSYM_NAME_LEN allows, and one byte more. */
	memset(s, 'x', KRELOC_SPEC_NAME_MAX - 1);
	s[KRELOC_SPEC_NAME_MAX - 1] = '\0';
	CHECK(kreloc_spec_plain(s));
	s[KRELOC_SPEC_NAME_MAX - 1] = 'x';
	s[KRELOC_SPEC_NAME_MAX] = '\0';
	CHECK(!kreloc_spec_plain(s));
	/* Random strings, short and near the limit, over the bytes that matter. */
	for (i = 0; i < 200000; i++) {
		seed = seed * 1103515245 + 12345;
		n = (seed >> 16) % 10 ? (seed >> 20) % 7 :
		    KRELOC_SPEC_NAME_MAX - 3 + (seed >> 20) % 5;
		for (j = 0; j < n; j++) {
			seed = seed * 1103515245 + 12345;
			s[j] = n > 8 && (seed >> 16) % 64 ? 'a' :
			       alpha[(seed >> 16) % (sizeof(alpha) - 1)];
		}
		s[n] = '\0';
		differ += kreloc_spec_plain(s) != plain_by_parse(s);
		plain += kreloc_spec_plain(s);
	}
	CHECK_INT(differ, 0);
	CHECK(plain > 1000);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_parse_ok),
	UNIT_CASE(test_parse_bad),
	UNIT_CASE(test_dot_first),
	UNIT_CASE(test_plain),
};

UNIT_MAIN(cases)
