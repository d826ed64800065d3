// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for tools/cli/kplace.c: is a .ko the module a kreloc record
 * describes, and the kallsyms type letters.  The layout is real: Debian
 * 6.1.0-57's vfat.ko (readelf -S) and the record kreloc made of it in a
 * QEMU boot (tools VM test, snapshot of boot 1).
 */
#include <elf.h>
#include <stdlib.h>
#include "unit.h"
#include "../../tools/lib/kreloc/kplace.h"

#define A SHF_ALLOC
#define AX (SHF_ALLOC | SHF_EXECINSTR)
#define WA (SHF_ALLOC | SHF_WRITE)

static struct kplace_sec vfat_secs[] = {
	{ "", SHT_NULL, 0, 0, 0 },
	{ ".note.gnu.build-id", SHT_NOTE, A, 0x24, 4 },
	{ ".note.Linux", SHT_NOTE, A, 0x3c, 4 },
	{ ".text", SHT_PROGBITS, AX, 0x2660, 16 },
	{ ".rela.text", SHT_RELA, SHF_INFO_LINK, 0x1620, 8 },
	{ ".init.text", SHT_PROGBITS, AX, 0x11, 1 },
	{ ".exit.text", SHT_PROGBITS, AX, 0xc, 1 },
	{ ".text.unlikely", SHT_PROGBITS, AX, 0x77, 1 },
	{ ".rodata", SHT_PROGBITS, A, 0x200, 64 },
	{ "__mcount_loc", SHT_PROGBITS, A, 0x98, 1 },
	{ ".smp_locks", SHT_PROGBITS, A, 0xc, 4 },
	{ ".rodata.str1.8", SHT_PROGBITS, A | SHF_MERGE | SHF_STRINGS, 0x7c, 8 },
	{ ".rodata.str1.1", SHT_PROGBITS, A | SHF_MERGE | SHF_STRINGS, 0x25, 1 },
	{ ".modinfo", SHT_PROGBITS, A, 0xbb, 1 },
	{ ".rodata.cst2", SHT_PROGBITS, A | SHF_MERGE, 0x6, 2 },
	{ ".retpoline_sites", SHT_PROGBITS, A, 0xc, 1 },
	{ ".return_sites", SHT_PROGBITS, A, 0x50, 1 },
	{ ".orc_unwind", SHT_PROGBITS, A, 0x354, 1 },
	{ ".orc_unwind_ip", SHT_PROGBITS, A, 0x238, 1 },
	{ "__versions", SHT_PROGBITS, A, 0xfc0, 32 },
	{ "__bug_table", SHT_PROGBITS, WA, 0xc, 8 },
	{ ".data", SHT_PROGBITS, WA, 0x48, 32 },
	{ ".exit.data", SHT_PROGBITS, WA, 0x8, 8 },
	{ ".init.data", SHT_PROGBITS, WA, 0x8, 8 },
	{ ".gnu.linkonce.this_module", SHT_PROGBITS, WA, 0x380, 64 },
	{ ".bss", SHT_NOBITS, WA, 0, 1 },
	{ ".comment", SHT_PROGBITS, SHF_MERGE | SHF_STRINGS, 0x50, 1 },
	{ ".BTF", SHT_PROGBITS, 0, 0xbe9, 1 },
	{ ".symtab", SHT_SYMTAB, 0, 0xb70, 8 },
	{ ".strtab", SHT_STRTAB, 0, 0x66e, 1 },
	{ ".shstrtab", SHT_STRTAB, 0, 0x1ae, 1 },
};
#define NSECS (sizeof(vfat_secs) / sizeof(vfat_secs[0]))

#define R(n, a, s, st) { KS_REGION, (char *)(n), { a, 1 }, { s, 1 }, st }
#define S(n, a, st) { KS_SECTION, (char *)(n), { a, 1 }, { 0, 0 }, st }

