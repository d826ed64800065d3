// SPDX-License-Identifier: GPL-2.0
/* ksnap.c - the relocation model: snapshot reader/writer and live debugfs reader. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ksnap.h"

#define KSNAP_MAX_MODS	65536
#define KSNAP_MAX_MEM	4096

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
	for (i = 0; i < s->nr_mods; i++) {
		for (j = 0; j < s->mods[i].nr_mem; j++)
			free(s->mods[i].mem[j].name);
		free(s->mods[i].mem);
		free(s->mods[i].name);
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
	v->v = strtoull(p, &end, 16);
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
	if (errno)
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

/* A name token: printable, no blanks (ensured by split), bounded. */
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

static int one_of(const char *t, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(t, *set))
			return 1;
	return 0;
}

static const char *const core_status[] = { "ok", "freed", "mismatch", "unknown", NULL };
static const char *const mod_states[] = { "coming", "live", "going", "gone", NULL };
static const char *const mem_states[] = { "live", "freed", "gone", NULL };

const struct ks_core *ksnap_core(const struct ksnap *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr_core; i++)
		if (!strcmp(s->core[i].name, name))
			return &s->core[i];
	return NULL;
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

/*
 * Shared record parsers.  tok[] excludes the leading keyword for snapshot
 * lines; the debugfs files have the same columns.  Return NULL or a reason.
 */
static const char *parse_core(struct ksnap *s, char **tok, int n)
{
	struct ks_core *c;

	if (n != 6)
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
	if (!one_of(tok[5], core_status))
		return "core section: unknown STATUS";
	strcpy(c->status, tok[5]);
	s->nr_core++;
	return NULL;
}

static const char *parse_module(struct ksnap *s, char **tok, int n)
{
	struct ks_mod *m;
	char *name;

	if (n != 6)
		return "module: expected NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN";
	if (!good_name(tok[0]) || strchr(tok[0], '/') || strchr(tok[0], '@'))
		return "module: bad name";
	if (!one_of(tok[1], mod_states))
		return "module: unknown STATE";
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
	return NULL;
}

static const char *parse_mem(struct ks_mod *m, char **tok, int n)
{
	struct ks_mem *k;
	enum ks_kind kind;
	size_t i;

	if (n != 5)
		return "module memory: expected KIND NAME ADDRESS SIZE STATE";
	if (!strcmp(tok[0], "region"))
		kind = KS_REGION;
	else if (!strcmp(tok[0], "section"))
		kind = KS_SECTION;
	else
		return "module memory: KIND is neither region nor section";
	if (!good_name(tok[1]))
		return "module memory: bad name";
	if (!one_of(tok[4], mem_states))
		return "module memory: unknown STATE";
	for (i = 0; i < m->nr_mem; i++)
		if (m->mem[i].kind == kind && !strcmp(m->mem[i].name, tok[1]))
			return "module memory: listed twice";
	k = add_mem(m);
	if (!k)
		return "too many module regions/sections (or out of memory)";
	k->kind = kind;
	strcpy(k->state, tok[4]);
	if (ksnap_parse_hex(tok[2], &k->addr) || ksnap_parse_hex(tok[3], &k->size)) {
		m->nr_mem--;
		return "module memory: ADDRESS/SIZE is neither 0xHEX nor '-'";
	}
	if (k->addr.ok && k->size.ok && k->size.v > UINT64_MAX - k->addr.v) {
		m->nr_mem--;
		return "module memory: ADDRESS+SIZE wraps around";
	}
	k->name = strdup(tok[1]);
	if (!k->name) {
		m->nr_mem--;
		return "out of memory";
	}
	return NULL;
}

/* ---- snapshot reader ---- */

struct hdr_key {
	const char *key;
	int required, hex;	/* hex: a kval field; else a string field */
};

static const struct hdr_key hdr_keys[] = {
	{ "OSRELEASE", 1, 0 }, { "ARCH", 1, 0 }, { "ENDIAN", 1, 0 },
	{ "ELF_ABI", 1, 0 }, { "BUILD_ID", 1, 0 }, { "GENERATION", 1, 2 },
	{ "STATUS", 1, 0 }, { "INIT", 0, 0 }, { "KERNELOFFSET", 0, 1 },
	{ "REF_LINKED", 0, 1 }, { "REF_RUNTIME", 0, 1 }, { NULL, 0, 0 },
};

