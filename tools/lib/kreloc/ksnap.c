// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ksnap.c - the relocation model: shared record parsers, snapshot reader and writer. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ksnap.h"

#define KSNAP_MAX_MODS		65536
#define KSNAP_MAX_MEM		4096
#define KSNAP_MAX_ANCHORS	4096

int ksnap_seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

void ksnap_free(struct ksnap *s)
{
	size_t i, j;

	free(s->osrelease);
	free(s->arch);
	free(s->build_id);
	free(s->endian);
	free(s->abi);
	free(s->status);
	free(s->init);
	free(s->linked_source);
	free(s->kprobe_unique);
	free(s->vmcore_busy);
	for (i = 0; i < s->nr_anchors; i++) {
		free(s->anchors[i].name);
		free(s->anchors[i].section);
	}
	free(s->anchors);
	for (i = 0; i < s->nr_mods; i++) {
		for (j = 0; j < s->mods[i].nr_mem; j++)
			free(s->mods[i].mem[j].name);
		free(s->mods[i].mem);
		free(s->mods[i].name);
		free(s->mods[i].build_id);
	}
	free(s->mods);
	memset(s, 0, sizeof(*s));
}

int ksnap_parse_hex(const char *tok, struct kval *v)
{
	const char *p;
	char *end;

	v->v = 0;
	v->ok = 0;
	if (!strcmp(tok, "-"))
		return 0;
	if (tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X'))
		return -1;
	p = tok + 2;
	if (!*p || strlen(p) > 16)
		return -1;
	for (end = (char *)p; *end; end++)
		if (!isxdigit((unsigned char)*end))
			return -1;
	errno = 0;
	v->v = strtoull(p, &end, 16);
	if (errno || *end)
		return -1;
	v->ok = 1;
	return 0;
}

int ksnap_parse_dec(const char *tok, struct kval *v)
{
	const char *p;
	char *end;

	v->v = 0;
	v->ok = 0;
	if (!strcmp(tok, "-"))
		return 0;
	if (!*tok || strlen(tok) > 19)
		return -1;
	for (p = tok; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -1;
	errno = 0;
	v->v = strtoull(tok, &end, 10);
	if (errno || *end)
		return -1;
	v->ok = 1;
	return 0;
}

int ksnap_split(char *line, char **tok, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return -1;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* A name token: printable ASCII, no blanks (ensured by split), bounded. */
static int good_name(const char *t)
{
	size_t n = strlen(t);
	const unsigned char *p;

	if (!n || n >= KSNAP_NAME_MAX)
		return 0;
	for (p = (const unsigned char *)t; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			return 0;
	return 1;
}

/* A state or status: any name a newer kreloc may use, short enough to keep. */
static int good_state(const char *t)
{
	return good_name(t) && strlen(t) < KSNAP_STATE_MAX;
}

/* Hex digits, an even number of them, at most KSNAP_BUILD_ID_MAX bytes. */
static int good_build_id(const char *t)
{
	const char *p;

	for (p = t; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return 0;
	return p > t && (p - t) % 2 == 0 && p - t <= 2 * KSNAP_BUILD_ID_MAX;
}

static int one_of(const char *t, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(t, *set))
			return 1;
	return 0;
}

const struct ks_core *ksnap_core(const struct ksnap *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_core; i++)
		if (!strcmp(s->core[i].name, name))
			return &s->core[i];
	return NULL;
}

const struct ks_mem *ksnap_mod_section(const struct ks_mod *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_mem; i++)
		if (m->mem[i].kind == KS_SECTION && m->mem[i].addr.ok &&
		    !strcmp(m->mem[i].name, name))
			return &m->mem[i];
	return NULL;
}

bool ksnap_core_usable(const struct ks_core *c)
{
	return c->linked.ok && c->offset.ok &&
	       (!strcmp(c->status, "ok") || !strcmp(c->status, "freed"));
}

size_t ksnap_core_areas(const struct ksnap *s, struct ks_area *a)
{
	size_t i, j, n = 0;

	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *c = &s->core[i];
		uint64_t hi = 0;
		bool have = false;

		if (!ksnap_core_usable(c))
			continue;
		for (j = 0; j < s->nr_core; j++) {
			const struct ks_core *o = &s->core[j];

			if (o->linked.ok && o->linked.v > c->linked.v && (!have || o->linked.v < hi)) {
				hi = o->linked.v;
				have = true;
			}
		}
		if (!have && c->size.ok) {
			hi = c->linked.v + c->size.v;
			have = true;
		}
		if (!have || hi <= c->linked.v)
			continue;
		a[n].lo = c->linked.v;
		a[n].hi = hi;
		a[n].off = c->offset.v;
		a[n].name = c->name;
		n++;
	}
	return n;
}

const char *ksnap_arch_endian(const char *arch)
{
	static const char *const big[] = { "ppc64", "ppc", "s390x", "s390", "sparc64",
		"mips", "mips64", "aarch64_be", "armeb", "parisc", "parisc64", "m68k", NULL };
	static const char *const little[] = { "x86_64", "i386", "i486", "i586", "i686",
		"ppc64le", "aarch64", "riscv64", "riscv32", "loongarch64", "mipsel",
		"mips64el", NULL };

	if (!arch)
		return NULL;
	if (one_of(arch, big))
		return "big";
	if (one_of(arch, little) || !strncmp(arch, "arm", 3))
		return "little";
	return NULL;
}

const char *ksnap_abi(const char *arch, int dot_text)
{
	if (arch && !strcmp(arch, "ppc64"))
		return dot_text ? "v1" : "v2";
	if (arch && !strcmp(arch, "ppc64le"))
		return "v2";
	return "-";
}

static bool overlap(const struct ks_mem *a, const struct ks_mem *b)
{
	return a->kind == KS_REGION && b->kind == KS_REGION && a->addr.ok && a->size.ok &&
	       b->addr.ok && b->size.ok && a->addr.v < b->addr.v + b->size.v &&
	       b->addr.v < a->addr.v + a->size.v;
}

void ksnap_mem_life(const struct ksnap *s, const struct ks_mod *m, const struct ks_mem *k,
		    enum ks_clock c, uint64_t *from, uint64_t *until)
{
	const struct kval *end = &m->t[c][KS_UNLOAD];
	size_t i, j;

	if (!strncmp(k->name, "init.", 5) && m->t[c][KS_INIT].ok)
		end = &m->t[c][KS_INIT];
	*from = m->t[c][KS_LOAD].ok ? m->t[c][KS_LOAD].v : 0;
	*until = end->ok ? end->v : UINT64_MAX;
	if (end->ok || !m->load_gen.ok)
		return;
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *n = &s->mods[i];

		if (n == m || !n->load_gen.ok || n->load_gen.v <= m->load_gen.v ||
		    !n->t[c][KS_LOAD].ok || n->t[c][KS_LOAD].v >= *until)
			continue;
		for (j = 0; j < n->nr_mem; j++)
			if (overlap(k, &n->mem[j])) {
				*until = n->t[c][KS_LOAD].v;
				break;
			}
	}
}

