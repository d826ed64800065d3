// SPDX-License-Identifier: GPL-2.0
/*
 * resolve.c - kreloc resolve: runtime addresses of a snapshot's boot (or
 * of many hosts' boots, a fleet) to symbol+offset, offline, through
 * libkreloc's resolver.
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
#include "lastheld.h"
#include "ktext.h"

static const char resolve_help[] =
	"Usage: kreloc resolve (--snapshot FILE | --snapshot-dir DIR)\n"
	"                      [--system-map FILE | --kallsyms FILE | --vmlinux FILE]\n"
	"                      [--modules-dir DIR] [--clock perf|mono] [--freed]\n"
	"                      [--json | --text]\n"
	"                      [ADDR[@SECONDS]... | -]\n"
	"For each runtime address (hex, 0x optional) of the snapshot's boot, or\n"
	"link-time address written vmlinux:0xADDR, print\n"
	"  ADDR SYMBOL+0xOFF SECTION              (core kernel)\n"
	"  ADDR SYMBOL+0xOFF [MODULE] SECTION     (module; [MODULE@LOAD_GEN] if unloaded)\n"
	"  ADDR ambiguous: SYMBOL+0xOFF [MODULE@LOAD_GEN] SECTION | ...\n"
	"                                         (several module records held it)\n"
	"  ADDR ? (REASON)                        (unknown, and why)\n"
	"SYMBOL is SECTION itself when the module's .ko was not found; then\n"
	"(REASON) follows, and a warning says it once.  The loader reuses freed\n"
	"module memory: an address that two records held (one unloaded, one loaded\n"
	"later) is ambiguous unless the time it was seen is given, ADDR@SECONDS\n"
	"(e.g. 0xffffffffc0a01234@1234.567890), which names the record that held it\n"
	"then, or says that none did.\n"
	"  --snapshot FILE     the snapshot of the boot the addresses come from\n"
	"  --snapshot-dir DIR  many hosts at once: DIR/HOST is HOST's snapshot, and\n"
	"                      each address comes as HOST ADDR (printed in front)\n"
	"  --system-map FILE   the kernel's System.map\n"
	"  --kallsyms FILE     a /proc/kallsyms saved on any boot of the same build\n"
	"  --vmlinux FILE      an ELF vmlinux with symbols (its build id must be the\n"
	"                      snapshot's)\n"
	"                      A map of another build is refused: the snapshot's anchors\n"
	"                      must agree in it.  Without one, DEBUGINFOD_URLS must be\n"
	"                      set: the vmlinux of the snapshot's build id is fetched.\n"
	"  --modules-dir DIR   searched recursively for NAME.ko[.xz|.zst|.gz] ('-' and\n"
	"                      '_' alike); the file with the record's build id is used;\n"
	"                      with DEBUGINFOD_URLS set, a .ko not found here is fetched\n"
	"                      by its build id\n"
	"  --clock CLOCK       the clock of the times: perf (local_clock(): perf's\n"
	"                      default, ftrace's trace_clock \"perf\"; the default) or\n"
	"                      mono (CLOCK_MONOTONIC: perf -k monotonic, ftrace's \"mono\")\n"
	"  --freed             an address seen when no module record held it, in memory\n"
	"                      records held before, is a stale one used after it was\n"
	"                      freed (the RIP or the stack of an Oops in an unloaded\n"
	"                      module's code): name it by the record that held it\n"
	"                      last, followed by \"(freed at SECONDS: no module held\n"
	"                      it then)\" (--text: \" <SYMBOL+0xOFF [MODULE@GEN] freed>\")\n"
	"  --json              one JSON object with a result per address\n"
	"  --text              read any text on stdin (trace_pipe, perf script, an Oops)\n"
	"                      and copy it byte for byte, each kernel address in it\n"
	"                      followed by \" <SYMBOL+0xOFF>\" (\" <SYMBOL+0xOFF [MODULE]>\");\n"
	"                      with --clock, a line's time (perf script's and ftrace's\n"
	"                      SECONDS.FRACTION:, the kernel log's [SECONDS.FRACTION])\n"
	"                      is the time of its addresses\n"
	"Addresses come from the arguments or, with '-' or none, from stdin, answered\n"
	"line by line.  Exit 1 if any address did not resolve (not with --text), 4 if\n"
	"a debuginfod server could not be asked for a file that was needed (the\n"
	"addresses that needed it are named by section, with the reason).\n";

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

/* ---- the snapshots: one, or one per host (--snapshot-dir) ---- */