static const struct ks_mem vfat_rec[] = {
	R("text", 0xffffffffc0360000, 0x3000, "live"),
	R("data", 0xffffffffc0364000, 0x2000, "live"),
	R("rodata", 0xffffffffc0363000, 0x1000, "live"),
	R("init.text", 0xffffffffc0339000, 0x1000, "freed"),
	R("init.data", 0xffffffffc033a000, 0x3000, "freed"),
	S(".note.gnu.build-id", 0xffffffffc0363000, "live"),
	S(".note.Linux", 0xffffffffc0363024, "live"),
	S(".text", 0xffffffffc0360000, "live"),
	S(".init.text", 0xffffffffc0339000, "freed"),
	S(".exit.text", 0xffffffffc0362660, "live"),
	S(".text.unlikely", 0xffffffffc036266c, "live"),
	S(".rodata", 0xffffffffc0363080, "live"),
	S("__mcount_loc", 0xffffffffc0363280, "live"),
	S(".smp_locks", 0xffffffffc0363318, "live"),
	S(".rodata.str1.8", 0xffffffffc0363328, "live"),
	S(".rodata.str1.1", 0xffffffffc03633a4, "live"),
	S(".rodata.cst2", 0xffffffffc03633ca, "live"),
	S(".retpoline_sites", 0xffffffffc03633d0, "live"),
	S(".return_sites", 0xffffffffc03633dc, "live"),
	S(".orc_unwind", 0xffffffffc036342c, "live"),
	S(".orc_unwind_ip", 0xffffffffc0363780, "live"),
	S("__bug_table", 0xffffffffc0364000, "live"),
	S(".data", 0xffffffffc0364020, "live"),
	S(".exit.data", 0xffffffffc0364068, "live"),
	S(".init.data", 0xffffffffc033a000, "freed"),
	S(".gnu.linkonce.this_module", 0xffffffffc0364080, "live"),
	S(".symtab", 0xffffffffc033b000, "freed"),
	S(".strtab", 0xffffffffc033bb70, "freed"),
};
#define NREC (sizeof(vfat_rec) / sizeof(vfat_rec[0]))

static struct ks_mem rec[NREC];
static struct ks_mod mod;
static char why[512];

static struct ks_mod *fresh(void)
{
	memcpy(rec, vfat_rec, sizeof(rec));
	memset(&mod, 0, sizeof(mod));
	mod.name = (char *)"vfat";
	mod.mem = rec;
	mod.nr_mem = NREC;
	why[0] = '\0';
	return &mod;
}

static struct kplace_sec *sec(const char *name)
{
	size_t i;

	for (i = 0; i < NSECS; i++)
		if (!strcmp(vfat_secs[i].name, name))
			return &vfat_secs[i];
	return NULL;
}

static struct ks_mem *recsec(const char *name)
{
	size_t i;

	for (i = 0; i < NREC; i++)
		if (rec[i].kind == KS_SECTION && !strcmp(rec[i].name, name))
			return &rec[i];
	return NULL;
}

static int check(void)
{
	return kplace_check(vfat_secs, NSECS, &mod, 4096, why, sizeof(why));
}

static void test_real_vfat_fits(void)
{
	fresh();
	CHECK_INT(check(), 0);
	if (why[0])
		unit_diag("%s", why);
}

/* One byte more in .text than was loaded: it would run into .exit.text. */
static void test_bigger_section_overlaps(void)
{
	fresh();
	sec(".text")->size += 1;
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "overlap") != NULL);
	CHECK(strstr(why, ".exit.text") != NULL);
	sec(".text")->size -= 1;
}

/* 0x20 bytes less: a gap .exit.text's alignment 1 cannot explain. */
static void test_smaller_section_gap(void)
{
	fresh();
	sec(".text")->size -= 0x20;
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "leaves 0x20 bytes before .exit.text") != NULL);
	sec(".text")->size += 0x20;
}

/* Within the next section's alignment: .rodata (align 64) after .note.Linux. */
static void test_alignment_gap_allowed(void)
{
	fresh();
	sec(".note.Linux")->size -= 0x20;	/* 0x60 -> 0x80 still pads to 64 */
	CHECK_INT(check(), -1);		/* 0x40 gap: not < 64 */
	sec(".note.Linux")->size += 0x10;	/* gap 0x30 < 64 */
	CHECK_INT(check(), 0);
	sec(".note.Linux")->size += 0x10;
}

/* The last section of a region must end inside it. */
static void test_region_overrun(void)
{
	fresh();
	sec(".orc_unwind_ip")->size = 0x1000;
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "past the end of region rodata") != NULL);
	sec(".orc_unwind_ip")->size = 0x238;
}

