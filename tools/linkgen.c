// SPDX-License-Identifier: GPL-2.0
/*
 * linkgen.c - link-time anchors from a System.map or a vmlinux ELF.
 */
#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "linkgen.h"

/* Section boundary markers (scripts/kallsyms.c keeps these). */
static const struct {
	const char *start, *end;
} group_markers[KRELOC_NR_GROUPS] = {
	[KRELOC_TEXT]		= { "_text", "_etext" },
	[KRELOC_RODATA]		= { "__start_rodata", "__end_rodata" },
	[KRELOC_DATA]		= { "_sdata", "_edata" },
	[KRELOC_BSS]		= { "__bss_start", "__bss_stop" },
	[KRELOC_INIT_TEXT]	= { "_sinittext", "_einittext" },
	/* The init area after init text: up to __init_end. */
	[KRELOC_INIT_DATA]	= { "_einittext", "__init_end" },
};

/* Markers used as anchors, each in the group it delimits. */
static const struct {
	const char *name;
	int group;
} sysmap_markers[] = {
	{ "_text", KRELOC_TEXT }, { "_stext", KRELOC_TEXT },
	{ "_etext", KRELOC_TEXT },
	{ "__start_rodata", KRELOC_RODATA }, { "__end_rodata", KRELOC_RODATA },
	{ "_sdata", KRELOC_DATA }, { "_edata", KRELOC_DATA },
	{ "__bss_start", KRELOC_BSS }, { "__bss_stop", KRELOC_BSS },
	{ "_sinittext", KRELOC_INIT_TEXT }, { "_einittext", KRELOC_INIT_TEXT },
	{ "__init_begin", KRELOC_INIT_DATA }, { "__init_end", KRELOC_INIT_DATA },
};

/* Ordinary symbols sampled per group, and the types that qualify. */
static const struct {
	unsigned int count;
	const char *types;
} samples[KRELOC_NR_GROUPS] = {
	[KRELOC_TEXT]		= { 16, "Tt" },
	[KRELOC_RODATA]		= { 4, "Rr" },
	[KRELOC_DATA]		= { 4, "Dd" },
	[KRELOC_BSS]		= { 4, "Bb" },
	[KRELOC_INIT_TEXT]	= { 4, "Tt" },
	[KRELOC_INIT_DATA]	= { 4, "Dd" },
};

/* Names kallsyms drops or that are not unique by construction. */
static const char * const skip_prefixes[] = {
	"__ksymtab", "__kstrtab", "__kcrctab", "__crc_", "__pfx_", "__cfi_",
	"__UNIQUE_ID", "__initcall", "__BTF_ID__", "__param_", "__setup_", "__kprobes_",
};

static int add_anchor(struct linkgen *lg, const char *name, uint64_t addr,
		      int group)
{
	unsigned int i;

	for (i = 0; i < lg->nr; i++)
		if (!strcmp(lg->anchors[i].name, name))
			return 0;
	if (lg->nr == LINKGEN_MAX_ANCHORS) {
		snprintf(lg->err, sizeof(lg->err), "too many anchors");
		return -1;
	}
	lg->anchors[lg->nr].name = name;
	lg->anchors[lg->nr].linked = addr;
	lg->anchors[lg->nr].group = group;
	lg->nr++;
	return 0;
}

static int plain_name(const char *n)
{
	if (!isalpha((unsigned char)*n) && *n != '_')
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '_')
			return 0;
	return 1;
}

/*
 * Only names that occur once make sound anchors: kallsyms_lookup_name()
 * returns the first of several.
 */
static int sample_ok(const struct sysmap_sym *s, int g, const struct sysmap *map)
{
	size_t k;

	if (s->module || !strchr(samples[g].types, s->type) || !plain_name(s->name))
		return 0;
	for (k = 0; k < sizeof(skip_prefixes) / sizeof(skip_prefixes[0]); k++)
		if (!strncmp(s->name, skip_prefixes[k], strlen(skip_prefixes[k])))
			return 0;
	return sysmap_count(map, s->name) == 1;
}

