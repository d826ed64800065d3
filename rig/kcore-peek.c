// SPDX-License-Identifier: GPL-2.0
/*
 * kcore-peek ADDR N: print N 64-bit words of kernel memory at the kernel
 * virtual address ADDR, read from /proc/kcore, one "0x%016lx" a line.
 * Runs in the rig's guests (static, no libelf); exit 1 if ADDR is in no
 * segment of /proc/kcore or cannot be read.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uint64_t addr, n, i, w;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: kcore-peek ADDR N\n");
		return 2;
	}
	addr = strtoull(argv[1], NULL, 0);
	n = strtoull(argv[2], NULL, 0);
	fd = open("/proc/kcore", O_RDONLY);
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "kcore-peek: /proc/kcore: %s\n", strerror(errno ? errno : EINVAL));
		return 1;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize) != sizeof(ph))
			break;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr ||
		    addr + 8 * n > ph.p_vaddr + ph.p_filesz)
			continue;
		for (i = 0; i < n; i++) {
			if (pread(fd, &w, 8, ph.p_offset + addr - ph.p_vaddr + 8 * i) != 8) {
				fprintf(stderr, "kcore-peek: read: %s\n", strerror(errno));
				return 1;
			}
			printf("0x%016" PRIx64 "\n", w);
		}
		return 0;
	}
	fprintf(stderr, "kcore-peek: 0x%" PRIx64 " is in no segment of /proc/kcore\n", addr);
	return 1;
}
