/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bottom layer: every allocation kreloc makes, and the
 * names of the errnos it reports.
 *
 * Each allocation is a small noinline function in alloc.c marked
 * ALLOW_ERROR_INJECTION, so fail_function can make kreloc's allocations,
 * and only kreloc's, fail (the kernel lists them in
 * /sys/kernel/debug/error_injection/list as "[kreloc]").  Free with kfree().
 */
#ifndef _KRELOC_BASE_H
#define _KRELOC_BASE_H

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

/* An errno's name as the kernel's %pe prints it, without the '-'. */
#define KRELOC_ERRNAME_LEN	24
const char *kreloc_errname(int err, char *buf);

#endif /* _KRELOC_BASE_H */
