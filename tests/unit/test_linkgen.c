// SPDX-License-Identifier: GPL-2.0
/*
 * test_linkgen.c - the anchor table from a System.map or a vmlinux ELF
 * (tools/linkgen.c, tools/kelf.c), and the header written from it.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdlib.h>
#include "unit.h"
#include "linkgen.h"

/* ------------------------------------------------------------------ */
/* Part 1: System.map                                                  */
/* ------------------------------------------------------------------ */

/* An x86_64-like layout: text, rodata, data, init, bss. */
#define TEXT_S		0xffffffff81000000ULL
#define TEXT_E		0xffffffff81c00000ULL
#define RO_S		0xffffffff82000000ULL
#define RO_E		0xffffffff82600000ULL
#define DATA_S		0xffffffff82800000ULL
#define DATA_E		0xffffffff82a00000ULL
#define INIT_BEGIN	0xffffffff82c00000ULL	/* then the per-cpu load area */
#define ITEXT_S		0xffffffff82c40000ULL
#define ITEXT_E		0xffffffff82c80000ULL
#define INIT_END	0xffffffff82e00000ULL
#define BSS_S		0xffffffff83000000ULL
#define BSS_E		0xffffffff83400000ULL

static void sym(FILE *f, uint64_t addr, char type, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void sym(FILE *f, uint64_t addr, char type, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "%016" PRIx64 " %c ", addr, type);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* Names that must never become anchors, spliced between good ones. */
static const char * const bad_prefixes[] = {
	"__pfx_", "__cfi_", "__UNIQUE_ID_", "__ksymtab_", "__kstrtab_",
	"__crc_", "__initcall_", "__param_", "__setup_", "__BTF_ID__",
};
static const char * const bad_suffixes[] = {
	".constprop.0", ".isra.0", ".cold", ".part.0", ".llvm.123456",
};

/*
 * n symbols strictly inside (start, end), in address order.  A quarter of
 * them are good anchors (unique, plain, of the group's types); the rest are
 * pairs of static duplicates, dotted names, reserved prefixes and symbols of
 * another type.  Returns the number of good ones.
 */
static unsigned int gen_group(FILE *f, const char *tag, uint64_t start,
			      uint64_t end, const char *types, unsigned int n)
{
	uint64_t step = (end - start) / (n + 2);
	unsigned int j, good = 0;

	for (j = 0; j < n; j++) {
		uint64_t a = start + (j + 1) * step;
		char t = types[j % 2];

		switch (j % 8) {
		case 1: case 5:
			sym(f, a, t, "%s_fn%u", tag, j);
			good++;
			break;
		case 0:		/* two static functions of the same name */
			sym(f, a, types[1], "%s_dup%u", tag, j);
			sym(f, a + 8, types[1], "%s_dup%u", tag, j);
			break;
		case 2: case 6:
			sym(f, a, t, "%s_fn%u%s", tag, j,
			    bad_suffixes[j % UNIT_ARRAY_SIZE(bad_suffixes)]);
			break;
		case 3: case 7:
			sym(f, a, t, "%s%s_fn%u",
			    bad_prefixes[(j / 4) % UNIT_ARRAY_SIZE(bad_prefixes)],
			    tag, j);
			break;
		case 4:		/* wrong type for the group */
			sym(f, a, types[0] == 'T' ? 'W' : 'A', "%s_wrongtype%u", tag, j);
			break;
		}
	}
	return good;
}

struct mapgen {
	unsigned int good[KRELOC_NR_GROUPS];
	unsigned int nr_itext_good;
};

#define GEN_PLACEHOLDER	1	/* Debian's placeholder line first */
#define GEN_BAD_RODATA	2	/* __end_rodata below __start_rodata */
#define GEN_TWO_MODULES	4	/* a second "modules" symbol */
#define MODULES_ADDR	(DATA_S + 0x80)

/* Write the synthetic System.map. */
static char *gen_map(struct mapgen *mg, int flags, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	memset(mg, 0, sizeof(*mg));
	if (flags & GEN_PLACEHOLDER)
		fputs("ffffffffffffffff B The real System.map is in the "
		      "linux-image-6.1.0-13-amd64-dbg package\n", f);
	/* Per-cpu symbols (zero based) and absolute ones: in no group. */
	sym(f, 0, 'A', "__per_cpu_start");
	sym(f, 0x1000, 'D', "lowdata_fn1");
	sym(f, 0x2000, 'B', "lowbss_fn1");
	sym(f, 0x3000, 'A', "__per_cpu_end");

	sym(f, TEXT_S, 'T', "_text");
	sym(f, TEXT_S, 'T', "_stext");
	sym(f, TEXT_S + 0x40, 't', "shared_name");	/* also in data below */
	mg->good[KRELOC_TEXT] = gen_group(f, "text", TEXT_S, TEXT_E, "Tt", 160);
	sym(f, TEXT_E, 'T', "_etext");

	sym(f, RO_S, 'D', "__start_rodata");
	mg->good[KRELOC_RODATA] = gen_group(f, "ro", RO_S, RO_E, "Rr", 40);
	sym(f, flags & GEN_BAD_RODATA ? RO_S - 0x1000 : RO_E, 'D', "__end_rodata");

	sym(f, DATA_S, 'D', "_sdata");
	sym(f, DATA_S + 0x40, 'd', "shared_name");
	sym(f, MODULES_ADDR, 'd', "modules");
	if (flags & GEN_TWO_MODULES)
		sym(f, DATA_S + 0x100, 'b', "modules");
	mg->good[KRELOC_DATA] = gen_group(f, "data", DATA_S, DATA_E, "Dd", 40);
	sym(f, DATA_E, 'D', "_edata");

	sym(f, INIT_BEGIN, 'D', "__init_begin");
	sym(f, INIT_BEGIN, 'D', "__per_cpu_load");
	sym(f, ITEXT_S, 'T', "_sinittext");
	/* Fewer good symbols than the sample count. */
	mg->good[KRELOC_INIT_TEXT] = gen_group(f, "itext", ITEXT_S, ITEXT_E, "Tt", 8);
	sym(f, ITEXT_E, 'T', "_einittext");
	mg->good[KRELOC_INIT_DATA] = gen_group(f, "idata", ITEXT_E, INIT_END, "Dd", 40);
	sym(f, INIT_END, 'D', "__init_end");

	sym(f, BSS_S, 'B', "__bss_start");
	mg->good[KRELOC_BSS] = gen_group(f, "bss", BSS_S, BSS_E, "Bb", 40);
	sym(f, BSS_E, 'B', "__bss_stop");
	sym(f, BSS_E, 'B', "__brk_base");
	sym(f, BSS_E + 0x1000, 'B', "after_fn1");
	sym(f, BSS_E + 0x2000, 'B', "_end");
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int read_map(struct sysmap *map, const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret;

	if (!f) {
		memset(map, 0, sizeof(*map));
		return -1;
	}
	ret = sysmap_read(map, f, "System.map-test");
	fclose(f);
	return ret;
}

static const struct {
	const char *name;
	int group;
	int end;	/* the exclusive end of its group's extent */
} want_markers[] = {
	{ "_text", KRELOC_TEXT, 0 }, { "_stext", KRELOC_TEXT, 0 },
	{ "_etext", KRELOC_TEXT, 1 },
	{ "__start_rodata", KRELOC_RODATA, 0 }, { "__end_rodata", KRELOC_RODATA, 1 },
	{ "_sdata", KRELOC_DATA, 0 }, { "_edata", KRELOC_DATA, 1 },
	{ "__bss_start", KRELOC_BSS, 0 }, { "__bss_stop", KRELOC_BSS, 1 },
	{ "_sinittext", KRELOC_INIT_TEXT, 0 }, { "_einittext", KRELOC_INIT_TEXT, 1 },
	{ "__init_begin", KRELOC_INIT_DATA, 0 }, { "__init_end", KRELOC_INIT_DATA, 1 },
};

static int find_anchor(const struct linkgen *lg, const char *name)
{
	unsigned int i;

	for (i = 0; i < lg->nr; i++)
		if (!strcmp(lg->anchors[i].name, name))
			return i;
	return -1;
}

static int marker_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < UNIT_ARRAY_SIZE(want_markers); i++)
		if (!strcmp(want_markers[i].name, name))
			return i;
	return -1;
}

