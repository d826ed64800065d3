// SPDX-License-Identifier: GPL-2.0
/*
 * addrcheck - ground truth for the resolve test in the VM rig.
 *
 *   addrcheck gen KALLSYMS N SEED [SECTIONS]
 *                                     print N runtime addresses: random
 *                                     points inside text symbols of the
 *                                     core kernel and of modules
 *   addrcheck check KALLSYMS ADDRS RESOLVED
 *                                     check `kreloc resolve` output for
 *                                     the addresses in ADDRS (gen's
 *                                     output) against the same kallsyms
 *
 * KALLSYMS is /proc/kallsyms saved on the boot the addresses come from;
 * SECTIONS, lines "MODULE SECTION ADDRESS" read from that boot's
 * /sys/module/MODULE/sections/.  kallsyms has no sizes: a symbol is taken to
 * end where the next one begins, which is wrong where a module section
 * starts in between (ppc64le bridge: .exit.text begins 8 bytes before
 * br_deinit, after the last .init.text function), so gen takes no point
 * from a symbol with a section of its module starting after it, before
 * the next symbol.
 * RESOLVED must have exactly one line per address of ADDRS, in order,
 * starting with that address: a missing, extra or reordered line is
 * wrong, so empty output fails.  A resolved line "ADDR SYM+0xOFF [MOD]
 * SECTION" is right if that kallsyms has SYM (in MOD, or the core kernel)
 * at ADDR - OFF; so is one that names the symbol it lies past the end of
 * ("... (past the end of the symbol before it: SYM+0xOFF, its size ...)"),
 * which kallsyms, without sizes, names SYM+0xOFF (sizecheck.py checks the
 * sizes against the ELF files).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sysmap.h"

static int by_addr(const void *a, const void *b)
{
	const struct sysmap_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int is_text(const struct sysmap_sym *s)
{
	return (s->type == 'T' || s->type == 't') && s->addr;
}

struct msect {
	char mod[64];
	uint64_t addr;
};

static struct msect *msects;
static size_t nr_msects;

static int load_sections(const char *path)
{
	FILE *f = fopen(path, "r");
	char mod[64], name[128];
	uint64_t addr;

	if (!f)
		return -1;
	while (fscanf(f, "%63s %127s %" SCNx64, mod, name, &addr) == 3) {
		struct msect *n = realloc(msects, (nr_msects + 1) * sizeof(*n));

		if (!n) {
			fclose(f);
			return -1;
		}
		msects = n;
		snprintf(msects[nr_msects].mod, sizeof(msects[nr_msects].mod), "%s", mod);
		msects[nr_msects++].addr = addr;
	}
	fclose(f);
	return 0;
}

/* A section of module @mod starts in (@lo, @hi). */
static int section_starts_within(const char *mod, uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = 0; mod && i < nr_msects; i++)
		if (msects[i].addr > lo && msects[i].addr < hi && !strcmp(msects[i].mod, mod))
			return 1;
	return 0;
}

static int gen(struct sysmap *m, long n, unsigned int seed)
{
	size_t i, nt = 0, *t = malloc(m->nr * sizeof(*t) + 1);

	qsort(m->syms, m->nr, sizeof(*m->syms), by_addr);
	for (i = 0; i + 1 < m->nr; i++) {
		const struct sysmap_sym *s = &m->syms[i], *next = &m->syms[i + 1];

		/*
		 * A text symbol followed by another text symbol of the same
		 * object: kallsyms knows where it ends.  (After the last one
		 * may come what has no symbol, such as ppc64 module .stubs.)
		 */
		/*
		 * Not modules: memory the kernel takes in the module area for
		 * itself ([__builtin__kprobes] instruction slots, [bpf] JIT),
		 * of which no snapshot has a record.
		 */
		if (s->module && (!strncmp(s->module, "__builtin__", 11) || !strcmp(s->module, "bpf")))
			continue;
		/*
		 * Not ELF mapping symbols ($x, $d: arm64 modules on 6.12 list
		 * them in /proc/kallsyms): they mark code or data, they name no
		 * function, and resolve skips them as the kernel's
		 * is_mapping_symbol() does.  A point between an arm64 module's
		 * first $x and its first function (ftrace's patchable NOPs)
		 * belongs to no function.
		 */
		if (s->name[0] == '$' || !strncmp(s->name, ".L", 2))
			continue;
		if (is_text(s) && is_text(next) && next->addr > s->addr &&
		    next->addr - s->addr < 0x10000 &&
		    !strcmp(s->module ? s->module : "", next->module ? next->module : "") &&
		    !section_starts_within(s->module, s->addr, next->addr))
			t[nt++] = i;
	}
	if (!nt)
		return 1;
	while (n-- > 0) {
		const struct sysmap_sym *s = &m->syms[t[rand_r(&seed) % nt]];
		uint64_t size = (s + 1)->addr - s->addr;

		printf("0x%" PRIx64 "\n", s->addr + rand_r(&seed) % size);
	}
	free(t);
	return 0;
}