int linkgen_from_sysmap(struct linkgen *lg, struct sysmap *map)
{
	size_t i;
	int g;

	memset(lg, 0, sizeof(*lg));
	lg->source = "system.map";
	if (map->placeholder || map->nr < 100) {
		snprintf(lg->err, sizeof(lg->err),
			 "not a real System.map (%s)",
			 map->placeholder ? "Debian placeholder" : "too few symbols");
		return -1;
	}
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct sysmap_sym *s = sysmap_find(map, group_markers[g].start);
		const struct sysmap_sym *e = sysmap_find(map, group_markers[g].end);

		if (s && e && e->addr >= s->addr) {
			lg->sec[g].start = s->addr;
			lg->sec[g].size = e->addr - s->addr;
			lg->sec[g].known = true;
		}
	}
	/*
	 * A map taken from arm64's /proc/kallsyms has no _text (kallsyms keeps
	 * it only with KALLSYMS_ALL); the text then starts at _stext.
	 */
	if (!lg->sec[KRELOC_TEXT].known && !sysmap_find(map, "_text")) {
		const struct sysmap_sym *s = sysmap_find(map, "_stext");
		const struct sysmap_sym *e = sysmap_find(map, "_etext");

		if (s && e && e->addr >= s->addr) {
			lg->sec[KRELOC_TEXT].start = s->addr;
			lg->sec[KRELOC_TEXT].size = e->addr - s->addr;
			lg->sec[KRELOC_TEXT].known = true;
		}
	}
	if (!lg->sec[KRELOC_TEXT].known) {
		snprintf(lg->err, sizeof(lg->err), "System.map lacks _text (or _stext) and _etext");
		return -1;
	}
	if (sysmap_index(map)) {
		snprintf(lg->err, sizeof(lg->err), "out of memory");
		return -1;
	}
	for (i = 0; i < sizeof(sysmap_markers) / sizeof(sysmap_markers[0]); i++) {
		const struct sysmap_sym *s = sysmap_find(map, sysmap_markers[i].name);

		if (s && sysmap_count(map, s->name) == 1 &&
		    add_anchor(lg, s->name, s->addr, sysmap_markers[i].group))
			return -1;
	}
	/*
	 * The kernel's module list head (kernel/module/main.c "modules"), so
	 * the module can find it exactly where kallsyms has no data symbols.
	 */
	{
		const struct sysmap_sym *s = sysmap_find(map, "modules");

		if (s && sysmap_count(map, "modules") == 1 && strchr("dDbB", s->type)) {
			lg->modules = s->addr;
			lg->have_modules = 1;
		}
	}
	/* Ordinary symbols spread evenly over each group's extent. */
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct kreloc_linked_section *sec = &lg->sec[g];
		size_t *cand, nc = 0, k;

		if (!sec->known || !sec->size)
			continue;
		cand = malloc(map->nr * sizeof(*cand) + 1);
		if (!cand) {
			snprintf(lg->err, sizeof(lg->err), "out of memory");
			return -1;
		}
		for (i = 0; i < map->nr; i++) {
			const struct sysmap_sym *s = &map->syms[i];

			if (s->addr > sec->start && s->addr < sec->start + sec->size &&
			    sample_ok(s, g, map))
				cand[nc++] = i;
		}
		for (k = 0; k < samples[g].count && nc; k++) {
			const struct sysmap_sym *s =
				&map->syms[cand[(k * nc + nc / 2) / samples[g].count]];

			if (add_anchor(lg, s->name, s->addr, g)) {
				free(cand);
				return -1;
			}
		}
		free(cand);
	}
	return 0;
}

/*
 * Section start markers: the linker scripts put these symbols at the very
 * start of the named output section, so the section header gives their
 * link-time address.  Group is the core section whose area holds them.
 */
