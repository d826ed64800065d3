// SPDX-License-Identifier: GPL-2.0
/* test_sysmap.c - System.map / /proc/kallsyms parser (tools/sysmap.c). */
#include <stdlib.h>
#include <unistd.h>
#include "unit.h"
#include "sysmap.h"

#define PLACEHOLDER \
	"ffffffffffffffff B The real System.map is in the linux-image-6.1.0-13-amd64-dbg package\n"

/* A read-only stream over @len bytes of @text (NUL bytes included). */
static FILE *stream(const char *text, size_t len)
{
	FILE *f = tmpfile();

	if (!f)
		return NULL;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	return f;
}

static int read_text(struct sysmap *map, const char *text, const char *name)
{
	FILE *f = stream(text, strlen(text));
	int ret;

	if (!f) {
		unit_diag("tmpfile failed");
		memset(map, 0, sizeof(*map));
		return -2;
	}
	ret = sysmap_read(map, f, name);
	fclose(f);
	return ret;
}

static void test_parse_line(void)
{
	struct sysmap_sym s;
	const char *why = NULL;
	char line[128];

	strcpy(line, "ffffffff81000000 T _text\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_U64(s.addr, 0xffffffff81000000ULL);
	CHECK_INT(s.type, 'T');
	CHECK_STR(s.name, "_text");
	CHECK(s.module == NULL);

	/* /proc/kallsyms: a tab before the module. */
	strcpy(line, "ffffffffc0a01010 t ext4_fill_super\t[ext4]\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_U64(s.addr, 0xffffffffc0a01010ULL);
	CHECK_INT(s.type, 't');
	CHECK_STR(s.name, "ext4_fill_super");
	CHECK_STR(s.module, "ext4");

	/* CRLF, tabs, no newline, leading blanks, 32-bit addresses. */
	strcpy(line, "  c0100000\tA\tphys_startup_32\r\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_U64(s.addr, 0xc0100000);
	CHECK_INT(s.type, 'A');
	CHECK_STR(s.name, "phys_startup_32");
	CHECK(s.module == NULL);

	strcpy(line, "0000000000000000 D fixed_percpu_data");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_U64(s.addr, 0);
	CHECK_STR(s.name, "fixed_percpu_data");

	/* '?': what nm cannot classify. */
	strcpy(line, "ffffffff83a00000 ? __nosave_begin\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_INT(s.type, '?');
	CHECK_STR(s.name, "__nosave_begin");

	/* ppc64 dot symbols and odd but legal names. */
	strcpy(line, "c000000000012340 T .kernel_clone\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_STR(s.name, ".kernel_clone");
	strcpy(line, "ffffffff81234560 t foo.constprop.0 [mod] \n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_STR(s.name, "foo.constprop.0");
	CHECK_STR(s.module, "mod");
}

static void test_skip_lines(void)
{
	static const char * const skip[] = {
		"", "\n", "\r\n", "   \n", "\t\n", "# comment\n", "  # indented\n",
		"#ffffffff81000000 T _text\n",
	};
	struct sysmap_sym s;
	const char *why;
	char line[64];
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(skip); i++) {
		strcpy(line, skip[i]);
		why = NULL;
		if (!CHECK_INT(sysmap_parse_line(line, &s, &why), 1))
			unit_diag("  line \"%s\"", skip[i]);
		CHECK(why == NULL);
	}
}

static void test_malformed_lines(void)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "xyz T foo\n", "address is not hexadecimal" },
		{ "-1 T foo\n", "address is not hexadecimal" },
		{ "[ffff] T foo\n", "address is not hexadecimal" },
		{ "1ffffffff81000000 T foo\n", "address out of range" },
		{ "ffffffffffffffffff T foo\n", "address out of range" },
		{ "00000000000000000 T foo\n", "address out of range" },
		{ "ffffffff81000000T foo\n", "expected a blank after the address" },
		{ "ffffffff8100000g T foo\n", "expected a blank after the address" },
		{ "ffffffff81000000\n", "expected a blank after the address" },
		{ "ffffffff81000000 TT foo\n", "expected a one-letter symbol type" },
		{ "ffffffff81000000 1 foo\n", "expected a one-letter symbol type" },
		{ "ffffffff81000000 T\n", "expected a one-letter symbol type" },
		{ "ffffffff81000000 * foo\n", "expected a one-letter symbol type" },
		{ "ffffffff81000000 ?? foo\n", "expected a one-letter symbol type" },
		{ "ffffffff81000000 T \n", "missing symbol name" },
		{ "ffffffff81000000 T foo bar\n", "trailing text after the symbol" },
		{ "ffffffff81000000 t foo [mod] x\n", "trailing text after the symbol" },
		{ "ffffffff81000000 t foo [mod\n", "malformed [module] suffix" },
		{ "ffffffff81000000 t foo []\n", "malformed [module] suffix" },
	};
	struct sysmap_sym s;
	const char *why;
	char line[80];
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		strcpy(line, bad[i].line);
		why = NULL;
		if (!CHECK_INT(sysmap_parse_line(line, &s, &why), -1) ||
		    !CHECK_STR(why, bad[i].why))
			unit_diag("  line \"%s\"", bad[i].line);
	}
}

static void test_name_length(void)
{
	char line[600], *name;
	struct sysmap_sym s;
	const char *why = NULL;

	/* 511 characters is the longest name accepted. */
	strcpy(line, "ffffffff81000000 T ");
	name = line + strlen(line);
	memset(name, 'a', 511);
	name[511] = '\0';
	CHECK_INT(sysmap_parse_line(line, &s, &why), 0);
	CHECK_INT(strlen(s.name), 511);

	strcpy(line, "ffffffff81000000 T ");
	memset(name, 'a', 512);
	strcpy(name + 512, "\n");
	CHECK_INT(sysmap_parse_line(line, &s, &why), -1);
	CHECK_STR(why, "symbol name too long");
}

static void test_read(void)
{
	static const char text[] =
		"# System.map of a test kernel\n"
		"\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000000 T _stext\n"
		"   \n"
		"ffffffff81001000 t helper\n"
		"ffffffffc0a00000 t mod_init\t[mod_a]\n"
		"ffffffff82000000 D __start_rodata\r\n"
		"ffffffff83000000 B __bss_start";	/* no final newline */
	struct sysmap map;

	CHECK_INT(read_text(&map, text, "System.map-test"), 0);
	CHECK_INT(map.nr, 6);
	CHECK_INT(map.placeholder, 0);
	REQUIRE(map.nr == 6);
	CHECK_STR(map.syms[0].name, "_text");
	CHECK_STR(map.syms[1].name, "_stext");
	CHECK_STR(map.syms[2].name, "helper");
	CHECK_INT(map.syms[2].type, 't');
	CHECK_STR(map.syms[3].name, "mod_init");
	CHECK_STR(map.syms[3].module, "mod_a");
	CHECK_STR(map.syms[4].name, "__start_rodata");
	CHECK_U64(map.syms[4].addr, 0xffffffff82000000ULL);
	CHECK_STR(map.syms[5].name, "__bss_start");
	CHECK_INT(map.syms[5].type, 'B');
	sysmap_free(&map);
	CHECK(map.syms == NULL);
	CHECK_INT(map.nr, 0);
}

/* The reported line counts blank and comment lines too. */
static void test_read_error_line(void)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "ffffffff81000000 T _text\n"
		  "\n"
		  "# comment\n"
		  "ffffffff81000010 T a\n"
		  "ffffffff81000020 T b c\n"
		  "ffffffff81000030 T d\n",
		  "map.bad:5: trailing text after the symbol" },
		{ "zzz T _text\n", "map.bad:1: address is not hexadecimal" },
		{ "ffffffff81000000 T _text\r\n"
		  "\r\n"
		  "ffffffff81000000 T\r\n",
		  "map.bad:3: expected a one-letter symbol type" },
		{ PLACEHOLDER
		  "ffffffff81000000 T _text\n"
		  "ffffffff81000000 T _stext\n"
		  "ffffffff81000000\n",
		  "map.bad:4: expected a blank after the address" },
	};
	struct sysmap map;
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		memset(&map, 0x5a, sizeof(map));
		CHECK_INT(read_text(&map, bad[i].text, "map.bad"), -1);
		CHECK_STR(map.err, bad[i].err);
		/* Nothing is left allocated (LeakSanitizer checks). */
		CHECK(map.syms == NULL);
		CHECK_INT(map.nr, 0);
	}
}

