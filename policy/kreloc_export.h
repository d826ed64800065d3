/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kreloc exports to other modules, in the symbol namespace KRELOC:
 * a module that uses it must import the namespace, or the kernel refuses
 * to load it ("module uses symbol ... from namespace KRELOC, but does not
 * import it", -EINVAL).  Build it with kreloc's Module.symvers in
 * KBUILD_EXTRA_SYMBOLS, include this header, and say
 *
 *	KRELOC_IMPORT_NS();
 *
 * at file scope.  MODULE_IMPORT_NS() would take the namespace as a bare
 * word before v6.13 and as a string literal since; the modinfo tag it
 * writes, import_ns=KRELOC, is the same on every version, so this writes
 * it directly.
 */
#ifndef _KRELOC_EXPORT_H
#define _KRELOC_EXPORT_H

#include <linux/module.h>

#define KRELOC_IMPORT_NS()	MODULE_INFO(import_ns, "KRELOC")

unsigned long kreloc_kprobe_lookup_name(const char *name, unsigned int offset);

#endif /* _KRELOC_EXPORT_H */