static char **hdr_str(struct ksnap *s, const char *key)
{
	if (!strcmp(key, "OSRELEASE"))
		return &s->osrelease;
	if (!strcmp(key, "ARCH"))
		return &s->arch;
	if (!strcmp(key, "ENDIAN"))
		return &s->endian;
	if (!strcmp(key, "ELF_ABI"))
		return &s->abi;
	if (!strcmp(key, "BUILD_ID"))
		return &s->build_id;
	if (!strcmp(key, "STATUS"))
		return &s->status;
	if (!strcmp(key, "INIT"))
		return &s->init;
	return NULL;
}

static struct kval *hdr_val(struct ksnap *s, const char *key)
{
	if (!strcmp(key, "GENERATION"))
		return &s->generation;
	if (!strcmp(key, "KERNELOFFSET"))
		return &s->kerneloffset;
	if (!strcmp(key, "REF_LINKED"))
		return &s->ref_linked;
	if (!strcmp(key, "REF_RUNTIME"))
		return &s->ref_runtime;
	return NULL;
}

static int is_key(const char *t)
{
	if (!isupper((unsigned char)*t))
		return 0;
	for (; *t; t++)
		if (!isupper((unsigned char)*t) && !isdigit((unsigned char)*t) && *t != '_')
			return 0;
	return 1;
}

static const char *check_header_value(const char *key, const char *v)
{
	static const char *const endians[] = { "little", "big", NULL };
	static const char *const abis[] = { "v1", "v2", "-", NULL };
	static const char *const statuses[] = { "ok", "mismatch", NULL };
	static const char *const inits[] = { "live", "freed", "-", NULL };
	const char *p;

	if (!good_name(v))
		return "header value: empty, too long or not printable";
	if (!strcmp(key, "ENDIAN") && !one_of(v, endians))
		return "ENDIAN is neither little nor big";
	if (!strcmp(key, "ELF_ABI") && !one_of(v, abis))
		return "ELF_ABI is not v1, v2 or -";
	if (!strcmp(key, "STATUS") && !one_of(v, statuses))
		return "STATUS is neither ok nor mismatch";
	if (!strcmp(key, "INIT") && !one_of(v, inits))
		return "INIT is not live, freed or -";
	if (!strcmp(key, "BUILD_ID") && strcmp(v, "-")) {
		for (p = v; *p; p++)
			if (!isxdigit((unsigned char)*p))
				return "BUILD_ID is not hexadecimal";
		if ((p - v) % 2 || p - v > 2 * 64)
			return "BUILD_ID has a bad length";
	}
	return NULL;
}

