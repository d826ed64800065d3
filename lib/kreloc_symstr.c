// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_symstr.c - parse "sym+0xoff/0xsize [mod]" (pure logic).
 */
#include "kreloc_symstr.h"

/* Parse "0x[0-9a-f]+" at *p, advance *p past it. */
static int parse_hex(const char **p, u64 *val)
{
	const char *s = *p;
	u64 v = 0;
	int d, n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	s += 2;
	while ((d = hex_to_bin(*s)) >= 0) {
		if (++n > 16)
			return -EINVAL;
		v = (v << 4) | (u64)d;
		s++;
	}
	if (!n)
		return -EINVAL;
	*p = s;
	*val = v;
	return 0;
}

int kreloc_symstr_offset_size(const char *str, u64 *off, u64 *size)
{
	const char *p = str;

	if (parse_hex(&p, off) || *p++ != '/' || parse_hex(&p, size))
		return -EINVAL;
	if (*p && *p != ' ')
		return -EINVAL;
	if (*size && *off >= *size)
		return -EINVAL;
	return 0;
}

int kreloc_symstr_offset(const char *str, const char *name, u64 *off)
{
	const char *plus = strrchr(str, '+');
	u64 o, size;
	size_t nlen;

	if (!plus || plus == str || kreloc_symstr_offset_size(plus + 1, &o, &size))
		return -EINVAL;
	nlen = plus - str;
	if (strlen(name) != nlen || memcmp(str, name, nlen))
		return -ENOENT;
	*off = o;
	return 0;
}