static void check_sec(const struct kreloc_linked_section *s, uint64_t start,
		      uint64_t size, const char *what)
{
	if (!CHECK(s->known) | !CHECK_U64(s->start, start) |
	    !CHECK_U64(s->size, size))
		unit_diag("  section %s", what);
}

static void test_sysmap_anchors(void)
{
	static const char * const group_types[KRELOC_NR_GROUPS] = {
		[KRELOC_TEXT] = "Tt", [KRELOC_RODATA] = "Rr", [KRELOC_DATA] = "Dd",
		[KRELOC_BSS] = "Bb", [KRELOC_INIT_TEXT] = "Tt", [KRELOC_INIT_DATA] = "Dd",
	};
	struct mapgen mg;
	struct linkgen lg;
	struct sysmap map;
	size_t len;
	char *text = gen_map(&mg, 0, &len);
	unsigned int i, k, g, sampled[KRELOC_NR_GROUPS] = { 0 };
	uint64_t lo[KRELOC_NR_GROUPS], hi[KRELOC_NR_GROUPS];

	REQUIRE(text != NULL);
	if (!CHECK_INT(read_map(&map, text, len), 0)) {
		unit_diag("  %s", map.err);
		free(text);
		return;
	}
	free(text);
	CHECK(map.nr >= 300);
	REQUIRE(sysmap_index(&map) == 0);
	if (!CHECK_INT(linkgen_from_sysmap(&lg, &map), 0)) {
		unit_diag("  %s", lg.err);
		sysmap_free(&map);
		return;
	}
	CHECK_STR(lg.source, "system.map");
	CHECK_INT(lg.build_id_len, 0);
	CHECK(lg.nr >= 12);
	CHECK(lg.nr <= LINKGEN_MAX_ANCHORS);

	check_sec(&lg.sec[KRELOC_TEXT], TEXT_S, TEXT_E - TEXT_S, "text");
	check_sec(&lg.sec[KRELOC_RODATA], RO_S, RO_E - RO_S, "rodata");
	check_sec(&lg.sec[KRELOC_DATA], DATA_S, DATA_E - DATA_S, "data");
	check_sec(&lg.sec[KRELOC_BSS], BSS_S, BSS_E - BSS_S, "bss");
	check_sec(&lg.sec[KRELOC_INIT_TEXT], ITEXT_S, ITEXT_E - ITEXT_S, "init.text");
	check_sec(&lg.sec[KRELOC_INIT_DATA], ITEXT_E, INIT_END - ITEXT_E, "init.data");

	/* Every boundary marker, in the group it delimits. */
	for (i = 0; i < UNIT_ARRAY_SIZE(want_markers); i++) {
		int a = find_anchor(&lg, want_markers[i].name);

		if (!CHECK(a >= 0)) {
			unit_diag("  marker %s is not an anchor", want_markers[i].name);
			continue;
		}
		if (!CHECK_INT(lg.anchors[a].group, want_markers[i].group))
			unit_diag("  marker %s", want_markers[i].name);
	}

	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		lo[g] = ~0ULL;
		hi[g] = 0;
	}
	for (i = 0; i < lg.nr; i++) {
		const char *name = lg.anchors[i].name;
		uint64_t addr = lg.anchors[i].linked;
		const struct sysmap_sym *s = sysmap_lookup(&map, name);
		int gr = lg.anchors[i].group, m = marker_index(name);
		int where = kreloc_group_for_addr(lg.sec, addr);
		int ok = 1;

		if (!CHECK(gr >= 0 && gr < KRELOC_NR_GROUPS)) {
			unit_diag("  anchor %s: group %d", name, gr);
			continue;
		}
		/* A unique, plain, core symbol at the anchored address. */
		ok &= CHECK(s != NULL);
		ok &= CHECK_INT(sysmap_count(&map, name), 1);
		ok &= CHECK(s && s->addr == addr);
		ok &= CHECK(!strchr(name, '.'));
		ok &= CHECK(!strstr(name, "_dup"));
		ok &= CHECK(!strstr(name, "wrongtype"));
		ok &= CHECK(strcmp(name, "shared_name"));
		for (k = 0; k < UNIT_ARRAY_SIZE(bad_prefixes); k++)
			ok &= CHECK(strncmp(name, bad_prefixes[k],
					    strlen(bad_prefixes[k])));
		for (k = 0; k < i; k++)
			ok &= CHECK(strcmp(lg.anchors[k].name, name));

		if (m < 0) {
			/* A sampled symbol: strictly inside its group's
			 * extent, of the group's types, in the group's area. */
			const struct kreloc_linked_section *sec = &lg.sec[gr];

			ok &= CHECK(addr > sec->start && addr < sec->start + sec->size);
			ok &= CHECK(s && strchr(group_types[gr], s->type));
			ok &= CHECK_INT(where, gr);
			sampled[gr]++;
			if (addr < lo[gr])
				lo[gr] = addr;
			if (addr > hi[gr])
				hi[gr] = addr;
		} else if (want_markers[m].end) {
			/* An end marker is its group's exclusive end, which
			 * may well be where the next area (or none) starts. */
			ok &= CHECK_U64(addr, lg.sec[gr].start + lg.sec[gr].size);
			ok &= CHECK_INT(kreloc_group_for_addr(lg.sec, addr - 1), gr);
		} else if (!strcmp(name, "__init_begin")) {
			/*
			 * Known quirk: linkgen's marker table puts
			 * __init_begin in init.data, but it lies below
			 * _sinittext (x86_64 puts the per-cpu load area
			 * first), in data's area.  Harmless where one delta
			 * moves the whole image; only its place is checked.
			 */
			ok &= CHECK(addr < lg.sec[KRELOC_INIT_TEXT].start);
		} else {
			ok &= CHECK_INT(where, gr);
			ok &= CHECK_U64(addr, lg.sec[gr].start);
		}
		if (!ok)
			unit_diag("  anchor %s 0x%" PRIx64 " group %s (area %s)",
				  name, addr, kreloc_group_name(gr),
				  kreloc_group_name(where));
	}

	/* Samples in every group, spread over its extent. */
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		unsigned int want = mg.good[g] < 4 ? mg.good[g] : 4;

		if (!CHECK(sampled[g] >= want) ||
		    !CHECK(sampled[g] < 4 ||
			   hi[g] - lo[g] >= lg.sec[g].size / 2))
			unit_diag("  group %s: %u sampled of %u good, 0x%" PRIx64
				  "..0x%" PRIx64, kreloc_group_name(g),
				  sampled[g], mg.good[g], lo[g], hi[g]);
	}
	CHECK(sampled[KRELOC_TEXT] >= 8);
	/* init.text has only 2 good symbols: each is taken once. */
	CHECK_INT(mg.good[KRELOC_INIT_TEXT], 2);
	CHECK_INT(sampled[KRELOC_INIT_TEXT], 2);
	sysmap_free(&map);
}

