// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc - show the running kernel's relocation, save it as a snapshot,
 * resolve addresses offline, and place kprobes from link-time addresses.
 *
 * Exit codes: 0 ok, 1 resolution failed (or bad input data), 2 usage,
 * 3 the kernel refused (or would refuse) the request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ksnap.h"
#include "kresolve.h"
#include "kspec.h"
#include "kcmd.h"
#include "../sysmap.h"

const char *root = "";		/* --root / KRELOC_ROOT: a fake / for tests */
int json;

void msg(const char *fmt, ...)
{
	va_list ap;

	fputs("kreloc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- JSON output ---- */

void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jhex(FILE *f, const struct kval *v)
{
	if (v->ok)
		fprintf(f, "\"0x%" PRIx64 "\"", v->v);
	else
		fputs("null", f);
}

void jdec(FILE *f, const struct kval *v)
{
	if (v->ok)
		fprintf(f, "%" PRIu64, v->v);
	else
		fputs("null", f);
}

static const char *hx(char *buf, const struct kval *v)
{
	if (!v->ok)
		return "-";
	snprintf(buf, 20, "0x%" PRIx64, v->v);
	return buf;
}

/* ---- show ---- */

static void show_json(const struct ksnap *s)
{
	size_t i, j;

	printf("{\"format\":%u,\"osrelease\":", s->version);
	jstr(stdout, s->osrelease);
	printf(",\"arch\":");
	jstr(stdout, s->arch);
	printf(",\"endian\":");
	jstr(stdout, s->endian);
	printf(",\"elf_abi\":");
	jstr(stdout, s->abi);
	printf(",\"build_id\":");
	jstr(stdout, s->build_id);
	printf(",\"status\":");
	jstr(stdout, s->status);
	printf(",\"init\":");
	jstr(stdout, s->init);
	printf(",\"generation\":");
	jdec(stdout, &s->generation);
	printf(",\"kerneloffset\":");
	jhex(stdout, &s->kerneloffset);
	printf(",\"ref_linked\":");
	jhex(stdout, &s->ref_linked);
	printf(",\"ref_runtime\":");
	jhex(stdout, &s->ref_runtime);
	printf(",\"sections\":[");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];

		printf("%s{\"name\":", i ? "," : "");
		jstr(stdout, c->name);
		printf(",\"linked\":");
		jhex(stdout, &c->linked);
		printf(",\"runtime\":");
		jhex(stdout, &c->runtime);
		printf(",\"size\":");
		jhex(stdout, &c->size);
		printf(",\"offset\":");
		jhex(stdout, &c->offset);
		printf(",\"status\":");
		jstr(stdout, c->status);
		printf("}");
	}
	printf("],\"modules\":[");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		printf("%s{\"name\":", i ? "," : "");
		jstr(stdout, m->name);
		printf(",\"state\":");
		jstr(stdout, m->state);
		printf(",\"text_base\":");
		jhex(stdout, &m->text_base);
		printf(",\"text_size\":");
		jhex(stdout, &m->text_size);
		printf(",\"load_gen\":");
		jdec(stdout, &m->load_gen);
		printf(",\"unload_gen\":");
		jdec(stdout, &m->unload_gen);
		for (int kind = KS_REGION; kind <= KS_SECTION; kind++) {
			int first = 1;

			printf(",\"%s\":[", kind == KS_REGION ? "regions" : "sections");
			for (j = 0; j < m->nr_mem; j++) {
				const struct ks_mem *k = &m->mem[j];

				if ((int)k->kind != kind)
					continue;
				printf("%s{\"name\":", first ? "" : ",");
				first = 0;
				jstr(stdout, k->name);
				printf(",\"address\":");
				jhex(stdout, &k->addr);
				printf(",\"size\":");
				jhex(stdout, &k->size);
				printf(",\"state\":");
				jstr(stdout, k->state);
				printf("}");
			}
			printf("]");
		}
		printf("}");
	}
	printf("]}\n");
}

static void show_text(const struct ksnap *s, int no_modules)
{
	char a[24], b[24], c[24], d[24];
	size_t i, j;

	printf("kernel      %s %s (%s-endian, ELF ABI %s)\n", s->osrelease, s->arch,
	       s->endian, s->abi);
	printf("build id    %s\n", s->build_id);
	printf("status      %s   init %s   generation %s\n", s->status, s->init,
	       s->generation.ok ? (snprintf(a, sizeof(a), "%" PRIu64, s->generation.v), a) : "-");
	printf("offset      %s   (_text linked %s, runtime %s)\n", hx(a, &s->kerneloffset),
	       hx(b, &s->ref_linked), hx(c, &s->ref_runtime));
	printf("\n%-10s %-18s %-18s %-10s %-18s %s\n", "SECTION", "LINKED", "RUNTIME", "SIZE",
	       "OFFSET", "STATUS");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *k = &s->core[i];

		printf("%-10s %-18s %-18s %-10s %-18s %s\n", k->name, hx(a, &k->linked),
		       hx(b, &k->runtime), hx(c, &k->size), hx(d, &k->offset), k->status);
	}
	if (no_modules) {
		printf("\nmodules     (this kreloc module does not track modules)\n");
		return;
	}
	printf("\n%-24s %-7s %-18s %-10s %s\n", "MODULE", "STATE", "TEXT", "SIZE", "LOADED..UNLOADED");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];
		char g1[24] = "-", g2[24] = "-";

		if (m->load_gen.ok)
			snprintf(g1, sizeof(g1), "%" PRIu64, m->load_gen.v);
		if (m->unload_gen.ok)
			snprintf(g2, sizeof(g2), "%" PRIu64, m->unload_gen.v);
		printf("%-24s %-7s %-18s %-10s %s..%s\n", m->name, m->state, hx(a, &m->text_base),
		       hx(b, &m->text_size), g1, g2);
		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *k = &m->mem[j];

			if (k->kind == KS_REGION && k->size.ok && k->size.v)
				printf("    %-20s %-18s %-10s %s\n", k->name, hx(a, &k->addr),
				       hx(b, &k->size), k->state);
		}
	}
}

int usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kreloc %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'kreloc %s --help'.\n", cmd);
	return EXIT_USAGE;
}

static const char show_help[] =
	"Usage: kreloc show [--json] [--snapshot FILE]\n"
	"Show the running kernel's relocation from /sys/kernel/debug/kreloc\n"
	"(or a saved snapshot): core sections, offsets and module records.\n";

static int cmd_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "snapshot", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *snap_path = NULL;
	char err[512];
	struct ksnap s;
	int c, no_modules = 0;

	while ((c = getopt_long(argc, argv, "+js:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = 1; break;
		case 's': snap_path = optarg; break;
		case 'h': fputs(show_help, stdout); return 0;
		default: return usage_err("show", "bad option");
		}
	}
	if (optind != argc)
		return usage_err("show", "unexpected argument '%s'", argv[optind]);
	if (snap_path ? ksnap_load(&s, snap_path, err, sizeof(err)) :
	    ksnap_live(&s, root, &no_modules, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_RESOLVE;
	}
	if (json)
		show_json(&s);
	else
		show_text(&s, no_modules);
	ksnap_free(&s);
	return 0;
}

/* ---- snapshot ---- */

static const char snapshot_help[] =
	"Usage: kreloc snapshot [-o FILE]\n"
	"Save everything needed to resolve this boot's addresses later, on any\n"
	"machine: release, build id, arch, endianness, ELF ABI, core sections and\n"
	"offsets, every module record (live and unloaded) with its regions and\n"
	"sections, generation.  Format: tools/cli/SNAPSHOT.md.  Default: stdout.\n";

static int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	char err[512], tmp[4096];
	struct ksnap s;
	int c, no_modules, ret = 0;
	FILE *f;

	while ((c = getopt_long(argc, argv, "+o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'h': fputs(snapshot_help, stdout); return 0;
		default: return usage_err("snapshot", "bad option");
		}
	}
	if (optind != argc)
		return usage_err("snapshot", "unexpected argument '%s'", argv[optind]);
	if (ksnap_live(&s, root, &no_modules, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_RESOLVE;
	}
	if (no_modules)
		msg("warning: %s/sys/kernel/debug/kreloc/modules missing: the snapshot has no "
		    "module records (kreloc without module tracking)", root);
	if (strcmp(s.status, "ok"))
		msg("warning: STATUS=%s: sections without a published offset will not resolve",
		    s.status);
	if (!out || !strcmp(out, "-")) {
		if (ksnap_write(&s, stdout)) {
			msg("stdout: %s", strerror(errno));
			ret = EXIT_RESOLVE;
		}
		ksnap_free(&s);
		return ret;
	}
	/* Write beside the target and rename: never leave half a snapshot. */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", out, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		msg("%s: %s", tmp, strerror(errno));
		ksnap_free(&s);
		return EXIT_RESOLVE;
	}
	if (ksnap_write(&s, f) | fclose(f) || rename(tmp, out)) {
		msg("%s: %s", out, strerror(errno));
		unlink(tmp);
		ret = EXIT_RESOLVE;
	}
	ksnap_free(&s);
	return ret;
}

/* ---- resolve ---- */

static const char resolve_help[] =
	"Usage: kreloc resolve --snapshot FILE (--system-map FILE | --kallsyms FILE)\n"
	"                      [--modules-dir DIR] [--json] [ADDR... | -]\n"
	"For each runtime address (hex, 0x optional) of the snapshot's boot print\n"
	"  ADDR SYMBOL+0xOFF SECTION              (core kernel)\n"
	"  ADDR SYMBOL+0xOFF [MODULE] SECTION     (module; [MODULE@LOAD_GEN] if unloaded)\n"
	"  ADDR ?                                 (unknown)\n"
	"SYMBOL is SECTION itself when no symbol table is available.\n"
	"--kallsyms takes a /proc/kallsyms saved on any boot of the same build.\n"
	"--modules-dir is searched recursively for NAME.ko ('-' and '_' alike).\n"
	"Addresses come from the arguments or, with '-' or none, from stdin.\n"
	"Exit 1 if any address did not resolve.\n";

#define OUTBUF (1 << 20)

struct out {
	char *buf;
	size_t len;
};

static void out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len) {
		msg("stdout: %s", strerror(errno));
		exit(EXIT_RESOLVE);
	}
	o->len = 0;
}