int ksnap_read(struct ksnap *s, FILE *f, const char *fname, char *err, size_t errlen)
{
	char *line = NULL, *tok[8];
	size_t cap = 0;
	unsigned long lineno = 0, seen = 0;
	int in_records = 0, ended = 0, n, ret = -1;
	ssize_t len;
	const char *why = NULL;
	size_t i;

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
				goto out;
			}
			s->version = (unsigned int)v.v;
			continue;
		}
		if (line[0] == '#')
			continue;
		n = ksnap_split(line, tok, 8);
		if (n == 0)
			continue;
		if (n < 0) {
			why = "too many fields";
			goto bad;
		}
		if (is_key(tok[0])) {
			const struct hdr_key *k;
			char **sp;
			struct kval *vp;

			if (in_records) {
				why = "header line after the first record";
				goto bad;
			}
			if (n != 2) {
				why = "header: expected KEY VALUE";
				goto bad;
			}
			for (k = hdr_keys, i = 0; k->key && strcmp(k->key, tok[0]); k++, i++)
				;
			if (!k->key)
				continue;	/* a key added by a later kreloc */
			if (seen & (1ul << i)) {
				why = "header key given twice";
				goto bad;
			}
			seen |= 1ul << i;
			why = check_header_value(tok[0], tok[1]);
			if (why)
				goto bad;
			if (k->hex) {
				vp = hdr_val(s, tok[0]);
				if ((k->hex == 1 ? ksnap_parse_hex(tok[1], vp) :
				     ksnap_parse_dec(tok[1], vp))) {
					why = k->hex == 1 ? "header value is neither 0xHEX nor '-'" :
						"header value is neither a decimal number nor '-'";
					goto bad;
				}
			} else {
				sp = hdr_str(s, tok[0]);
				*sp = strdup(tok[1]);
				if (!*sp) {
					why = "out of memory";
					goto bad;
				}
			}
			continue;
		}
		if (!in_records) {
			const struct hdr_key *k;

			for (k = hdr_keys, i = 0; k->key; k++, i++)
				if (k->required && !(seen & (1ul << i))) {
					ksnap_seterr(err, errlen, "%s:%lu: header key %s missing",
					       fname, lineno, k->key);
					goto out;
				}
			in_records = 1;
		}
		if (!strcmp(tok[0], "core")) {
			if (s->nr_mods) {
				why = "core section after a module record";
				goto bad;
			}
			why = parse_core(s, tok + 1, n - 1);
		} else if (!strcmp(tok[0], "module")) {
			why = parse_module(s, tok + 1, n - 1);
		} else if (!strcmp(tok[0], "region") || !strcmp(tok[0], "section")) {
			if (!s->nr_mods)
				why = "region/section before any module line";
			else
				why = parse_mem(&s->mods[s->nr_mods - 1], tok, n);
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
		ksnap_seterr(err, errlen, "%s: read error: %s", fname, strerror(errno));
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
	if (!s->init)
		s->init = strdup("-");
	if (!s->init) {
		ksnap_seterr(err, errlen, "%s: out of memory", fname);
		goto out;
	}
	ret = 0;
	goto out;
bad:
	ksnap_seterr(err, errlen, "%s:%lu: %s", fname, lineno, why);
out:
	free(line);
	if (ret)
		ksnap_free(s);
	return ret;
}

