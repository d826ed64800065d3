// SPDX-License-Identifier: GPL-2.0
/* ktext.c - candidate kernel addresses in free text. */
#include <ctype.h>
#include <string.h>
#include "ktext.h"

static bool word(unsigned char c)
{
	return isalnum(c) || c == '_';
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool ktext_next(const char *s, size_t n, size_t from, bool at_end, struct ktext_num *t)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = from;

	while (i < n) {
		size_t start = i, d, j;
		uint64_t v = 0;

		/* A token starts at a hex digit that follows no word byte. */
		if (hexval(u[i]) < 0 || (i > 0 && word(u[i - 1]))) {
			i++;
			continue;
		}
		d = i;
		if (u[i] == '0' && i + 1 < n && (u[i + 1] == 'x' || u[i + 1] == 'X'))
			d = i + 2;
		for (j = d; j < n && hexval(u[j]) >= 0; j++)
			v = v << 4 | (uint64_t)hexval(u[j]);
		if (j == n && !at_end)
			return false;		/* may continue in the next read */
		if (j == d || j - d > 16 || (j < n && word(u[j]))) {
			/* Not a number that stands alone: skip the whole word. */
			while (j < n && word(u[j]))
				j++;
			i = j > start ? j : start + 1;
			continue;
		}
		t->start = start;
		t->len = j - start;
		t->value = v;
		while (j < n && (u[j] == ')' || u[j] == ']' || u[j] == '>' || u[j] == '}'))
			j++;
		t->end = j;
		return true;
	}
	return false;
}

size_t ktext_safe_cut(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	while (n > 0 && (word(u[n - 1]) || u[n - 1] == 'x'))
		n--;
	return n;
}

bool ktext_seconds(const char *s, size_t n, uint64_t *ns, uint64_t *span)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000;
	size_t i = 0, digits = 0;

	while (i < n && isdigit((unsigned char)s[i])) {
		if (sec > (UINT64_MAX / 1000000000 - 9) / 10)
			return false;
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	}
	if (i == 0)
		return false;
	if (i < n) {
		if (s[i++] != '.')
			return false;
		while (i < n && isdigit((unsigned char)s[i]) && digits < 9) {
			frac = frac * 10 + (uint64_t)(s[i++] - '0');
			scale /= 10;
			digits++;
		}
		if (i < n || !digits)
			return false;
	}
	*ns = sec * 1000000000 + frac * scale;
	*span = scale - 1;
	return true;
}

bool ktext_line_time(const char *s, size_t n, uint64_t *ns, uint64_t *span)
{
	size_t i = 0;

	/* The kernel log's "[SECONDS.FRACTION]" (printk's local_clock()). */
	if (n && s[0] == '[') {
		const char *end = memchr(s, ']', n);
		size_t start = 1;

		while (end && s + start < end && s[start] == ' ')
			start++;
		if (end && memchr(s + start, '.', (size_t)(end - s) - start) &&
		    ktext_seconds(s + start, (size_t)(end - s) - start, ns, span))
			return true;
	}
	while (i < n) {
		size_t start, dot = 0, end;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		start = i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			i++;
		end = i;
		if (end > start + 2 && s[end - 1] == ':') {
			size_t j;

			for (j = start; j < end - 1; j++)
				if (s[j] == '.')
					dot = j;
			if (dot > start && dot < end - 2 &&
			    ktext_seconds(s + start, end - 1 - start, ns, span))
				return true;
		}
		if (i < n && s[i] == '\n')
			break;
	}
	return false;
}