struct host {
	char *name;
	struct kreloc_snapshot *snap;
	struct kreloc_resolver *r;
	int err;			/* the resolver could not be made: why in reason */
	char *reason;
	unsigned char *warned;		/* per module record: its file's note printed */
	size_t nr_mods;
};

struct resolve_ctx {
	struct out o;
	unsigned long failed, total;
	enum kreloc_clock clock;	/* of the times given */
	bool line_times;		/* --text: a line's time is its addresses' (--clock) */
	bool freed;			/* --freed: name a stale address by its last record */
	int unavailable;		/* a resolver failed for a server that could not be asked */
	/* where the symbols come from */
	enum kreloc_map_kind kind;
	const char *map;
	struct kreloc_files *files;
	bool debuginfod;
	/* the snapshots */
	const char *dir;		/* --snapshot-dir */
	struct host one;		/* --snapshot */
	struct host **tab;		/* hosts by name (open addressing) */
	size_t tab_size, nr_hosts;
};

/* Set up h's resolver (its snapshot loaded); prints why it cannot be once. */
static void host_resolver(struct resolve_ctx *c, struct host *h)
{
	KRELOC_OPTS(kreloc_resolver_opts, ro, .map_kind = c->kind, .map_path = c->map,
		    .files = c->files);
	struct kreloc_snapshot_info si;
	int ret;

	ret = kreloc_resolver_new(h->snap, &ro, &h->r);
	if (ret) {
		h->err = ret;
		h->reason = strdup(kreloc_errmsg());
		if (kreloc_snapshot_info(h->snap, &si, sizeof(si)) == 0 && c->dir)
			p_err("%s (%s, build id %s): %s", h->name, si.osrelease, si.build_id,
			      kreloc_errmsg());
		else
			p_err("%s", kreloc_errmsg());
		if (exit_for_errno(-ret) == EXIT_UNAVAILABLE)
			c->unavailable = 1;
		return;
	}
	kreloc_snapshot_info(h->snap, &si, sizeof(si));
	h->nr_mods = si.nr_modules;
	h->warned = calloc(si.nr_modules + 1, 1);
}

static void host_free(struct host *h)
{
	kreloc_resolver_free(h->r);
	kreloc_snapshot_free(h->snap);
	free(h->name);
	free(h->reason);
	free(h->warned);
}

static size_t hash(const char *s, size_t n)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A host name names a file in the directory, nothing else. */
static bool host_ok(const char *s, size_t n)
{
	return n && n < 256 && !memchr(s, '/', n) && !memchr(s, '\0', n) &&
	       !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.');
}

/* The host of that name, loaded the first time it is seen; NULL without memory. */
static struct host *host_get(struct resolve_ctx *c, const char *name, size_t n)
{
	struct host *h, **t;
	char *path;
	size_t i;
	int ret;