/* ---- building the model ---- */

static struct ks_mod *add_mod(struct ksnap *s)
{
	struct ks_mod *m;

	if (s->nr_mods >= KSNAP_MAX_MODS)
		return NULL;
	if (s->nr_mods == s->cap_mods) {
		size_t cap = s->cap_mods ? s->cap_mods * 2 : 64;

		m = realloc(s->mods, cap * sizeof(*m));
		if (!m)
			return NULL;
		s->mods = m;
		s->cap_mods = cap;
	}
	m = &s->mods[s->nr_mods++];
	memset(m, 0, sizeof(*m));
	return m;
}

static struct ks_mem *add_mem(struct ks_mod *m)
{
	struct ks_mem *k;

	if (m->nr_mem >= KSNAP_MAX_MEM)
		return NULL;
	if (m->nr_mem == m->cap_mem) {
		size_t cap = m->cap_mem ? m->cap_mem * 2 : 16;

		k = realloc(m->mem, cap * sizeof(*k));
		if (!k)
			return NULL;
		m->mem = k;
		m->cap_mem = cap;
	}
	k = &m->mem[m->nr_mem++];
	memset(k, 0, sizeof(*k));
	return k;
}

const char *ksnap_add_core(struct ksnap *s, char **tok, int n)
{
	struct ks_core *c;

	if (n < 6)
		return "core section: expected NAME LINKED RUNTIME SIZE OFFSET STATUS";
	if (s->nr_core == KSNAP_MAX_CORE)
		return "too many core sections";
	if (strlen(tok[0]) >= sizeof(c->name) || !good_name(tok[0]))
		return "core section: bad name";
	if (ksnap_core(s, tok[0]))
		return "core section listed twice";
	c = &s->core[s->nr_core];
	memset(c, 0, sizeof(*c));
	strcpy(c->name, tok[0]);
	if (ksnap_parse_hex(tok[1], &c->linked) || ksnap_parse_hex(tok[2], &c->runtime) ||
	    ksnap_parse_hex(tok[3], &c->size) || ksnap_parse_hex(tok[4], &c->offset))
		return "core section: value is neither 0xHEX nor '-'";
	if (!good_state(tok[5]))
		return "core section: bad STATUS";
	strcpy(c->status, tok[5]);
	s->nr_core++;
	return NULL;
}

