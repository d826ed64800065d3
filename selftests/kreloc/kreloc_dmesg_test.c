// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_dmesg_test - kreloc never writes a kernel address or the KASLR
 * offset to the kernel log.
 *
 *   kreloc_dmesg_test --ko kreloc.ko --name SCENARIO [--leak-ko kreloc-hooks.ko]
 *                     [--nosym-ko kreloc-hooks.ko]
 *
 * Run after each scenario of the job: it checks the kreloc lines logged
 * since its previous run (the last sequence number is kept in
 * /tmp/kreloc_dmesg.seq).  A line leaks if it holds 0x followed by 8 or
 * more hex digits, or any hex number equal to the runtime offset, to
 * REF_RUNTIME, to a runtime address in anchors, or to an address in
 * /proc/kallsyms (but not x86_64's per-cpu offsets, which KASLR does not
 * move).  The numbers come from a fresh load of --ko and from
 * /proc/kallsyms.  With --leak-ko, a test build that prints the offset on
 * purpose must be caught.  With --nosym-ko, a test build whose bootstrap
 * kprobe is taken to land where kallsyms has no symbol (sprint_symbol()
 * then writes the address itself) must fail its setup saying so, with no
 * address in the log.  Output is KTAP.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kselftest.h"
#include "kreloc_util.h"
#include "../../tools/sysmap.h"

#define SEQ_FILE "/tmp/kreloc_dmesg.seq"

static uint64_t *addrs;
static size_t nr_addrs, cap_addrs;
static uint64_t offset;
static regex_t hexre;