static void test_sysmap_rejects(void)
{
	struct mapgen mg;
	struct linkgen lg;
	struct sysmap map;
	size_t len;
	char *text, *p;
	unsigned int i, n;

	/* Debian's placeholder on its own. */
	text = "ffffffffffffffff B The real System.map is in the "
	       "linux-image-6.1.0-13-amd64-dbg package\n";
	REQUIRE(read_map(&map, text, strlen(text)) == 0);
	CHECK_INT(map.placeholder, 1);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), -1);
	CHECK(strstr(lg.err, "placeholder") != NULL);
	CHECK_INT(lg.nr, 0);
	sysmap_free(&map);

	/* The placeholder line taints an otherwise good map. */
	text = gen_map(&mg, GEN_PLACEHOLDER, &len);
	REQUIRE(text != NULL);
	CHECK_INT(read_map(&map, text, len), 0);
	free(text);
	CHECK_INT(map.placeholder, 1);
	CHECK(map.nr >= 300);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), -1);
	CHECK(strstr(lg.err, "placeholder") != NULL);
	sysmap_free(&map);

	/* Too few symbols to be a kernel's. */
	text = "ffffffff81000000 T _text\nffffffff81000000 T _stext\n"
	       "ffffffff81000100 T foo\nffffffff81e00000 T _etext\n";
	REQUIRE(read_map(&map, text, strlen(text)) == 0);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), -1);
	CHECK(strstr(lg.err, "too few") != NULL);
	sysmap_free(&map);

	/* No _etext: no text extent. */
	text = gen_map(&mg, 0, &len);
	REQUIRE(text != NULL);
	p = strstr(text, " T _etext\n");
	REQUIRE(p != NULL);
	memcpy(p, " T _Etext", 9);
	CHECK_INT(read_map(&map, text, len), 0);
	free(text);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), -1);
	CHECK(strstr(lg.err, "_etext") != NULL);
	sysmap_free(&map);

	/* Markers in the wrong order: no extent, no samples for the group. */
	text = gen_map(&mg, GEN_BAD_RODATA, &len);
	REQUIRE(text != NULL);
	CHECK_INT(read_map(&map, text, len), 0);
	free(text);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), 0);
	CHECK(!lg.sec[KRELOC_RODATA].known);
	CHECK(lg.sec[KRELOC_DATA].known);
	for (i = 0, n = 0; i < lg.nr; i++) {
		if (lg.anchors[i].group == KRELOC_RODATA &&
		    !CHECK(marker_index(lg.anchors[i].name) >= 0))
			unit_diag("  sampled %s for rodata", lg.anchors[i].name);
		n += !strncmp(lg.anchors[i].name, "data_fn", 7);
	}
	CHECK(n > 0);	/* the other groups are still sampled */
	sysmap_free(&map);

	/* A duplicated marker still bounds its group but is no anchor. */
	text = gen_map(&mg, 0, &len);
	REQUIRE(text != NULL);
	p = strstr(text, " D __per_cpu_load\n");
	REQUIRE(p != NULL);
	memcpy(p, " D _sdata        ", 17);
	CHECK_INT(read_map(&map, text, len), 0);
	free(text);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), 0);
	CHECK(find_anchor(&lg, "_sdata") < 0);
	CHECK(find_anchor(&lg, "_edata") >= 0);
	check_sec(&lg.sec[KRELOC_DATA], DATA_S, DATA_E - DATA_S, "data");
	for (i = 0; i < lg.nr; i++)
		CHECK_INT(sysmap_count(&map, lg.anchors[i].name), 1);
	sysmap_free(&map);
}

/*
 * A map from arm64's /proc/kallsyms: no _text (kallsyms keeps it only with
 * KALLSYMS_ALL).  The text extent starts at _stext; with neither, there is
 * no map.
 */
static void test_sysmap_without_text(void)
{
	struct linkgen lg;
	struct sysmap map;
	struct mapgen mg;
	size_t len;
	char *text, *p;

	text = gen_map(&mg, 0, &len);
	REQUIRE(text != NULL);
	p = strstr(text, " T _text\n");
	REQUIRE(p != NULL);
	memcpy(p, " t _xtxt\n", 9);
	CHECK_INT(read_map(&map, text, len), 0);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), 0);
	check_sec(&lg.sec[KRELOC_TEXT], TEXT_S, TEXT_E - TEXT_S, "text");
	CHECK(find_anchor(&lg, "_text") < 0);
	CHECK(find_anchor(&lg, "_stext") >= 0);
	CHECK(find_anchor(&lg, "_etext") >= 0);
	sysmap_free(&map);

	p = strstr(text, " T _stext\n");
	REQUIRE(p != NULL);
	memcpy(p, " t _ytext", 9);
	CHECK_INT(read_map(&map, text, len), 0);
	free(text);
	CHECK_INT(linkgen_from_sysmap(&lg, &map), -1);
	CHECK(strstr(lg.err, "_stext") != NULL);
	sysmap_free(&map);
}

/* ------------------------------------------------------------------ */
/* Part 2: ELF                                                         */
/* ------------------------------------------------------------------ */

static const unsigned char build_id[20] = {
	0x8c, 0x4f, 0x12, 0x6a, 0x01, 0xfe, 0x33, 0x90, 0x5d, 0xb7,
	0x21, 0x0c, 0xe4, 0x48, 0x9a, 0x77, 0x13, 0x6e, 0xc2, 0x05,
};

struct esec {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, size;
	const unsigned char *data;	/* size bytes of contents, or zeros */
};

struct eimg {
	unsigned char *buf;
	size_t len;
	int is64, big;
	size_t shoff, shentsize, shnum, shstrndx, stroff, strsz;
};

static void wr(const struct eimg *im, size_t off, uint64_t v, size_t width)
{
	size_t i;

	for (i = 0; i < width; i++)
		im->buf[off + i] = v >> (im->big ? 8 * (width - 1 - i) : 8 * i);
}

#define EH_W(im, f, v) \
	((im)->is64 ? wr(im, offsetof(Elf64_Ehdr, f), v, sizeof(((Elf64_Ehdr *)0)->f)) : \
		      wr(im, offsetof(Elf32_Ehdr, f), v, sizeof(((Elf32_Ehdr *)0)->f)))
#define SH_W(im, idx, f, v) \
	((im)->is64 ? wr(im, (im)->shoff + (idx) * (im)->shentsize + offsetof(Elf64_Shdr, f), \
			 v, sizeof(((Elf64_Shdr *)0)->f)) : \
		      wr(im, (im)->shoff + (idx) * (im)->shentsize + offsetof(Elf32_Shdr, f), \
			 v, sizeof(((Elf32_Shdr *)0)->f)))

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * Lay out an ELF file: header, section contents, .shstrtab, then the
 * section headers (null section, @n sections, .shstrtab).
 */