static void test_missing_and_extra_sections(void)
{
	struct kplace_sec *s;

	fresh();
	s = sec(".smp_locks");
	s->name = ".smp_locks_renamed";
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "had a section .smp_locks") != NULL);
	s->name = ".smp_locks";

	/* an allocated section the loaded module did not have */
	fresh();
	s = sec(".comment");
	s->flags |= SHF_ALLOC;
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "has a section .comment") != NULL);
	s->flags &= ~(uint64_t)SHF_ALLOC;
}

/* .modinfo, __versions are SHF_ALLOC in the file but never placed. */
static void test_unplaced_ignored(void)
{
	CHECK(kplace_unplaced(".modinfo"));
	CHECK(kplace_unplaced("__versions"));
	CHECK(kplace_unplaced(".data..percpu"));
	CHECK(!kplace_unplaced(".data"));
	CHECK(kplace_arch_sized(".plt"));
	CHECK(!kplace_arch_sized(".text"));
}

/*
 * The loader starts the symbol table on a page after the init data: that
 * gap (0xff8 before .symtab) is padding to a page, one page more is not.
 */
static void test_page_gap(void)
{
	fresh();
	CHECK_INT(check(), 0);
	recsec(".symtab")->addr.v += 0x1000;
	recsec(".strtab")->addr.v += 0x1000;
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "leaves 0x1ff8 bytes before .symtab") != NULL);
}

/*
 * The same module with its debug information stripped, or the -dbg copy of
 * a stripped one: only the symbol and string tables differ in size, and it
 * is still the module that was loaded.
 */
static void test_stripped_symtab(void)
{
	fresh();
	sec(".symtab")->size -= 0x258;
	sec(".strtab")->size -= 0x100;
	CHECK_INT(check(), 0);
	sec(".symtab")->size += 0x258 + 0x4000;
	sec(".strtab")->size += 0x100 + 0x8000;
	CHECK_INT(check(), 0);
	sec(".symtab")->size -= 0x4000;
	sec(".strtab")->size -= 0x8000;
}

static void test_empty_record(void)
{
	fresh();
	mod.nr_mem = 5;		/* regions only */
	CHECK_INT(check(), -1);
	CHECK(strstr(why, "no section addresses") != NULL);
}

static void test_placed_states(void)
{
	size_t i;

	fresh();
	CHECK(kplace_section_placed(&mod, recsec(".text")));
	CHECK(!kplace_section_placed(&mod, recsec(".init.text")));
	CHECK(!kplace_section_placed(&mod, recsec(".symtab")));	/* in init.data */
	CHECK(!kplace_section_placed(&mod, &rec[0]));	/* a region */
	recsec(".text")->addr.ok = 0;
	CHECK(!kplace_section_placed(&mod, recsec(".text")));
	/* unloaded: every section says gone, init ones were still freed */
	fresh();
	for (i = 0; i < NREC; i++)
		strcpy(rec[i].state, "gone");
	CHECK(kplace_section_placed(&mod, recsec(".text")));
	CHECK(kplace_section_placed(&mod, recsec(".data")));
	CHECK(!kplace_section_placed(&mod, recsec(".init.text")));
	CHECK(!kplace_section_placed(&mod, recsec(".init.data")));
	CHECK(!kplace_section_placed(&mod, recsec(".strtab")));
	/* ->init still running (coming): init sections are placed */
	fresh();
	strcpy(rec[3].state, "live");	/* region init.text */
	strcpy(recsec(".init.text")->state, "live");
	CHECK(kplace_section_placed(&mod, recsec(".init.text")));
	/* a module initialised before kreloc: init sections in no region */
	fresh();
	strcpy(recsec(".init.text")->state, "live");
	rec[3].addr.ok = 0;
	CHECK(!kplace_section_placed(&mod, recsec(".init.text")));
}

