// SPDX-License-Identifier: GPL-2.0
/* test_symstr.c - parsing sprint_symbol() output (kreloc_symstr.c). */
#include <stdlib.h>
#include "unit.h"
#include "kreloc_symstr.h"

#define UNTOUCHED 0xdeadbeefcafef00dULL

/* Parse a heap copy of @str so that ASan catches reads past its end. */
static int parse(const char *str, const char *name, u64 *off)
{
	char *copy = strdup(str);
	int ret;

	*off = UNTOUCHED;
	ret = kreloc_symstr_offset(copy, name, off);
	free(copy);
	return ret;
}

static void test_plain(void)
{
	u64 off;

	CHECK_INT(parse("kallsyms_lookup_name+0x4/0x90", "kallsyms_lookup_name", &off), 0);
	CHECK_U64(off, 4);
	CHECK_INT(parse("vfs_read+0x0/0x1c0", "vfs_read", &off), 0);
	CHECK_U64(off, 0);
	CHECK_INT(parse("do_sys_open+0x1a2b/0x1a2c", "do_sys_open", &off), 0);
	CHECK_U64(off, 0x1a2b);
	/* Upper-case digits and prefix. */
	CHECK_INT(parse("f+0XAb/0XFF", "f", &off), 0);
	CHECK_U64(off, 0xab);
	/* The full 16 hex digits. */
	CHECK_INT(parse("big+0xfffffffffffffffe/0xffffffffffffffff", "big", &off), 0);
	CHECK_U64(off, 0xfffffffffffffffeULL);
	/* A size of 0 bounds nothing. */
	CHECK_INT(parse("marker+0x10/0x0", "marker", &off), 0);
	CHECK_U64(off, 0x10);
}

static void test_module_suffix(void)
{
	u64 off;

	CHECK_INT(parse("kallsyms_lookup_name+0x4/0x90 [kreloc]", "kallsyms_lookup_name", &off), 0);
	CHECK_U64(off, 4);
	CHECK_INT(parse("ext4_fill_super+0x12c/0x3f40 [ext4]", "ext4_fill_super", &off), 0);
	CHECK_U64(off, 0x12c);
	/* The module is not part of the name. */
	CHECK_INT(parse("init_module+0x0/0x40 [foo]", "init_module [foo]", &off), -ENOENT);
}

static void test_wrong_name(void)
{
	u64 off;

	CHECK_INT(parse("kallsyms_lookup_name+0x4/0x90", "kallsyms_on_each_symbol", &off), -ENOENT);
	CHECK_U64(off, UNTOUCHED);
	CHECK_INT(parse("kallsyms_lookup_name+0x4/0x90 [mod]", "vfs_read", &off), -ENOENT);
	CHECK_U64(off, UNTOUCHED);
	CHECK_INT(parse("Vfs_read+0x4/0x90", "vfs_read", &off), -ENOENT);
	CHECK_INT(parse("vfs_read+0x4/0x90", "", &off), -ENOENT);
}

static void test_prefix_confusion(void)
{
	u64 off;

	/* The probe landed in a symbol whose name merely starts alike. */
	CHECK_INT(parse("foobar+0x0/0x10", "foo", &off), -ENOENT);
	CHECK_U64(off, UNTOUCHED);
	CHECK_INT(parse("foo+0x0/0x10", "foobar", &off), -ENOENT);
	CHECK_U64(off, UNTOUCHED);
	CHECK_INT(parse("__x64_sys_open+0x0/0x10", "__x64_sys_openat", &off), -ENOENT);
	CHECK_INT(parse("foo.cold+0x0/0x10", "foo", &off), -ENOENT);
	CHECK_INT(parse("foo+0x0/0x10", "foo", &off), 0);
	CHECK_U64(off, 0);
}

/* ppc64 ELFv1: the text symbol is the dot-name; the plain one is the
 * function descriptor. */
static void test_ppc64_dot_symbols(void)
{
	u64 off;

	CHECK_INT(parse(".kernel_clone+0x0/0x3a0", ".kernel_clone", &off), 0);
	CHECK_U64(off, 0);
	CHECK_INT(parse(".kernel_clone+0x8/0x3a0", ".kernel_clone", &off), 0);
	CHECK_U64(off, 8);
	CHECK_INT(parse(".kernel_clone+0x0/0x3a0", "kernel_clone", &off), -ENOENT);
	CHECK_INT(parse("kernel_clone+0x0/0x18", ".kernel_clone", &off), -ENOENT);
}