static void test_read_nul_byte(void)
{
	static const char text[] = "ffffffff81000000 T _text\nffffffff81000010 T a\0b\n";
	struct sysmap map;
	FILE *f = stream(text, sizeof(text) - 1);

	REQUIRE(f != NULL);
	CHECK_INT(sysmap_read(&map, f, "nul.map"), -1);
	CHECK_STR(map.err, "nul.map:2: NUL byte in line");
	CHECK(map.syms == NULL);
	fclose(f);
}

static void test_placeholder(void)
{
	struct sysmap map;

	CHECK_INT(read_text(&map, PLACEHOLDER, "/boot/System.map-6.1.0-13-amd64"), 0);
	CHECK_INT(map.placeholder, 1);
	CHECK_INT(map.nr, 0);
	sysmap_free(&map);

	/* Without its final newline, too. */
	CHECK_INT(read_text(&map, "ffffffffffffffff B The real System.map is in the "
			    "linux-image-6.1.0-13-amd64-dbg package", "x"), 0);
	CHECK_INT(map.placeholder, 1);
	sysmap_free(&map);

	/* A real map is not a placeholder. */
	CHECK_INT(read_text(&map, "ffffffff81000000 T _text\n", "x"), 0);
	CHECK_INT(map.placeholder, 0);
	CHECK_INT(map.nr, 1);
	sysmap_free(&map);
}

