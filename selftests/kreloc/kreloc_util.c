// SPDX-License-Identifier: GPL-2.0
/* kreloc_util.c - helpers shared by the kreloc selftests. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include "kreloc_util.h"
#include "../../lib/kreloc_note.h"

char *kr_read_file(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;

	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

int kr_kv(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t n = strcspn(v, "\n");

			if (n >= len)
				return -1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

int kr_hex(const char *s, uint64_t *val)
{
	char *end;

	if (!strcmp(s, "-"))
		return 1;
	if (strncmp(s, "0x", 2))
		return -1;
	errno = 0;
	*val = strtoull(s + 2, &end, 16);
	if (errno || end == s + 2 || *end)
		return -1;
	return 0;
}

int kr_kv_hex(const char *text, const char *key, uint64_t *val)
{
	char buf[64];

	if (kr_kv(text, key, buf, sizeof(buf)))
		return -1;
	return kr_hex(buf, val) ? -1 : 0;
}

int kr_load_module_nowait(const char *ko, const char *params)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	close(fd);
	return ret;
}

int kr_load_module(const char *ko, const char *params)
{
	const char *base = strrchr(ko, '/');
	int ret = kr_load_module_nowait(ko, params), fd;

	/* kreloc: until its setup work is done (an open waits for it). */
	if (!ret && !strcmp(base ? base + 1 : ko, "kreloc.ko")) {
		fd = open(KRELOC_DIR "/info", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
	return ret;
}

int kr_unload_module(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK);
}

int kr_running_build_id(char *hex, size_t len)
{
	size_t n;
	char *notes = kr_read_file("/sys/kernel/notes", &n);
	const unsigned char *id;
	int i, idlen;

	if (!notes)
		return -1;
	idlen = kreloc_note_build_id(notes, n, false, &id);
	if (idlen <= 0 || (size_t)idlen * 2 + 1 > len) {
		free(notes);
		return -1;
	}
	for (i = 0; i < idlen; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	free(notes);
	return 0;
}

int kr_set_effective_caps(uint64_t caps)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[0].effective = (uint32_t)caps & d[0].permitted;
	d[1].effective = (uint32_t)(caps >> 32) & d[1].permitted;
	return syscall(SYS_capset, &h, d);
}

int kr_drop_syslog(void)
{
	return kr_set_effective_caps(~(1ULL << CAP_SYSLOG));
}

int kr_kcore_read(uint64_t addr, void *buf, size_t len)
{
	int fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC), ret = -1;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned int i;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * eh.e_phentsize) != sizeof(ph))
			goto out;
		if (ph.p_type != PT_LOAD || addr < ph.p_vaddr || addr - ph.p_vaddr >= ph.p_filesz ||
		    len > ph.p_filesz - (addr - ph.p_vaddr))
			continue;
		if (pread(fd, buf, len, ph.p_offset + (addr - ph.p_vaddr)) == (ssize_t)len)
			ret = 0;
		break;
	}
out:
	close(fd);
	return ret;
}

int kr_elf_section_size(const char *path, const char *name, uint64_t *size)
{
	size_t len;
	char *f = kr_read_file(path, &len);
	const Elf64_Ehdr *eh = (const void *)f;
	const Elf64_Shdr *sh, *strtab;
	unsigned int i;
	int ret = -1;

	if (!f)
		return -1;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		goto out;
	sh = (const void *)(f + eh->e_shoff);
	strtab = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		if (strtab->sh_offset + sh[i].sh_name >= len)
			continue;
		if (!strcmp(f + strtab->sh_offset + sh[i].sh_name, name)) {
			*size = sh[i].sh_size;
			ret = 0;
			break;
		}
	}
out:
	free(f);
	return ret;
}

int kr_module_section(const char *mod, const char *sect, uint64_t *addr)
{
	char path[256], *v;
	int ret;

	snprintf(path, sizeof(path), "/sys/module/%s/sections/%s", mod, sect);
	v = kr_read_file(path, NULL);
	if (!v)
		return -1;
	v[strcspn(v, "\n")] = '\0';
	ret = kr_hex(v, addr) ? -1 : 0;
	free(v);
	return ret;
}