int ksnap_load(struct ksnap *s, const char *path, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret;

	if (!f) {
		memset(s, 0, sizeof(*s));
		return ksnap_seterr(err, errlen, "%s: %s", path, strerror(errno));
	}
	ret = ksnap_read(s, f, path, err, errlen);
	if (f != stdin)
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

static const char *hx(char *buf, const struct kval *v)
{
	if (!v->ok)
		return "-";
	snprintf(buf, 20, "0x%" PRIx64, v->v);
	return buf;
}

static const char *dc(char *buf, const struct kval *v)
{
	if (!v->ok)
		return "-";
	snprintf(buf, 24, "%" PRIu64, v->v);
	return buf;
}

static const char *str_or_dash(const char *s)
{
	return s && *s ? s : "-";
}

int ksnap_write(const struct ksnap *s, FILE *f)
{
	struct wr w = { f, 0 };
	char a[24], b[24], c[24], d[24];
	size_t i, j;

	put(&w, "KRELOC-SNAPSHOT %d\n", KSNAP_VERSION);
	put(&w, "# kreloc snapshot: format in kreloc's tools/cli/SNAPSHOT.md\n");
	put(&w, "OSRELEASE %s\n", str_or_dash(s->osrelease));
	put(&w, "ARCH %s\n", str_or_dash(s->arch));
	put(&w, "ENDIAN %s\n", str_or_dash(s->endian));
	put(&w, "ELF_ABI %s\n", str_or_dash(s->abi));
	put(&w, "BUILD_ID %s\n", str_or_dash(s->build_id));
	put(&w, "GENERATION %s\n", dc(a, &s->generation));
	put(&w, "STATUS %s\n", str_or_dash(s->status));
	put(&w, "INIT %s\n", str_or_dash(s->init));
	put(&w, "KERNELOFFSET %s\n", hx(a, &s->kerneloffset));
	put(&w, "REF_LINKED %s\n", hx(a, &s->ref_linked));
	put(&w, "REF_RUNTIME %s\n", hx(a, &s->ref_runtime));
	put(&w, "# core NAME LINKED RUNTIME SIZE OFFSET STATUS\n");
	for (i = 0; i < s->nr_core; i++) {
		const struct ks_core *k = &s->core[i];

		put(&w, "core %s %s %s %s %s %s\n", k->name, hx(a, &k->linked),
		    hx(b, &k->runtime), hx(c, &k->size), hx(d, &k->offset), k->status);
	}
	put(&w, "# module NAME STATE TEXT_BASE TEXT_SIZE LOAD_GEN UNLOAD_GEN, then KIND NAME ADDRESS SIZE STATE\n");
	for (i = 0; i < s->nr_mods; i++) {
		const struct ks_mod *m = &s->mods[i];

		put(&w, "module %s %s %s %s %s %s\n", m->name, m->state, hx(a, &m->text_base),
		    hx(b, &m->text_size), dc(c, &m->load_gen), dc(d, &m->unload_gen));
		for (j = 0; j < m->nr_mem; j++) {
			const struct ks_mem *k = &m->mem[j];

			put(&w, "%s %s %s %s %s\n", k->kind == KS_REGION ? "region" : "section",
			    k->name, hx(a, &k->addr), hx(b, &k->size), k->state);
		}
	}
	put(&w, "end %lu\n", w.lines + 1);
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* ---- live debugfs reader ---- */

static FILE *open_in(const char *dir, const char *name, char *path, size_t plen)
{
	snprintf(path, plen, "%s/%s", dir, name);
	return fopen(path, "r");
}

static int read_info(struct ksnap *s, FILE *f, const char *path, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ret = 0;

	while ((len = getline(&line, &cap, f)) >= 0) {
		char *eq, *key, *val, **sp = NULL;
		struct kval *vp = NULL;
		int dec = 0;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: expected KEY=VALUE", path, lineno);
			break;
		}
		*eq = '\0';
		key = line;
		val = eq + 1;
		if (!strcmp(key, "OSRELEASE"))
			sp = &s->osrelease;
		else if (!strcmp(key, "ARCH"))
			sp = &s->arch;
		else if (!strcmp(key, "BUILD_ID"))
			sp = &s->build_id;
		else if (!strcmp(key, "STATUS"))
			sp = &s->status;
		else if (!strcmp(key, "INIT"))
			sp = &s->init;
		else if (!strcmp(key, "KERNELOFFSET"))
			vp = &s->kerneloffset;
		else if (!strcmp(key, "REF_LINKED"))
			vp = &s->ref_linked;
		else if (!strcmp(key, "REF_RUNTIME"))
			vp = &s->ref_runtime;
		else if (!strcmp(key, "GENERATION"))
			vp = &s->generation, dec = 1;
		if (sp) {
			free(*sp);
			*sp = strdup(*val ? val : "-");
			if (!*sp || strpbrk(*sp, " \t")) {
				ret = ksnap_seterr(err, errlen, "%s:%lu: bad %s value", path, lineno, key);
				break;
			}
		} else if (vp && (dec ? ksnap_parse_dec(val, vp) : ksnap_parse_hex(val, vp))) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: bad %s value '%s'", path, lineno, key, val);
			break;
		}
	}
	free(line);
	if (!ret && (!s->osrelease || !s->arch || !s->status))
		ret = ksnap_seterr(err, errlen, "%s: OSRELEASE, ARCH or STATUS missing", path);
	return ret;
}

/* Read a table file: each non-comment line goes to cb with its tokens. */
static int read_table(FILE *f, const char *path, int ntok,
		      const char *(*cb)(void *ctx, char **tok, int n), void *ctx,
		      char *err, size_t errlen)
{
	char *line = NULL, *tok[8];
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int ret = 0, n;

	while ((len = getline(&line, &cap, f)) >= 0) {
		const char *why;

		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[0] == '#')
			continue;
		n = ksnap_split(line, tok, 8);
		if (!n)
			continue;
		why = n < 0 || n != ntok ? "wrong number of fields" : cb(ctx, tok, n);
		if (why) {
			ret = ksnap_seterr(err, errlen, "%s:%lu: %s", path, lineno, why);
			break;
		}
	}
	if (!ret && ferror(f))
		ret = ksnap_seterr(err, errlen, "%s: read error: %s", path, strerror(errno));
	free(line);
	return ret;
}

static const char *cb_core(void *ctx, char **tok, int n)
{
	return parse_core(ctx, tok, n);
}

static const char *cb_module(void *ctx, char **tok, int n)
{
	return parse_module(ctx, tok, n);
}

static const char *cb_mem(void *ctx, char **tok, int n)
{
	return parse_mem(ctx, tok, n);
}