const char *ksnap_add_anchor(struct ksnap *s, const char *name, const char *linked,
			     const char *section)
{
	struct ks_anchor *a;
	struct kval v;

	if (!good_name(name) || !good_name(section))
		return "anchor: bad name or section (printable, shorter than KSYM_NAME_LEN)";
	if (ksnap_parse_hex(linked, &v) || !v.ok)
		return "anchor: LINKED is not 0xHEX";
	if (s->nr_anchors == KSNAP_MAX_ANCHORS)
		return "too many anchors";
	a = realloc(s->anchors, (s->nr_anchors + 1) * sizeof(*a));
	if (!a)
		return "out of memory";
	s->anchors = a;
	a = &a[s->nr_anchors];
	a->name = strdup(name);
	a->section = strdup(section);
	a->linked = v;
	if (!a->name || !a->section) {
		free(a->name);
		free(a->section);
		return "out of memory";
	}
	s->nr_anchors++;
	return NULL;
}

/* Columns of a module line (debugfs modules) up to the times. */
#define KS_MOD_TIMES_COL	7

const char *ksnap_add_module(struct ksnap *s, char **tok, int n)
{
	struct ks_mod *m;
	char *name;
	int c, e;

	if (n < 6)
		return "module: expected NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN";
	if (!good_name(tok[0]) || strlen(tok[0]) >= KSNAP_MODNAME_MAX || strchr(tok[0], '/') ||
	    strchr(tok[0], '@'))
		return "module: bad name (printable, no '/' or '@', shorter than MODULE_NAME_LEN)";
	if (!good_state(tok[1]))
		return "module: bad STATE";
	if (n > 6 && strcmp(tok[6], "-") && !good_build_id(tok[6]))
		return "module: BUILD_ID is neither hex nor '-'";
	name = strdup(tok[0]);
	m = name ? add_mod(s) : NULL;
	if (!m) {
		free(name);
		return "too many module records (or out of memory)";
	}
	m->name = name;
	strcpy(m->state, tok[1]);
	if (ksnap_parse_hex(tok[2], &m->text_base) || ksnap_parse_hex(tok[3], &m->text_size))
		return "module: TEXT_BASE/TEXT_SIZE is neither 0xHEX nor '-'";
	if (ksnap_parse_dec(tok[4], &m->load_gen) || ksnap_parse_dec(tok[5], &m->unload_gen))
		return "module: LOAD_GEN/UNLOAD_GEN is neither a decimal number nor '-'";
	if (n > 6 && strcmp(tok[6], "-")) {
		m->build_id = strdup(tok[6]);
		if (!m->build_id)
			return "out of memory";
	}
	/* LOAD INIT UNLOAD in local_clock(), then in CLOCK_MONOTONIC. */
	if (n >= KS_MOD_TIMES_COL + KS_NR_CLOCKS * KS_NR_EVENTS)
		for (c = 0; c < KS_NR_CLOCKS; c++)
			for (e = 0; e < KS_NR_EVENTS; e++)
				if (ksnap_parse_dec(tok[KS_MOD_TIMES_COL + c * KS_NR_EVENTS + e],
						    &m->t[c][e]))
					return "module: a time is neither a decimal number nor '-'";
	return NULL;
}

