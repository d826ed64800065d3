/* SPDX-License-Identifier: GPL-2.0 */
/* kreloc_util.h - helpers shared by the kreloc selftests. */
#ifndef KRELOC_UTIL_H
#define KRELOC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define KRELOC_DIR "/sys/kernel/debug/kreloc"

/* Read a whole file (NUL-terminated); NULL with errno set on failure. */
char *kr_read_file(const char *path, size_t *len);
/* Value of KEY in a KEY=VALUE text, copied to buf; 0 or -1 if absent. */
int kr_kv(const char *text, const char *key, char *buf, size_t len);
/* Same, parsed as hex "0x..."; 0 or -1. */
int kr_kv_hex(const char *text, const char *key, uint64_t *val);
/* Parse "0x..." or "-" (returns 1 for "-"), 0 ok, -1 malformed. */
int kr_hex(const char *s, uint64_t *val);

int kr_load_module(const char *ko, const char *params);
int kr_unload_module(const char *name);

/* The running kernel's GNU build id as hex, from /sys/kernel/notes. */
int kr_running_build_id(char *hex, size_t len);

/* Set the effective capabilities to @caps (within the permitted set). */
int kr_set_effective_caps(uint64_t caps);
/* Keep every capability but CAP_SYSLOG. */
int kr_drop_syslog(void);

#endif
