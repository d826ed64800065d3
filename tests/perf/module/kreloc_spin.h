/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kreloc_spin.h - the body of the perf test's modules kreloc_spin_a,
 * kreloc_spin_b and kreloc_spin_p (tests/perf, rig/vm-inject.sh): one
 * module each, with functions of their own names, so that a sample named
 * after the wrong module's function is seen as wrong.
 *
 * Busy in three places a profiler must name:
 *   - SPIN(init_loop): init text, for init_ms milliseconds of ->init;
 *   - SPIN(loop): .text, when N is written to
 *     /sys/kernel/debug/KBUILD_MODNAME/spin (N milliseconds);
 *   - SPIN(cold): .text.unlikely (__cold), when N is written to .../cold:
 *     a section other than .text, which the loader places by its own rules,
 *     not at its offset in the .ko file.
 * Each loop reads jiffies (no timer of its own) and calls nothing.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>

#define SPIN_CAT(a, b)	a##b
#define SPIN_XCAT(a, b)	SPIN_CAT(a, b)
#define SPIN(x)		SPIN_XCAT(SPIN_PREFIX, x)

static struct dentry *SPIN(dir);
static unsigned long SPIN(count);

static unsigned int init_ms;
module_param(init_ms, uint, 0400);
MODULE_PARM_DESC(init_ms, "milliseconds ->init spins in init text");

/* Not inlined: each a symbol of its own, with all its samples in it. */
static noinline void __init SPIN(init_loop)(unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(jiffies, end))
		cpu_relax();
	SPIN(count)++;
}

static noinline void SPIN(loop)(unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(jiffies, end))
		cpu_relax();
	SPIN(count)++;
}

static noinline __cold void SPIN(cold)(unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(jiffies, end))
		cpu_relax();
	SPIN(count)++;
}

static ssize_t SPIN(write)(struct file *file, const char __user *buf, size_t len,
			   loff_t *ppos)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint_from_user(buf, len, 0, &ms);
	if (ret)
		return ret;
	if (ms > 10000)
		return -EINVAL;
	if (file->private_data)
		SPIN(cold)(ms);
	else
		SPIN(loop)(ms);
	return len;
}

static const struct file_operations SPIN(fops) = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = SPIN(write),
};

static int __init kreloc_spin_init(void)
{
	if (init_ms > 10000)
		return -EINVAL;
	SPIN(init_loop)(init_ms);
	SPIN(dir) = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("spin", 0200, SPIN(dir), NULL, &SPIN(fops));
	debugfs_create_file("cold", 0200, SPIN(dir), (void *)1, &SPIN(fops));
	return 0;
}

static void __exit kreloc_spin_exit(void)
{
	debugfs_remove_recursive(SPIN(dir));
}

module_init(kreloc_spin_init);
module_exit(kreloc_spin_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kreloc perf test helper: busy in init, .text and .text.unlikely");