const char *ksnap_add_mem(struct ks_mod *m, char **tok, int n, bool *ignored)
{
	struct ks_mem *k;
	enum ks_kind kind;
	struct kval addr, size;
	size_t i;

	*ignored = false;
	if (n < 5)
		return "module memory: expected KIND NAME ADDRESS SIZE STATE";
	if (!strcmp(tok[0], "region")) {
		kind = KS_REGION;
	} else if (!strcmp(tok[0], "section")) {
		kind = KS_SECTION;
	} else {
		*ignored = true;	/* a kind a newer kreloc added */
		return NULL;
	}
	if (!good_name(tok[1]))
		return "module memory: bad name";
	if (!good_state(tok[4]))
		return "module memory: bad STATE";
	if (ksnap_parse_hex(tok[2], &addr) || ksnap_parse_hex(tok[3], &size))
		return "module memory: ADDRESS/SIZE is neither 0xHEX nor '-'";
	if (addr.ok && size.ok && size.v > UINT64_MAX - addr.v)
		return "module memory: ADDRESS+SIZE wraps around";
	for (i = 0; i < m->nr_mem; i++)
		if (m->mem[i].kind == kind && !strcmp(m->mem[i].name, tok[1]))
			return "module memory: listed twice";
	k = add_mem(m);
	if (!k)
		return "too many module regions/sections (or out of memory)";
	k->kind = kind;
	k->addr = addr;
	k->size = size;
	strcpy(k->state, tok[4]);
	k->name = strdup(tok[1]);
	if (!k->name) {
		m->nr_mem--;
		return "out of memory";
	}
	return NULL;
}

/* ---- header keys, shared by info (KEY=VALUE) and snapshots (KEY VALUE) ---- */

enum hkind { H_STR, H_HEX, H_DEC };