static int build_elf(struct eimg *im, int is64, int big, uint16_t machine,
		     const struct esec *s, size_t n)
{
	size_t off[32], name[32], i, pos, p;

	if (n + 2 > 32)
		return -1;
	memset(im, 0, sizeof(*im));
	im->is64 = is64;
	im->big = big;
	im->shentsize = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	im->shnum = n + 2;
	im->shstrndx = n + 1;
	im->strsz = 1 + strlen(".shstrtab") + 1;
	for (i = 0; i < n; i++)
		im->strsz += strlen(s[i].name) + 1;
	pos = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	for (i = 0; i < n; i++) {
		pos = align8(pos);
		off[i] = pos;
		if (s[i].type != SHT_NOBITS)
			pos += s[i].size;
	}
	im->stroff = pos;
	im->shoff = align8(pos + im->strsz);
	im->len = im->shoff + im->shnum * im->shentsize;
	im->buf = calloc(1, im->len);
	if (!im->buf)
		return -1;

	memcpy(im->buf, ELFMAG, SELFMAG);
	im->buf[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	im->buf[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	im->buf[EI_VERSION] = EV_CURRENT;
	EH_W(im, e_type, ET_EXEC);
	EH_W(im, e_machine, machine);
	EH_W(im, e_version, EV_CURRENT);
	EH_W(im, e_entry, n ? s[0].addr : 0);
	EH_W(im, e_shoff, im->shoff);
	EH_W(im, e_ehsize, is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr));
	EH_W(im, e_shentsize, im->shentsize);
	EH_W(im, e_shnum, im->shnum);
	EH_W(im, e_shstrndx, im->shstrndx);

	p = 1;
	for (i = 0; i < n; i++) {
		name[i] = p;
		strcpy((char *)im->buf + im->stroff + p, s[i].name);
		p += strlen(s[i].name) + 1;
	}
	name[n] = p;
	strcpy((char *)im->buf + im->stroff + p, ".shstrtab");

	for (i = 0; i < n; i++) {
		if (s[i].type != SHT_NOBITS && s[i].data)
			memcpy(im->buf + off[i], s[i].data, s[i].size);
		SH_W(im, i + 1, sh_name, name[i]);
		SH_W(im, i + 1, sh_type, s[i].type);
		SH_W(im, i + 1, sh_flags, s[i].flags);
		SH_W(im, i + 1, sh_addr, s[i].addr);
		SH_W(im, i + 1, sh_offset, off[i]);
		SH_W(im, i + 1, sh_size, s[i].size);
		/* 4-byte notes (8 would mean the gABI 64-bit note layout). */
		SH_W(im, i + 1, sh_addralign, s[i].type == SHT_NOTE ? 4 : 8);
	}
	SH_W(im, n + 1, sh_name, name[n]);
	SH_W(im, n + 1, sh_type, SHT_STRTAB);
	SH_W(im, n + 1, sh_offset, im->stroff);
	SH_W(im, n + 1, sh_size, im->strsz);
	SH_W(im, n + 1, sh_addralign, 1);
	return 0;
}

/* ELF notes in the image's byte order: a Xen note, then the build id. */
static size_t make_notes(unsigned char *buf, int big)
{
	static const struct {
		const char *name;
		uint32_t type;
		const unsigned char *desc;
		uint32_t descsz;
	} notes[] = {
		{ "Xen", 1, (const unsigned char *)"\x00\x10\x00\x81\xff\xff\xff\xff", 8 },
		{ "GNU", NT_GNU_BUILD_ID, build_id, sizeof(build_id) },
	};
	struct eimg im = { .buf = buf, .big = big };
	size_t pos = 0, i;

	for (i = 0; i < UNIT_ARRAY_SIZE(notes); i++) {
		uint32_t namesz = strlen(notes[i].name) + 1;

		wr(&im, pos, namesz, 4);
		wr(&im, pos + 4, notes[i].descsz, 4);
		wr(&im, pos + 8, notes[i].type, 4);
		pos += 12;
		memset(buf + pos, 0, (namesz + 3) & ~3U);
		memcpy(buf + pos, notes[i].name, namesz);
		pos += (namesz + 3) & ~3U;
		memset(buf + pos, 0, (notes[i].descsz + 3) & ~3U);
		memcpy(buf + pos, notes[i].desc, notes[i].descsz);
		pos += (notes[i].descsz + 3) & ~3U;
	}
	return pos;
}

#define AX (SHF_ALLOC | SHF_EXECINSTR)
#define WA (SHF_WRITE | SHF_ALLOC)

static unsigned char x86_notes[64], ppc_notes[64];

static int build_x86(struct eimg *im)
{
	size_t nlen = make_notes(x86_notes, 0);
	const struct esec s[] = {
		{ ".text", SHT_PROGBITS, AX, 0xffffffff81000000ULL, 0x4000, NULL },
		{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 0xffffffff82000000ULL, 0x2000, NULL },
		{ "__ksymtab", SHT_PROGBITS, SHF_ALLOC, 0xffffffff82002000ULL, 0x100, NULL },
		{ ".notes", SHT_NOTE, SHF_ALLOC, 0xffffffff82002100ULL, nlen, x86_notes },
		/* A marker section that is not allocated: no anchor. */
		{ "__bug_table", SHT_PROGBITS, 0, 0xffffffff82003000ULL, 0x40, NULL },
		{ ".data", SHT_PROGBITS, WA, 0xffffffff82800000ULL, 0x2000, NULL },
		{ ".init.text", SHT_PROGBITS, AX, 0xffffffff82c40000ULL, 0x1000, NULL },
		{ ".init.data", SHT_PROGBITS, WA, 0xffffffff82c80000ULL, 0x1000, NULL },
		{ ".bss", SHT_NOBITS, WA, 0xffffffff83000000ULL, 0x100000, NULL },
		{ ".comment", SHT_PROGBITS, 0, 0, 0x20, NULL },
	};

	return build_elf(im, 1, 0, EM_X86_64, s, UNIT_ARRAY_SIZE(s));
}

/* ppc64 (big-endian ELFv1): init before data, text after .head.text. */
static int build_ppc(struct eimg *im)
{
	size_t nlen = make_notes(ppc_notes, 1);
	const struct esec s[] = {
		{ ".head.text", SHT_PROGBITS, AX, 0xc000000000000000ULL, 0x1000, NULL },
		{ ".text", SHT_PROGBITS, AX, 0xc000000000010000ULL, 0x4000, NULL },
		{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 0xc000000001000000ULL, 0x2000, NULL },
		{ "__ksymtab", SHT_PROGBITS, SHF_ALLOC, 0xc000000001002000ULL, 0x100, NULL },
		{ ".notes", SHT_NOTE, SHF_ALLOC, 0xc000000001002100ULL, nlen, ppc_notes },
		{ ".init.text", SHT_PROGBITS, AX, 0xc000000001800000ULL, 0x1000, NULL },
		{ ".init.data", SHT_PROGBITS, WA, 0xc000000001900000ULL, 0x1000, NULL },
		{ ".data", SHT_PROGBITS, WA, 0xc000000002000000ULL, 0x2000, NULL },
		{ ".bss", SHT_NOBITS, WA, 0xc000000002100000ULL, 0x10000, NULL },
	};

	return build_elf(im, 1, 1, EM_PPC64, s, UNIT_ARRAY_SIZE(s));
}

/* kelf_parse() on an exact-size heap copy (it takes ownership). */
static int parse_copy(struct kelf *e, const unsigned char *buf, size_t len)
{
	unsigned char *d = malloc(len ? len : 1);

	memset(e, 0, sizeof(*e));
	if (!d)
		return -2;
	memcpy(d, buf, len);
	return kelf_parse(e, d, len);
}

struct want_anchor {
	const char *name;
	uint64_t linked;
	int group;
};

static void check_anchors(const struct linkgen *lg, const struct want_anchor *w,
			  unsigned int n)
{
	unsigned int i;

	CHECK_INT(lg->nr, n);
	for (i = 0; i < n; i++) {
		int a = find_anchor(lg, w[i].name);

		if (!CHECK(a >= 0)) {
			unit_diag("  missing anchor %s", w[i].name);
			continue;
		}
		if (!CHECK_U64(lg->anchors[a].linked, w[i].linked) |
		    !CHECK_INT(lg->anchors[a].group, w[i].group))
			unit_diag("  anchor %s", w[i].name);
	}
}

static void test_elf_x86(void)
{
	static const struct want_anchor want[] = {
		{ "_text", 0xffffffff81000000ULL, KRELOC_TEXT },
		{ "_stext", 0xffffffff81000000ULL, KRELOC_TEXT },
		{ "__start_rodata", 0xffffffff82000000ULL, KRELOC_RODATA },
		{ "__start___ksymtab", 0xffffffff82002000ULL, KRELOC_RODATA },
		{ "__start_notes", 0xffffffff82002100ULL, KRELOC_RODATA },
		{ "_sdata", 0xffffffff82800000ULL, KRELOC_DATA },
		{ "_sinittext", 0xffffffff82c40000ULL, KRELOC_INIT_TEXT },
		{ "__bss_start", 0xffffffff83000000ULL, KRELOC_BSS },
		/* End markers: section end, in the section's own group. */
		{ "_etext", 0xffffffff81004000ULL, KRELOC_TEXT },
		{ "_edata", 0xffffffff82802000ULL, KRELOC_DATA },
		{ "_einittext", 0xffffffff82c41000ULL, KRELOC_INIT_TEXT },
		{ "__bss_stop", 0xffffffff83100000ULL, KRELOC_BSS },
	};
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;
	const unsigned char *id = NULL;

	REQUIRE(build_x86(&im) == 0);
	if (!CHECK_INT(parse_copy(&elf, im.buf, im.len), 0)) {
		unit_diag("  %s", elf.err);
		goto out;
	}
	CHECK_INT(elf.is64, 1);
	CHECK_INT(elf.swap, 0);
	CHECK_INT(elf.machine, EM_X86_64);
	CHECK_INT(elf.nr_secs, im.shnum);
	CHECK(kelf_section(&elf, ".text") != NULL);
	CHECK(kelf_section(&elf, ".head.text") == NULL);
	CHECK(kelf_section(&elf, ".tex") == NULL);
	CHECK_INT(kelf_build_id(&elf, &id), 20);
	CHECK(id && !memcmp(id, build_id, 20));

	if (!CHECK_INT(linkgen_from_elf(&lg, &elf), 0)) {
		unit_diag("  %s", lg.err);
		goto out_elf;
	}
	CHECK_STR(lg.source, "vmlinux");
	check_sec(&lg.sec[KRELOC_TEXT], 0xffffffff81000000ULL, 0x4000, "text");
	check_sec(&lg.sec[KRELOC_RODATA], 0xffffffff82000000ULL, 0x2000, "rodata");
	check_sec(&lg.sec[KRELOC_DATA], 0xffffffff82800000ULL, 0x2000, "data");
	check_sec(&lg.sec[KRELOC_BSS], 0xffffffff83000000ULL, 0x100000, "bss");
	check_sec(&lg.sec[KRELOC_INIT_TEXT], 0xffffffff82c40000ULL, 0x1000, "init.text");
	check_sec(&lg.sec[KRELOC_INIT_DATA], 0xffffffff82c80000ULL, 0x1000, "init.data");
	check_anchors(&lg, want, UNIT_ARRAY_SIZE(want));
	CHECK(find_anchor(&lg, "__start___bug_table") < 0);
	CHECK_INT(lg.build_id_len, 20);
	CHECK(!memcmp(lg.build_id, build_id, 20));
out_elf:
	kelf_free(&elf);
out:
	free(im.buf);
}

static void test_elf_ppc64_big_endian(void)
{
	static const struct want_anchor want[] = {
		{ "_text", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "_stext", 0xc000000000000000ULL, KRELOC_TEXT },
		{ "__start_rodata", 0xc000000001000000ULL, KRELOC_RODATA },
		{ "__start___ksymtab", 0xc000000001002000ULL, KRELOC_RODATA },
		{ "__start_notes", 0xc000000001002100ULL, KRELOC_RODATA },
		{ "_sinittext", 0xc000000001800000ULL, KRELOC_INIT_TEXT },
		/* No __bss_start: ppc64 sets it before aligning .bss. */
	};
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;
	const unsigned char *id = NULL;

	REQUIRE(build_ppc(&im) == 0);
	if (!CHECK_INT(parse_copy(&elf, im.buf, im.len), 0)) {
		unit_diag("  %s", elf.err);
		goto out;
	}
	CHECK_INT(elf.is64, 1);
	CHECK_INT(elf.swap, 1);
	CHECK_INT(elf.machine, EM_PPC64);
	CHECK_INT(elf.nr_secs, im.shnum);
	REQUIRE(kelf_section(&elf, ".head.text") != NULL);
	CHECK_U64(kelf_section(&elf, ".head.text")->addr, 0xc000000000000000ULL);
	CHECK_U64(kelf_section(&elf, ".bss")->size, 0x10000);
	CHECK_INT(kelf_section(&elf, ".bss")->type, SHT_NOBITS);
	CHECK_U64(kelf_section(&elf, ".data")->flags, WA);
	CHECK_INT(kelf_build_id(&elf, &id), 20);
	CHECK(id && !memcmp(id, build_id, 20));

	if (!CHECK_INT(linkgen_from_elf(&lg, &elf), 0)) {
		unit_diag("  %s", lg.err);
		goto out_elf;
	}
	/* Text starts with .head.text and runs to the end of .text. */
	check_sec(&lg.sec[KRELOC_TEXT], 0xc000000000000000ULL, 0x14000, "text");
	check_sec(&lg.sec[KRELOC_RODATA], 0xc000000001000000ULL, 0x2000, "rodata");
	check_sec(&lg.sec[KRELOC_INIT_TEXT], 0xc000000001800000ULL, 0x1000, "init.text");
	check_sec(&lg.sec[KRELOC_INIT_DATA], 0xc000000001900000ULL, 0x1000, "init.data");
	check_sec(&lg.sec[KRELOC_DATA], 0xc000000002000000ULL, 0x2000, "data");
	check_sec(&lg.sec[KRELOC_BSS], 0xc000000002100000ULL, 0x10000, "bss");
	/* No x86-only markers (_sdata). */
	check_anchors(&lg, want, UNIT_ARRAY_SIZE(want));
	CHECK_INT(lg.build_id_len, 20);
	CHECK(!memcmp(lg.build_id, build_id, 20));
out_elf:
	kelf_free(&elf);
out:
	free(im.buf);
}

/* ELF32 of the other byte order; a build id in a second note section. */
static void test_elf32(void)
{
	static const unsigned char bad_note[12] = { 0, 0, 0, 4, 0, 0, 0, 20, 0, 0, 0, 3 };
	unsigned char notes[64];
	size_t nlen = make_notes(notes, 1);
	const struct esec s[] = {
		{ ".text", SHT_PROGBITS, AX, 0xc0008000, 0x3000, NULL },
		{ ".note.broken", SHT_NOTE, SHF_ALLOC, 0xc000b000, sizeof(bad_note), bad_note },
		{ ".notes", SHT_NOTE, SHF_ALLOC, 0xc000b100, nlen, notes },
		{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 0xc0100000, 0x1000, NULL },
		{ ".bss", SHT_NOBITS, WA, 0xc0200000, 0x1000, NULL },
	};
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;
	const unsigned char *id = NULL;

	REQUIRE(build_elf(&im, 0, 1, EM_PPC, s, UNIT_ARRAY_SIZE(s)) == 0);
	if (!CHECK_INT(parse_copy(&elf, im.buf, im.len), 0)) {
		unit_diag("  %s", elf.err);
		goto out;
	}
	CHECK_INT(elf.is64, 0);
	CHECK_INT(elf.swap, 1);
	CHECK_INT(elf.machine, EM_PPC);
	REQUIRE(kelf_section(&elf, ".rodata") != NULL);
	CHECK_U64(kelf_section(&elf, ".rodata")->addr, 0xc0100000);
	CHECK_U64(kelf_section(&elf, ".rodata")->size, 0x1000);
	CHECK_INT(kelf_build_id(&elf, &id), 20);
	CHECK(id && !memcmp(id, build_id, 20));
	CHECK_INT(linkgen_from_elf(&lg, &elf), 0);
	check_sec(&lg.sec[KRELOC_TEXT], 0xc0008000, 0x3000, "text");
	CHECK(!lg.sec[KRELOC_DATA].known);
	/* Not x86 and no .head.text: no _text anchor from sections. */
	CHECK(find_anchor(&lg, "_text") < 0);
	CHECK(find_anchor(&lg, "__start_rodata") >= 0);
	/* .notes lies past the end of .text, below .rodata: text's area. */
	CHECK(find_anchor(&lg, "__start_notes") >= 0 &&
	      lg.anchors[find_anchor(&lg, "__start_notes")].group == KRELOC_TEXT);
	kelf_free(&elf);
out:
	free(im.buf);
}

static void test_elf_without_text(void)
{
	const struct esec no_text[] = {
		{ ".rodata", SHT_PROGBITS, SHF_ALLOC, 0xffffffff82000000ULL, 0x100, NULL },
	};
	const struct esec unalloc_text[] = {
		{ ".text", SHT_PROGBITS, 0, 0xffffffff81000000ULL, 0x100, NULL },
	};
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;

	REQUIRE(build_elf(&im, 1, 0, EM_X86_64, no_text, 1) == 0);
	CHECK_INT(parse_copy(&elf, im.buf, im.len), 0);
	CHECK_INT(linkgen_from_elf(&lg, &elf), -1);
	CHECK(strstr(lg.err, ".text") != NULL);
	kelf_free(&elf);
	free(im.buf);

	REQUIRE(build_elf(&im, 1, 0, EM_X86_64, unalloc_text, 1) == 0);
	CHECK_INT(parse_copy(&elf, im.buf, im.len), 0);
	CHECK_INT(linkgen_from_elf(&lg, &elf), -1);
	kelf_free(&elf);
	free(im.buf);
}

/* ------------------------------------------------------------------ */
/* Part 3: corrupt ELF files                                           */
/* ------------------------------------------------------------------ */

/* Expect kelf_parse() to refuse @buf with an error containing @why. */
static void expect_reject(const unsigned char *buf, size_t len, const char *why,
			  const char *what)
{
	struct kelf elf;
	int ret = parse_copy(&elf, buf, len);

	if (!CHECK_INT(ret, -1) | !CHECK(elf.err[0]) |
	    !CHECK(strstr(elf.err, why) != NULL))
		unit_diag("  %s: \"%s\", want \"%s\"", what, elf.err, why);
	kelf_free(&elf);
}

static void test_corrupt_header(void)
{
	struct eimg im;
	unsigned char *b;

	REQUIRE(build_x86(&im) == 0);
	b = malloc(im.len);
	REQUIRE(b != NULL);

	expect_reject(im.buf, 0, "not an ELF", "empty");
	expect_reject(im.buf, 10, "not an ELF", "10 bytes");
	expect_reject(im.buf, 40, "truncated ELF header", "40 bytes");
	expect_reject(im.buf, sizeof(Elf64_Ehdr) - 1, "truncated ELF header", "63 bytes");

	memcpy(b, im.buf, im.len);
	b[1] = 'e';
	expect_reject(b, im.len, "not an ELF", "bad magic");

	memcpy(b, im.buf, im.len);
	b[EI_CLASS] = ELFCLASSNONE;
	expect_reject(b, im.len, "class", "class none");
	b[EI_CLASS] = 3;
	expect_reject(b, im.len, "class", "class 3");

	memcpy(b, im.buf, im.len);
	b[EI_DATA] = ELFDATANONE;
	expect_reject(b, im.len, "byte order", "data none");

	/* An ELF32 header is shorter, but not this short. */
	memcpy(b, im.buf, im.len);
	b[EI_CLASS] = ELFCLASS32;
	expect_reject(b, sizeof(Elf32_Ehdr) - 1, "truncated ELF header", "51-byte ELF32");

	free(b);
	free(im.buf);
}

static void test_corrupt_section_headers(void)
{
	struct eimg im, c;

	REQUIRE(build_x86(&im) == 0);
	c = im;
	c.buf = malloc(im.len);
	REQUIRE(c.buf != NULL);

#define RESET() memcpy(c.buf, im.buf, im.len)
	RESET();
	EH_W(&c, e_shnum, 0);
	expect_reject(c.buf, c.len, "no section headers", "shnum 0");

	RESET();
	EH_W(&c, e_shentsize, sizeof(Elf32_Shdr));
	expect_reject(c.buf, c.len, "section header size", "shentsize 40");

	/* Past the end: one byte, by a lot, and wrapping around. */
	expect_reject(im.buf, im.len - 1, "past end", "last byte cut");
	RESET();
	EH_W(&c, e_shoff, im.shoff + 8);
	expect_reject(c.buf, c.len, "past end", "shoff + 8");
	RESET();
	EH_W(&c, e_shoff, im.len);
	expect_reject(c.buf, c.len, "past end", "shoff = len");
	RESET();
	EH_W(&c, e_shoff, ~0ULL - 0x3f);
	expect_reject(c.buf, c.len, "past end", "shoff near 2^64");
	RESET();
	EH_W(&c, e_shnum, 0xffff);
	expect_reject(c.buf, c.len, "past end", "shnum 0xffff");

	RESET();
	EH_W(&c, e_shstrndx, im.shnum);
	expect_reject(c.buf, c.len, "name table index", "shstrndx = shnum");
	RESET();
	EH_W(&c, e_shstrndx, SHN_XINDEX);
	expect_reject(c.buf, c.len, "name table index", "shstrndx SHN_XINDEX");

	/* Name offsets: at the table's end, and far beyond. */
	RESET();
	SH_W(&c, 3, sh_name, im.strsz);
	expect_reject(c.buf, c.len, "name offset out of range", "sh_name = size");
	RESET();
	SH_W(&c, 1, sh_name, 0xffffffff);
	expect_reject(c.buf, c.len, "name offset out of range", "sh_name huge");
	RESET();
	SH_W(&c, 0, sh_name, im.strsz + 1);
	expect_reject(c.buf, c.len, "name offset out of range", "null section's name");

	/* The name table itself. */
	RESET();
	c.buf[im.stroff + im.strsz - 1] = 'x';
	expect_reject(c.buf, c.len, "not terminated", "unterminated strtab");
	RESET();
	SH_W(&c, im.shstrndx, sh_size, im.strsz - 1);	/* ends in ".shstrta" */
	expect_reject(c.buf, c.len, "not terminated", "strtab one short");
	RESET();
	SH_W(&c, im.shstrndx, sh_size, 0);
	expect_reject(c.buf, c.len, "name table past end", "strtab size 0");
	RESET();
	SH_W(&c, im.shstrndx, sh_offset, im.len);
	expect_reject(c.buf, c.len, "name table past end", "strtab at len");
	RESET();
	SH_W(&c, im.shstrndx, sh_offset, ~0ULL);
	expect_reject(c.buf, c.len, "name table past end", "strtab offset 2^64-1");
	RESET();
	SH_W(&c, im.shstrndx, sh_size, ~0ULL - 2);
	expect_reject(c.buf, c.len, "name table past end", "strtab size near 2^64");
	RESET();
	SH_W(&c, im.shstrndx, sh_size, im.len - im.stroff + 1);
	expect_reject(c.buf, c.len, "name table past end", "strtab one past end");
#undef RESET
	free(c.buf);
	free(im.buf);
}

/* A note section pointing outside the file is skipped, not read. */
static void test_corrupt_notes(void)
{
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;
	const unsigned char *id;
	const size_t idx = 4;	/* .notes in build_x86(), after the null one */
	uint64_t off;

	REQUIRE(build_x86(&im) == 0);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	REQUIRE(!strcmp(elf.secs[idx].name, ".notes"));
	off = elf.secs[idx].offset;
	kelf_free(&elf);

	SH_W(&im, idx, sh_size, im.len);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	CHECK_INT(kelf_build_id(&elf, &id), -1);
	CHECK_INT(linkgen_from_elf(&lg, &elf), 0);
	CHECK_INT(lg.build_id_len, 0);
	kelf_free(&elf);

	SH_W(&im, idx, sh_size, im.len - off + 1);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	CHECK_INT(kelf_build_id(&elf, &id), -1);
	kelf_free(&elf);

	SH_W(&im, idx, sh_offset, ~0ULL - 8);
	SH_W(&im, idx, sh_size, 16);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	CHECK_INT(kelf_build_id(&elf, &id), -1);
	kelf_free(&elf);

	/* In bounds, but the build-id note is cut by the section's end. */
	SH_W(&im, idx, sh_offset, off);
	SH_W(&im, idx, sh_size, 40);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	CHECK_INT(kelf_build_id(&elf, &id), -1);
	CHECK_INT(linkgen_from_elf(&lg, &elf), 0);
	CHECK_INT(lg.build_id_len, 0);
	kelf_free(&elf);

	/* And whole again. */
	SH_W(&im, idx, sh_size, 60);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	CHECK_INT(kelf_build_id(&elf, &id), 20);
	kelf_free(&elf);
	free(im.buf);
}

/*
 * Every truncation must fail cleanly, the section headers being last (all
 * cuts in the header and near the end, a sample of those in between).
 */
static void test_truncated_files(void)
{
	struct eimg im;
	size_t len, bad = 0;
	int which;

	for (which = 0; which < 2; which++) {
		REQUIRE((which ? build_ppc(&im) : build_x86(&im)) == 0);
		for (len = 0; len < im.len;
		     len += len < 256 || len + 256 >= im.shoff ? 1 : 61) {
			struct kelf elf;

			if (parse_copy(&elf, im.buf, len) != -1 || !elf.err[0]) {
				if (bad++ < 5)
					unit_diag("  %s cut to %zu bytes: accepted",
						  which ? "ppc64" : "x86", len);
			}
			kelf_free(&elf);
		}
		free(im.buf);
	}
	CHECK_INT(bad, 0);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * Random damage to the header, the section headers and the name table:
 * whatever kelf_parse() accepts must be safe to use all the way to the
 * generated header (ASan/UBSan watch).
 */
static void test_random_damage(void)
{
	struct eimg im[2];
	unsigned int iter, accepted = 0, rejected = 0, bad = 0;

	REQUIRE(build_x86(&im[0]) == 0);
	REQUIRE(build_ppc(&im[1]) == 0);
	for (iter = 0; iter < 6000; iter++) {
		const struct eimg *src = &im[iter & 1];
		unsigned char *d = malloc(src->len);
		unsigned int flips = 1 + rng() % 4, k;
		struct kelf elf;
		struct linkgen lg;
		const unsigned char *id;
		size_t len = src->len;

		REQUIRE(d != NULL);
		memcpy(d, src->buf, len);
		for (k = 0; k < flips; k++) {
			size_t at;

			switch (rng() % 3) {
			case 0:
				at = rng() % sizeof(Elf64_Ehdr);
				break;
			case 1:
				at = src->shoff + rng() % (src->shnum * src->shentsize);
				break;
			default:
				at = rng() % len;
				break;
			}
			d[at] = rng() % 4 ? d[at] ^ (1u << (rng() % 8)) : (unsigned char)rng();
		}
		if (rng() % 8 == 0)
			len -= rng() % len;
		memset(&elf, 0, sizeof(elf));
		if (kelf_parse(&elf, d, len)) {
			rejected++;
			if (!elf.err[0])
				bad++;
		} else {
			char *out = NULL;
			size_t olen = 0;
			FILE *f = open_memstream(&out, &olen);

			accepted++;
			kelf_section(&elf, ".text");
			kelf_build_id(&elf, &id);
			if (!linkgen_from_elf(&lg, &elf) && f)
				linkgen_write(&lg, f, "vmlinux", "6.1.0");
			if (f)
				fclose(f);
			free(out);
		}
		kelf_free(&elf);
	}
	free(im[0].buf);
	free(im[1].buf);
	unit_diag("random damage: %u accepted, %u rejected", accepted, rejected);
	CHECK_INT(bad, 0);
	/* Both paths must have been exercised for the test to mean much. */
	CHECK(accepted > 100);
	CHECK(rejected > 100);
}

/* kelf_free() after a failed parse releases the buffer it was given. */
static void test_parse_failure_frees(void)
{
	struct kelf elf;
	unsigned char *d = malloc(16);

	REQUIRE(d != NULL);
	memset(d, 0, 16);
	memset(&elf, 0, sizeof(elf));
	CHECK_INT(kelf_parse(&elf, d, 16), -1);
	CHECK(elf.data == d);
	kelf_free(&elf);	/* LeakSanitizer reports it otherwise */
	CHECK(elf.data == NULL);
	CHECK(elf.secs == NULL);
}

/*
 * kelf_parse() takes ownership of the buffer, so kelf_free() is due after a
 * failure too; that must not depend on the caller having zeroed the struct.
 */
static void test_parse_uninitialised_struct(void)
{
	struct eimg im;
	struct kelf elf;
	unsigned char *d = malloc(16);

	REQUIRE(d != NULL);
	memset(d, 0, 16);
	memset(&elf, 0xa5, sizeof(elf));	/* stack garbage */
	CHECK_INT(kelf_parse(&elf, d, 16), -1);
	CHECK(elf.data == d);
	CHECK(elf.secs == NULL);
	CHECK_INT(elf.nr_secs, 0);
	CHECK_STR(elf.err, "not an ELF file");
	kelf_free(&elf);

	/* And a good file parses the same from garbage. */
	REQUIRE(build_ppc(&im) == 0);
	d = malloc(im.len);
	REQUIRE(d != NULL);
	memcpy(d, im.buf, im.len);
	memset(&elf, 0xa5, sizeof(elf));
	CHECK_INT(kelf_parse(&elf, d, im.len), 0);
	CHECK_INT(elf.nr_secs, im.shnum);
	CHECK(kelf_section(&elf, ".notes") != NULL);
	kelf_free(&elf);
	free(im.buf);
}

/* ------------------------------------------------------------------ */
/* Part 4: the generated header                                        */
/* ------------------------------------------------------------------ */

static char *write_to_string(const struct linkgen *lg, const char *src,
			     const char *rel, int *ret, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f) {
		*ret = -2;
		return NULL;
	}
	*ret = linkgen_write(lg, f, src, rel);
	if (fclose(f))
		*ret = -3;
	return out;
}

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n'))
			return 1;
		p++;
	}
	return 0;
}

