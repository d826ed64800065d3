/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KRELOC_SYMSTR_H
#define _KRELOC_SYMSTR_H

#include "kreloc_types.h"

/**
 * kreloc_symstr_offset() - read the offset from sprint_symbol() output
 * @str:	"name+0xOFF/0xSIZE" or "name+0xOFF/0xSIZE [mod]"
 * @name:	expected symbol name (the part before '+')
 * @off:	set to OFF
 *
 * Used to undo the adjustment a kprobe makes to its address: the symbol's
 * start is the probe address minus OFF, but only if the probe landed inside
 * the symbol that was asked for.
 *
 * Return: 0, -ENOENT if the name differs, -EINVAL if @str is malformed.
 */
int kreloc_symstr_offset(const char *str, const char *name, u64 *off);

/**
 * kreloc_symstr_offset_size() - parse "0xOFF/0xSIZE", optionally followed
 * by " [mod]"
 * @str:	the text after the '+' of sprint_symbol() output
 * @off:	set to OFF
 * @size:	set to SIZE
 *
 * Return: 0 or -EINVAL (also if OFF >= SIZE).
 */
int kreloc_symstr_offset_size(const char *str, u64 *off, u64 *size);

#endif /* _KRELOC_SYMSTR_H */