	if (c->nr_hosts * 2 >= c->tab_size) {
		size_t sz = c->tab_size ? c->tab_size * 2 : 64;

		t = calloc(sz, sizeof(*t));
		if (!t)
			return NULL;
		for (i = 0; i < c->tab_size; i++) {
			size_t k;

			if (!c->tab[i])
				continue;
			k = hash(c->tab[i]->name, strlen(c->tab[i]->name)) & (sz - 1);
			while (t[k])
				k = (k + 1) & (sz - 1);
			t[k] = c->tab[i];
		}
		free(c->tab);
		c->tab = t;
		c->tab_size = sz;
	}
	for (i = hash(name, n) & (c->tab_size - 1); c->tab[i]; i = (i + 1) & (c->tab_size - 1))
		if (!strncmp(c->tab[i]->name, name, n) && !c->tab[i]->name[n])
			return c->tab[i];
	h = calloc(1, sizeof(*h));
	if (!h || !(h->name = strndup(name, n))) {
		free(h);
		return NULL;
	}
	c->tab[i] = h;
	c->nr_hosts++;
	if (!host_ok(name, n)) {
		h->err = -EINVAL;
		h->reason = strdup("not a host name (a file name in the snapshot directory)");
		return h;
	}
	if (asprintf(&path, "%s/%s", c->dir, h->name) < 0)
		return NULL;
	ret = kreloc_snapshot_load(path, &h->snap);
	free(path);
	if (ret) {
		h->err = ret;
		h->reason = strdup(ret == -ENOENT ? "no snapshot of this host in the directory" :
				   kreloc_errmsg());
		if (ret != -ENOENT)
			p_err("%s", kreloc_errmsg());
		return h;
	}
	host_resolver(c, h);
	return h;
}

/* ---- one address ---- */

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
	const char *host;		/* --snapshot-dir: the token before the address */
	size_t host_len;
	const char *tok;
	size_t len;
	unsigned long lineno;
	uint64_t addr;
	int ok, kind;
	bool linked;			/* vmlinux:0xLINKED */
	bool timed;			/* ADDR@SECONDS */
	struct kreloc_time when;
	struct host *h;
	struct kreloc_addr_info info;
	bool freed;			/* info: the record that last held it, freed before */
	uint64_t freed_ns;
};

#define VMLINUX_PREFIX "vmlinux:"

/*
 * The first hit in a module record: its file's note (how it was chosen, or
 * why none), once; a file a debuginfod server could not be asked for
 * makes the exit status 4 (EXIT_UNAVAILABLE).
 */
static void module_note(struct resolve_ctx *c, struct host *h, const struct kreloc_addr_info *in,
			const char *host)
{
	struct kreloc_module_file_info mf;

	if (in->module < 0 || !h->warned || (size_t)in->module >= h->nr_mods ||
	    h->warned[in->module])
		return;
	h->warned[in->module] = 1;
	if (kreloc_resolver_module_file(h->r, (size_t)in->module, &mf, sizeof(mf)) || !mf.why)
		return;
	if (mf.status == KRELOC_FILE_UNAVAILABLE)
		c->unavailable = 1;
	p_warn("%s%s%s: %s%s", host ? host : "", host ? ": " : "", in->module_name, mf.why,
	       mf.status == KRELOC_FILE_OK ? "" :
	       ": its addresses are named by section (.text+0x...), not by symbol");
}

static void item_lookup(struct resolve_ctx *c, struct item *it, const char *src)
{
	size_t skip = 0, alen;
	const char *at;

	it->kind = KRELOC_UNKNOWN;
	if (c->dir && !it->host) {
		/* A last word with no address after it. */
		it->h = NULL;
		c->total++;
		c->failed++;
		return;
	}
	it->h = c->dir ? host_get(c, it->host, it->host_len) : &c->one;
	it->linked = it->len > strlen(VMLINUX_PREFIX) &&
		     !memcmp(it->tok, VMLINUX_PREFIX, strlen(VMLINUX_PREFIX));
	if (it->linked)
		skip = strlen(VMLINUX_PREFIX);
	/* ADDR@SECONDS: the time it was seen, in the clock of --clock. */
	at = memchr(it->tok, '@', it->len);
	alen = at ? (size_t)(at - it->tok) : it->len;
	it->timed = at && !it->linked;
	it->when.clock = c->clock;
	it->ok = alen > skip && !parse_addr(it->tok + skip, alen - skip, &it->addr) &&
		 (!at || (it->timed && ktext_seconds(at + 1, it->len - alen - 1, &it->when.ns,
						     &it->when.span_ns)));
	if (!it->ok) {
		const char *what = at ? "an ADDR@SECONDS (hex address, time in seconds)" :
				   "a hex address";

		if (it->lineno)
			p_warn("%s:%lu: '%.*s' is not %s", src, it->lineno, (int)it->len, it->tok,
			       what);
		else
			p_warn("%s: '%.*s' is not %s", src, (int)it->len, it->tok, what);
	} else if (it->h && it->h->r) {
		it->kind = kreloc_resolve_at(it->h->r, it->addr,
					     it->linked ? KRELOC_RESOLVE_LINKED : 0,
					     it->timed ? &it->when : NULL, &it->info, sizeof(it->info));
		it->freed = c->freed && it->kind == KRELOC_UNKNOWN && it->timed &&
			    !it->info.candidates && last_held(it->h->snap, it->h->r, it->addr, &it->when, &it->info,
				      &it->freed_ns);
		if (it->freed)
			it->kind = KRELOC_MODULE;
		if (it->kind == KRELOC_MODULE)
			module_note(c, it->h, &it->info, c->dir ? it->h->name : NULL);
	}
	c->total++;
	if (it->kind == KRELOC_UNKNOWN)
		c->failed++;
}

