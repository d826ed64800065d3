// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kreloc_note.c - ELF note parsing: the GNU build id, the VMCOREINFO text
 * (pure logic, shared by the module, the build-time generator and the unit
 * tests).
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

int kreloc_note_find(const void *notes, size_t len, bool swap,
		     const char *name, u32 type, const u8 **desc)
{
	const u8 *p = notes;
	size_t pos = 0, want = strlen(name) + 1;

	while (len - pos >= 12) {
		u32 namesz = rd32(p + pos, swap);
		u32 descsz = rd32(p + pos + 4, swap);
		size_t name_off = pos + 12;
		size_t desc_off, next;

		if (namesz > len || descsz > len)
			return -EINVAL;
		desc_off = name_off + align4(namesz);
		next = desc_off + align4(descsz);
		if (desc_off > len || next > len || desc_off + descsz > len)
			return -EINVAL;
		if (rd32(p + pos + 8, swap) == type && namesz == want &&
		    !memcmp(p + name_off, name, want)) {
			*desc = p + desc_off;
			return descsz;
		}
		pos = next;
	}
	return -ENOENT;
}

int kreloc_note_build_id(const void *notes, size_t len, bool swap,
			 const u8 **id)
{
	int n = kreloc_note_find(notes, len, swap, "GNU",
				 KRELOC_NT_GNU_BUILD_ID, id);

	if (n == 0 || n > KRELOC_BUILD_ID_MAX)
		return -EINVAL;
	return n;
}

int kreloc_vmcoreinfo_hex(const u8 *text, size_t len, const char *key,
			  u64 *val)
{
	size_t klen = strlen(key), pos = 0;
	int found = 0;

	while (pos < len) {
		const u8 *eol = memchr(text + pos, '\n', len - pos);
		size_t end = eol ? (size_t)(eol - text) : len, i;
		u64 v = 0;
		int d, n = 0;

		if (end - pos > klen && text[pos + klen] == '=' &&
		    !memcmp(text + pos, key, klen)) {
			if (found++)
				return -EINVAL;
			i = pos + klen + 1;
			if (end - i > 2 && text[i] == '0' &&
			    (text[i + 1] == 'x' || text[i + 1] == 'X'))
				i += 2;
			for (; i < end; i++, n++) {
				d = hex_to_bin(text[i]);
				if (d < 0 || n == 16)
					return -EINVAL;
				v = (v << 4) | (u64)d;
			}
			if (!n)
				return -EINVAL;
			*val = v;
		}
		pos = end + 1;
	}
	return found ? 0 : -ENOENT;
}

int kreloc_vmcoreinfo_bytes(const u8 *text, size_t len, const char *key,
			    u8 *out, size_t max)
{
	size_t klen = strlen(key), pos = 0, n = 0;
	int found = 0;

	while (pos < len) {
		const u8 *eol = memchr(text + pos, '\n', len - pos);
		size_t end = eol ? (size_t)(eol - text) : len, i;
		int hi, lo;

		if (end - pos > klen && text[pos + klen] == '=' &&
		    !memcmp(text + pos, key, klen)) {
			if (found++)
				return -EINVAL;
			i = pos + klen + 1;
			if (i == end || (end - i) % 2 || (end - i) / 2 > max)
				return -EINVAL;
			for (n = 0; i < end; i += 2, n++) {
				hi = hex_to_bin(text[i]);
				lo = hex_to_bin(text[i + 1]);
				if (hi < 0 || lo < 0)
					return -EINVAL;
				out[n] = (u8)(hi << 4 | lo);
			}
		}
		pos = end + 1;
	}
	return found ? (int)n : -ENOENT;
}
