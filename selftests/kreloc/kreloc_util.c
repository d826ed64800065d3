// SPDX-License-Identifier: GPL-2.0
/* kreloc_util.c - helpers shared by the kreloc selftests. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
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

int kr_load_module(const char *ko, const char *params)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	close(fd);
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