/* Why an item did not resolve. */
static const char *item_why(const struct item *it, char *buf, size_t len)
{
	if (!it->h)
		return it->host ? "out of memory" :
		       "a host without an address: --snapshot-dir takes HOST ADDR";
	if (it->h->err)
		return it->h->reason ? it->h->reason : "the host's snapshot cannot be used";
	if (!it->ok)
		return it->linked ? "vmlinux: needs a hex link-time address (and no time)" :
		       it->timed ? "not ADDR@SECONDS" : "not a hex address";
	return kreloc_resolve_why_at(it->h->r, it->addr, it->linked ? KRELOC_RESOLVE_LINKED : 0,
				     it->timed ? &it->when : NULL, buf, len);
}

/* Each candidate of an ambiguous address: one JSON object, or text " | "-separated. */
struct cand_out {
	struct out *o;
	bool json, text;		/* text: --text's short form */
	unsigned int n;
};

static int emit_candidate(void *ctx, const struct kreloc_addr_info *h);

static bool unloaded(const struct kreloc_addr_info *in)
{
	return in->module_state_code != KRELOC_MODULE_STATE_LIVE &&
	       in->module_state_code != KRELOC_MODULE_STATE_COMING;
}

/* Where an address is: symbol, offset, module, section (and why no symbol). */
static void json_place(const struct kreloc_addr_info *h)
{
	if (h->symbol) {
		jsonw_name(json_wtr, "symbol");
		jsonw_string_len(json_wtr, h->symbol, h->symbol_len);
	} else {
		jsonw_null_field(json_wtr, "symbol");
	}
	jsonw_hex_field(json_wtr, "offset", h->offset);
	jsonw_string_field(json_wtr, "module", h->module_name);
	if (h->module_name) {
		if (h->load_gen.known)
			jsonw_uint_field(json_wtr, "load_gen", h->load_gen.value);
		jsonw_string_field(json_wtr, "module_state", h->module_state);
	}
	jsonw_string_field(json_wtr, "section", h->section);
	if (h->section_size)
		jsonw_hex_field(json_wtr, "section_size", h->section_size);
	if (h->symbol && h->symbol_size)
		jsonw_hex_field(json_wtr, "symbol_size", h->symbol_size);
	if (h->past_symbol) {
		jsonw_string_field(json_wtr, "past_symbol", h->past_symbol);
		jsonw_hex_field(json_wtr, "past_offset", h->past_offset);
		if (h->past_size)
			jsonw_hex_field(json_wtr, "past_size", h->past_size);
	}
	if (h->note)
		jsonw_string_field(json_wtr, "note", h->note);
}

