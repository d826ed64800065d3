// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the crash dump reader (libkreloc's vmcore.c) on any
 * bytes, as a file: an ELF core of either class and byte order, truncated
 * or hostile, with kreloc's records or without, whole or torn.  It must
 * give a snapshot or refuse with a reason.  The seed is a real QEMU dump of
 * a 6.1 guest cut down to its VMCOREINFO and kreloc's memory
 * (seeds/fuzz_vmcore/kreloc.core: the descriptor, the table, the blobs).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../../lib/kreloc/vmcore.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len)
{
	char path[64], err[1536];
	struct ksnap s;
	int fd = memfd_create("vmcore", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, len) == (ssize_t)len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		err[0] = '\0';
		if (!kvmcore_read(&s, path, err, sizeof(err)))
			ksnap_free(&s);
		else if (!err[0])
			abort();	/* every refusal says why */
	}
	close(fd);
	return 0;
}
