// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_note.c - GNU build-id note parsing (pure logic, shared by the
 * module, the build-time generator and the unit tests).
 */
#include "kreloc_note.h"

#define KRELOC_NT_GNU_BUILD_ID	3

static u32 rd32(const u8 *p, bool swap)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	if (swap)
		v = ((v & 0xff) << 24) | ((v & 0xff00) << 8) |
		    ((v >> 8) & 0xff00) | (v >> 24);
	return v;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int kreloc_note_build_id(const void *notes, size_t len, bool swap,
			 const u8 **id)
{
	const u8 *p = notes;
	size_t pos = 0;

	while (len - pos >= 12) {
		u32 namesz = rd32(p + pos, swap);
		u32 descsz = rd32(p + pos + 4, swap);
		u32 type = rd32(p + pos + 8, swap);
		size_t name_off = pos + 12;
		size_t desc_off, next;

		if (namesz > len || descsz > len)
			return -EINVAL;
		desc_off = name_off + align4(namesz);
		next = desc_off + align4(descsz);
		if (desc_off > len || next > len || desc_off + descsz > len)
			return -EINVAL;
		if (type == KRELOC_NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + name_off, "GNU", 4)) {
			if (!descsz || descsz > KRELOC_BUILD_ID_MAX)
				return -EINVAL;
			*id = p + desc_off;
			return descsz;
		}
		pos = next;
	}
	return -ENOENT;
}