#define CHECK_LINE(text, line) \
	do { \
		if (!CHECK(has_line(text, line))) \
			unit_diag("  missing line: %s", line); \
	} while (0)

static void test_write_vmlinux(void)
{
	static const char * const group_enum[KRELOC_NR_GROUPS] = {
		"KRELOC_TEXT", "KRELOC_RODATA", "KRELOC_DATA", "KRELOC_BSS",
		"KRELOC_INIT_TEXT", "KRELOC_INIT_DATA",
	};
	struct eimg im;
	struct kelf elf;
	struct linkgen lg;
	char *out, line[256], *p;
	const char *prev;
	size_t len, n = 0;
	unsigned int i;
	int ret, g;

	REQUIRE(build_x86(&im) == 0);
	REQUIRE(parse_copy(&elf, im.buf, im.len) == 0);
	free(im.buf);
	REQUIRE(linkgen_from_elf(&lg, &elf) == 0);
	out = write_to_string(&lg, "/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64",
			      "6.1.0-13-amd64", &ret, &len);
	CHECK_INT(ret, 0);
	REQUIRE(out != NULL);
	CHECK(len == strlen(out));

	CHECK_LINE(out, "/* SPDX-License-Identifier: GPL-2.0 */");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE KRELOC_SRC_VMLINUX");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_NAME \"vmlinux\"");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_FILE \"/usr/lib/debug/boot/vmlinux-6.1.0-13-amd64\"");
	CHECK_LINE(out, "#define KRELOC_GEN_RELEASE \"6.1.0-13-amd64\"");
	CHECK_LINE(out, "#define KRELOC_GEN_HAVE_BUILD_ID 1");
	CHECK(!strstr(out, "KRELOC_GEN_SOURCE_IS_ARCH"));
	p = line + sprintf(line, "#define KRELOC_GEN_BUILD_ID");
	for (i = 0; i < sizeof(build_id); i++)
		p += sprintf(p, "%s0x%02x", i ? ", " : " ", build_id[i]);
	CHECK_LINE(out, line);

	CHECK_LINE(out, "static const struct kreloc_linked_section kreloc_gen_sections[KRELOC_NR_GROUPS] = {");
	CHECK_LINE(out, "\t[KRELOC_TEXT] = { 0xffffffff81000000ULL, 0x4000ULL, true },");
	CHECK_LINE(out, "\t[KRELOC_BSS] = { 0xffffffff83000000ULL, 0x100000ULL, true },");
	CHECK_LINE(out, "\t[KRELOC_INIT_DATA] = { 0xffffffff82c80000ULL, 0x1000ULL, true },");
	CHECK_LINE(out, "static struct kreloc_linked_anchor kreloc_gen_anchors[] = {");
	CHECK_LINE(out, "\t{ \"_text\", 0xffffffff81000000ULL, KRELOC_TEXT },");
	CHECK_LINE(out, "\t{ \"__bss_start\", 0xffffffff83000000ULL, KRELOC_BSS },");
	CHECK_LINE(out, "\t{ \"_sinittext\", 0xffffffff82c40000ULL, KRELOC_INIT_TEXT },");

	/* Every anchor, in table order, and nothing else. */
	prev = out;
	for (i = 0; i < lg.nr; i++) {
		snprintf(line, sizeof(line), "\t{ \"%s\", 0x%016" PRIx64 "ULL, %s },\n",
			 lg.anchors[i].name, lg.anchors[i].linked,
			 group_enum[lg.anchors[i].group]);
		p = strstr(prev, line);
		if (!CHECK(p != NULL))
			unit_diag("  anchor line %u missing or out of order: %s", i, line);
		else
			prev = p + 1;
	}
	for (p = out; (p = strstr(p, "\n\t{ \"")) != NULL; p++)
		n++;
	CHECK_INT(n, lg.nr);
	for (g = 0, n = 0; g < KRELOC_NR_GROUPS; g++)
		n += lg.sec[g].known;
	for (i = 0, p = out; (p = strstr(p, "ULL, true },\n")) != NULL; p++)
		i++;
	CHECK_INT(i, n);
	/* The file ends with the closed anchor table. */
	CHECK(len >= 3 && !strcmp(out + len - 3, "};\n"));
	free(out);
	kelf_free(&elf);
}

