// SPDX-License-Identifier: GPL-2.0
/* A function named like vmlinux's vfs_write; see kreloc_test_dupname_main.c. */
static __used noinline void vfs_write(void)
{
	__asm__ volatile("" ::: "memory");
}
