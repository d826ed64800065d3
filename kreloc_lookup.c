// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_lookup.c - symbol lookup with the semantics kprobes use.
 *
 * The kernel's kprobe_lookup_name() is not available to modules.  On
 * ppc64 ELF ABIv1 it looks up ".name" first (the code; "name" is the
 * function descriptor) and falls back to "name" only for symbols without a
 * dot twin; on ELFv2 an offset-0 probe moves to the ftrace site or the
 * local entry; x86 with IBT moves an entry probe past ENDBR.
 *
 * debugfs "lookup": write one spec, read back one line
 *   SPEC ADDRESS PROBE_ADDRESS MODULE TYPE
 * per open file; after a failed write, the line
 *   ERR ERRNO-NAME reason
 * instead (never an earlier answer), with the reason dmesg gets.  The
 * errno's name is the kernel's %pe, or kreloc_errname()'s own on a kernel
 * without SYMBOLIC_ERRNAME.
 *
 * Under kernel lockdown debugfs refuses to open lookup (it is writable);
 * a write to an fd opened before lockdown was raised is refused here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "kreloc.h"
#include "kreloc_alloc.h"
#include "kreloc_compat.h"
#include "kreloc_lookup.h"
#include "kreloc_modules.h"
#include "lib/kreloc_spec.h"
#include "lib/kreloc_symstr.h"
#include "kreloc_arch/kreloc_arch.h"

struct kreloc_lookup_result {
	unsigned long addr;		/* symbol (+offset) */
	unsigned long probe;		/* where a kprobe goes */
	char module[MODULE_NAME_LEN];	/* or "vmlinux" */
	const char *type;
};

/* Scratch space of one lookup, too big for the stack. */
struct kreloc_lookup_work {
	struct kreloc_spec spec;
	char cand[2][KRELOC_SPEC_MAX];
	char sym[KSYM_SYMBOL_LEN];
	int found;			/* index into cand */
};

/*
 * Resolve w->spec with the dot-first policy; w->cand[w->found] is the name
 * that resolved.  Returns the address or 0.
 */
static unsigned long kreloc_resolve(struct kreloc_lookup_work *w)
{
	unsigned long addr;
	int i, n;

	n = kreloc_spec_candidates(&w->spec, kreloc_arch_dot_symbols(), w->cand);
	for (i = 0; i < n; i++) {
		addr = kreloc_ksym_lookup(w->cand[i]);
		if (addr) {
			w->found = i;
			return addr;
		}
	}
	return 0;
}

/* @name parsed as a spec without offset and resolved; 0 if not found. */
static unsigned long kreloc_resolve_name(const char *name)
{
	struct kreloc_lookup_work *w;
	unsigned long addr = 0;
	const char *why;

	w = kreloc_zalloc(sizeof(*w));
	if (!w)
		return 0;
	if (!kreloc_spec_parse(name, strnlen(name, KRELOC_SPEC_MAX), &w->spec, &why) &&
	    !w->spec.offset)
		addr = kreloc_resolve(w);
	kfree(w);
	return addr;
}

/**
 * kreloc_kprobe_lookup_name() - kprobe_lookup_name() for modules
 * @name:	"sym", ".sym", "mod:sym" or "mod:.sym"
 * @offset:	the offset the probe will have from the symbol
 *
 * Same semantics as the kernel's kprobe_lookup_name(): on ppc64 ELF ABIv1
 * the ".sym" code symbol is preferred over the "sym" descriptor, and
 * "sym" is used only when there is no ".sym" (e.g. _text); on ppc64 ELFv2
 * an offset-0 lookup returns the ftrace site or the local entry point.
 * Never returns a function descriptor address.
 *
 * Return: the address the offset is to be added to, or 0 if not found
 * (or out of memory).
 */
unsigned long kreloc_kprobe_lookup_name(const char *name, unsigned int offset)
{
	unsigned long addr;

	if (!name)
		return 0;
	/* A bare name with no dot twin to try first: looked up as it is. */
	if (!kreloc_arch_dot_symbols() && kreloc_spec_plain(name))
		addr = kreloc_ksym_lookup(name);
	else
		addr = kreloc_resolve_name(name);
	return addr ? kreloc_arch_probe_entry(addr, offset) : 0;
}
EXPORT_SYMBOL_GPL(kreloc_kprobe_lookup_name);

#define KRELOC_REASON_MAX	(KRELOC_SPEC_MAX + 96)