static void emit_json(struct item *it)
{
	const struct kreloc_addr_info *h = &it->info;
	char why[512];

	jsonw_start_object(json_wtr);
	if (it->host) {
		jsonw_name(json_wtr, "host");
		jsonw_string_len(json_wtr, it->host, it->host_len);
	}
	jsonw_name(json_wtr, "input");
	jsonw_string_len(json_wtr, it->tok, it->len);
	if (it->ok)
		jsonw_hex_field(json_wtr, "address", it->addr);
	if (it->linked)
		jsonw_bool_field(json_wtr, "linked", true);
	if (it->timed) {
		jsonw_uint_field(json_wtr, "time_ns", it->when.ns);
		jsonw_string_field(json_wtr, "clock", clock_name(it->when.clock));
	}
	jsonw_bool_field(json_wtr, "resolved", it->kind != KRELOC_UNKNOWN);
	if (it->kind == KRELOC_UNKNOWN) {
		jsonw_string_field(json_wtr, "error", item_why(it, why, sizeof(why)));
		if (it->info.candidates > 1) {
			struct cand_out co = { NULL, true, false, 0 };

			jsonw_bool_field(json_wtr, "ambiguous", true);
			jsonw_name(json_wtr, "candidates");
			jsonw_start_array(json_wtr);
			kreloc_resolve_candidates(it->h->r, it->addr, it->timed ? &it->when : NULL,
						  emit_candidate, &co);
			jsonw_end_array(json_wtr);
		}
		jsonw_end_object(json_wtr);
		return;
	}
	json_place(h);
	if (it->freed)
		jsonw_uint_field(json_wtr, "freed_ns", it->freed_ns);
	jsonw_end_object(json_wtr);
}

/* " [MODULE]" or " [MODULE@LOAD_GEN]" (unloaded, or @always) */
static void out_module(struct out *o, const struct kreloc_addr_info *h, bool always)
{
	out_mem(o, " [", 2);
	out_str(o, h->module_name);
	if ((always || unloaded(h)) && h->load_gen.known) {
		char g[24];

		snprintf(g, sizeof(g), "@%" PRIu64, h->load_gen.value);
		out_str(o, g);
	}
	out_mem(o, "]", 1);
}

/* " (freed at SECONDS: no module held it then)": a use after unload. */
static void out_freed(struct out *o, uint64_t ns)
{
	char b[64];

	snprintf(b, sizeof(b), " (freed at %" PRIu64 ".%09" PRIu64 ": no module held it then)",
		 ns / 1000000000, ns % 1000000000);
	out_str(o, b);
}

