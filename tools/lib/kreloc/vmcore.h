/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* vmcore.h - kreloc's records read from a crash dump (lib/kreloc_dump.h). */
#ifndef KRELOC_VMCORE_H
#define KRELOC_VMCORE_H

#include <stddef.h>
#include "ksnap.h"

/*
 * The snapshot `kreloc snapshot` would have written on the dumped kernel
 * just before it stopped, from an ELF vmcore of either byte order and word
 * size.  Records whose memory in the dump is not whole are left out, each
 * with a warning, and counted (s->vmcore_torn); so are the other marks
 * (ksnap.h).  Returns 0, or a negative errno with err set: -EBADMSG (not
 * an ELF crash dump, truncated, or kreloc's records malformed), -ENODATA
 * (no kreloc in the dump, or it had no relocation yet), -EPROTONOSUPPORT
 * (a newer kreloc's layout), -ENOTUNIQ (records of several boots and no
 * VMCOREINFO to choose), -EOPNOTSUPP (built without zlib), -ENOMEM, or
 * open()'s and read()'s.
 */
int kvmcore_read(struct ksnap *s, const char *path, char *err, size_t errlen);

#endif
