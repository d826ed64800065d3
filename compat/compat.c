// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel internals kreloc uses that differ between
 * the kernels it runs on (Debian's 5.10 to 7.3), each detected from the
 * target's headers by Kbuild (KRELOC_HAVE_*), never from a version number:
 *
 *  - module memory: v6.1 struct module_layout vs v6.4+ struct module_memory
 *    (commit ac3b43283923 "module: replace module_layout with module_memory");
 *  - system_state: SYSTEM_FREEING_INITMEM is newer than v5.10;
 *  - x86 IBT: is_endbr() became out of line and unexported (7.3: it takes a
 *    pointer); its test is __is_endbr(), inline in <asm/ibt.h>;
 *  - the VMCOREINFO note's declarations moved from crash_core.h to
 *    vmcore_info.h in v6.10;
 *  - the panic notifier list moved from kernel.h to panic_notifier.h in
 *    v5.14.
 *
 * Two more differences live where the code that meets them does, each
 * still detected by Kbuild: the prototypes of the kallsyms iterators
 * (v5.10 has no kallsyms_on_each_match_symbol(), v6.2 gave
 * module_kallsyms_on_each_symbol() a module name) in symbols/iter.c, the
 * kernel functions kreloc calls by name; and the layout of a module's
 * section attributes (v6.14), private to kernel/module/sysfs.c, which
 * state/modsect.c recognises at run time.
 */
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/io.h>
#ifdef KRELOC_HAVE_VMCORE_INFO_H
#include <linux/vmcore_info.h>
#define KRELOC_VMCOREINFO	IS_ENABLED(CONFIG_VMCORE_INFO)
#else
#include <linux/crash_core.h>
#define KRELOC_VMCOREINFO	IS_ENABLED(CONFIG_CRASH_CORE)
#endif
#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/ibt.h>
#endif
#ifdef KRELOC_HAVE_PANIC_NOTIFIER_H
#include <linux/panic_notifier.h>
#endif
#include "base/base.h"
#include "compat/compat.h"
#include "lib/kreloc_note.h"
#include "lib/kreloc_spec.h"

/**
 * kreloc_init_freed() - has the kernel freed its init memory
 *
 * v5.10 sets SYSTEM_RUNNING right after free_initmem() (init/main.c
 * kernel_init()), and nothing of kreloc's can run in between: userspace
 * has not started and async init work has been waited for.
 *
 * Return: true once the core kernel's init sections are gone.
 */
bool kreloc_init_freed(void)
{
#ifdef KRELOC_HAVE_FREEING_INITMEM
	return system_state >= SYSTEM_FREEING_INITMEM;
#else
	return system_state >= SYSTEM_RUNNING;
#endif
}

int kreloc_compat_panic_notifier(struct notifier_block *nb, bool on)
{
	if (on)
		return atomic_notifier_chain_register(&panic_notifier_list, nb);
	return atomic_notifier_chain_unregister(&panic_notifier_list, nb);
}

#ifdef CONFIG_X86_64
bool kreloc_compat_is_endbr(u32 insn)
{
#if !defined(CONFIG_X86_KERNEL_IBT)
	return false;
#elif defined(KRELOC_HAVE___IS_ENDBR)
	return __is_endbr(insn);
#else
	return is_endbr(insn);
#endif
}
#endif

/* Kbuild detects the features from the target's headers (see Kbuild). */
#ifdef KRELOC_HAVE_MODULE_MEMORY

static const enum mod_mem_type kreloc_mem_type[KRELOC_NR_REGIONS] = {
	[KRELOC_R_TEXT]		= MOD_TEXT,
	[KRELOC_R_DATA]		= MOD_DATA,
	[KRELOC_R_RODATA]	= MOD_RODATA,
	[KRELOC_R_RO_AFTER_INIT] = MOD_RO_AFTER_INIT,
	[KRELOC_R_INIT_TEXT]	= MOD_INIT_TEXT,
	[KRELOC_R_INIT_DATA]	= MOD_INIT_DATA,
	[KRELOC_R_INIT_RODATA]	= MOD_INIT_RODATA,
};

void kreloc_compat_regions(const struct module *mod, struct kreloc_region *r)
{
	int i;

	for (i = 0; i < KRELOC_NR_REGIONS; i++) {
		const struct module_memory *m = &mod->mem[kreloc_mem_type[i]];

		r[i].base = (unsigned long)m->base;
		r[i].size = m->base ? m->size : 0;
	}
}

bool kreloc_compat_init_released(const struct module *mod)
{
	return !READ_ONCE(mod->mem[MOD_INIT_TEXT].base) &&
	       !READ_ONCE(mod->mem[MOD_INIT_DATA].base) &&
	       !READ_ONCE(mod->mem[MOD_INIT_RODATA].base);
}

#else /* module_layout: v6.1 .. v6.3 */

static void kreloc_split(const struct module_layout *l, struct kreloc_region *text,
			 struct kreloc_region *ro, struct kreloc_region *ro_after,
			 struct kreloc_region *data)
{
	unsigned long base = (unsigned long)l->base;

	if (!base) {
		text->size = 0;
		ro->size = 0;
		data->size = 0;
		if (ro_after)
			ro_after->size = 0;
		return;
	}
	/* [text | rodata | ro_after_init | data], each size cumulative. */
	text->base = base;
	text->size = l->text_size;
	ro->base = base + l->text_size;
	ro->size = l->ro_size - l->text_size;
	if (ro_after) {
		ro_after->base = base + l->ro_size;
		ro_after->size = l->ro_after_init_size - l->ro_size;
	}
	data->base = base + l->ro_after_init_size;
	data->size = l->size - l->ro_after_init_size;
}

void kreloc_compat_regions(const struct module *mod, struct kreloc_region *r)
{
	memset(r, 0, sizeof(*r) * KRELOC_NR_REGIONS);
	kreloc_split(&mod->core_layout, &r[KRELOC_R_TEXT], &r[KRELOC_R_RODATA],
		     &r[KRELOC_R_RO_AFTER_INIT], &r[KRELOC_R_DATA]);
	kreloc_split(&mod->init_layout, &r[KRELOC_R_INIT_TEXT],
		     &r[KRELOC_R_INIT_RODATA], NULL, &r[KRELOC_R_INIT_DATA]);
#ifdef CONFIG_ARCH_WANTS_MODULES_DATA_IN_VMALLOC
	/* Data lives apart from text on these architectures. */
	r[KRELOC_R_DATA].base = (unsigned long)mod->data_layout.base;
	r[KRELOC_R_DATA].size = mod->data_layout.size;
#endif
}

bool kreloc_compat_init_released(const struct module *mod)
{
	return !READ_ONCE(mod->init_layout.base);
}

#endif

/*
 * Lookup specs (lib/kreloc_spec.h) are sized by the kernel's KSYM_NAME_LEN
 * and MODULE_NAME_LEN in the module.  Userspace cannot see those and uses
 * the largest of the kernels kreloc supports: it must never refuse a name
 * the running kernel accepts.
 */
static_assert(KSYM_NAME_LEN <= KRELOC_SPEC_NAME_MAX_USER);
static_assert(MODULE_NAME_LEN <= KRELOC_SPEC_MOD_MAX_USER);

/*
 * A copy of the VMCOREINFO note's text (the kernel may append to it, e.g.
 * CRASHTIME): its descriptor in *@desc, its length returned, or -errno.
 * @buf: VMCOREINFO_NOTE_SIZE bytes, freed by the caller.
 */
static int kreloc_vmcoreinfo_text(void **buf, const u8 **desc)
{
#if KRELOC_VMCOREINFO
	const size_t size = VMCOREINFO_NOTE_SIZE;
	int n;

	*buf = kreloc_zalloc(size);
	if (!*buf)
		return -ENOMEM;
	n = copy_from_kernel_nofault(*buf, phys_to_virt(paddr_vmcoreinfo_note()), size);
	if (n)
		return n;
	return kreloc_note_find(*buf, size, false, VMCOREINFO_NOTE_NAME, 0, desc);
#else
	*buf = NULL;
	return -EOPNOTSUPP;
#endif
}

int kreloc_compat_vmcoreinfo_hex(const char *key, u64 *val)
{
	const u8 *desc;
	void *buf;
	int n = kreloc_vmcoreinfo_text(&buf, &desc);

	if (n >= 0)
		n = kreloc_vmcoreinfo_hex(desc, n, key, val);
	kfree(buf);
	return n;
}

int kreloc_compat_vmcoreinfo_bytes(const char *key, u8 *out, size_t max)
{
	const u8 *desc;
	void *buf;
	int n = kreloc_vmcoreinfo_text(&buf, &desc);

	if (n >= 0)
		n = kreloc_vmcoreinfo_bytes(desc, n, key, out, max);
	kfree(buf);
	return n;
}