int kr_module_param(const char *mod, const char *param, char *buf, size_t len)
{
	char path[256], *v;
	int ret = -1;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	v = kr_read_file(path, NULL);
	if (!v)
		return -1;
	v[strcspn(v, "\n")] = '\0';
	if (strlen(v) < len) {
		strcpy(buf, v);
		ret = 0;
	}
	free(v);
	return ret;
}

int kr_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0600), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int kr_set_module_param(const char *mod, const char *param, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	return kr_write_file(path, val);
}

int kr_load_module_async(const char *ko, const char *params)
{
	pid_t pid = fork();

	if (!pid)
		_exit(kr_load_module(ko, params) ? (errno & 0xff) : 0);
	return pid;
}

int kr_wait_load(int pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

char *kr_kmsg(long long after, long long *last)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t len = 0, cap = 0;
	char rec[8192], *out = NULL;
	ssize_t n;

	if (fd < 0)
		return NULL;
	if (last)
		*last = after;
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		long long seq;
		char *msg;
		size_t mlen;

		if (n < 0)
			continue;	/* overwritten records */
		rec[n] = '\0';
		/* "PRI,SEQ,TIME,FLAGS;MESSAGE\n[ continuation lines]" */
		if (sscanf(rec, "%*d,%lld,", &seq) != 1 || !(msg = strchr(rec, ';')))
			continue;
		if (last)
			*last = seq;
		if (seq <= after)
			continue;
		msg++;
		mlen = strcspn(msg, "\n");
		if (len + mlen + 2 > cap) {
			char *nb = realloc(out, cap + mlen + 65536);

			if (!nb)
				break;
			out = nb;
			cap += mlen + 65536;
		}
		memcpy(out + len, msg, mlen);
		len += mlen;
		out[len++] = '\n';
	}
	close(fd);
	if (!out)
		out = calloc(1, 1);
	else
		out[len] = '\0';
	return out;
}

int kr_kmsg_splat(const char *log)
{
	return strstr(log, "Oops") || strstr(log, "BUG:") || strstr(log, "WARNING: CPU:") ||
	       strstr(log, "general protection") || strstr(log, "Call Trace");
}

static int perf_fd = -1;
static void *perf_ring;
static long perf_page;

int kr_perf_clock_open(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.comm = 1,
		.exclude_kernel = 1,
	};

	perf_page = sysconf(_SC_PAGESIZE);
	perf_fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (perf_fd < 0)
		return -1;
	/* One page of header, two of data. */
	perf_ring = mmap(NULL, 3 * perf_page, PROT_READ | PROT_WRITE, MAP_SHARED, perf_fd, 0);
	if (perf_ring == MAP_FAILED) {
		close(perf_fd);
		perf_fd = -1;
		return -1;
	}
	return 0;
}

/* Copy @len bytes at ring offset @pos out of the data area, which wraps. */
static void ring_copy(void *dst, unsigned long long pos, size_t len)
{
	const char *data = (const char *)perf_ring + perf_page;
	unsigned long long size = 2 * (unsigned long long)perf_page;
	size_t i;

	for (i = 0; i < len; i++)
		((char *)dst)[i] = data[(pos + i) % size];
}

long long kr_perf_clock_now(void)
{
	struct perf_event_mmap_page *mp = perf_ring;
	unsigned long long head, tail;
	long long t = -1;

	if (perf_fd < 0)
		return -1;
	prctl(PR_SET_NAME, "kreloc_clock");
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	for (tail = mp->data_tail; tail < head; ) {
		struct perf_event_header h;

		ring_copy(&h, tail, sizeof(h));
		if (h.size < sizeof(h) + 8)
			break;
		/* sample_id_all with PERF_SAMPLE_TIME only: the time ends the record. */
		if (h.type == PERF_RECORD_COMM)
			ring_copy(&t, tail + h.size - 8, 8);
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
	return t;
}
