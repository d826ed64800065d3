// SPDX-License-Identifier: GPL-2.0
/* kspec.c - probe spec parser. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kspec.h"

static int sym_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

static int parse_num(const char *p, uint64_t *v)
{
	char *end;
	int base = 10;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return -1;
	} else if (!isdigit((unsigned char)*p)) {
		return -1;
	}
	errno = 0;
	*v = strtoull(p, &end, base);
	return errno || *end ? -1 : 0;
}

int kspec_parse(const char *s, struct kspec *sp, const char **why)
{
	const char *colon, *sym, *plus;
	size_t len;

	memset(sp, 0, sizeof(*sp));
	if (!s || !*s) {
		*why = "empty probe spec";
		return -1;
	}
	colon = strchr(s, ':');
	if (colon && (size_t)(colon - s) == 7 && !strncmp(s, "vmlinux", 7)) {
		sp->kind = KSPEC_LINKED;
		if (colon[1] != '0' || (colon[2] != 'x' && colon[2] != 'X') ||
		    parse_num(colon + 1, &sp->linked)) {
			*why = "vmlinux:ADDRESS needs a hex link-time address (vmlinux:0xffffffff81234567)";
			return -1;
		}
		return 0;
	}
	sym = s;
	if (colon) {
		const char *p;

		len = (size_t)(colon - s);
		if (!len || len >= sizeof(sp->mod)) {
			*why = "bad module name before ':'";
			return -1;
		}
		for (p = s; p < colon; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') {
				*why = "bad module name before ':'";
				return -1;
			}
		memcpy(sp->mod, s, len);
		for (len = 0; sp->mod[len]; len++)
			if (sp->mod[len] == '-')
				sp->mod[len] = '_';
		sp->kind = KSPEC_MODSYM;
		sym = colon + 1;
	} else {
		sp->kind = KSPEC_SYM;
	}
	plus = strchr(sym, '+');
	len = plus ? (size_t)(plus - sym) : strlen(sym);
	if (!len) {
		*why = "missing symbol name";
		return -1;
	}
	if (len >= sizeof(sp->sym)) {
		*why = "symbol name too long";
		return -1;
	}
	memcpy(sp->sym, sym, len);
	for (len = 0; sp->sym[len]; len++)
		if (!sym_char((unsigned char)sp->sym[len])) {
			*why = "bad character in symbol name";
			return -1;
		}
	if (isdigit((unsigned char)sp->sym[0])) {
		*why = "symbol name starts with a digit (for a link-time address use vmlinux:0x...)";
		return -1;
	}
	if (plus && parse_num(plus + 1, &sp->off)) {
		*why = "bad +OFFSET (decimal or 0x hex)";
		return -1;
	}
	return 0;
}

int kspec_event_name_ok(const char *s)
{
	size_t n;

	if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (n = 0; s[n]; n++)
		if (!isalnum((unsigned char)s[n]) && s[n] != '_')
			return 0;
	return n < 64;
}