static void item_emit(struct resolve_ctx *c, struct item *it)
{
	const struct kreloc_addr_info *h = &it->info;

	if (json_output) {
		emit_json(it);
		return;
	}
	if (it->host) {
		out_mem(&c->o, it->host, it->host_len);
		out_mem(&c->o, " ", 1);
	}
	out_mem(&c->o, it->tok, it->len);
	if (it->kind == KRELOC_UNKNOWN && it->info.candidates > 1) {
		struct cand_out co = { &c->o, false, false, 0 };

		/* Every record that held it, never one of them alone. */
		out_str(&c->o, " ambiguous:");
		kreloc_resolve_candidates(it->h->r, it->addr, it->timed ? &it->when : NULL,
					  emit_candidate, &co);
		out_mem(&c->o, "\n", 1);
		return;
	}
	if (it->kind == KRELOC_UNKNOWN) {
		char why[512];

		out_mem(&c->o, " ? (", 4);
		out_str(&c->o, item_why(it, why, sizeof(why)));
		out_mem(&c->o, ")\n", 2);
		return;
	}
	out_mem(&c->o, " ", 1);
	if (h->symbol)
		out_mem(&c->o, h->symbol, h->symbol_len);
	else
		out_str(&c->o, h->section);
	out_mem(&c->o, "+", 1);
	out_hex(&c->o, h->offset);
	if (h->module_name)
		out_module(&c->o, h, false);
	out_mem(&c->o, " ", 1);
	out_str(&c->o, h->section);
	if (h->note) {
		/* No symbol: why (its .ko not found, another build, past a symbol's end...). */
		out_mem(&c->o, " (", 2);
		out_str(&c->o, h->note);
		if (h->past_symbol) {
			/* ": SYMBOL+0xOFF, its size 0xSIZE" */
			out_mem(&c->o, ": ", 2);
			out_str(&c->o, h->past_symbol);
			out_mem(&c->o, "+", 1);
			out_hex(&c->o, h->past_offset);
			if (h->past_size) {
				out_str(&c->o, ", its size ");
				out_hex(&c->o, h->past_size);
			}
		}
		out_mem(&c->o, ")", 1);
	}
	if (it->freed)
		out_freed(&c->o, it->freed_ns);
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
		if (b[i].kind != KRELOC_UNKNOWN && b[i].info.symbol)
			__builtin_prefetch(b[i].info.symbol);
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

/* The next whitespace-separated token of buf[*i..len); false if there is none. */
static bool next_token(const char *buf, size_t len, size_t *i, unsigned long *lineno,
		       size_t *start)
{
	while (*i < len && is_blank(buf[*i])) {
		*lineno += buf[*i] == '\n';
		(*i)++;
	}
	*start = *i;
	while (*i < len && !is_blank(buf[*i]))
		(*i)++;
	return *i > *start;
}

/*
 * Whitespace-separated addresses (with --snapshot-dir, HOST ADDR pairs)
 * from stdin, answered after every read.
 */
static int resolve_stdin(struct resolve_ctx *c)
{
	size_t len = 0, i, start, hstart = 0, nb = 0;
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
		/* Every complete token (pair); a partial one waits for the next read. */
		i = 0;
		for (;;) {
			size_t before = i;
			unsigned long lbefore = lineno;
			bool have_host = false;

			memset(&batch[nb], 0, sizeof(batch[nb]));
			if (c->dir) {
				if (!next_token(buf, len, &i, &lineno, &hstart))
					break;
				have_host = true;
			}
			if (!next_token(buf, len, &i, &lineno, &start) || (i == len && !eof)) {
				if (have_host && eof && i == start) {
					/* A host without an address at the end: say so. */
					batch[nb].h = NULL;
					batch[nb].tok = buf + hstart;
					batch[nb].len = i - hstart;
					batch[nb].lineno = lineno;
					if (++nb == BATCH) {
						run_batch(c, batch, nb, "stdin");
						nb = 0;
					}
					break;
				}
				if (!eof) {
					i = before;
					lineno = lbefore;
				}
				break;
			}
			if (have_host) {
				batch[nb].host = buf + hstart;
				batch[nb].host_len = start - hstart;
				while (batch[nb].host_len && is_blank(batch[nb].host[batch[nb].host_len - 1]))
					batch[nb].host_len--;
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

/* SYMBOL+0xOFF [MODULE] */
static void out_sym(struct out *o, const struct kreloc_addr_info *h, bool gen)
{
	if (h->symbol)
		out_mem(o, h->symbol, h->symbol_len);
	else
		out_str(o, h->section);
	out_mem(o, "+", 1);
	out_hex(o, h->offset);
	if (h->module_name)
		out_module(o, h, gen);
}

/* " <SYMBOL+0xOFF>" or " <SYMBOL+0xOFF [MODULE]>" after an address in text. */
static void annotate(struct out *o, const struct kreloc_addr_info *h)
{
	out_mem(o, " <", 2);
	out_sym(o, h, false);
	out_mem(o, ">", 1);
}

static int emit_candidate(void *ctx, const struct kreloc_addr_info *h)
{
	struct cand_out *co = ctx;

	if (co->json) {
		jsonw_start_object(json_wtr);
		json_place(h);
		jsonw_end_object(json_wtr);
		return 0;
	}
	out_str(co->o, co->n++ ? " | " : " ");
	out_sym(co->o, h, true);
	if (!co->text) {
		out_mem(co->o, " ", 1);
		out_str(co->o, h->section);
	}
	return 0;
}

/* One line (or piece) of text, copied with every address in it annotated. */
static void text_line(struct resolve_ctx *c, const char *p, size_t n)
{
	struct kreloc_addr_info h;
	struct kreloc_time when = { c->clock, 0, 0 };
	bool timed = c->line_times && ktext_line_time(p, n, &when.ns, &when.span_ns);
	struct ktext_num t;
	uint64_t freed;
	size_t pos = 0;

	while (ktext_next(p, n, pos, true, &t)) {
		out_mem(&c->o, p + pos, t.end - pos);
		pos = t.end;
		c->total++;
		if (kreloc_resolve_at(c->one.r, t.value, 0, timed ? &when : NULL, &h,
				      sizeof(h)) != KRELOC_UNKNOWN) {
			if (h.module >= 0)
				module_note(c, &c->one, &h, NULL);
			annotate(&c->o, &h);
		} else if (h.candidates > 1) {
			struct cand_out co = { &c->o, false, true, 0 };

			out_str(&c->o, " <ambiguous:");
			kreloc_resolve_candidates(c->one.r, t.value, timed ? &when : NULL,
						  emit_candidate, &co);
			out_mem(&c->o, ">", 1);
			c->failed++;
		} else if (c->freed && timed && last_held(c->one.snap, c->one.r, t.value, &when, &h, &freed)) {
			/* used after it was freed: whose it was, and " freed" */
			out_mem(&c->o, " <", 2);
			out_sym(&c->o, &h, true);
			out_mem(&c->o, " freed>", 7);
		} else {
			c->failed++;
		}
	}
	out_mem(&c->o, p + pos, n - pos);
}

/* A piece of text: line by line, each with its own time. */
static void text_piece(struct resolve_ctx *c, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t len = nl ? (size_t)(nl - p) + 1 : n;

		text_line(c, p, len);
		p += len;
		n -= len;
	}
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

/* The addresses given as arguments (with --snapshot-dir, HOST ADDR pairs). */
static void resolve_args(struct resolve_ctx *c, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		struct item it = { 0 };

		if (c->dir) {
			it.host = argv[i];
			it.host_len = strlen(argv[i]);
			if (++i == argc) {
				it.host = NULL;
				it.tok = argv[i - 1];
				it.len = it.host_len;
				it.host_len = 0;
				run_batch(c, &it, 1, "argument");
				break;
			}
		}
		it.tok = argv[i];
		it.len = strlen(argv[i]);
		run_batch(c, &it, 1, "argument");
	}
}

/*
 * The debuginfod servers of DEBUGINFOD_URLS, when set and usable (else a
 * warning).  libdebuginfod waits 90 s for a server by default, and tries
 * again twice: kreloc, which asks a server stuck once no more in a run,
 * waits DEBUGINFOD_TIMEOUT=10 unless the user set it (kreloc(8)).
 */
bool debuginfod_wanted(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (!urls || !*urls)
		return false;
	if (kreloc_feature(KRELOC_FEATURE_DEBUGINFOD) != 1) {
		p_warn("DEBUGINFOD_URLS is set, but %s: no file is fetched", kreloc_errmsg());
		return false;
	}
	setenv("DEBUGINFOD_TIMEOUT", "10", 0);
	return true;
}

int do_resolve(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "snapshot", required_argument, NULL, 's' },
		{ "snapshot-dir", required_argument, NULL, 'D' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "modules-dir", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "text", no_argument, NULL, 't' },
		{ "clock", required_argument, NULL, 'c' },
		{ "freed", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *snap_path = NULL, *moddir = NULL;
	struct resolve_ctx ctx = { .kind = KRELOC_MAP_NONE };
	struct kreloc_file_info cf;
	bool text = false;
	int c, use_stdin, ret = EXIT_OK, nmaps = 0;
	struct stat st;
	size_t i;

	while ((c = getopt_long(argc, argv, "+:s:D:m:k:v:d:jtc:Fh", opts, NULL)) != -1) {
		switch (c) {
		case 's': snap_path = optarg; break;
		case 'D': ctx.dir = optarg; break;
		case 'm': ctx.map = optarg; ctx.kind = KRELOC_MAP_SYSTEM_MAP; nmaps++; break;
		case 'k': ctx.map = optarg; ctx.kind = KRELOC_MAP_KALLSYMS; nmaps++; break;
		case 'v': ctx.map = optarg; ctx.kind = KRELOC_MAP_VMLINUX; nmaps++; break;
		case 'd': moddir = optarg; break;
		case 'j': json_output = true; break;
		case 't': text = true; break;
		case 'F': ctx.freed = true; break;
		case 'c':
			if (parse_clock(optarg, &ctx.clock))
				return usage_err("resolve", "--clock %s: perf or mono", optarg);
			ctx.line_times = true;
			break;
		case 'h': fputs(resolve_help, stdout); return EXIT_OK;
		default: return opt_err("resolve", c, argv);
		}
	}
	if (!snap_path == !ctx.dir)
		return usage_err("resolve", snap_path ? "--snapshot FILE and --snapshot-dir DIR "
				 "do not mix" : "--snapshot FILE is required (or --snapshot-dir DIR)");
	if (nmaps > 1)
		return usage_err("resolve", "give exactly one of --system-map FILE, --kallsyms FILE "
				 "and --vmlinux FILE");
	if (moddir && (stat(moddir, &st) || !S_ISDIR(st.st_mode)))
		return usage_err("resolve", "--modules-dir %s: %s", moddir,
				 errno ? strerror(errno) : "not a directory");
	if (ctx.dir && (stat(ctx.dir, &st) || !S_ISDIR(st.st_mode)))
		return usage_err("resolve", "--snapshot-dir %s: %s", ctx.dir,
				 errno ? strerror(errno) : "not a directory");
	use_stdin = optind == argc || (optind + 1 == argc && !strcmp(argv[optind], "-"));
	if (text && json_output)
		return usage_err("resolve", "--text copies text: it does not mix with --json");
	if (text && !use_stdin)
		return usage_err("resolve", "--text reads standard input, not ADDR arguments");
	if (text && ctx.dir)
		return usage_err("resolve", "--text reads one boot's text: give --snapshot FILE");
	ctx.debuginfod = debuginfod_wanted();
	if (!nmaps && !ctx.debuginfod)
		return usage_err("resolve", "give exactly one of --system-map FILE, --kallsyms FILE "
				 "and --vmlinux FILE (or set DEBUGINFOD_URLS: the vmlinux of the "
				 "snapshot's build id is fetched)");
	{
		KRELOC_OPTS(kreloc_files_opts, fo, .modules_dir = moddir,
			    .debuginfod = ctx.debuginfod);

		ret = kreloc_files_new(&fo, &ctx.files);
		if (ret)
			return lib_err(ret);
	}
	if (snap_path) {
		ret = snapshot_open(snap_path, &ctx.one.snap);
		if (ret)
			goto out;
		host_resolver(&ctx, &ctx.one);
		if (ctx.one.err) {
			ret = exit_for_errno(-ctx.one.err);
			goto out;
		}
	}
	ctx.o.buf = malloc(OUTBUF);
	if (!ctx.o.buf) {
		p_err("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	if (json_output) {
		json_doc_begin();
		if (snap_path && !kreloc_resolver_core_file(ctx.one.r, &cf, sizeof(cf)) && cf.path) {
			jsonw_name(json_wtr, "core");
			jsonw_start_object(json_wtr);
			jsonw_string_field(json_wtr, "file", cf.path);
			jsonw_string_field(json_wtr, "origin", kreloc_origin_name(cf.origin));
			jsonw_end_object(json_wtr);
		}
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
		resolve_args(&ctx, argc - optind, argv + optind);
	}
	out_flush(&ctx.o);
	if (json_output) {
		jsonw_end_array(json_wtr);
		jsonw_uint_field(json_wtr, "resolved", ctx.total - ctx.failed);
		jsonw_uint_field(json_wtr, "unresolved", ctx.failed);
		json_doc_end();
	}
	if (ctx.failed && !ret)
		ret = ctx.unavailable ? EXIT_UNAVAILABLE : EXIT_FAIL;
	else if (ctx.unavailable && !ret)
		ret = EXIT_UNAVAILABLE;
out:
	free(ctx.o.buf);
	host_free(&ctx.one);
	for (i = 0; i < ctx.tab_size; i++) {
		if (ctx.tab[i]) {
			host_free(ctx.tab[i]);
			free(ctx.tab[i]);
		}
	}
	free(ctx.tab);
	kreloc_files_free(ctx.files);
	return ret;
}