static void test_write_sysmap_and_arch(void)
{
	struct linkgen lg;
	char *out;
	size_t len;
	int ret;

	memset(&lg, 0, sizeof(lg));
	lg.source = "system.map";
	lg.sec[KRELOC_TEXT] = (struct kreloc_linked_section){ 0xffffffff81000000ULL, 0xe00000, true };
	lg.anchors[0].name = "_text";
	lg.anchors[0].linked = 0xffffffff81000000ULL;
	lg.anchors[0].group = KRELOC_TEXT;
	lg.anchors[1].name = "jiffies_64";
	lg.anchors[1].linked = 0xffffffff82a05000ULL;
	lg.anchors[1].group = KRELOC_DATA;
	lg.nr = 2;
	out = write_to_string(&lg, "/boot/System.map-6.1.0-13-amd64", "6.1.0-13-amd64",
			      &ret, &len);
	CHECK_INT(ret, 0);
	REQUIRE(out != NULL);
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE KRELOC_SRC_SYSTEM_MAP");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_NAME \"system.map\"");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_FILE \"/boot/System.map-6.1.0-13-amd64\"");
	CHECK_LINE(out, "\t[KRELOC_TEXT] = { 0xffffffff81000000ULL, 0xe00000ULL, true },");
	CHECK_LINE(out, "\t{ \"jiffies_64\", 0xffffffff82a05000ULL, KRELOC_DATA },");
	CHECK(!strstr(out, "KRELOC_GEN_HAVE_BUILD_ID"));
	CHECK(!strstr(out, "KRELOC_GEN_BUILD_ID"));
	CHECK(!strstr(out, "[KRELOC_RODATA]"));
	free(out);

	/* What kreloc-linkgen --source arch writes. */
	memset(&lg, 0, sizeof(lg));
	lg.source = "arch";
	lg.anchors[0].name = "_text";
	lg.anchors[0].group = KRELOC_TEXT;
	lg.nr = 1;
	out = write_to_string(&lg, "", "6.1.0-13-powerpc64", &ret, &len);
	CHECK_INT(ret, 0);
	REQUIRE(out != NULL);
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE KRELOC_SRC_ARCH");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_IS_ARCH 1");
	CHECK_LINE(out, "#define KRELOC_GEN_SOURCE_FILE \"\"");
	CHECK_LINE(out, "/* Generated by tools/kreloc-linkgen from the arch link base; do not edit. */");
	CHECK_LINE(out, "\t{ \"_text\", 0x0000000000000000ULL, KRELOC_TEXT },");
	CHECK(strstr(out, "kreloc_gen_sections[KRELOC_NR_GROUPS] = {\n};\n") != NULL);
	free(out);
}