static int check(struct sysmap *m, const char *addrs_path, const char *path)
{
	FILE *f = fopen(path, "r"), *a = fopen(addrs_path, "r");
	char *line = NULL, *want = NULL;
	size_t cap = 0, wcap = 0;
	long ok = 0, bad = 0, core = 0, mods = 0, nwant = 0, ngot = 0, npast = 0;

	if (!f || !a) {
		fprintf(stderr, "addrcheck: cannot open %s\n", !f ? path : addrs_path);
		return 2;
	}
	qsort(m->syms, m->nr, sizeof(*m->syms), by_addr);
	for (;;) {
		char sym[600], mod[128] = "", tok[64], *plus, *past;
		uint64_t addr, off, waddr;
		int found = 0, gw, gl;
		size_t i, lo, hi;

		gw = getline(&want, &wcap, a) > 0;
		gl = getline(&line, &cap, f) > 0;
		nwant += gw;
		ngot += gl;
		if (!gw && !gl)
			break;
		if (!gw || !gl) {
			if (bad++ < 5)
				fprintf(stderr, "%s: %s", gw ? "no answer for" : "answer for no address",
					gw ? want : line);
			continue;
		}
		if (sscanf(want, "%" SCNx64, &waddr) != 1 ||
		    sscanf(line, "%63s %599s %127s", tok, sym, mod) < 2 ||
		    sscanf(tok, "%" SCNx64, &addr) != 1 || addr != waddr) {
			if (bad++ < 5)
				fprintf(stderr, "out of step: %.*s -> %s", (int)strcspn(want, "\n"), want,
					line);
			continue;
		}
		/*
		 * Past the end of a symbol (its ELF size known), resolve names no
		 * symbol but the one it lies past, as kallsyms (which has no
		 * sizes) names the address: "(past the end of ...: SYM+0xOFF, ...)".
		 */
		past = strstr(line, " (past the end of ");
		if (past && (past = strstr(past, ": "))) {
			snprintf(sym, sizeof(sym), "%.*s", (int)strcspn(past + 2, ",)\n"), past + 2);
			npast++;
		}
		plus = strrchr(sym, '+');
		if (!plus || sscanf(plus + 1, "%" SCNx64, &off) != 1) {
			if (bad++ < 5)
				fprintf(stderr, "unresolved: %s", line);
			continue;
		}
		*plus = '\0';
		if (mod[0] == '[') {
			memmove(mod, mod + 1, strlen(mod));
			mod[strcspn(mod, "]@")] = '\0';
			mods++;
		} else {
			mod[0] = '\0';
			core++;
		}
		/* Any symbol of that name and object at ADDR - OFF. */
		for (lo = 0, hi = m->nr; lo < hi; ) {
			size_t mid = lo + (hi - lo) / 2;

			if (m->syms[mid].addr < addr - off)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (i = lo; i < m->nr && m->syms[i].addr == addr - off && !found; i++)
			found = !strcmp(m->syms[i].name, sym) &&
				!strcmp(m->syms[i].module ? m->syms[i].module : "", mod);
		if (found) {
			ok++;
		} else if (bad++ < 5) {
			fprintf(stderr, "wrong: 0x%" PRIx64 " resolved to %s+0x%" PRIx64 " [%s]\n",
				addr, sym, off, mod);
		}
	}
	free(line);
	free(want);
	fclose(f);
	fclose(a);
	printf("%ld of %ld right (%ld core, %ld module; %ld past a symbol's end), %ld wrong, "
	       "unresolved or missing (%ld lines for %ld addresses)\n", ok, nwant, core, mods, npast,
	       bad, ngot, nwant);
	return bad || !nwant || ok != nwant ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sysmap m;

	if (argc < 4 || sysmap_load(&m, argv[2])) {
		fprintf(stderr, "usage: addrcheck gen KALLSYMS N SEED [SECTIONS] | check KALLSYMS ADDRS RESOLVED\n");
		return 2;
	}
	if (!strcmp(argv[1], "gen") && (argc == 5 || argc == 6)) {
		if (argc == 6 && load_sections(argv[5])) {
			perror(argv[5]);
			return 2;
		}
		return gen(&m, atol(argv[3]), (unsigned int)atoi(argv[4]));
	}
	if (!strcmp(argv[1], "check") && argc == 5)
		return check(&m, argv[3], argv[4]);
	return 2;
}
