// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_linked.c - link-time data of the kernel kreloc was built for.
 *
 * kreloc_linked_gen.h is written at build time by tools/kreloc-linkgen from
 * the kernel's System.map, the vmlinux inside its image, or the arch's link
 * base (see the Makefile); it defines KRELOC_GEN_* and the two tables.
 */
#include <linux/kernel.h>
#include "kreloc.h"
#include "kreloc_arch/kreloc_arch.h"
#include "kreloc_linked_gen.h"

#ifdef KRELOC_GEN_HAVE_BUILD_ID
static const u8 kreloc_gen_build_id[] = { KRELOC_GEN_BUILD_ID };
#endif

static struct kreloc_linked kreloc_linked = {
	.source		= KRELOC_GEN_SOURCE,
	.source_name	= KRELOC_GEN_SOURCE_NAME,
	.source_file	= KRELOC_GEN_SOURCE_FILE,
	.release	= KRELOC_GEN_RELEASE,
#ifdef KRELOC_GEN_HAVE_BUILD_ID
	.build_id	= kreloc_gen_build_id,
	.build_id_len	= sizeof(kreloc_gen_build_id),
#endif
	.anchors	= kreloc_gen_anchors,
	.nr_anchors	= ARRAY_SIZE(kreloc_gen_anchors),
#ifdef KRELOC_GEN_MODULES_LINKED
	.modules	= KRELOC_GEN_MODULES_LINKED,
	.have_modules	= true,
#endif
};

const struct kreloc_linked *kreloc_linked_get(void)
{
	unsigned int g;

	for (g = 0; g < KRELOC_NR_GROUPS; g++)
		kreloc_linked.sec[g] = kreloc_gen_sections[g];
#ifdef KRELOC_GEN_SOURCE_IS_ARCH
	/* Only the reference symbol at the arch's link base, if it has one. */
	kreloc_gen_anchors[0].name = kreloc_arch_ref_symbol();
	if (kreloc_arch_link_base(&kreloc_gen_anchors[0].linked)) {
		kreloc_linked.sec[KRELOC_TEXT].start = kreloc_gen_anchors[0].linked;
		kreloc_linked.sec[KRELOC_TEXT].known = true;
	} else {
		kreloc_linked.nr_anchors = 0;
	}
#endif
	return &kreloc_linked;
}