static int open_err(char *err, size_t errlen, const char *path)
{
	if (errno == EPERM || errno == EACCES)
		return ksnap_seterr(err, errlen, "%s: %s (kreloc shows addresses only to readers "
			      "that may see them: root/CAP_SYSLOG, kptr_restrict)", path,
			      strerror(errno));
	return ksnap_seterr(err, errlen, "%s: %s", path, strerror(errno));
}

static int kallsyms_dot_text(const char *root)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) >= 0) {
		char *sp = strchr(line, ' ');

		if (sp && (sp[1] == 't' || sp[1] == 'T') && sp[2] == ' ' && sp[3] == '.' &&
		    sp[4] != '.' && sp[4] != '\n') {
			found = 1;
			break;
		}
	}
	free(line);
	fclose(f);
	return found;
}

int ksnap_live(struct ksnap *s, const char *root, int *no_modules, char *err, size_t errlen)
{
	char dir[4096], sub[512], path[sizeof(dir) + sizeof(sub) + 2];
	const char *endian;
	struct stat st;
	FILE *f;
	size_t i;
	int dot;

	memset(s, 0, sizeof(*s));
	*no_modules = 0;
	s->version = KSNAP_VERSION;
	snprintf(dir, sizeof(dir), "%s/sys/kernel/debug/kreloc", root);
	if (stat(dir, &st)) {
		if (errno == ENOENT) {
			char dbg[4096];

			snprintf(dbg, sizeof(dbg), "%s/sys/kernel/debug", root);
			if (stat(dbg, &st) == 0 && st.st_nlink <= 2)
				return ksnap_seterr(err, errlen, "kreloc not loaded: %s missing "
					      "(is debugfs mounted on %s?)", dir, dbg);
			return ksnap_seterr(err, errlen, "kreloc not loaded: %s missing", dir);
		}
		return open_err(err, errlen, dir);
	}
	f = open_in(dir, "info", path, sizeof(path));
	if (!f)
		return open_err(err, errlen, path);
	if (read_info(s, f, path, err, errlen)) {
		fclose(f);
		goto fail;
	}
	fclose(f);
	f = open_in(dir, "sections", path, sizeof(path));
	if (!f) {
		open_err(err, errlen, path);
		goto fail;
	}
	if (read_table(f, path, 6, cb_core, s, err, errlen)) {
		fclose(f);
		goto fail;
	}
	fclose(f);
	f = open_in(dir, "modules", path, sizeof(path));
	if (!f && errno == ENOENT) {
		*no_modules = 1;
	} else if (!f) {
		open_err(err, errlen, path);
		goto fail;
	} else {
		int r = read_table(f, path, 6, cb_module, s, err, errlen);

		fclose(f);
		if (r)
			goto fail;
	}
	for (i = 0; i < s->nr_mods; i++) {
		struct ks_mod *m = &s->mods[i];

		if (m->load_gen.ok)
			snprintf(sub, sizeof(sub), "module/%s@%" PRIu64, m->name, m->load_gen.v);
		else
			snprintf(sub, sizeof(sub), "module/%s", m->name);
		f = open_in(dir, sub, path, sizeof(path));
		if (!f && errno == ENOENT)
			continue;	/* unloaded or pruned since `modules` was read */
		if (!f) {
			open_err(err, errlen, path);
			goto fail;
		}
		if (read_table(f, path, 5, cb_mem, m, err, errlen)) {
			fclose(f);
			goto fail;
		}
		fclose(f);
	}
	endian = ksnap_arch_endian(s->arch);
	if (!endian) {
		const uint16_t one = 1;

		endian = *(const unsigned char *)&one ? "little" : "big";
	}
	s->endian = strdup(endian);
	dot = !strcmp(s->arch, "ppc64") ? kallsyms_dot_text(root) : 0;
	s->abi = strdup(dot < 0 ? "-" : ksnap_abi(s->arch, dot));
	if (!s->init)
		s->init = strdup("-");
	if (!s->build_id)
		s->build_id = strdup("-");
	if (!s->endian || !s->abi || !s->init || !s->build_id) {
		ksnap_seterr(err, errlen, "out of memory");
		goto fail;
	}
	return 0;
fail:
	ksnap_free(s);
	return -1;
}