static const struct hdr_key {
	const char *key;
	enum hkind kind;
	size_t off;		/* of the char * or struct kval in struct ksnap */
	int required;		/* in a snapshot */
} hdr_keys[] = {
	{ "OSRELEASE", H_STR, offsetof(struct ksnap, osrelease), 1 },
	{ "ARCH", H_STR, offsetof(struct ksnap, arch), 1 },
	{ "ENDIAN", H_STR, offsetof(struct ksnap, endian), 1 },
	{ "ELF_ABI", H_STR, offsetof(struct ksnap, abi), 1 },
	{ "BUILD_ID", H_STR, offsetof(struct ksnap, build_id), 1 },
	{ "GENERATION", H_DEC, offsetof(struct ksnap, generation), 1 },
	{ "STATUS", H_STR, offsetof(struct ksnap, status), 1 },
	{ "INIT", H_STR, offsetof(struct ksnap, init), 0 },
	{ "KERNELOFFSET", H_HEX, offsetof(struct ksnap, kerneloffset), 0 },
	{ "REF_LINKED", H_HEX, offsetof(struct ksnap, ref_linked), 0 },
	{ "REF_RUNTIME", H_HEX, offsetof(struct ksnap, ref_runtime), 0 },
	{ "LINKED_SOURCE", H_STR, offsetof(struct ksnap, linked_source), 0 },
	{ "TAKEN_LOCAL_NS", H_DEC, offsetof(struct ksnap, taken[KS_LOCAL]), 0 },
	{ "TAKEN_MONO_NS", H_DEC, offsetof(struct ksnap, taken[KS_MONO]), 0 },
	{ "SINCE_LOCAL_NS", H_DEC, offsetof(struct ksnap, since[KS_LOCAL]), 0 },
	{ "SINCE_MONO_NS", H_DEC, offsetof(struct ksnap, since[KS_MONO]), 0 },
	{ "INIT_FREED_BY_LOCAL_NS", H_DEC, offsetof(struct ksnap, init_freed_by[KS_LOCAL]), 0 },
	{ "INIT_FREED_BY_MONO_NS", H_DEC, offsetof(struct ksnap, init_freed_by[KS_MONO]), 0 },
	/* info's name for when it was read: a snapshot's TAKEN */
	{ "NOW_LOCAL_NS", H_DEC, offsetof(struct ksnap, taken[KS_LOCAL]), 0 },
	{ "NOW_MONO_NS", H_DEC, offsetof(struct ksnap, taken[KS_MONO]), 0 },
	{ "KPROBE_UNIQUE", H_STR, offsetof(struct ksnap, kprobe_unique), 0 },
	{ "VMCORE_TORN", H_DEC, offsetof(struct ksnap, vmcore_torn), 0 },
	{ "VMCORE_UNPUBLISHED", H_DEC, offsetof(struct ksnap, vmcore_unpublished), 0 },
	{ "VMCORE_BUSY", H_STR, offsetof(struct ksnap, vmcore_busy), 0 },
	{ NULL, H_STR, 0, 0 },
};

static const char *check_header_value(const char *key, const char *v)
{
	static const char *const endians[] = { "little", "big", NULL };

	if (!good_name(v))
		return "header value: empty, too long or not printable";
	if (!strcmp(key, "ENDIAN") && !one_of(v, endians))
		return "ENDIAN is neither little nor big";
	if ((!strcmp(key, "STATUS") || !strcmp(key, "INIT") || !strcmp(key, "ELF_ABI")) &&
	    !good_state(v))
		return "header value: bad state";
	if (!strcmp(key, "BUILD_ID") && strcmp(v, "-") && !good_build_id(v))
		return "BUILD_ID is not hexadecimal of an even length";
	return NULL;
}

const char *ksnap_set_header(struct ksnap *s, const char *key, const char *value)
{
	const struct hdr_key *k;
	char *base = (char *)s;
	const char *why;

	for (k = hdr_keys; k->key && strcmp(k->key, key); k++)
		;
	if (!k->key)
		return NULL;	/* a key added by a later kreloc */
	if (!*value)
		value = "-";
	why = check_header_value(key, value);
	if (why)
		return why;
	if (k->kind == H_STR) {
		char **sp = (char **)(base + k->off);

		free(*sp);
		*sp = strdup(value);
		return *sp ? NULL : "out of memory";
	}
	if (k->kind == H_HEX ? ksnap_parse_hex(value, (struct kval *)(base + k->off)) :
	    ksnap_parse_dec(value, (struct kval *)(base + k->off)))
		return k->kind == H_HEX ? "header value is neither 0xHEX nor '-'" :
			"header value is neither a decimal number nor '-'";
	return NULL;
}