static void test_malformed(void)
{
	static const char * const bad[] = {
		"",
		"kallsyms_lookup_name",			/* no '+' */
		"kallsyms_lookup_name 0x4/0x90",
		"+0x4/0x90",				/* no name */
		"kallsyms_lookup_name+4/0x90",		/* no "0x" */
		"kallsyms_lookup_name+0x4/90",
		"kallsyms_lookup_name+x4/0x90",
		"kallsyms_lookup_name+0/0x90",
		"kallsyms_lookup_name+0x/0x90",		/* no digits */
		"kallsyms_lookup_name+0x4/0x",
		"kallsyms_lookup_name+0x4/0x90+",
		"kallsyms_lookup_name+0x4",		/* missing '/' */
		"kallsyms_lookup_name+0x4 0x90",
		"kallsyms_lookup_name+0x4/",
		"kallsyms_lookup_name+0x4//0x90",
		"kallsyms_lookup_name+0x90/0x90",	/* offset == size */
		"kallsyms_lookup_name+0x91/0x90",	/* offset > size */
		"kallsyms_lookup_name+0x10000000000000000/0x90",	/* 17 digits */
		"kallsyms_lookup_name+0x4/0x10000000000000000",
		"kallsyms_lookup_name+0x00000000000000004/0x90",	/* 17 digits */
		"kallsyms_lookup_name+0x4/0x90zz",	/* trailing junk */
		"kallsyms_lookup_name+0x4/0x90/",
		"kallsyms_lookup_name+0x4/0x90[mod]",
		"kallsyms_lookup_name+0x4/0x90\n",
		"kallsyms_lookup_name+0x4/0x90\t[mod]",
		"kallsyms_lookup_name+0x4g/0x90",
		"kallsyms_lookup_name+-0x4/0x90",
		"kallsyms_lookup_name+ 0x4/0x90",
	};
	unsigned int i;
	u64 off;

	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		/* Malformed wins over a name mismatch, too. */
		if (!CHECK_INT(parse(bad[i], "kallsyms_lookup_name", &off), -EINVAL) ||
		    !CHECK_INT(parse(bad[i], "other", &off), -EINVAL))
			unit_diag("  input \"%s\"", bad[i]);
		CHECK_U64(off, UNTOUCHED);
	}
}

/* The part after the '+' on its own. */
static void test_offset_size(void)
{
	static const char * const bad[] = {
		"", "4/0x90", "0x4", "0x4/", "0x4/90", "0x4/0x90x", "0x4/0x90/",
		"0x90/0x90", "0x91/0x90", "0x4/0x90\n", "0x10000000000000000/0x1",
		"kallsyms_lookup_name+0x4/0x90",
	};
	u64 off = UNTOUCHED, size = UNTOUCHED;
	unsigned int i;

	CHECK_INT(kreloc_symstr_offset_size("0x4/0x90", &off, &size), 0);
	CHECK_U64(off, 4);
	CHECK_U64(size, 0x90);
	CHECK_INT(kreloc_symstr_offset_size("0x0/0x3a0 [ext4]", &off, &size), 0);
	CHECK_U64(off, 0);
	CHECK_U64(size, 0x3a0);
	CHECK_INT(kreloc_symstr_offset_size("0x8f/0x90", &off, &size), 0);
	CHECK_U64(off, 0x8f);
	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		char *copy = strdup(bad[i]);

		if (!CHECK_INT(kreloc_symstr_offset_size(copy, &off, &size), -EINVAL))
			unit_diag("  input \"%s\"", bad[i]);
		free(copy);
	}
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_plain),
	UNIT_CASE(test_module_suffix),
	UNIT_CASE(test_wrong_name),
	UNIT_CASE(test_prefix_confusion),
	UNIT_CASE(test_ppc64_dot_symbols),
	UNIT_CASE(test_malformed),
	UNIT_CASE(test_offset_size),
};

UNIT_MAIN(cases)