/* The module list head: emitted only when the map has exactly one. */
static void test_sysmap_module_list(void)
{
	struct linkgen lg;
	struct sysmap map;
	struct mapgen mg;
	size_t len;
	char *text, *out;
	int flags, ret;

	for (flags = 0; flags <= GEN_TWO_MODULES; flags += GEN_TWO_MODULES) {
		text = gen_map(&mg, flags, &len);
		REQUIRE(text != NULL);
		REQUIRE(read_map(&map, text, len) == 0);
		CHECK_INT(linkgen_from_sysmap(&lg, &map), 0);
		CHECK_INT(lg.have_modules, !flags);
		out = write_to_string(&lg, "/boot/System.map-x", "x", &ret, &len);
		CHECK_INT(ret, 0);
		if (!flags) {
			CHECK(lg.modules == MODULES_ADDR);
			CHECK(out && has_line(out, "#define KRELOC_GEN_MODULES_LINKED 0xffffffff82800080ULL"));
		} else {
			CHECK(out && !strstr(out, "KRELOC_GEN_MODULES_LINKED"));
		}
		free(out);
		sysmap_free(&map);
		free(text);
	}
}

static void test_write_rejects_unsafe_strings(void)
{
	static const char * const bad[] = {
		"/boot/System.map\"-evil", "/boot/System.map\\", "/boot/System\n.map",
		"/boot/System.map\t", "/boot/\x01map", "/boot/\xc3\xa9map",
	};
	struct linkgen lg;
	char *out;
	size_t len;
	unsigned int i;
	int ret;

	memset(&lg, 0, sizeof(lg));
	lg.source = "system.map";
	lg.anchors[0].name = "_text";
	lg.anchors[0].group = KRELOC_TEXT;
	lg.nr = 1;
	for (i = 0; i < UNIT_ARRAY_SIZE(bad); i++) {
		/* Refused before anything is written, as path or release. */
		out = write_to_string(&lg, bad[i], "6.1.0", &ret, &len);
		if (!CHECK_INT(ret, -1) | !CHECK_INT(len, 0))
			unit_diag("  source file \"%s\"", bad[i]);
		free(out);
		out = write_to_string(&lg, "/boot/System.map", bad[i], &ret, &len);
		if (!CHECK_INT(ret, -1) | !CHECK_INT(len, 0))
			unit_diag("  release \"%s\"", bad[i]);
		free(out);
	}
	/* Printable odd characters are fine. */
	out = write_to_string(&lg, "/tmp/a b/System.map-6.1.0+~'$", "6.1.0-rc1+", &ret, &len);
	CHECK_INT(ret, 0);
	CHECK(out && has_line(out, "#define KRELOC_GEN_SOURCE_FILE \"/tmp/a b/System.map-6.1.0+~'$\""));
	free(out);

	/* An anchor name that would break the C string. */
	lg.anchors[1].name = "evil\"name";
	lg.nr = 2;
	out = write_to_string(&lg, "/boot/System.map", "6.1.0", &ret, &len);
	CHECK_INT(ret, -1);
	CHECK(!out || !strstr(out, "evil"));
	free(out);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_sysmap_anchors),
	UNIT_CASE(test_sysmap_rejects),
	UNIT_CASE(test_sysmap_without_text),
	UNIT_CASE(test_sysmap_module_list),
	UNIT_CASE(test_elf_x86),
	UNIT_CASE(test_elf_ppc64_big_endian),
	UNIT_CASE(test_elf32),
	UNIT_CASE(test_elf_without_text),
	UNIT_CASE(test_corrupt_header),
	UNIT_CASE(test_corrupt_section_headers),
	UNIT_CASE(test_corrupt_notes),
	UNIT_CASE(test_truncated_files),
	UNIT_CASE(test_random_damage),
	UNIT_CASE(test_parse_failure_frees),
	UNIT_CASE(test_parse_uninitialised_struct),
	UNIT_CASE(test_write_vmlinux),
	UNIT_CASE(test_write_sysmap_and_arch),
	UNIT_CASE(test_write_rejects_unsafe_strings),
};

UNIT_MAIN(cases)
