// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs "lookup": write one spec, read back
 * one line
 *   SPEC ADDRESS PROBE_ADDRESS MODULE TYPE
 * per open file; after a failed write, the line
 *   ERR ERRNO-NAME reason
 * instead (never an earlier answer), with the reason dmesg gets.  The
 * errno's name is the kernel's %pe, or kreloc_errname()'s own on a kernel
 * without SYMBOLIC_ERRNAME.  What a spec means is policy/lookup.c's.
 *
 * Under kernel lockdown debugfs refuses to open lookup (it is writable);
 * a write to an fd opened before lockdown was raised is refused here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "base/base.h"
#include "symbols/symbols.h"
#include "state/state.h"
#include "policy/policy.h"
#include "presentation/presentation.h"

/* Per open file: the last answer, or why the last write failed. */
struct kreloc_lookup_state {
	struct mutex lock;		/* line and len: one writer or reader at a time */
	char line[KRELOC_REASON_MAX + 32];
	size_t len;			/* 0: nothing written yet */
};

static int kreloc_lookup_open(struct inode *inode, struct file *file)
{
	struct kreloc_lookup_state *st;
	int ret = kreloc_setup_wait();

	if (ret)
		return ret;
	if (!kreloc_may_see_addresses(file))
		return -EPERM;
	st = kreloc_zalloc(sizeof(*st));
	if (!st)
		return -ENOMEM;
	mutex_init(&st->lock);
	file->private_data = st;
	return 0;
}

static int kreloc_lookup_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * A failed write: the next read gives "ERR ERRNO-NAME reason", and dmesg
 * (ratelimited) "lookup: ERRNO-NAME reason".  Returns @err.
 */
static __printf(4, 5) ssize_t kreloc_lookup_fail(struct kreloc_lookup_state *st, loff_t *ppos,
						 int err, const char *fmt, ...)
{
	char name[KRELOC_ERRNAME_LEN];
	va_list ap;
	size_t n;

	mutex_lock(&st->lock);
	n = scnprintf(st->line, sizeof(st->line), "ERR %s ", kreloc_errname(err, name));
	va_start(ap, fmt);
	n += vscnprintf(st->line + n, sizeof(st->line) - n - 1, fmt, ap);
	va_end(ap);
	st->line[n++] = '\n';
	st->line[n] = '\0';
	st->len = n;
	*ppos = 0;
	pr_info_ratelimited("lookup: %s", st->line + 4);
	mutex_unlock(&st->lock);
	return err;
}

static ssize_t kreloc_lookup_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct kreloc_lookup_state *st = file->private_data;
	struct kreloc_lookup_result res;
	char *buf, *show, *why;
	int ret;

	/* Also for an fd opened before lockdown was raised. */
	if (security_locked_down(LOCKDOWN_DEBUGFS))
		return kreloc_lookup_fail(st, ppos, -EPERM,
					  "lockdown (debugfs access): lookup writes are refused");
	if (!kreloc_may_see_addresses(file))
		return kreloc_lookup_fail(st, ppos, -EPERM, "may not see kernel addresses (%s)",
					  kreloc_show_value_exact() ? "kallsyms_show_value" :
					  "CAP_SYSLOG");
	if (!count || count >= KRELOC_SPEC_MAX)
		return kreloc_lookup_fail(st, ppos, -EINVAL,
					  "spec of %zu bytes: empty or too long", count);
	buf = kreloc_memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return kreloc_lookup_fail(st, ppos, PTR_ERR(buf), PTR_ERR(buf) == -EFAULT ?
					  "cannot read the spec from user memory" :
					  "out of memory");
	show = kreloc_zalloc(KRELOC_SPEC_MAX + KRELOC_REASON_MAX);
	if (!show) {
		kfree(buf);
		return kreloc_lookup_fail(st, ppos, -ENOMEM, "out of memory");
	}
	why = show + KRELOC_SPEC_MAX;
	ret = kreloc_lookup_resolve(buf, count, &res, show, KRELOC_SPEC_MAX, why);
	kfree(buf);
	if (ret) {
		ret = kreloc_lookup_fail(st, ppos, ret, "%s", why);
		kfree(show);
		return ret;
	}
	mutex_lock(&st->lock);
	st->len = scnprintf(st->line, sizeof(st->line), "%s 0x%lx 0x%lx %s %s\n",
			    show, res.addr, res.probe, res.module, res.type);
	/* The next read starts at the new answer. */
	*ppos = 0;
	mutex_unlock(&st->lock);
	kfree(show);
	return count;
}

static ssize_t kreloc_lookup_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	struct kreloc_lookup_state *st = file->private_data;
	ssize_t ret;

	if (!kreloc_may_see_addresses(file))
		return -EPERM;
	mutex_lock(&st->lock);
	if (!st->len)		/* a read before any write */
		ret = -ENODATA;
	else
		ret = simple_read_from_buffer(ubuf, count, ppos, st->line, st->len);
	mutex_unlock(&st->lock);
	return ret;
}

const struct file_operations kreloc_lookup_fops = {
	.owner		= THIS_MODULE,
	.open		= kreloc_lookup_open,
	.release	= kreloc_lookup_release,
	.read		= kreloc_lookup_read,
	.write		= kreloc_lookup_write,
	.llseek		= default_llseek,
};
