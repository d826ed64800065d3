// SPDX-License-Identifier: GPL-2.0
/* Functions named like section markers; see kreloc_test_anchor_main.c. */
#define KRELOC_DECOY(name)				\
	void name(void);				\
	__used noinline void name(void)			\
	{						\
		__asm__ volatile("" ::: "memory");	\
	}

KRELOC_DECOY(_sdata)
KRELOC_DECOY(_edata)
KRELOC_DECOY(__bss_start)
KRELOC_DECOY(__bss_stop)
KRELOC_DECOY(__start_rodata)
KRELOC_DECOY(__end_rodata)
KRELOC_DECOY(__init_begin)
KRELOC_DECOY(__init_end)
KRELOC_DECOY(__start___ksymtab)
KRELOC_DECOY(__start___param)
KRELOC_DECOY(__start_notes)
KRELOC_DECOY(__start___ex_table)