#define kreloc_lookup_err(err, why, fmt, ...)					\
	({ snprintf(why, KRELOC_REASON_MAX, fmt, ##__VA_ARGS__); (err); })

/*
 * Resolve the spec in @buf.  On failure @why (KRELOC_REASON_MAX bytes)
 * gets a one-line reason that holds no raw user bytes, only the parsed,
 * validated name.
 */
static int kreloc_lookup_spec(struct kreloc_lookup_work *w, const char *buf, size_t len,
			      struct kreloc_lookup_result *res, char *show, size_t showlen,
			      char *why)
{
	struct kreloc_spec *spec = &w->spec;
	const char *bad, *found;
	char *mod, *plus, *sym = w->sym;
	unsigned long addr;
	u64 size = 0, off;
	int n, ret;

	ret = kreloc_spec_parse(buf, len, spec, &bad);
	if (ret)	/* Never echo raw bytes: only that it was malformed. */
		return kreloc_lookup_err(ret, why, "invalid spec: %s", bad);
	snprintf(show, showlen, "%s%s%s", spec->mod, *spec->mod ? ":" : "", spec->name);
	addr = kreloc_resolve(w);
	if (!addr)
		return kreloc_lookup_err(-ENOENT, why, "%s: no such symbol", show);
	found = w->cand[w->found] + (*spec->mod ? strlen(spec->mod) + 1 : 0);

	/* An ambiguous name must not silently pick the first of several. */
	n = kreloc_compat_count_symbol(spec->mod, found);
	if (n > 1)
		return kreloc_lookup_err(-ENOTUNIQ, why,
					 "%s: %d symbols have this name; scope it as mod:%s or use an address",
					 show, n, spec->name);

	/* The symbol kallsyms knows at addr, its size, and its module. */
	sprint_symbol(sym, addr);
	mod = strchr(sym, '[');
	strscpy(res->module, "vmlinux", sizeof(res->module));
	if (mod) {
		size_t l = strcspn(mod + 1, "]");

		if (l < sizeof(res->module)) {
			memcpy(res->module, mod + 1, l);
			res->module[l] = '\0';
		}
	}
	plus = strrchr(sym, '+');
	if (!plus || kreloc_symstr_offset_size(plus + 1, &off, &size) || off)
		size = 0;
	if (spec->offset && (!size || spec->offset >= size))
		return kreloc_lookup_err(-EINVAL, why,
					 "%s: offset past the end of the symbol (size %llu)",
					 show, size);

	res->addr = addr + spec->offset;
	res->probe = kreloc_arch_adjust_probe(kreloc_arch_probe_entry(addr, spec->offset),
					      spec->offset);
	res->type = kreloc_core_section_of(res->addr);
	if (!res->type)
		res->type = kreloc_modules_region_of(res->addr);
	if (!res->type)
		res->type = "unknown";
	if (spec->offset)
		snprintf(show, showlen, "%s%s%s+0x%llx", spec->mod, *spec->mod ? ":" : "",
			 spec->name, spec->offset);
	return 0;
}

/* Per open file: the last answer, or why the last write failed. */
struct kreloc_lookup_state {
	struct mutex lock;		/* line and len: one writer or reader at a time */
	char line[KRELOC_REASON_MAX + 32];
	size_t len;			/* 0: nothing written yet */
};

static int kreloc_lookup_open(struct inode *inode, struct file *file)
{
	struct kreloc_lookup_state *st;

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
	struct kreloc_lookup_work *w;
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
	w = kreloc_zalloc(sizeof(*w) + KRELOC_SPEC_MAX + KRELOC_REASON_MAX);
	if (!w) {
		kfree(buf);
		return kreloc_lookup_fail(st, ppos, -ENOMEM, "out of memory");
	}
	show = (char *)(w + 1);
	why = show + KRELOC_SPEC_MAX;
	ret = kreloc_lookup_spec(w, buf, count, &res, show, KRELOC_SPEC_MAX, why);
	kfree(buf);
	if (ret) {
		ret = kreloc_lookup_fail(st, ppos, ret, "%s", why);
		kfree(w);
		return ret;
	}
	mutex_lock(&st->lock);
	st->len = scnprintf(st->line, sizeof(st->line), "%s 0x%lx 0x%lx %s %s\n",
			    show, res.addr, res.probe, res.module, res.type);
	/* The next read starts at the new answer. */
	*ppos = 0;
	mutex_unlock(&st->lock);
	kfree(w);
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