static void test_load(void)
{
	char path[] = "/tmp/kreloc-unit-sysmap-XXXXXX";
	struct sysmap map;
	FILE *f;
	int fd;

	CHECK_INT(sysmap_load(&map, "/nonexistent/System.map"), -1);
	CHECK(!strncmp(map.err, "/nonexistent/System.map: ", 25));
	CHECK(map.syms == NULL);

	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	f = fdopen(fd, "w");
	REQUIRE(f != NULL);
	fputs("ffffffff81000000 T _text\nffffffff81000000 T _stext\n", f);
	fclose(f);
	CHECK_INT(sysmap_load(&map, path), 0);
	CHECK_INT(map.nr, 2);
	sysmap_free(&map);

	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fputs("ffffffff81000000 T _text\nffffffff81000000 X\n", f);
	fclose(f);
	CHECK_INT(sysmap_load(&map, path), -1);
	CHECK(strstr(map.err, path) == map.err);
	CHECK(strstr(map.err, ":2: ") != NULL);
	unlink(path);
}

static void test_index_lookup(void)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 t dup\n"		/* first "dup" in file order */
		"ffffffff81000200 T unique\n"
		"ffffffffc0001000 t modonly\t[mod_a]\n"
		"ffffffffc0001100 t dup\t[mod_a]\n"	/* module symbols: not core */
		"ffffffffc0001200 t unique\t[mod_b]\n"
		"ffffffff81000300 t dup\n"		/* second "dup" */
		"ffffffffc0002000 t both\t[mod_c]\n"	/* module before core */
		"ffffffff81000400 T both\n"
		"ffffffff81000500 T zzz_last\n"
		"ffffffff81000600 T AAA_first\n";
	struct sysmap map;
	const struct sysmap_sym *s;

	REQUIRE(read_text(&map, text, "idx") == 0);
	REQUIRE(map.nr == 11);
	CHECK_INT(sysmap_index(&map), 0);
	CHECK_INT(map.nr_core, 7);

	CHECK_INT(sysmap_count(&map, "dup"), 2);
	s = sysmap_lookup(&map, "dup");
	REQUIRE(s != NULL);
	CHECK_U64(s->addr, 0xffffffff81000100ULL);
	CHECK(s->module == NULL);
	CHECK(sysmap_find(&map, "dup") == s);

	CHECK_INT(sysmap_count(&map, "unique"), 1);
	s = sysmap_lookup(&map, "unique");
	REQUIRE(s != NULL);
	CHECK_U64(s->addr, 0xffffffff81000200ULL);

	/* Module symbols are never found. */
	CHECK(sysmap_lookup(&map, "modonly") == NULL);
	CHECK_INT(sysmap_count(&map, "modonly"), 0);
	CHECK(sysmap_find(&map, "modonly") == NULL);
	s = sysmap_lookup(&map, "both");
	REQUIRE(s != NULL);
	CHECK_U64(s->addr, 0xffffffff81000400ULL);
	CHECK_INT(sysmap_count(&map, "both"), 1);
	CHECK(sysmap_find(&map, "both") == s);

	/* Ends of the sorted index, and misses on either side. */
	CHECK(sysmap_lookup(&map, "AAA_first") == &map.syms[10]);
	CHECK(sysmap_lookup(&map, "zzz_last") == &map.syms[9]);
	CHECK(sysmap_lookup(&map, "AAA") == NULL);
	CHECK(sysmap_lookup(&map, "0") == NULL);
	CHECK(sysmap_lookup(&map, "zzzz") == NULL);
	CHECK(sysmap_lookup(&map, "du") == NULL);
	CHECK(sysmap_lookup(&map, "dupe") == NULL);
	CHECK(sysmap_lookup(&map, "") == NULL);
	CHECK_INT(sysmap_count(&map, "du"), 0);
	CHECK_INT(sysmap_count(&map, "zzzz"), 0);

	/* Re-indexing is harmless. */
	CHECK_INT(sysmap_index(&map), 0);
	CHECK_INT(sysmap_count(&map, "dup"), 2);
	sysmap_free(&map);
}

