/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef _KRELOC_NOTE_H
#define _KRELOC_NOTE_H

#include "kreloc_types.h"

#define KRELOC_BUILD_ID_MAX	20	/* BUILD_ID_SIZE_MAX */

/**
 * kreloc_note_build_id() - find the GNU build id in a block of ELF notes
 * @notes:	start of the notes (4-byte aligned Elf_Nhdr records)
 * @len:	length of the block in bytes
 * @swap:	true if the notes are of the other byte order than the reader
 * @id:		set to the start of the build id bytes
 *
 * Return: the length of the build id (1..KRELOC_BUILD_ID_MAX), -ENOENT if
 * the block holds no build id note, -EINVAL if a record runs past the end.
 */
int kreloc_note_build_id(const void *notes, size_t len, bool swap,
			 const u8 **id);

/**
 * kreloc_note_find() - find a note by owner name and type
 * @notes:	start of the notes (4-byte aligned Elf_Nhdr records)
 * @len:	length of the block in bytes
 * @swap:	true if the notes are of the other byte order than the reader
 * @name:	the owner, without its NUL (the note's name is it plus a NUL)
 * @type:	the note type
 * @desc:	set to the start of the descriptor
 *
 * Return: the descriptor's length (may be 0), -ENOENT if there is no such
 * note, -EINVAL if a record runs past the end.
 */
int kreloc_note_find(const void *notes, size_t len, bool swap,
		     const char *name, u32 type, const u8 **desc);

/**
 * kreloc_vmcoreinfo_hex() - a hexadecimal value of the VMCOREINFO text
 * @text:	the note's descriptor: "KEY=VALUE\n" lines, not NUL-terminated
 * @len:	its length
 * @key:	the key, e.g. "KERNELOFFSET"
 * @val:	set to the value
 *
 * The kernel writes KERNELOFFSET with "%lx" (no 0x), NUMBER(x) with "%ld"
 * and some NUMBER(x)=0x... with "0x%lx"; this reads a line "KEY=" followed
 * by hex digits, with or without 0x, up to the end of the line.
 *
 * Return: 0, -ENOENT if no line has the key, -EINVAL if its value is not
 * one hex number of at most 64 bits or the key occurs twice.
 */
int kreloc_vmcoreinfo_hex(const u8 *text, size_t len, const char *key,
			  u64 *val);

/**
 * kreloc_vmcoreinfo_bytes() - a hex byte string of the VMCOREINFO text
 * @text:	the note's descriptor: "KEY=VALUE\n" lines, not NUL-terminated
 * @len:	its length
 * @key:	the key, e.g. "BUILD-ID" (written with "%20phN")
 * @out:	set to the bytes
 * @max:	size of @out
 *
 * Return: the number of bytes (1..@max), -ENOENT if no line has the key,
 * -EINVAL if its value is not an even number of hex digits making at most
 * @max bytes, or the key occurs twice.
 */
int kreloc_vmcoreinfo_bytes(const u8 *text, size_t len, const char *key,
			    u8 *out, size_t max);

#endif /* _KRELOC_NOTE_H */
