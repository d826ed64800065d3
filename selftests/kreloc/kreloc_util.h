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

/*
 * Load a module; for kreloc.ko, return once its setup work is done
 * (whether it failed or not), as a first read of its files would.
 */
int kr_load_module(const char *ko, const char *params);
/* Load a module and return as soon as its ->init has. */
int kr_load_module_nowait(const char *ko, const char *params);
int kr_unload_module(const char *name);

/* The running kernel's GNU build id as hex, from /sys/kernel/notes. */
int kr_running_build_id(char *hex, size_t len);

/* Set the effective capabilities to @caps (within the permitted set). */
int kr_set_effective_caps(uint64_t caps);
/* Keep every capability but CAP_SYSLOG. */
int kr_drop_syslog(void);

/*
 * Read @len bytes of kernel memory at virtual address @addr from
 * /proc/kcore (the kernel's own view, independent of kreloc); 0 or -1.
 */
int kr_kcore_read(uint64_t addr, void *buf, size_t len);

/* Size of section @name in the ELF file @path (a .ko); 0 or -1. */
int kr_elf_section_size(const char *path, const char *name, uint64_t *size);

/* Runtime address of /sys/module/@mod/sections/@sect; 0 or -1. */
int kr_module_section(const char *mod, const char *sect, uint64_t *addr);

/* A module parameter's value, as text without the newline; 0 or -1. */
int kr_module_param(const char *mod, const char *param, char *buf, size_t len);
/* Write a module parameter; 0 or -1. */
int kr_set_module_param(const char *mod, const char *param, const char *val);

/* Load in a child process: returns its pid; kr_wait_load() its result. */
int kr_load_module_async(const char *ko, const char *params);
/* 0 if the child's load succeeded, else the errno it failed with. */
int kr_wait_load(int pid);

/* Write @s to @path (O_TRUNC); 0 or -1 with errno. */
int kr_write_file(const char *path, const char *s);

/*
 * The kernel log from /dev/kmsg, one message per line, from the message
 * after sequence number @after (-1: from the start); *last is set to the
 * last sequence number read.  Returns malloc'ed text or NULL.
 */
char *kr_kmsg(long long after, long long *last);

/*
 * perf's clock (local_clock()), read as perf itself reports it: the time
 * of the PERF_RECORD_COMM a dummy software event on this task writes when
 * it renames itself.  kr_perf_clock_open() first (0, or -1 with errno);
 * kr_perf_clock_now() then gives nanoseconds, or -1.
 */
int kr_perf_clock_open(void);
long long kr_perf_clock_now(void);

/* Oops, BUG, WARNING or general protection fault in @log: 1, else 0. */
int kr_kmsg_splat(const char *log);

#endif