const char *ksnap_finish(struct ksnap *s)
{
	char **str[] = { &s->init, &s->build_id, &s->abi, &s->osrelease, &s->arch, &s->status };
	size_t i;

	for (i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (!*str[i] && !(*str[i] = strdup("-")))
			return "out of memory";
	return NULL;
}

/* ---- snapshot reader ---- */

static int is_key(const char *t)
{
	if (!isupper((unsigned char)*t))
		return 0;
	for (; *t; t++)
		if (!isupper((unsigned char)*t) && !isdigit((unsigned char)*t) && *t != '_')
			return 0;
	return 1;
}

static int key_index(const char *key)
{
	int i;

	for (i = 0; hdr_keys[i].key; i++)
		if (!strcmp(hdr_keys[i].key, key))
			return i;
	return -1;
}

#define KSNAP_MAX_TOK 32

int ksnap_read(struct ksnap *s, FILE *f, const char *fname, char *err, size_t errlen)
{
	char *line = NULL, *tok[KSNAP_MAX_TOK];
	size_t cap = 0;
	unsigned long lineno = 0, seen = 0;
	int in_records = 0, ended = 0, n, ret = -EBADMSG, i;
	ssize_t len;
	const char *why = NULL;

	memset(s, 0, sizeof(*s));
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if ((size_t)len != strlen(line)) {
			why = "NUL byte in line";
			goto bad;
		}
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (ended) {
			why = "text after the 'end' line";
			goto bad;
		}
		if (lineno == 1) {
			struct kval v;

			n = ksnap_split(line, tok, 2);
			if (n != 2 || strcmp(tok[0], "KRELOC-SNAPSHOT")) {
				why = "not a kreloc snapshot (no 'KRELOC-SNAPSHOT VERSION' line)";
				goto bad;
			}
			if (ksnap_parse_dec(tok[1], &v) || !v.ok || !v.v) {
				why = "bad snapshot version";
				goto bad;
			}
			if (v.v > KSNAP_VERSION) {
				ksnap_seterr(err, errlen, "%s:%lu: snapshot format version %" PRIu64
					     " is newer than this kreloc reads (%d)", fname, lineno,
					     v.v, KSNAP_VERSION);
				ret = -EPROTONOSUPPORT;
				goto out;
			}
			s->version = (unsigned int)v.v;
			continue;
		}
		if (line[0] == '#')
			continue;
		n = ksnap_split(line, tok, KSNAP_MAX_TOK);
		if (n == 0)
			continue;
		if (n < 0) {
			why = "too many fields";
			goto bad;
		}
		if (is_key(tok[0])) {
			if (in_records) {
				why = "header line after the first record";
				goto bad;
			}
			if (n != 2) {
				why = "header: expected KEY VALUE";
				goto bad;
			}
			i = key_index(tok[0]);
			if (i >= 0 && (seen & (1ul << i))) {
				why = "header key given twice";
				goto bad;
			}
			if (i >= 0)
				seen |= 1ul << i;
			why = ksnap_set_header(s, tok[0], tok[1]);
			if (why)
				goto bad;
			continue;
		}
		if (!in_records) {
			for (i = 0; hdr_keys[i].key; i++)
				if (hdr_keys[i].required && !(seen & (1ul << i))) {
					ksnap_seterr(err, errlen, "%s:%lu: header key %s missing",
						     fname, lineno, hdr_keys[i].key);
					goto out;
				}
			in_records = 1;
		}
		if (!strcmp(tok[0], "core")) {
			if (s->nr_mods || s->nr_anchors)
				why = "core section after an anchor or module record";
			else
				why = ksnap_add_core(s, tok + 1, n - 1);
		} else if (!strcmp(tok[0], "anchor") && s->version >= 2) {
			if (s->nr_mods)
				why = "anchor after a module record";
			else if (n < 4)
				why = "anchor: expected NAME LINKED SECTION";
			else
				why = ksnap_add_anchor(s, tok[1], tok[2], tok[3]);
		} else if (!strcmp(tok[0], "module")) {
			/*
			 * Version 1 had no BUILD_ID column, version 2 no times:
			 * what follows them is not one.
			 */
			int known = s->version < 2 ? 6 : s->version < 3 ? KS_MOD_TIMES_COL : n - 1;

			why = ksnap_add_module(s, tok + 1, n - 1 < known ? n - 1 : known);
		} else if (!strcmp(tok[0], "region") || !strcmp(tok[0], "section")) {
			bool ignored;

			if (!s->nr_mods)
				why = "region/section before any module line";
			else
				why = ksnap_add_mem(&s->mods[s->nr_mods - 1], tok, n, &ignored);
		} else if (!strcmp(tok[0], "end")) {
			struct kval v;

			if (n != 2 || ksnap_parse_dec(tok[1], &v) || !v.ok)
				why = "end: expected 'end LINES'";
			else if (v.v != lineno)
				why = "end: line count does not match (lines lost or added)";
			ended = 1;
		} else {
			why = "unknown record";
		}
		if (why)
			goto bad;
	}
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		ksnap_seterr(err, errlen, "%s: read error: %s", fname, strerror(-ret));
		goto out;
	}
	if (!lineno) {
		ksnap_seterr(err, errlen, "%s:1: empty file", fname);
		goto out;
	}
	if (!ended) {
		ksnap_seterr(err, errlen, "%s:%lu: truncated: no 'end' line", fname, lineno + 1);
		goto out;
	}
	why = ksnap_finish(s);
	if (why) {
		ksnap_seterr(err, errlen, "%s: %s", fname, why);
		ret = -ENOMEM;
		goto out;
	}
	ret = 0;
	goto out;
