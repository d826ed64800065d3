// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* spec.c - probe specs: the module's grammar plus vmlinux:0xLINKED. */
#include <string.h>
#include "spec.h"

int cli_spec_parse(const char *s, struct cli_spec *cs, const char **why)
{
	size_t len = s ? strlen(s) : 0, i;

	memset(cs, 0, sizeof(*cs));
	if (len >= sizeof(cs->text)) {
		*why = "spec too long";
		return -1;
	}
	if (len)
		memcpy(cs->text, s, len);
	if (len >= 8 && !strncmp(s, "vmlinux:", 8)) {
		const char *p = s + 8;
		size_t n;

		if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X') || !p[2] || strlen(p + 2) > 16)
			goto bad_linked;
		for (n = 2; p[n]; n++) {
			int d = hex_to_bin(p[n]);

			if (d < 0)
				goto bad_linked;
			cs->linked = cs->linked << 4 | (uint64_t)d;
		}
		cs->linked_ok = true;
		return 0;
bad_linked:
		*why = "vmlinux:ADDRESS needs a hex link-time address (vmlinux:0xffffffff81234567)";
		return -1;
	}
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		*why = "an address is not a symbol: for a link-time address use vmlinux:0x...";
		return -1;
	}
	if (kreloc_spec_parse(s, len, &cs->spec, why))
		return -1;
	for (i = 0; cs->spec.mod[i]; i++)
		cs->mod[i] = cs->spec.mod[i] == '-' ? '_' : cs->spec.mod[i];
	return 0;
}
