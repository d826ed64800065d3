// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - kreloc resolve: runtime addresses of a snapshot's boot to
 * symbol+offset, offline.
 *
 * Input is read with read(2) and every complete address is answered
 * before the next read, so behind a pipe (cat trace_pipe | kreloc resolve -)
 * each line is answered as it arrives; from a file, reads are large and the
 * output is written in big blocks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "main.h"
#include "ksnap.h"
#include "kresolve.h"
#include "ktext.h"

static const char resolve_help[] =
	"Usage: kreloc resolve --snapshot FILE\n"
	"                      (--system-map FILE | --kallsyms FILE | --vmlinux FILE)\n"
	"                      [--modules-dir DIR] [--json | --text] [ADDR... | -]\n"
	"For each runtime address (hex, 0x optional) of the snapshot's boot, or\n"
	"link-time address written vmlinux:0xADDR, print\n"
	"  ADDR SYMBOL+0xOFF SECTION              (core kernel)\n"
	"  ADDR SYMBOL+0xOFF [MODULE] SECTION     (module; [MODULE@LOAD_GEN] if unloaded)\n"
	"  ADDR ? (REASON)                        (unknown, and why)\n"
	"SYMBOL is SECTION itself when no symbol table is available (a warning says why).\n"
	"  --snapshot FILE     the snapshot of the boot the addresses come from\n"
	"  --system-map FILE   the kernel's System.map\n"
	"  --kallsyms FILE     a /proc/kallsyms saved on any boot of the same build\n"
	"  --vmlinux FILE      an ELF vmlinux with symbols (its build id must be the\n"
	"                      snapshot's)\n"
	"                      A map of another build is refused: the snapshot's anchors\n"
	"                      must agree in it.\n"
	"  --modules-dir DIR   searched recursively for NAME.ko[.xz|.zst|.gz] ('-' and\n"
	"                      '_' alike); the file with the record's build id is used\n"
	"  --json              one JSON object with a result per address\n"
	"  --text              read any text on stdin (trace_pipe, perf script, an Oops)\n"
	"                      and copy it byte for byte, each kernel address in it\n"
	"                      followed by \" <SYMBOL+0xOFF>\" (\" <SYMBOL+0xOFF [MODULE]>\")\n"
	"Addresses come from the arguments or, with '-' or none, from stdin, answered\n"
	"line by line.  Exit 1 if any address did not resolve (not with --text).\n";

#define OUTBUF (1 << 20)
#define INBUF (1 << 20)

struct out {
	char *buf;
	size_t len;
};

static void out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len) {
		p_err("stdout: %s", strerror(errno));
		exit(EXIT_FAIL);
	}
	o->len = 0;
	fflush(stdout);
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
	unsigned long failed, total;
};

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
	bool linked;			/* vmlinux:0xLINKED */
	struct kres_hit h;
};

#define VMLINUX_PREFIX "vmlinux:"

static void item_lookup(struct resolve_ctx *c, struct item *it, const char *src)
{
	size_t skip = 0;

	it->kind = KRES_UNKNOWN;
	it->linked = it->len > strlen(VMLINUX_PREFIX) &&
		     !memcmp(it->tok, VMLINUX_PREFIX, strlen(VMLINUX_PREFIX));
	if (it->linked)
		skip = strlen(VMLINUX_PREFIX);
	it->ok = !parse_addr(it->tok + skip, it->len - skip, &it->addr);
	if (!it->ok) {
		if (it->lineno)
			p_warn("%s:%lu: '%.*s' is not a hex address", src, it->lineno, (int)it->len,
			       it->tok);
		else
			p_warn("%s: '%.*s' is not a hex address", src, (int)it->len, it->tok);
	} else {
		it->kind = it->linked ? kres_lookup_linked(c->r, it->addr, &it->h) :
			   kres_lookup(c->r, it->addr, &it->h);
	}
	c->total++;
	if (it->kind == KRES_UNKNOWN)
		c->failed++;
}

static bool mod_unloaded(const struct ks_mod *m)
{
	return strcmp(m->state, "live") && strcmp(m->state, "coming");
}

/* Why an item did not resolve. */
static const char *item_why(const struct resolve_ctx *c, const struct item *it, char *buf,
			    size_t len)
{
	if (!it->ok)
		return it->linked ? "vmlinux: needs a hex link-time address" : "not a hex address";
	return kres_why(c->r, it->addr, it->linked, buf, len);
}