static const struct {
	uint16_t machine;	/* 0: any */
	const char *section, *symbol;
	int at_end;		/* the symbol marks the section's end */
} elf_markers[] = {
	{ EM_X86_64, ".text", "_text", 0 },
	{ EM_X86_64, ".text", "_stext", 0 },
	{ EM_PPC64, ".head.text", "_text", 0 },
	{ EM_PPC64, ".head.text", "_stext", 0 },
	{ 0, ".rodata", "__start_rodata", 0 },
	{ 0, ".pci_fixup", "__start_pci_fixups_early", 0 },
	{ 0, "__ksymtab", "__start___ksymtab", 0 },
	{ 0, "__ksymtab_gpl", "__start___ksymtab_gpl", 0 },
	{ 0, "__kcrctab", "__start___kcrctab", 0 },
	{ 0, "__kcrctab_gpl", "__start___kcrctab_gpl", 0 },
	{ 0, "__param", "__start___param", 0 },
	{ 0, "__modver", "__start___modver", 0 },
	{ 0, "__ex_table", "__start___ex_table", 0 },
	{ 0, ".notes", "__start_notes", 0 },
	{ 0, ".BTF", "__start_BTF", 0 },
	{ 0, "__bug_table", "__start___bug_table", 0 },
	{ 0, ".data..ro_after_init", "__start_ro_after_init", 0 },
	{ EM_X86_64, ".data", "_sdata", 0 },
	{ EM_X86_64, ".orc_unwind_ip", "__start_orc_unwind_ip", 0 },
	{ EM_X86_64, ".orc_unwind", "__start_orc_unwind", 0 },
	{ EM_X86_64, ".orc_lookup", "orc_lookup", 0 },
	{ 0, ".init.text", "_sinittext", 0 },
	{ EM_X86_64, ".x86_cpu_dev.init", "__x86_cpu_dev_start", 0 },
	{ EM_X86_64, ".parainstructions", "__parainstructions", 0 },
	{ EM_X86_64, ".retpoline_sites", "__retpoline_sites", 0 },
	{ EM_X86_64, ".return_sites", "__return_sites", 0 },
	{ EM_X86_64, ".altinstructions", "__alt_instructions", 0 },
	{ EM_X86_64, ".apicdrivers", "__apicdrivers", 0 },
	{ EM_X86_64, ".smp_locks", "__smp_locks", 0 },
	{ EM_X86_64, ".data_nosave", "__nosave_begin", 0 },
	/* ppc64 sets __bss_start before aligning .bss (seen 0x9000 below it). */
	{ EM_X86_64, ".bss", "__bss_start", 0 },
	{ EM_X86_64, ".brk", "__brk_base", 0 },
	/*
	 * x86_64 sets these as the last statement inside their output
	 * section, so they equal its end (checked against System.map by the
	 * selftests); ppc64 aligns before them.
	 */
	{ EM_X86_64, ".text", "_etext", 1 },
	{ EM_X86_64, ".data", "_edata", 1 },
	{ EM_X86_64, ".init.text", "_einittext", 1 },
	{ EM_X86_64, ".bss", "__bss_stop", 1 },
};

/* The ELF section that defines each core group's extent. */
static const char * const group_sections[KRELOC_NR_GROUPS] = {
	[KRELOC_TEXT]		= ".text",
	[KRELOC_RODATA]		= ".rodata",
	[KRELOC_DATA]		= ".data",
	[KRELOC_BSS]		= ".bss",
	[KRELOC_INIT_TEXT]	= ".init.text",
	[KRELOC_INIT_DATA]	= ".init.data",
};

int linkgen_from_elf(struct linkgen *lg, const struct kelf *elf)
{
	const struct kelf_section *head;
	const unsigned char *id;
	size_t i;
	int g, n;

	memset(lg, 0, sizeof(*lg));
	lg->source = "vmlinux";
	for (g = 0; g < KRELOC_NR_GROUPS; g++) {
		const struct kelf_section *s = kelf_section(elf, group_sections[g]);

		if (s && s->addr && (s->flags & SHF_ALLOC)) {
			lg->sec[g].start = s->addr;
			lg->sec[g].size = s->size;
			lg->sec[g].known = true;
		}
	}
	/* ppc64 starts the text with .head.text, where _text is. */
	head = kelf_section(elf, ".head.text");
	if (head && lg->sec[KRELOC_TEXT].known && head->addr &&
	    head->addr < lg->sec[KRELOC_TEXT].start) {
		lg->sec[KRELOC_TEXT].size += lg->sec[KRELOC_TEXT].start - head->addr;
		lg->sec[KRELOC_TEXT].start = head->addr;
	}
	if (!lg->sec[KRELOC_TEXT].known) {
		snprintf(lg->err, sizeof(lg->err), "ELF file has no .text section");
		return -1;
	}
	for (i = 0; i < sizeof(elf_markers) / sizeof(elf_markers[0]); i++) {
		const struct kelf_section *s;

		if (elf_markers[i].machine && elf_markers[i].machine != elf->machine)
			continue;
		s = kelf_section(elf, elf_markers[i].section);
		if (!s || !s->addr || !(s->flags & SHF_ALLOC))
			continue;
		/* An end marker belongs to the group of its section's start. */
		g = kreloc_group_for_addr(lg->sec, s->addr);
		if (g < 0)
			continue;
		if (add_anchor(lg, elf_markers[i].symbol,
			       s->addr + (elf_markers[i].at_end ? s->size : 0), g))
			return -1;
	}
	/* The module list head, where the ELF file kept its symbol table. */
	if (!kelf_unique_object(elf, "modules", &lg->modules))
		lg->have_modules = 1;
	n = kelf_build_id(elf, &id);
	if (n > 0 && n <= (int)sizeof(lg->build_id)) {
		memcpy(lg->build_id, id, n);
		lg->build_id_len = n;
	}
	return 0;
}

