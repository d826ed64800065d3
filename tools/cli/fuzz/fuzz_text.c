// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: numbers in free text (resolve --text), in pieces as reads cut it. */
#include <stdlib.h>
#include <string.h>
#include "ktext.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

/* Every candidate lies inside the text, after the previous one, and is hex. */
static void scan(const char *s, size_t n, bool at_end)
{
	struct ktext_num t;
	size_t pos = 0;

	while (ktext_next(s, n, pos, at_end, &t)) {
		if (t.start < pos || !t.len || t.start + t.len > t.end || t.end > n)
			abort();
		if (t.len > 18 || (t.len > 16 && s[t.start + 1] != 'x' && s[t.start + 1] != 'X'))
			abort();
		pos = t.end;
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	const char *s = (const char *)data;
	size_t cut = ktext_safe_cut(s, len);

	if (cut > len)
		abort();
	scan(s, len, true);
	scan(s, len, false);
	scan(s, cut, true);
	return 0;
}
