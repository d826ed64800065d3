/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc_alloc.h - every allocation kreloc makes.
 *
 * Each is a small noinline function in kreloc_alloc.c marked
 * ALLOW_ERROR_INJECTION, so fail_function can make kreloc's allocations,
 * and only kreloc's, fail (the kernel lists them in
 * /sys/kernel/debug/error_injection/list as "[kreloc]").  Free with kfree().
 */
#ifndef _KRELOC_ALLOC_H
#define _KRELOC_ALLOC_H

#include <linux/types.h>
#include <linux/compiler.h>

/* kzalloc(GFP_KERNEL); NULL on failure. */
void *kreloc_zalloc(size_t size);
/* kcalloc(GFP_KERNEL), overflow-checked; NULL on failure. */
void *kreloc_zalloc_array(size_t n, size_t size);
/* kstrdup(GFP_KERNEL); NULL on failure. */
char *kreloc_strdup(const char *s);
/* memdup_user(): ERR_PTR(-EFAULT) or ERR_PTR(-ENOMEM) on failure. */
void *kreloc_memdup_user(const void __user *src, size_t len);

#endif /* _KRELOC_ALLOC_H */