static void emit_json(struct resolve_ctx *c, struct item *it)
{
	const struct kres_hit *h = &it->h;
	char why[256];

	jsonw_start_object(json_wtr);
	jsonw_name(json_wtr, "input");
	jsonw_string_len(json_wtr, it->tok, it->len);
	if (it->ok)
		jsonw_hex_field(json_wtr, "address", it->addr);
	if (it->linked)
		jsonw_bool_field(json_wtr, "linked", true);
	jsonw_bool_field(json_wtr, "resolved", it->kind != KRES_UNKNOWN);
	if (it->kind == KRES_UNKNOWN) {
		jsonw_string_field(json_wtr, "error", item_why(c, it, why, sizeof(why)));
		jsonw_end_object(json_wtr);
		return;
	}
	if (h->sym) {
		jsonw_name(json_wtr, "symbol");
		jsonw_string_len(json_wtr, h->sym, h->sym_len);
	} else {
		jsonw_null_field(json_wtr, "symbol");
	}
	jsonw_hex_field(json_wtr, "offset", h->off);
	jsonw_string_field(json_wtr, "module", h->mod ? h->mod->name : NULL);
	if (h->mod) {
		if (h->mod->load_gen.ok)
			jsonw_uint_field(json_wtr, "load_gen", h->mod->load_gen.v);
		jsonw_string_field(json_wtr, "module_state", h->mod->state);
	}
	jsonw_string_field(json_wtr, "section", h->section);
	jsonw_end_object(json_wtr);
}