/*
 * A large map (several reallocations) with names in no particular order and
 * many duplicates: the index must find every name, count it, and return
 * its first occurrence in file order.
 */
static void test_index_large(void)
{
	enum { N = 20000, DUPS = 7 };
	size_t cap = (size_t)N * 48, len = 0, i, bad = 0;
	size_t dup_count[DUPS] = { 0 }, dup_first[DUPS];
	char *text = malloc(cap), name[32];
	struct sysmap map;
	FILE *f;

	REQUIRE(text != NULL);
	for (i = 0; i < N; i++) {
		/* Every 50th symbol shares one of DUPS names; the others are
		 * sym_<i scrambled> (7919 is prime to N: all distinct). */
		if (i % 50 == 7) {
			snprintf(name, sizeof(name), "dup_%zu", i % DUPS);
			if (!dup_count[i % DUPS]++)
				dup_first[i % DUPS] = i;
		} else {
			snprintf(name, sizeof(name), "sym_%zu", (i * 7919) % N);
		}
		len += snprintf(text + len, cap - len, "%016zx %c %s\n",
				(size_t)0xffffffff81000000 + i * 16, "Ttdb"[i % 4], name);
	}
	f = stream(text, len);
	free(text);
	REQUIRE(f != NULL);
	CHECK_INT(sysmap_read(&map, f, "large"), 0);
	fclose(f);
	REQUIRE(map.nr == N);
	REQUIRE(sysmap_index(&map) == 0);
	CHECK_INT(map.nr_core, N);

	for (i = 0; i < N; i++) {
		const char *nm = map.syms[i].name;
		const struct sysmap_sym *s = sysmap_lookup(&map, nm);
		const struct sysmap_sym *first = &map.syms[i];
		size_t want = 1, got = sysmap_count(&map, nm);

		if (!strncmp(nm, "dup_", 4)) {
			want = dup_count[atoi(nm + 4)];
			first = &map.syms[dup_first[atoi(nm + 4)]];
		}
		if (s != first || got != want) {
			if (bad++ < 5)
				unit_diag("  %s: lookup %p find %p count %zu want %zu",
					  nm, (const void *)s, (const void *)first,
					  got, want);
		}
	}
	CHECK_INT(bad, 0);
	CHECK(dup_count[0] > 1);
	CHECK_INT(sysmap_count(&map, "dup_0"), dup_count[0]);
	CHECK(sysmap_find(&map, "dup_3") == &map.syms[dup_first[3]]);
	CHECK(sysmap_lookup(&map, "sym_") == NULL);
	CHECK(sysmap_lookup(&map, "sym_20000") == NULL);
	sysmap_free(&map);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_parse_line),
	UNIT_CASE(test_skip_lines),
	UNIT_CASE(test_malformed_lines),
	UNIT_CASE(test_name_length),
	UNIT_CASE(test_read),
	UNIT_CASE(test_read_error_line),
	UNIT_CASE(test_read_nul_byte),
	UNIT_CASE(test_placeholder),
	UNIT_CASE(test_load),
	UNIT_CASE(test_index_lookup),
	UNIT_CASE(test_index_large),
};

UNIT_MAIN(cases)
