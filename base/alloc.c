// SPDX-License-Identifier: GPL-2.0
/*
 * Every allocation kreloc makes, as injection points.
 *
 * fail_function (Documentation/fault-injection/fault-injection.rst) can
 * only fail functions marked ALLOW_ERROR_INJECTION, and failslab cannot
 * be limited to one module's call sites on x86_64.  These helpers give
 * fault injection one point per kind of allocation in kreloc alone.  Test
 * builds can also fail them through test_fail_alloc= (test/hooks.c).
 */
#include <linux/err.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "base/base.h"
#include "base/hooks.h"

noinline void *kreloc_zalloc(size_t size)
{
	if (kreloc_hook_fail_alloc())
		return NULL;
	return kzalloc(size, GFP_KERNEL);
}

ALLOW_ERROR_INJECTION(kreloc_zalloc, NULL);

noinline void *kreloc_zalloc_array(size_t n, size_t size)
{
	if (kreloc_hook_fail_alloc())
		return NULL;
	return kcalloc(n, size, GFP_KERNEL);
}

ALLOW_ERROR_INJECTION(kreloc_zalloc_array, NULL);

noinline char *kreloc_strdup(const char *s)
{
	if (kreloc_hook_fail_alloc())
		return NULL;
	return kstrdup(s, GFP_KERNEL);
}

ALLOW_ERROR_INJECTION(kreloc_strdup, NULL);

noinline void *kreloc_memdup_user(const void __user *src, size_t len)
{
	if (kreloc_hook_fail_alloc())
		return ERR_PTR(-ENOMEM);
	return memdup_user(src, len);
}

ALLOW_ERROR_INJECTION(kreloc_memdup_user, ERRNO);
