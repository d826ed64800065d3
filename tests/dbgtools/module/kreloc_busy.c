// SPDX-License-Identifier: GPL-2.0
/*
 * kreloc_busy - a module function for debuggers and profilers to find:
 * writing N to /sys/kernel/debug/kreloc_busy/spin runs kreloc_busy_spin()
 * for N milliseconds.  The gdb test sets a breakpoint on it by name and
 * ends the guest's trigger loop by writing kreloc_busy_stop through its
 * symbol (read back in /sys/kernel/debug/kreloc_busy/stop); the perf test
 * samples the spin, then unloads the module before perf names samples.
 * Writing to /sys/kernel/debug/kreloc_busy/oops dereferences NULL in
 * kreloc_busy_oops(): a real Oops in a module, whose report
 * tests/tools/capture-testdata.sh records for `kreloc resolve --text`.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>

static struct dentry *dir;
static unsigned long spins;
static u32 kreloc_busy_stop;

/* Not inlined: it must be a symbol of its own, with all the samples in it. */
static noinline void kreloc_busy_spin(unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(jiffies, end))
		cpu_relax();
	spins++;
}

static ssize_t spin_write(struct file *file, const char __user *buf, size_t len,
			  loff_t *ppos)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint_from_user(buf, len, 0, &ms);
	if (ret)
		return ret;
	if (ms > 10000)
		return -EINVAL;
	kreloc_busy_spin(ms);
	return len;
}

static const struct file_operations spin_fops = {
	.owner = THIS_MODULE,
	.write = spin_write,
};

/*
 * Not inlined: the Oops must name a function of this module.  The faulting
 * store leaves a module and a core kernel function address in registers,
 * which the Oops prints in hex (the second store keeps the other one live).
 */
static noinline void kreloc_busy_oops(unsigned long *p, void (*fn)(unsigned int),
				      void (*core)(unsigned int))
{
	OPTIMIZER_HIDE_VAR(fn);
	OPTIMIZER_HIDE_VAR(core);
	WRITE_ONCE(p[0], (unsigned long)fn);
	WRITE_ONCE(p[1], (unsigned long)core);
}

static ssize_t oops_write(struct file *file, const char __user *buf, size_t len,
			  loff_t *ppos)
{
	unsigned long *p = NULL;

	/* The compiler must not see that p is NULL (and drop the store). */
	OPTIMIZER_HIDE_VAR(p);
	kreloc_busy_oops(p, kreloc_busy_spin, msleep);
	return len;
}

static const struct file_operations oops_fops = {
	.owner = THIS_MODULE,
	.write = oops_write,
};

static int __init kreloc_busy_init(void)
{
	dir = debugfs_create_dir("kreloc_busy", NULL);
	debugfs_create_file("spin", 0200, dir, NULL, &spin_fops);
	debugfs_create_file("oops", 0200, dir, NULL, &oops_fops);
	debugfs_create_ulong("spins", 0400, dir, &spins);
	debugfs_create_u32("stop", 0600, dir, &kreloc_busy_stop);
	return 0;
}

static void __exit kreloc_busy_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(kreloc_busy_init);
module_exit(kreloc_busy_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc test helper: a busy loop for debuggers and profilers to find");