bad:
	if (strstr(why, "out of memory"))
		ret = -ENOMEM;
	ksnap_seterr(err, errlen, "%s:%lu: %s", fname, lineno, why);
out:
	free(line);
	if (ret)
		ksnap_free(s);
	return ret;
}

int ksnap_load(struct ksnap *s, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int ret;

	if (!f) {
		ret = -errno;
		memset(s, 0, sizeof(*s));
		ksnap_seterr(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = ksnap_read(s, f, path, err, errlen);
	fclose(f);
	return ret;
}

/* ---- snapshot writer ---- */

struct wr {
	FILE *f;
	unsigned long lines;
};

static void put(struct wr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct wr *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	w->lines++;
}

/* A value as the debugfs files print it: hex, or "-" when not published. */
const char *kval_hex(char buf[KVAL_BUF], const struct kval *v)
{
	if (!v->ok)
		return "-";
	snprintf(buf, KVAL_BUF, "0x%" PRIx64, v->v);
	return buf;
}

/* The same in decimal. */
const char *kval_dec(char buf[KVAL_BUF], const struct kval *v)
{
	if (!v->ok)
		return "-";
	snprintf(buf, KVAL_BUF, "%" PRIu64, v->v);
	return buf;
}

static const char *str_or_dash(const char *s)
{
	return s && *s ? s : "-";
}

int ksnap_write(const struct ksnap *s, FILE *f)
{
	struct wr w = { f, 0 };
	char a[KVAL_BUF], b[KVAL_BUF], c[KVAL_BUF], d[KVAL_BUF];
	size_t i, j;

	put(&w, "KRELOC-SNAPSHOT %d\n", KSNAP_VERSION);
	put(&w, "# kreloc snapshot: format in kreloc's SNAPSHOT.md\n");
	put(&w, "OSRELEASE %s\n", str_or_dash(s->osrelease));
	put(&w, "ARCH %s\n", str_or_dash(s->arch));
	put(&w, "ENDIAN %s\n", str_or_dash(s->endian));
	put(&w, "ELF_ABI %s\n", str_or_dash(s->abi));
	put(&w, "BUILD_ID %s\n", str_or_dash(s->build_id));
	put(&w, "GENERATION %s\n", kval_dec(a, &s->generation));
	put(&w, "STATUS %s\n", str_or_dash(s->status));
	put(&w, "INIT %s\n", str_or_dash(s->init));
	put(&w, "KERNELOFFSET %s\n", kval_hex(a, &s->kerneloffset));
	put(&w, "REF_LINKED %s\n", kval_hex(a, &s->ref_linked));
	put(&w, "REF_RUNTIME %s\n", kval_hex(a, &s->ref_runtime));
	put(&w, "LINKED_SOURCE %s\n", str_or_dash(s->linked_source));
	put(&w, "TAKEN_LOCAL_NS %s\n", kval_dec(a, &s->taken[KS_LOCAL]));
	put(&w, "TAKEN_MONO_NS %s\n", kval_dec(a, &s->taken[KS_MONO]));
	put(&w, "SINCE_LOCAL_NS %s\n", kval_dec(a, &s->since[KS_LOCAL]));
	put(&w, "SINCE_MONO_NS %s\n", kval_dec(a, &s->since[KS_MONO]));
	put(&w, "INIT_FREED_BY_LOCAL_NS %s\n", kval_dec(a, &s->init_freed_by[KS_LOCAL]));
	put(&w, "INIT_FREED_BY_MONO_NS %s\n", kval_dec(a, &s->init_freed_by[KS_MONO]));
	put(&w, "KPROBE_UNIQUE %s\n", str_or_dash(s->kprobe_unique));
	if (s->vmcore_torn.ok) {
		put(&w, "VMCORE_TORN %s\n", kval_dec(a, &s->vmcore_torn));
		put(&w, "VMCORE_UNPUBLISHED %s\n", kval_dec(a, &s->vmcore_unpublished));
		put(&w, "VMCORE_BUSY %s\n", str_or_dash(s->vmcore_busy));
	}
	put(&w, "# core NAME LINKED RUNTIME SIZE OFFSET STATUS\n");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *k = &s->core[i];

		put(&w, "core %s %s %s %s %s %s\n", k->name, kval_hex(a, &k->linked),
		    kval_hex(b, &k->runtime), kval_hex(c, &k->size), kval_hex(d, &k->offset), k->status);
	}
	put(&w, "# anchor NAME LINKED SECTION\n");
	for (i = 0; i < s->nr_anchors; i++)
		put(&w, "anchor %s %s %s\n", s->anchors[i].name, kval_hex(a, &s->anchors[i].linked),
		    s->anchors[i].section);
	put(&w, "# module NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN BUILD_ID "
	    "LOAD_LOCAL_NS INIT_LOCAL_NS UNLOAD_LOCAL_NS LOAD_MONO_NS INIT_MONO_NS UNLOAD_MONO_NS, "
	    "then KIND NAME ADDRESS SIZE STATE\n");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];
		char buf[KS_NR_CLOCKS][KS_NR_EVENTS][KVAL_BUF];
		const char *t[KS_NR_CLOCKS][KS_NR_EVENTS];
		int ck, e;

		for (ck = 0; ck < KS_NR_CLOCKS; ck++)
			for (e = 0; e < KS_NR_EVENTS; e++)
				t[ck][e] = kval_dec(buf[ck][e], &m->t[ck][e]);
		put(&w, "module %s %s %s %s %s %s %s %s %s %s %s %s %s\n", m->name, m->state,
		    kval_hex(a, &m->text_base), kval_hex(b, &m->text_size),
		    kval_dec(c, &m->load_gen), kval_dec(d, &m->unload_gen),
		    str_or_dash(m->build_id),
		    t[KS_LOCAL][KS_LOAD], t[KS_LOCAL][KS_INIT], t[KS_LOCAL][KS_UNLOAD],
		    t[KS_MONO][KS_LOAD], t[KS_MONO][KS_INIT], t[KS_MONO][KS_UNLOAD]);
		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *k = &m->mem[j];

			put(&w, "%s %s %s %s %s\n", k->kind == KS_REGION ? "region" : "section",
			    k->name, kval_hex(a, &k->addr), kval_hex(b, &k->size), k->state);
		}
	}
	put(&w, "end %lu\n", w.lines + 1);
	return fflush(f) || ferror(f) ? -1 : 0;
}
