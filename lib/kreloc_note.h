/* SPDX-License-Identifier: GPL-2.0 */
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

#endif /* _KRELOC_NOTE_H */