static inline void out_mem(struct out *o, const char *s, size_t n)
{
	if (o->len + n > OUTBUF) {
		out_flush(o);
		if (n > OUTBUF) {
			fwrite(s, 1, n, stdout);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

/*
 * The hot loop formats millions of offsets; printf costs more than the
 * lookup itself, so hex digits are written directly.
 */
static inline void out_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char b[18];
	int i = 18;

	do {
		b[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	b[--i] = 'x';
	b[--i] = '0';
	out_mem(o, b + i, (size_t)(18 - i));
}

struct resolve_ctx {
	struct kres *r;
	struct out o;
	unsigned long failed;
};

static void emit_json(struct resolve_ctx *c, const char *tok, int ok, uint64_t addr, int kind,
		      const struct kres_hit *h, int *first)
{
	char a[24];

	out_flush(&c->o);
	printf("%s\n {\"input\":", *first ? "[" : ",");
	*first = 0;
	jstr(stdout, tok);
	if (ok)
		printf(",\"address\":\"0x%" PRIx64 "\"", addr);
	if (kind == KRES_UNKNOWN) {
		printf(",\"resolved\":false}");
		return;
	}
	printf(",\"resolved\":true,\"symbol\":");
	if (h->sym)
		jstr(stdout, h->sym);
	else
		fputs("null", stdout);
	snprintf(a, sizeof(a), "0x%" PRIx64, h->off);
	printf(",\"offset\":\"%s\",\"module\":", a);
	if (h->mod)
		jstr(stdout, h->mod->name);
	else
		fputs("null", stdout);
	if (h->mod) {
		printf(",\"load_gen\":");
		jdec(stdout, &h->mod->load_gen);
		printf(",\"module_state\":");
		jstr(stdout, h->mod->state);
	}
	printf(",\"section\":");
	jstr(stdout, h->section);
	printf("}");
}

/*
 * Parse a hex address (0x optional).  Hand-written rather than strtoull():
 * this runs once per input address and strtoull's locale, sign, blank and
 * base handling cost as much as the whole lookup.
 */
static int parse_addr(const char *t, size_t n, uint64_t *v)
{
	static signed char val[256];
	uint64_t x = 0;
	size_t i = 0;

	if (!val[1]) {
		int k;

		memset(val, -1, sizeof(val));
		for (k = 0; k < 10; k++)
			val['0' + k] = (signed char)k;
		for (k = 0; k < 6; k++)
			val['a' + k] = val['A' + k] = (signed char)(10 + k);
		val[1] = -2;
	}
	if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		i = 2;
	if (i == n || n - i > 16)
		return -1;
	for (; i < n; i++) {
		int d = val[(unsigned char)t[i]];

		if (d < 0)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return 0;
}

struct item {
	const char *tok;
	size_t len;
	unsigned long lineno;
	uint64_t addr;
	int ok, kind;
	struct kres_hit h;
};

static void item_lookup(struct resolve_ctx *c, struct item *it, const char *src)
{
	it->kind = KRES_UNKNOWN;
	it->ok = !parse_addr(it->tok, it->len, &it->addr);
	if (!it->ok) {
		if (it->lineno)
			msg("%s:%lu: '%.*s' is not a hex address", src, it->lineno, (int)it->len,
			    it->tok);
		else
			msg("%s: '%.*s' is not a hex address", src, (int)it->len, it->tok);
	} else {
		it->kind = kres_lookup(c->r, it->addr, &it->h);
	}
	if (it->kind == KRES_UNKNOWN)
		c->failed++;
}

static void item_emit(struct resolve_ctx *c, struct item *it, int *jfirst)
{
	const struct kres_hit *h = &it->h;

	if (jfirst) {
		char *t = strndup(it->tok, it->len);

		emit_json(c, t ? t : "", it->ok, it->addr, it->kind, h, jfirst);
		free(t);
		return;
	}
	out_mem(&c->o, it->tok, it->len);
	if (it->kind == KRES_UNKNOWN) {
		out_mem(&c->o, " ?\n", 3);
		return;
	}
	out_mem(&c->o, " ", 1);
	if (h->sym)
		out_mem(&c->o, h->sym, h->sym_len);
	else
		out_str(&c->o, h->section);
	out_mem(&c->o, "+", 1);
	out_hex(&c->o, h->off);
	if (h->mod) {
		out_mem(&c->o, " [", 2);
		out_str(&c->o, h->mod->name);
		if (strcmp(h->mod->state, "live") && strcmp(h->mod->state, "coming") &&
		    h->mod->load_gen.ok) {
			char g[24];

			snprintf(g, sizeof(g), "@%" PRIu64, h->mod->load_gen.v);
			out_str(&c->o, g);
		}
		out_mem(&c->o, "]", 1);
	}
	out_mem(&c->o, " ", 1);
	out_str(&c->o, h->section);
	out_mem(&c->o, "\n", 1);
}

/*
 * Addresses are handled in batches: look all of a batch up, prefetching
 * the symbol names, then print them, so that the cache misses of
 * neighbouring lookups overlap instead of queueing.
 */
#define BATCH 64

static void run_batch(struct resolve_ctx *c, struct item *b, size_t n, const char *src, int *jfirst)
{
	size_t i;

	for (i = 0; i < n; i++) {
		item_lookup(c, &b[i], src);
		if (b[i].kind != KRES_UNKNOWN && b[i].h.sym)
			__builtin_prefetch(b[i].h.sym);
	}
	for (i = 0; i < n; i++)
		item_emit(c, &b[i], jfirst);
}

/* Read whitespace-separated addresses from stdin in big blocks. */
static int resolve_stdin(struct resolve_ctx *c, int *jfirst)
{
	size_t cap = 1 << 20, len = 0, i, start, nb = 0;
	unsigned long lineno = 1;
	char *buf = malloc(cap + 1);
	struct item batch[BATCH];
	int eof = 0;

	if (!buf) {
		msg("out of memory");
		return -1;
	}
	while (!eof) {
		size_t n = fread(buf + len, 1, cap - len, stdin);

		if (n < cap - len) {
			if (ferror(stdin)) {
				msg("stdin: %s", strerror(errno));
				free(buf);
				return -1;
			}
			eof = 1;
		}
		len += n;
		/* Every complete token; a partial one waits for the next block. */
		i = 0;
		for (;;) {
			while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' ||
					   buf[i] == '\r')) {
				lineno += buf[i] == '\n';
				i++;
			}
			start = i;
			while (i < len && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\n' &&
			       buf[i] != '\r')
				i++;
			if (i == start)
				break;
			if (i == len && !eof) {
				i = start;
				break;
			}
			batch[nb].tok = buf + start;
			batch[nb].len = i - start;
			batch[nb].lineno = lineno;
			if (++nb == BATCH) {
				run_batch(c, batch, nb, "stdin", jfirst);
				nb = 0;
			}
		}
		/* The batch points into buf: finish it before moving data. */
		run_batch(c, batch, nb, "stdin", jfirst);
		nb = 0;
		memmove(buf, buf + i, len - i);
		len -= i;
		if (len == cap && !eof) {
			msg("stdin:%lu: token longer than %zu bytes", lineno, cap);
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

static int cmd_resolve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "snapshot", required_argument, NULL, 's' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *snap_path = NULL, *map = NULL, *kallsyms = NULL, *moddir = NULL;
	struct resolve_ctx ctx = { 0 };
	struct ksnap s;
	struct kres r;
	char err[512];
	int c, i, jfirst = 1, use_stdin, ret = 0;
	struct stat st;

	while ((c = getopt_long(argc, argv, "+s:m:k:d:jh", opts, NULL)) != -1) {
		switch (c) {
		case 's': snap_path = optarg; break;
		case 'm': map = optarg; break;
		case 'k': kallsyms = optarg; break;
		case 'd': moddir = optarg; break;
		case 'j': json = 1; break;
		case 'h': fputs(resolve_help, stdout); return 0;
		default: return usage_err("resolve", "bad option");
		}
	}
	if (!snap_path)
		return usage_err("resolve", "--snapshot FILE is required");
	if (!map == !kallsyms)
		return usage_err("resolve", "give exactly one of --system-map FILE and --kallsyms FILE");
	if (moddir && (stat(moddir, &st) || !S_ISDIR(st.st_mode)))
		return usage_err("resolve", "--modules-dir %s: %s", moddir,
				 errno ? strerror(errno) : "not a directory");
	use_stdin = optind == argc || (optind + 1 == argc && !strcmp(argv[optind], "-"));
	if (ksnap_load(&s, snap_path, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_RESOLVE;
	}
	if (kres_init(&r, &s, map ? map : kallsyms, !!kallsyms, moddir, err, sizeof(err))) {
		msg("%s", err);
		kres_free(&r);
		ksnap_free(&s);
		return EXIT_RESOLVE;
	}
	r.warn = 1;
	ctx.r = &r;
	ctx.o.buf = malloc(OUTBUF);
	if (!ctx.o.buf) {
		msg("out of memory");
		ret = EXIT_RESOLVE;
		goto out;
	}
	if (use_stdin) {
		if (resolve_stdin(&ctx, json ? &jfirst : NULL))
			ret = EXIT_RESOLVE;
	} else {
		for (i = optind; i < argc; i++) {
			struct item it = { .tok = argv[i], .len = strlen(argv[i]) };

			run_batch(&ctx, &it, 1, "argument", json ? &jfirst : NULL);
		}
	}
	out_flush(&ctx.o);
	if (json)
		printf("%s]\n", jfirst ? "[" : "\n");
	if (fflush(stdout)) {
		msg("stdout: %s", strerror(errno));
		ret = EXIT_RESOLVE;
	}
	if (ctx.failed && !ret)
		ret = EXIT_RESOLVE;
out:
	free(ctx.o.buf);
	kres_free(&r);
	ksnap_free(&s);
	return ret;
}

/* ---- probe ---- */

static const char probe_help[] =
	"Usage: kreloc probe [--dry-run] [--group G] [--event E] SPEC [FETCHARGS...]\n"
	"       kreloc probe --remove G/E\n"
	"SPEC: sym, sym+OFF, .sym, mod:sym[+OFF], or vmlinux:0xLINKED (a link-time\n"
	"address as objdump/DWARF tools print it).  Writes to tracefs kprobe_events\n"
	"  p:G/E 0xRUNTIME [FETCHARGS]      for the core kernel (unambiguous)\n"
	"  p:G/E MOD:SYM+0xOFF [FETCHARGS]  for a module symbol (follows reloads)\n"
	"Refuses blacklisted addresses and freed init text (exit 3).  On a kernel\n"
	"error prints the reason from tracefs error_log (exit 3).\n"
	"Defaults: G=kreloc, E derived from SPEC.\n";

static void path_in(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s%s", root, rel);
}

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* The tracefs directory, or NULL. */
static const char *tracefs(char *buf, size_t len)
{
	path_in(buf, len, "/sys/kernel/tracing/kprobe_events");
	if (exists(buf)) {
		path_in(buf, len, "/sys/kernel/tracing");
		return buf;
	}
	path_in(buf, len, "/sys/kernel/debug/tracing/kprobe_events");
	if (exists(buf)) {
		path_in(buf, len, "/sys/kernel/debug/tracing");
		return buf;
	}
	return NULL;
}

/* Print the newest entry of tracefs error_log. */
static void print_error_log(const char *dir)
{
	char path[4200], *data = NULL, *last = NULL, *p;
	size_t len = 0;
	FILE *f, *m;
	int ch;

	snprintf(path, sizeof(path), "%s/error_log", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	m = open_memstream(&data, &len);
	if (!m) {
		fclose(f);
		return;
	}
	while ((ch = fgetc(f)) != EOF && len < (1 << 20))
		fputc(ch, m);
	fclose(f);
	fclose(m);
	for (p = data; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (*p == '[')
			last = p;
	if (last)
		fprintf(stderr, "kreloc: the kernel says (%s):\n%s%s", path, last,
			last[strlen(last) - 1] == '\n' ? "" : "\n");
	free(data);
}

static int write_events(const char *line)
{
	char dir[4096], path[4200];
	size_t n = strlen(line);
	int fd, e = 0;

	if (!tracefs(dir, sizeof(dir))) {
		msg("tracefs not found: neither %s/sys/kernel/tracing nor %s/sys/kernel/debug/tracing "
		    "has kprobe_events (mount -t tracefs nodev /sys/kernel/tracing)", root, root);
		return EXIT_RESOLVE;
	}
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		msg("%s: %s", path, strerror(errno));
		return errno == EACCES || errno == EPERM ? EXIT_REFUSED : EXIT_RESOLVE;
	}
	if (write(fd, line, n) != (ssize_t)n)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (e) {
		msg("%s: writing '%.*s' failed: %s", path, (int)(n - 1), line, strerror(e));
		print_error_log(dir);
		return EXIT_REFUSED;
	}
	return 0;
}

/* Blacklist lines: "0xSTART-0xEND\tsym". */
static int blacklisted(uint64_t addr, char *sym, size_t symlen, char *bl_path, size_t bplen)
{
	char *line = NULL;
	size_t cap = 0;
	int hit = 0;
	FILE *f;

	path_in(bl_path, bplen, "/sys/kernel/debug/kprobes/blacklist");
	f = fopen(bl_path, "r");
	if (!f)
		return 0;
	while (!hit && getline(&line, &cap, f) >= 0) {
		char *p = line, *end;
		uint64_t lo, hi;

		errno = 0;
		lo = strtoull(p, &end, 16);
		if (errno || *end != '-')
			continue;
		hi = strtoull(end + 1, &end, 16);
		if (errno)
			continue;
		if (addr >= lo && addr < hi) {
			hit = 1;
			end += strspn(end, " \t");
			end[strcspn(end, "\r\n")] = '\0';
			snprintf(sym, symlen, "%s", end);
		}
	}
	free(line);
	fclose(f);
	return hit;
}

static int probe_remove(const char *ge)
{
	char g[128], line[300];
	const char *slash = strchr(ge, '/');

	if (!slash || (size_t)(slash - ge) >= sizeof(g))
		return usage_err("probe", "--remove takes GROUP/EVENT");
	memcpy(g, ge, (size_t)(slash - ge));
	g[slash - ge] = '\0';
	if (!kspec_event_name_ok(g) || !kspec_event_name_ok(slash + 1))
		return usage_err("probe", "--remove %s: bad group or event name", ge);
	snprintf(line, sizeof(line), "-:%s/%s\n", g, slash + 1);
	return write_events(line);
}

/* kreloc `lookup` (issue 4): "SPEC ADDRESS PROBE_ADDRESS MODULE TYPE". */
static int via_lookup(const char *spec, uint64_t *addr, char *mod, size_t modlen, int *used)
{
	char path[4200], buf[1024], *tok[8];
	ssize_t n;
	int fd;
	struct kval v;

	*used = 0;
	path_in(path, sizeof(path), "/sys/kernel/debug/kreloc/lookup");
	fd = open(path, O_RDWR);
	if (fd < 0)
		return errno == ENOENT ? 0 : (msg("%s: %s", path, strerror(errno)), EXIT_RESOLVE);
	*used = 1;
	if (write(fd, spec, strlen(spec)) < 0) {
		msg("%s: %s: %s", path, spec, strerror(errno));
		close(fd);
		return EXIT_RESOLVE;
	}
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		msg("%s: no answer for %s", path, spec);
		return EXIT_RESOLVE;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	/*
	 * PROBE_ADDRESS, not ADDRESS: on ppc64 ELFv2 a probe at the global
	 * entry never fires for local calls; the kernel would use the ftrace
	 * site or the local entry, and so must a raw-address probe.
	 */
	if (ksnap_split(buf, tok, 8) != 5 || ksnap_parse_hex(tok[2], &v) || !v.ok) {
		msg("%s: unexpected answer '%s'", path, buf);
		return EXIT_RESOLVE;
	}
	*addr = v.v;
	snprintf(mod, modlen, "%s",
		 strcmp(tok[3], "-") && strcmp(tok[3], "vmlinux") ? tok[3] : "");
	return 0;
}

/* A unique kallsyms entry (core when mod is NULL); prefers `.name` on ppc64 ELFv1. */
static int kallsyms_unique(const struct sysmap *map, const char *mod, const char *name,
			   int ppc64, const char *kpath, uint64_t *addr, char *used_name, size_t unlen)
{
	char dotted[KSPEC_SYM_MAX + 2];
	const struct sysmap_sym *hit = NULL;
	size_t cnt = 0, i;
	int pass;

	snprintf(dotted, sizeof(dotted), ".%s", name);
	/* ELFv1: `.name` is the code, `name` the descriptor: try `.name` first. */
	for (pass = ppc64 && name[0] != '.' ? 0 : 1; pass < 2 && !cnt; pass++) {
		const char *want = pass ? name : dotted;

		for (i = 0; i < map->nr; i++) {
			const struct sysmap_sym *s = &map->syms[i];

			if (strcmp(s->name, want))
				continue;
			if (mod ? !s->module || strcmp(s->module, mod) : !!s->module)
				continue;
			if (!cnt++)
				hit = s;
		}
		if (cnt)
			snprintf(used_name, unlen, "%s", want);
	}
	if (!cnt) {
		msg("%s: no symbol %s%s%s", kpath, mod ? mod : "", mod ? ":" : "", name);
		return EXIT_RESOLVE;
	}
	if (cnt > 1) {
		msg("%s: symbol %s%s%s is not unique (%zu entries): use vmlinux:0xLINKED, or "
		    "mod:sym for a module", kpath, mod ? mod : "", mod ? ":" : "", used_name, cnt);
		return EXIT_RESOLVE;
	}
	if (!hit->addr) {
		msg("%s: %s shows address 0: not allowed to see kernel addresses "
		    "(need root or CAP_SYSLOG, kptr_restrict)", kpath, used_name);
		return EXIT_RESOLVE;
	}
	*addr = hit->addr;
	return 0;
}

static void default_event(char *ev, size_t len, const struct kspec *sp, const char *name)
{
	size_t i, n;

	if (sp->kind == KSPEC_LINKED)
		snprintf(ev, len, "vmlinux_%" PRIx64, sp->linked);
	else if (sp->kind == KSPEC_MODSYM)
		snprintf(ev, len, "%s_%s", sp->mod, name);
	else
		snprintf(ev, len, "%s", name);
	n = strlen(ev);
	if (sp->kind != KSPEC_LINKED && sp->off && n + 20 < len)
		snprintf(ev + n, len - n, "_%" PRIx64, sp->off);
	for (i = 0; ev[i]; i++)
		if (!((ev[i] >= 'a' && ev[i] <= 'z') || (ev[i] >= 'A' && ev[i] <= 'Z') ||
		      (ev[i] >= '0' && ev[i] <= '9') || ev[i] == '_'))
			ev[i] = '_';
	while (ev[0] == '_' && ev[1])
		memmove(ev, ev + 1, strlen(ev));
	if (ev[0] >= '0' && ev[0] <= '9')
		ev[0] = '_';
	ev[63] = '\0';
}

static int cmd_probe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "group", required_argument, NULL, 'g' },
		{ "event", required_argument, NULL, 'e' },
		{ "remove", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *group = "kreloc", *event = NULL, *remove = NULL, *why;
	char err[512], kpath[4200], ev[KSPEC_SYM_MAX + 160], name[KSPEC_SYM_MAX + 2] = "", bl[4200], blsym[512];
	char lmod[64] = "", target[KSPEC_SYM_MAX + 128];
	int c, dry = 0, ret, no_modules, used_lookup, ppc64, modstyle = 0, i;
	struct kspec sp;
	struct ksnap s;
	struct sysmap map;
	uint64_t addr = 0;
	char *line = NULL;
	size_t linelen = 0;
	FILE *lf;
	size_t k;

	while ((c = getopt_long(argc, argv, "+ng:e:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': dry = 1; break;
		case 'g': group = optarg; break;
		case 'e': event = optarg; break;
		case 'r': remove = optarg; break;
		case 'h': fputs(probe_help, stdout); return 0;
		default: return usage_err("probe", "bad option");
		}
	}
	if (remove) {
		if (optind != argc)
			return usage_err("probe", "--remove takes no SPEC");
		return probe_remove(remove);
	}
	if (optind >= argc)
		return usage_err("probe", "missing SPEC");
	if (kspec_parse(argv[optind], &sp, &why))
		return usage_err("probe", "%s: %s", argv[optind], why);
	if (!kspec_event_name_ok(group))
		return usage_err("probe", "bad group name '%s'", group);
	if (event && !kspec_event_name_ok(event))
		return usage_err("probe", "bad event name '%s'", event);
	for (i = optind + 1; i < argc; i++)
		if (strpbrk(argv[i], "\n\r") || !argv[i][0])
			return usage_err("probe", "bad FETCHARG '%s'", argv[i]);

	if (ksnap_live(&s, root, &no_modules, err, sizeof(err))) {
		msg("%s", err);
		return EXIT_RESOLVE;
	}
	ppc64 = !strcmp(s.arch, "ppc64");
	ret = via_lookup(argv[optind], &addr, lmod, sizeof(lmod), &used_lookup);
	if (ret)
		goto out_snap;
	if (!used_lookup && sp.kind == KSPEC_LINKED) {
		const struct ks_core *t = ksnap_core(&s, "text");
		const struct ks_core *it = ksnap_core(&s, "init.text");
		const struct ks_core *hit = NULL;

		if (t && t->linked.ok && t->size.ok && sp.linked - t->linked.v < t->size.v)
			hit = t;
		else if (it && it->linked.ok && it->size.ok && sp.linked - it->linked.v < it->size.v)
			hit = it;
		if (!hit) {
			msg("vmlinux:0x%" PRIx64 " is outside the kernel's text section%s", sp.linked,
			    t && t->linked.ok && t->size.ok ? "" : " (its link-time range is unknown)");
			ret = EXIT_RESOLVE;
			goto out_snap;
		}
		if (!strcmp(hit->status, "freed")) {
			msg("vmlinux:0x%" PRIx64 " is in init.text, which the kernel has freed "
			    "(%s/sys/kernel/debug/kreloc/sections: init.text freed)", sp.linked, root);
			ret = EXIT_REFUSED;
			goto out_snap;
		}
		if (strcmp(hit->status, "ok") || !hit->offset.ok) {
			msg("vmlinux:0x%" PRIx64 ": section %s has STATUS=%s: kreloc publishes no "
			    "offset for it", sp.linked, hit->name, hit->status);
			ret = EXIT_RESOLVE;
			goto out_snap;
		}
		addr = sp.linked + hit->offset.v;
	} else if (!used_lookup) {
		path_in(kpath, sizeof(kpath), "/proc/kallsyms");
		if (sysmap_load(&map, kpath)) {
			msg("%s", map.err);
			ret = EXIT_RESOLVE;
			goto out_snap;
		}
		ret = kallsyms_unique(&map, sp.kind == KSPEC_MODSYM ? sp.mod : NULL, sp.sym, ppc64,
				      kpath, &addr, name, sizeof(name));
		sysmap_free(&map);
		if (ret)
			goto out_snap;
		addr += sp.off;
		modstyle = sp.kind == KSPEC_MODSYM;
	} else {
		/* lookup already applied +OFF; name the symbol as given. */
		snprintf(name, sizeof(name), "%s", sp.sym);
		modstyle = sp.kind == KSPEC_MODSYM && lmod[0];
	}
	if (!name[0])
		snprintf(name, sizeof(name), "%s", sp.sym);

	/* Freed init text: the core's init.text, or a module's init.text region. */
	{
		const struct ks_core *it = ksnap_core(&s, "init.text");
		int live = 0;

		if (it && it->runtime.ok && it->size.ok && addr - it->runtime.v < it->size.v &&
		    (!strcmp(it->status, "freed") || !strcmp(s.init, "freed"))) {
			msg("%s (0x%" PRIx64 ") is in the kernel's init text, freed after boot "
			    "(%s/sys/kernel/debug/kreloc/sections: init.text %s)", argv[optind], addr,
			    root, it->status);
			ret = EXIT_REFUSED;
			goto out_snap;
		}
		/*
		 * A module loaded after another's init memory was freed may sit
		 * in it (seen on arm64): an address in a live region is live.
		 */
		for (k = 0; k < s.nr_mods && !live; k++) {
			size_t j;

			for (j = 0; j < s.mods[k].nr_mem; j++) {
				const struct ks_mem *r = &s.mods[k].mem[j];

				live |= r->kind == KS_REGION && !strcmp(r->state, "live") &&
					r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v;
			}
		}
		for (k = 0; k < s.nr_mods && !live; k++) {
			const struct ks_mod *m = &s.mods[k];
			size_t j;

			for (j = 0; j < m->nr_mem; j++) {
				const struct ks_mem *r = &m->mem[j];

				if (r->kind == KS_REGION && !strcmp(r->name, "init.text") &&
				    r->addr.ok && r->size.ok && addr - r->addr.v < r->size.v &&
				    strcmp(r->state, "live")) {
					msg("%s (0x%" PRIx64 ") is in module %s's init text, which is %s",
					    argv[optind], addr, m->name, r->state);
					ret = EXIT_REFUSED;
					goto out_snap;
				}
			}
		}
	}
	if (blacklisted(addr, blsym, sizeof(blsym), bl, sizeof(bl))) {
		msg("%s (0x%" PRIx64 ") is on the kprobe blacklist (%s: %s)", argv[optind], addr, bl,
		    blsym);
		ret = EXIT_REFUSED;
		goto out_snap;
	}

	if (!event) {
		default_event(ev, sizeof(ev), &sp, name);
		event = ev;
	}
	/*
	 * Core kernel: the absolute runtime address, which names exactly one
	 * instruction (no duplicate-name ambiguity, no _text+OFF on ppc64 ELFv1).
	 * Module: MOD:SYM+OFF, so the kernel re-arms it when the module reloads.
	 */
	if (modstyle)
		snprintf(target, sizeof(target), "%s:%s+0x%" PRIx64,
			 used_lookup ? lmod : sp.mod, name, sp.off);
	else
		snprintf(target, sizeof(target), "0x%" PRIx64, addr);
	lf = open_memstream(&line, &linelen);
	if (!lf) {
		ret = EXIT_RESOLVE;
		goto out_snap;
	}
	fprintf(lf, "p:%s/%s %s", group, event, target);
	for (i = optind + 1; i < argc; i++)
		fprintf(lf, " %s", argv[i]);
	fputc('\n', lf);
	if (fclose(lf)) {
		ret = EXIT_RESOLVE;
		goto out_snap;
	}
	if (dry) {
		fputs(line, stdout);
		ret = 0;
	} else {
		ret = write_events(line);
		if (!ret) {
			char dir[4096];

			printf("%s", line);
			fprintf(stderr, "kreloc: added %s/%s at 0x%" PRIx64 "; enable with: echo 1 > "
				"%s/events/%s/%s/enable\n", group, event, addr,
				tracefs(dir, sizeof(dir)) ? dir : "TRACEFS", group, event);
		}
	}
	free(line);
out_snap:
	ksnap_free(&s);
	return ret;
}

/* ---- main ---- */

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static int cmd_help(int argc, char **argv);

static const struct cmd cmds[] = {
	{ "show", cmd_show, "show the running kernel's relocation (debugfs)" },
	{ "snapshot", cmd_snapshot, "save it for offline use" },
	{ "resolve", cmd_resolve, "runtime addresses -> symbol+offset, offline" },
	{ "probe", cmd_probe, "add/remove a kprobe from a symbol or link-time address" },
#ifndef KRELOC_NO_LIBELF
	{ "gdb", cmd_gdb, "a gdb script loading vmlinux and modules where they are" },
	{ "kallsyms", cmd_kallsyms, "a /proc/kallsyms of a snapshot's boot, unloaded modules too" },
#endif
	{ "help", cmd_help, "this text" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	const struct cmd *c;

	fprintf(f, "Usage: kreloc [--json] COMMAND [ARGS]\n\nCommands:\n");
	for (c = cmds; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->help);
	fprintf(f, "\n'kreloc COMMAND --help' for details; man kreloc(8).\n"
		"Exit: 0 ok, 1 resolution failed, 2 usage, 3 kernel refused.\n");
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	const char *env = getenv("KRELOC_ROOT");
	int i = 1;

	if (env)
		root = env;
	/* Global options before the command. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			json = 1;
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			root = argv[++i];	/* hidden: a fake / for tests */
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("kreloc snapshot format %d\n", KSNAP_VERSION);
			return 0;
		} else {
			fprintf(stderr, "kreloc: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* A trailing '/' on --root would double up in paths. */
	if (*root && root[strlen(root) - 1] == '/') {
		static char rbuf[4096];

		snprintf(rbuf, sizeof(rbuf), "%s", root);
		rbuf[strlen(rbuf) - 1] = '\0';
		root = rbuf;
	}
	for (c = cmds; c->name; c++)
		if (!strcmp(c->name, argv[i])) {
			optind = 1;
			return c->fn(argc - i, argv + i);
		}
	fprintf(stderr, "kreloc: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return EXIT_USAGE;
}
