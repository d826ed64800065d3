// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the errnos kreloc reports, as the kernel's
 * %pe prints them, also on kernels built without CONFIG_SYMBOLIC_ERRNAME.
 */
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "base/base.h"

/*
 * The errnos kreloc itself returns or records, named for kernels built
 * without CONFIG_SYMBOLIC_ERRNAME, whose %pe prints only the number.
 */
#define KRELOC_ERRNO(e) { e, #e }
static const struct {
	int err;
	const char *name;
} kreloc_errnos[] = {
	KRELOC_ERRNO(EPERM), KRELOC_ERRNO(ENOENT), KRELOC_ERRNO(EIO),
	KRELOC_ERRNO(ENOMEM), KRELOC_ERRNO(EFAULT), KRELOC_ERRNO(EINVAL),
	KRELOC_ERRNO(ENODATA), KRELOC_ERRNO(EPROTO), KRELOC_ERRNO(ENOTUNIQ),
	KRELOC_ERRNO(EOPNOTSUPP),
};

/**
 * kreloc_errname() - an errno's name, as the kernel's %pe prints it
 * @err:	a negative errno
 * @buf:	KRELOC_ERRNAME_LEN bytes
 *
 * Without CONFIG_SYMBOLIC_ERRNAME, where %pe prints the number, the errnos
 * kreloc uses are still named; any other is printed as its number.
 *
 * Return: the name without its '-' ("ENOENT"), in @buf or static.
 */
const char *kreloc_errname(int err, char *buf)
{
	size_t i;

	if (!IS_ENABLED(CONFIG_SYMBOLIC_ERRNAME))
		for (i = 0; i < ARRAY_SIZE(kreloc_errnos); i++)
			if (-err == kreloc_errnos[i].err)
				return kreloc_errnos[i].name;
	snprintf(buf, KRELOC_ERRNAME_LEN, "%pe", ERR_PTR(err));
	return buf[0] == '-' ? buf + 1 : buf;
}