static void item_emit(struct resolve_ctx *c, struct item *it)
{
	const struct kres_hit *h = &it->h;

	if (json_output) {
		emit_json(c, it);
		return;
	}
	out_mem(&c->o, it->tok, it->len);
	if (it->kind == KRES_UNKNOWN) {
		char why[256];

		out_mem(&c->o, " ? (", 4);
		out_str(&c->o, item_why(c, it, why, sizeof(why)));
		out_mem(&c->o, ")\n", 2);
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
		if (mod_unloaded(h->mod) && h->mod->load_gen.ok) {
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

static void run_batch(struct resolve_ctx *c, struct item *b, size_t n, const char *src)
{
	size_t i;

	for (i = 0; i < n; i++) {
		item_lookup(c, &b[i], src);
		if (b[i].kind != KRES_UNKNOWN && b[i].h.sym)
			__builtin_prefetch(b[i].h.sym);
	}
	for (i = 0; i < n; i++)
		item_emit(c, &b[i]);
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* One read(2) of stdin into buf[*len..INBUF); 0, or -1 with the error printed. */
static int read_more(char *buf, size_t *len, int *eof)
{
	ssize_t n;

	do {
		n = read(STDIN_FILENO, buf + *len, INBUF - *len);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		p_err("stdin: %s", strerror(errno));
		return -1;
	}
	*eof = n == 0;
	*len += (size_t)n;
	return 0;
}

/* Whitespace-separated addresses from stdin, answered after every read. */
static int resolve_stdin(struct resolve_ctx *c)
{
	size_t len = 0, i, start, nb = 0;
	unsigned long lineno = 1;
	char *buf = malloc(INBUF + 1);
	struct item batch[BATCH];
	int eof = 0;

	if (!buf) {
		p_err("out of memory");
		return -1;
	}
	while (!eof) {
		if (read_more(buf, &len, &eof)) {
			free(buf);
			return -1;
		}
		/* Every complete token; a partial one waits for the next read. */
		i = 0;
		for (;;) {
			while (i < len && is_blank(buf[i])) {
				lineno += buf[i] == '\n';
				i++;
			}
			start = i;
			while (i < len && !is_blank(buf[i]))
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
				run_batch(c, batch, nb, "stdin");
				nb = 0;
			}
		}
		/* The batch points into buf: finish it before moving data. */
		run_batch(c, batch, nb, "stdin");
		nb = 0;
		memmove(buf, buf + i, len - i);
		len -= i;
		if (len == INBUF) {
			p_err("stdin:%lu: token longer than %d bytes", lineno, INBUF);
			free(buf);
			return -1;
		}
		/* Answer what has arrived before waiting for more. */
		out_flush(&c->o);
		if (json_output)
			fflush(stdout);
	}
	free(buf);
	return 0;
}

/* " <SYMBOL+0xOFF>" or " <SYMBOL+0xOFF [MODULE]>" after an address in text. */
static void annotate(struct out *o, const struct kres_hit *h)
{
	out_mem(o, " <", 2);
	if (h->sym)
		out_mem(o, h->sym, h->sym_len);
	else
		out_str(o, h->section);
	out_mem(o, "+", 1);
	out_hex(o, h->off);
	if (h->mod) {
		out_mem(o, " [", 2);
		out_str(o, h->mod->name);
		if (mod_unloaded(h->mod) && h->mod->load_gen.ok) {
			char g[24];

			snprintf(g, sizeof(g), "@%" PRIu64, h->mod->load_gen.v);
			out_str(o, g);
		}
		out_mem(o, "]", 1);
	}
	out_mem(o, ">", 1);
}

/* One piece of text, copied with every address in it annotated. */
static void text_piece(struct resolve_ctx *c, const char *p, size_t n)
{
	struct ktext_num t;
	struct kres_hit h;
	size_t pos = 0;

	while (ktext_next(p, n, pos, true, &t)) {
		out_mem(&c->o, p + pos, t.end - pos);
		pos = t.end;
		c->total++;
		if (kres_lookup(c->r, t.value, &h) != KRES_UNKNOWN)
			annotate(&c->o, &h);
		else
			c->failed++;
	}
	out_mem(&c->o, p + pos, n - pos);
}

/* --text: stdin to stdout line by line, as it arrives. */
static int resolve_text(struct resolve_ctx *c)
{
	char *buf = malloc(INBUF);
	size_t len = 0;
	int eof = 0;

	if (!buf) {
		p_err("out of memory");
		return -1;
	}
	while (!eof) {
		size_t done;
		char *nl;

		if (read_more(buf, &len, &eof)) {
			free(buf);
			return -1;
		}
		/* Whole lines; at the end, or when a line fills the buffer, what is safe. */
		nl = len ? memrchr(buf, '\n', len) : NULL;
		if (eof)
			done = len;
		else if (nl)
			done = (size_t)(nl - buf) + 1;
		else if (len == INBUF)
			done = ktext_safe_cut(buf, len) ? ktext_safe_cut(buf, len) : len;
		else
			done = 0;
		text_piece(c, buf, done);
		memmove(buf, buf + done, len - done);
		len -= done;
		/* Answer what has arrived before waiting for more. */
		out_flush(&c->o);
	}
	free(buf);
	return 0;
}

int do_resolve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "snapshot", required_argument, NULL, 's' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "text", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *snap_path = NULL, *map = NULL, *moddir = NULL;
	bool text = false;
	enum kres_map_kind kind = KRES_SYSTEM_MAP;
	struct resolve_ctx ctx = { 0 };
	struct ksnap s;
	struct kres r;
	char err[1024];
	int c, i, use_stdin, ret = EXIT_OK, nmaps = 0;
	struct stat st;

	while ((c = getopt_long(argc, argv, "+:s:m:k:v:d:jth", opts, NULL)) != -1) {
		switch (c) {
		case 's': snap_path = optarg; break;
		case 'm': map = optarg; kind = KRES_SYSTEM_MAP; nmaps++; break;
		case 'k': map = optarg; kind = KRES_KALLSYMS; nmaps++; break;
		case 'v': map = optarg; kind = KRES_VMLINUX; nmaps++; break;
		case 'd': moddir = optarg; break;
		case 'j': json_output = true; break;
		case 't': text = true; break;
		case 'h': fputs(resolve_help, stdout); return EXIT_OK;
		default: return opt_err("resolve", c, argv);
		}
	}
	if (!snap_path)
		return usage_err("resolve", "--snapshot FILE is required");
	if (nmaps != 1)
		return usage_err("resolve", "give exactly one of --system-map FILE, --kallsyms FILE "
				 "and --vmlinux FILE");
	if (moddir && (stat(moddir, &st) || !S_ISDIR(st.st_mode)))
		return usage_err("resolve", "--modules-dir %s: %s", moddir,
				 errno ? strerror(errno) : "not a directory");
	use_stdin = optind == argc || (optind + 1 == argc && !strcmp(argv[optind], "-"));
	if (text && json_output)
		return usage_err("resolve", "--text copies text: it does not mix with --json");
	if (text && !use_stdin)
		return usage_err("resolve", "--text reads standard input, not ADDR arguments");
	if (ksnap_load(&s, snap_path, err, sizeof(err))) {
		p_err("%s", err);
		return EXIT_FAIL;
	}
	if (kres_init(&r, &s, map, kind, moddir, err, sizeof(err))) {
		p_err("%s", err);
		kres_free(&r);
		ksnap_free(&s);
		return EXIT_FAIL;
	}
	ctx.r = &r;
	ctx.o.buf = malloc(OUTBUF);
	if (!ctx.o.buf) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	if (json_output) {
		json_doc_begin();
		jsonw_name(json_wtr, "results");
		jsonw_start_array(json_wtr);
	}
	if (text) {
		if (resolve_text(&ctx))
			ret = EXIT_FAIL;
		/* Most numbers in text are no addresses: none is a failure. */
		ctx.failed = 0;
	} else if (use_stdin) {
		if (resolve_stdin(&ctx))
			ret = EXIT_FAIL;
	} else {
		for (i = optind; i < argc; i++) {
			struct item it = { .tok = argv[i], .len = strlen(argv[i]) };

			run_batch(&ctx, &it, 1, "argument");
		}
	}
	out_flush(&ctx.o);
	if (json_output) {
		jsonw_end_array(json_wtr);
		jsonw_uint_field(json_wtr, "resolved", ctx.total - ctx.failed);
		jsonw_uint_field(json_wtr, "unresolved", ctx.failed);
		json_doc_end();
	}
	if (ctx.failed && !ret)
		ret = EXIT_FAIL;
out:
	free(ctx.o.buf);
	kres_free(&r);
	ksnap_free(&s);
	return ret;
}
