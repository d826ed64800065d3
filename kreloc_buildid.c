// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_buildid.c - the running kernel's GNU build id, read from its
 * .notes section (__start_notes..__stop_notes, the same bytes
 * /sys/kernel/notes shows).
 */
#include <linux/string.h>
#include "kreloc.h"

int kreloc_running_build_id(u8 *id)
{
	unsigned long start = kreloc_ksym_lookup("__start_notes");
	unsigned long stop = kreloc_ksym_lookup("__stop_notes");
	const u8 *bid;
	int len;

	if (!start || !stop || stop <= start || stop - start > 65536)
		return -ENOENT;
	len = kreloc_note_build_id((const void *)start, stop - start, false,
				   &bid);
	if (len < 0)
		return len;
	memcpy(id, bid, len);
	return len;
}
