// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kreloc_spec.c - lookup spec parsing and the dot-first policy (pure).
 */
#include "kreloc_spec.h"

static bool sym_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

static bool mod_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static int digit(char c, unsigned int base)
{
	int d = -1;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	return d >= 0 && (unsigned int)d < base ? d : -1;
}

static int parse_offset(const char *p, size_t n, u64 *val, const char **why)
{
	unsigned int base = 10;
	u64 v = 0;
	size_t i = 0;

	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n) {
		*why = "empty offset";
		return -EINVAL;
	}
	for (; i < n; i++) {
		int d = digit(p[i], base);

		if (d < 0) {
			*why = "offset is not a number";
			return -EINVAL;
		}
		if (v > (~0ULL - d) / base) {
			*why = "offset out of range";
			return -EINVAL;
		}
		v = v * base + d;
	}
	*val = v;
	return 0;
}

/* The symbol name of a spec, @n bytes at @name: 0, or -EINVAL and @why. */
static int check_name(const char *name, size_t n, const char **why)
{
	size_t i;

	if (!n || (n == 1 && name[0] == '.')) {
		*why = "empty symbol name";
		return -EINVAL;
	}
	if (n >= KRELOC_SPEC_NAME_MAX) {
		*why = "symbol name longer than KSYM_NAME_LEN";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (!sym_char(name[i])) {
			*why = "bad character in symbol name";
			return -EINVAL;
		}
	}
	return 0;
}

int kreloc_spec_parse(const char *buf, size_t len, struct kreloc_spec *spec,
		      const char **why)
{
	const char *colon, *plus, *name, *end;
	size_t i, n;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (len && buf[len - 1] == '\n')
		len--;
	if (!len) {
		*why = "empty spec";
		return -EINVAL;
	}
	if (len >= KRELOC_SPEC_MAX) {
		*why = "spec too long";
		return -EINVAL;
	}
	if (memchr(buf, '\0', len)) {
		*why = "NUL byte in spec";
		return -EINVAL;
	}
	end = buf + len;
	colon = memchr(buf, ':', len);
	name = buf;
	if (colon) {
		n = colon - buf;
		if (!n || n >= sizeof(spec->mod)) {
			*why = n ? "module name too long" : "empty module name";
			return -EINVAL;
		}
		for (i = 0; i < n; i++) {
			if (!mod_char(buf[i])) {
				*why = "bad character in module name";
				return -EINVAL;
			}
		}
		memcpy(spec->mod, buf, n);
		name = colon + 1;
	}
	plus = memchr(name, '+', end - name);
	n = (plus ? plus : end) - name;
	ret = check_name(name, n, why);
	if (ret)
		return ret;
	memcpy(spec->name, name, n);
	if (plus)
		return parse_offset(plus + 1, end - plus - 1, &spec->offset, why);
	return 0;
}

bool kreloc_spec_plain(const char *name)
{
	const char *why;
	size_t n = 0;

	while (n < KRELOC_SPEC_NAME_MAX && name[n])
		n++;
	return !check_name(name, n, &why);
}

static void join(char *out, const char *mod, const char *dot, const char *name)
{
	size_t n = 0, l;

	if (*mod) {
		l = strlen(mod);
		memcpy(out, mod, l);
		n = l;
		out[n++] = ':';
	}
	l = strlen(dot);
	memcpy(out + n, dot, l);
	n += l;
	l = strlen(name);
	memcpy(out + n, name, l);
	out[n + l] = '\0';
}

int kreloc_spec_candidates(const struct kreloc_spec *spec, bool dot_first,
			   char out[2][KRELOC_SPEC_MAX])
{
	if (!dot_first || spec->name[0] == '.') {
		join(out[0], spec->mod, "", spec->name);
		return 1;
	}
	join(out[0], spec->mod, ".", spec->name);
	join(out[1], spec->mod, "", spec->name);
	return 2;
}