/* The kernel's elf_type() and s_show() upper-casing of exports. */
static void test_types(void)
{
	CHECK_INT(kplace_type(sec(".text"), KPLACE_SHN_SEC, STB_LOCAL, STT_FUNC, 0), 't');
	CHECK_INT(kplace_type(sec(".text"), KPLACE_SHN_SEC, STB_GLOBAL, STT_FUNC, 1), 'T');
	CHECK_INT(kplace_type(sec(".rodata"), KPLACE_SHN_SEC, STB_LOCAL, STT_OBJECT, 0), 'r');
	CHECK_INT(kplace_type(sec(".data"), KPLACE_SHN_SEC, STB_GLOBAL, STT_OBJECT, 0), 'd');
	CHECK_INT(kplace_type(sec(".data"), KPLACE_SHN_SEC, STB_GLOBAL, STT_OBJECT, 1), 'D');
	CHECK_INT(kplace_type(sec(".bss"), KPLACE_SHN_SEC, STB_LOCAL, STT_OBJECT, 0), 'b');
	CHECK_INT(kplace_type(sec(".text"), KPLACE_SHN_SEC, STB_WEAK, STT_FUNC, 0), 'w');
	CHECK_INT(kplace_type(sec(".data"), KPLACE_SHN_SEC, STB_WEAK, STT_OBJECT, 0), 'v');
	CHECK_INT(kplace_type(NULL, KPLACE_SHN_UNDEF, STB_GLOBAL, STT_NOTYPE, 0), 'U');
	CHECK_INT(kplace_type(NULL, KPLACE_SHN_ABS, STB_LOCAL, STT_NOTYPE, 0), 'a');
	CHECK_INT(kplace_type(NULL, KPLACE_SHN_ABS, STB_GLOBAL, STT_NOTYPE, 1), 'A');
	CHECK_INT(kplace_type(sec(".comment"), KPLACE_SHN_SEC, STB_LOCAL, STT_NOTYPE, 0), '?');
	CHECK_INT(kplace_page("x86_64"), 4096);
	CHECK_INT(kplace_page("ppc64le"), 65536);
}

/*
 * arm64 6.12's loader sizes .init.plt itself (module_frob_arch_sections()):
 * the file's one byte is not what follows .init.text.  Real layout: the
 * kreloc.ko of 6.12.118+deb12-arm64 (readelf -S) and its record from a
 * QEMU boot (tools VM test, boot 1's snapshot).
 */
static struct kplace_sec arm64_secs[] = {
	{ ".init.text", SHT_PROGBITS, AX, 0xb4, 8 },
	{ ".init.plt", SHT_PROGBITS, A, 0x1, 1 },
	{ ".init.text.ftrace_trampoline", SHT_PROGBITS, A, 0x1, 1 },
};

static const struct ks_mem arm64_rec[] = {
	R("init.text", 0xffffa6213ef9f000, 0x1000, "freed"),
	S(".init.text", 0xffffa6213ef9f000, "freed"),
	S(".init.plt", 0xffffa6213ef9f0c0, "freed"),
	S(".init.text.ftrace_trampoline", 0xffffa6213ef9f114, "freed"),
};

static void test_arch_sized_between(void)
{
	struct ks_mem r[4];
	struct ks_mod m = { .name = (char *)"kreloc", .mem = r, .nr_mem = 4 };

	memcpy(r, arm64_rec, sizeof(r));
	CHECK_INT(kplace_check(arm64_secs, 3, &m, 65536, why, sizeof(why)), 0);
	if (why[0])
		unit_diag("%s", why);
	/* what the file says of the section before it is still checked */
	arm64_secs[0].size = 0xc8;
	CHECK_INT(kplace_check(arm64_secs, 3, &m, 65536, why, sizeof(why)), -1);
	CHECK(strstr(why, "would overlap .init.plt") != NULL);
	arm64_secs[0].size = 0xb4;
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_real_vfat_fits),
	UNIT_CASE(test_bigger_section_overlaps),
	UNIT_CASE(test_smaller_section_gap),
	UNIT_CASE(test_alignment_gap_allowed),
	UNIT_CASE(test_region_overrun),
	UNIT_CASE(test_missing_and_extra_sections),
	UNIT_CASE(test_unplaced_ignored),
	UNIT_CASE(test_page_gap),
	UNIT_CASE(test_arch_sized_between),
	UNIT_CASE(test_stripped_symtab),
	UNIT_CASE(test_empty_record),
	UNIT_CASE(test_placed_states),
	UNIT_CASE(test_types),
};
UNIT_MAIN(cases)