static void add_addr(uint64_t a)
{
	if (!a)
		return;
	if (nr_addrs == cap_addrs) {
		cap_addrs = cap_addrs ? 2 * cap_addrs : 65536;
		addrs = realloc(addrs, cap_addrs * sizeof(*addrs));
		if (!addrs)
			ksft_exit_fail_msg("out of memory\n");
	}
	addrs[nr_addrs++] = a;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The numbers that must never appear: from kreloc's own files and kallsyms. */
static int collect(const char *ko)
{
	char *info, *anchors, *line, *save = NULL;
	const struct sysmap_sym *pcpu_start, *pcpu_end;
	struct sysmap ks = { 0 };
	uint64_t v, pcpu_abs;
	size_t i;

	kr_unload_module("kreloc");
	if (kr_load_module(ko, NULL))
		return -1;
	info = kr_read_file(KRELOC_DIR "/info", NULL);
	anchors = kr_read_file(KRELOC_DIR "/anchors", NULL);
	kr_unload_module("kreloc");
	if (!info || !anchors)
		return -1;
	if (!kr_kv_hex(info, "KERNELOFFSET", &v))
		offset = v;
	if (!kr_kv_hex(info, "REF_RUNTIME", &v))
		add_addr(v);
	/* SYMBOL LINKED RUNTIME DELTA SECTION */
	for (line = strtok_r(anchors, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char rt[32];

		if (line[0] != '#' && sscanf(line, "%*s %*s %31s", rt) == 1 && !kr_hex(rt, &v))
			add_addr(v);
	}
	free(info);
	free(anchors);
	if (sysmap_load(&ks, "/proc/kallsyms"))
		return -1;
	/*
	 * Where per-cpu symbols are offsets from 0 (x86_64 SMP: __per_cpu_start
	 * is 0), they are the same in every boot and no address: a byte
	 * count in a log line may equal one.
	 */
	pcpu_start = sysmap_find(&ks, "__per_cpu_start");
	pcpu_end = sysmap_find(&ks, "__per_cpu_end");
	pcpu_abs = pcpu_start && pcpu_end && pcpu_start->addr == 0 ? pcpu_end->addr : 0;
	for (i = 0; i < ks.nr; i++)
		if (ks.syms[i].addr > pcpu_abs)
			add_addr(ks.syms[i].addr);
	sysmap_free(&ks);
	qsort(addrs, nr_addrs, sizeof(*addrs), cmp_u64);
	return 0;
}

/* Does @line hold an address or the offset?  Says which on stdout. */
static int leaks(const char *line)
{
	const char *p = line;

	if (!regexec(&hexre, line, 0, NULL, 0)) {
		ksft_print_msg("0x and 8+ hex digits: %s\n", line);
		return 1;
	}
	while (*p) {
		char tok[40];
		size_t n;
		uint64_t v;

		if (!isxdigit((unsigned char)*p)) {
			p++;
			continue;
		}
		n = strspn(p, "0123456789abcdefABCDEF");
		if (n >= 5 && n < sizeof(tok)) {
			memcpy(tok, p, n);
			tok[n] = '\0';
			v = strtoull(tok, NULL, 16);
			if ((offset && v == offset) ||
			    bsearch(&v, addrs, nr_addrs, sizeof(v), cmp_u64)) {
				ksft_print_msg("holds %s: %s\n", v == offset ? "the offset" :
					       "a kernel address", line);
				return 1;
			}
		}
		p += n;
	}
	return 0;
}

/* Check the kreloc lines logged after *seq; returns how many leak. */
static int check_since(long long *seq, int *lines)
{
	char *log = kr_kmsg(*seq, seq), *line, *save = NULL;
	int bad = 0;

	*lines = 0;
	if (!log)
		return -1;
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "kreloc: ", 8))
			continue;
		(*lines)++;
		bad += leaks(line);
	}
	free(log);
	return bad;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ko", required_argument, NULL, 'k' },
		{ "leak-ko", required_argument, NULL, 'l' },
		{ "name", required_argument, NULL, 'n' },
		{ "nosym-ko", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ko = NULL, *leak_ko = NULL, *nosym_ko = NULL, *name = "";
	long long seq = -1;
	int c, bad, lines;
	char *s;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'k': ko = optarg; break;
		case 'l': leak_ko = optarg; break;
		case 'n': name = optarg; break;
		case 's': nosym_ko = optarg; break;
		default: return 2;
		}
	}
	ksft_print_header();
	if (!ko)
		ksft_exit_fail_msg("usage: --ko KO --name SCENARIO [--leak-ko KO]\n");
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	ksft_set_plan(1 + !!leak_ko + !!nosym_ko);
	if (regcomp(&hexre, "0x[0-9a-fA-F]{8,}", REG_EXTENDED | REG_NOSUB) || collect(ko))
		ksft_exit_fail_msg("cannot load %s or read its numbers\n", ko);
	s = kr_read_file(SEQ_FILE, NULL);
	if (s)
		seq = atoll(s);
	free(s);

	bad = check_since(&seq, &lines);
	ksft_print_msg("%zu numbers that must not appear (offset 0x%llx)\n", nr_addrs,
		       (unsigned long long)offset);
	ksft_test_result(bad == 0 && lines > 0,
			 "after %s: %d kreloc lines in dmesg, none holds an address or the offset\n",
			 name, lines);
	if (leak_ko) {
		kr_unload_module("kreloc");
		bad = kr_load_module(leak_ko, "test_leak_offset=1") ? -1 : check_since(&seq, &lines);
		kr_unload_module("kreloc");
		ksft_test_result(bad > 0, "the check catches a test build printing the offset and an address\n");
	}
	if (nosym_ko) {
		long long from = seq;
		char *log;
		int said;

		kr_unload_module("kreloc");
		kr_load_module(nosym_ko, "test_kprobe_nosym=1");
		kr_unload_module("kreloc");
		bad = check_since(&seq, &lines);
		log = kr_kmsg(from, NULL);
		said = log && strstr(log, "kreloc: kprobe on kallsyms_lookup_name landed where kallsyms has no symbol");
		free(log);
		ksft_test_result(!bad && said,
				 "a kprobe landing where kallsyms has no symbol: the setup fails saying so, no address in dmesg (%d lines)\n",
				 lines);
	}
	if (asprintf(&s, "%lld\n", seq) > 0) {
		kr_write_file(SEQ_FILE, s);
		free(s);
	}
	ksft_finished();
}