static const char * const group_enum[KRELOC_NR_GROUPS] = {
	"KRELOC_TEXT", "KRELOC_RODATA", "KRELOC_DATA", "KRELOC_BSS",
	"KRELOC_INIT_TEXT", "KRELOC_INIT_DATA",
};

static int c_string_ok(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || !isprint((unsigned char)*s))
			return 0;
	return 1;
}

int linkgen_write(const struct linkgen *lg, FILE *out, const char *source_file,
		  const char *release)
{
	unsigned int i;
	int g, arch = !strcmp(lg->source, "arch");

	if (!c_string_ok(source_file) || !c_string_ok(release))
		return -1;
	fprintf(out, "/* SPDX-License-Identifier: GPL-2.0 */\n");
	fprintf(out, "/* Generated by tools/kreloc-linkgen from %s; do not edit. */\n",
		*source_file ? source_file : "the arch link base");
	fprintf(out, "#define KRELOC_GEN_SOURCE KRELOC_SRC_%s\n",
		arch ? "ARCH" : !strcmp(lg->source, "vmlinux") ? "VMLINUX" : "SYSTEM_MAP");
	if (arch)
		fprintf(out, "#define KRELOC_GEN_SOURCE_IS_ARCH 1\n");
	fprintf(out, "#define KRELOC_GEN_SOURCE_NAME \"%s\"\n", lg->source);
	fprintf(out, "#define KRELOC_GEN_SOURCE_FILE \"%s\"\n", source_file);
	fprintf(out, "#define KRELOC_GEN_RELEASE \"%s\"\n", release);
	if (lg->build_id_len > 0) {
		fprintf(out, "#define KRELOC_GEN_HAVE_BUILD_ID 1\n#define KRELOC_GEN_BUILD_ID");
		for (g = 0; g < lg->build_id_len; g++)
			fprintf(out, "%s0x%02x", g ? ", " : " ", lg->build_id[g]);
		fprintf(out, "\n");
	}
	if (lg->have_modules)
		fprintf(out, "#define KRELOC_GEN_MODULES_LINKED 0x%016" PRIx64 "ULL\n",
			lg->modules);
	fprintf(out, "\nstatic const struct kreloc_linked_section kreloc_gen_sections[KRELOC_NR_GROUPS] = {\n");
	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		if (lg->sec[g].known)
			fprintf(out, "\t[%s] = { 0x%016" PRIx64 "ULL, 0x%" PRIx64 "ULL, true },\n",
				group_enum[g], (uint64_t)lg->sec[g].start,
				(uint64_t)lg->sec[g].size);
	fprintf(out, "};\n\nstatic struct kreloc_linked_anchor kreloc_gen_anchors[] = {\n");
	for (i = 0; i < lg->nr; i++) {
		if (!c_string_ok(lg->anchors[i].name))
			return -1;
		fprintf(out, "\t{ \"%s\", 0x%016" PRIx64 "ULL, %s },\n",
			lg->anchors[i].name, lg->anchors[i].linked,
			group_enum[lg->anchors[i].group]);
	}
	fprintf(out, "};\n");
	return ferror(out) ? -1 : 0;
}
