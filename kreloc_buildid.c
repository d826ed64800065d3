// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_buildid.c - the running kernel's GNU build id, read from its
 * .notes section (__start_notes..__stop_notes where kallsyms has them,
 * else /sys/kernel/notes, which shows the same bytes).
 */
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "kreloc.h"
#include "kreloc_alloc.h"

#define KRELOC_NOTES_MAX	65536

static int kreloc_copy_build_id(const void *notes, size_t len, u8 *id)
{
	const u8 *bid;
	int n = kreloc_note_build_id(notes, len, false, &bid);

	if (n > 0)
		memcpy(id, bid, n);
	return n;
}

/*
 * Without KALLSYMS_ALL (Debian ppc64el) kallsyms has no __start_notes:
 * read the same bytes from /sys/kernel/notes.
 */
static int kreloc_build_id_from_sysfs(u8 *id)
{
	struct file *f = filp_open("/sys/kernel/notes", O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n;
	void *buf;
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	buf = kreloc_zalloc(KRELOC_NOTES_MAX);
	if (!buf) {
		filp_close(f, NULL);
		return -ENOMEM;
	}
	n = kernel_read(f, buf, KRELOC_NOTES_MAX, &pos);
	filp_close(f, NULL);
	ret = n < 0 ? n : kreloc_copy_build_id(buf, n, id);
	kfree(buf);
	return ret;
}

int kreloc_running_build_id(u8 *id)
{
	unsigned long start = kreloc_ksym_lookup("__start_notes");
	unsigned long stop = kreloc_ksym_lookup("__stop_notes");

	if (!start || !stop || stop <= start || stop - start > KRELOC_NOTES_MAX)
		return kreloc_build_id_from_sysfs(id);
	return kreloc_copy_build_id((const void *)start, stop - start, id);
}
