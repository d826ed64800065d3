// SPDX-License-Identifier: GPL-2.0
/* tracefs.c - kprobe_events, error_log and the kprobe blacklist. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "main.h"
#include "tracefs.h"

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

const char *tracefs_dir(char *buf, size_t len)
{
	path_in(buf, len, "/sys/kernel/tracing/kprobe_events");
	if (exists(buf)) {
		path_in(buf, len, "/sys/kernel/tracing");
		return buf;
	}
	path_in(buf, len, "/sys/kernel/debug/tracing/kprobe_events");
	if (exists(buf)) {
		path_in(buf, len, "/sys/kernel/debug/tracing");
		return buf;
	}
	return NULL;
}

/* Print the newest entry of tracefs error_log (each starts with '['). */
static void print_error_log(const char *dir)
{
	char path[4200], *data = NULL, *last = NULL, *p;
	size_t len = 0;
	FILE *f, *m;
	int ch;

	snprintf(path, sizeof(path), "%s/error_log", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	m = open_memstream(&data, &len);
	if (!m) {
		fclose(f);
		return;
	}
	while ((ch = fgetc(f)) != EOF && len < (1 << 20))
		fputc(ch, m);
	fclose(f);
	fclose(m);
	for (p = data; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (*p == '[')
			last = p;
	if (last)
		fprintf(stderr, "kreloc: the kernel says (%s):\n%s%s", path, last,
			last[strlen(last) - 1] == '\n' ? "" : "\n");
	free(data);
}

/*
 * Why tracefs refused to open or write kprobe_events: kernel lockdown in
 * confidentiality mode (LOCKDOWN_TRACEFS, LOCKDOWN_KPROBES), else the
 * file's mode, which lets only root write it.
 */
static const char *tracefs_eperm_reason(void)
{
	static char why[512];
	char mode[32];

	kreloc_live_lockdown(lib_root(), mode, sizeof(mode));
	if (!strcmp(mode, "confidentiality"))
		snprintf(why, sizeof(why), "refused by kernel lockdown (mode 'confidentiality' in "
			 "%s/sys/kernel/security/lockdown: no tracefs, no kprobes)", root);
	else
		snprintf(why, sizeof(why), "tracefs lets only root write kprobe_events%s",
			 geteuid() ? " (you are not root)" : " (file mode or a security module)");
	return why;
}

int tracefs_write_events(const char *line)
{
	char dir[4096], path[4200];
	size_t n = strlen(line);
	int fd, e = 0;

	if (!tracefs_dir(dir, sizeof(dir))) {
		p_err("tracefs not found: neither %s/sys/kernel/tracing nor %s/sys/kernel/debug/tracing "
		      "has kprobe_events (mount -t tracefs nodev /sys/kernel/tracing)", root, root);
		return EXIT_FAIL;
	}
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == EPERM || e == EACCES)
			p_err("%s: %s: %s", path, strerror(e), tracefs_eperm_reason());
		else
			p_err("%s: %s", path, strerror(e));
		return exit_for_errno(e);
	}
	if (write(fd, line, n) != (ssize_t)n)
		e = errno ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (e == EPERM || e == EACCES) {
		p_err("%s: writing '%.*s' failed: %s: %s", path, (int)(n - 1), line, strerror(e),
		      tracefs_eperm_reason());
		return EXIT_REFUSED;
	}
	if (e) {
		p_err("%s: writing '%.*s' failed: %s", path, (int)(n - 1), line, strerror(e));
		print_error_log(dir);
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/* Blacklist lines: "0xSTART-0xEND\tsym". */
int tracefs_blacklisted(uint64_t addr, char *sym, size_t symlen, char *bl_path, size_t bplen)
{
	char *line = NULL;
	size_t cap = 0;
	int hit = 0;
	FILE *f;

	path_in(bl_path, bplen, "/sys/kernel/debug/kprobes/blacklist");
	f = fopen(bl_path, "re");
	if (!f)
		return 0;
	while (!hit && getline(&line, &cap, f) >= 0) {
		char *end;
		uint64_t lo, hi;

		errno = 0;
		lo = strtoull(line, &end, 16);
		if (errno || end == line || *end != '-')
			continue;
		hi = strtoull(end + 1, &end, 16);
		if (errno || hi < lo)
			continue;
		if (addr >= lo && addr < hi) {
			hit = 1;
			end += strspn(end, " \t");
			end[strcspn(end, "\r\n")] = '\0';
			snprintf(sym, symlen, "%s", end);
		}
	}
	free(line);
	fclose(f);
	return hit;
}

int tracefs_event_name_ok(const char *s)
{
	size_t n;

	if (!s || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return 0;
	for (n = 0; s[n]; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
		      (s[n] >= '0' && s[n] <= '9') || s[n] == '_'))
			return 0;
	return n < 64;
}
