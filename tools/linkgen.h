/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linkgen.h - turn a System.map or a vmlinux ELF into kreloc's link-time
 * anchor table (shared by kreloc-linkgen and the unit tests).
 */
#ifndef KRELOC_LINKGEN_H
#define KRELOC_LINKGEN_H

#include <stdio.h>
#include "../lib/kreloc_calc.h"
#include "sysmap.h"
#include "kelf.h"

#define LINKGEN_MAX_ANCHORS 256

struct linkgen {
	const char *source;	/* "system.map" | "vmlinux" | "arch" */
	struct kreloc_linked_section sec[KRELOC_NR_GROUPS];
	struct {
		const char *name;
		uint64_t linked;
		int group;
	} anchors[LINKGEN_MAX_ANCHORS];
	unsigned int nr;
	uint64_t modules;	/* link-time address of the module list head */
	int have_modules;
	unsigned char build_id[20];
	int build_id_len;
	char err[256];
};

/* Fill from a parsed System.map; returns 0 or -1 with lg->err. */
int linkgen_from_sysmap(struct linkgen *lg, struct sysmap *map);
/* Fill from a vmlinux ELF; returns 0 or -1 with lg->err. */
int linkgen_from_elf(struct linkgen *lg, const struct kelf *elf);
/* Write kreloc_linked_gen.h. */
int linkgen_write(const struct linkgen *lg, FILE *out, const char *source_file,
		  const char *release);

#endif
