/* SPDX-License-Identifier: GPL-2.0 */
/* tracefs.h - kprobe_events, error_log and the kprobe blacklist. */
#ifndef KRELOC_TRACEFS_H
#define KRELOC_TRACEFS_H

#include <stddef.h>
#include <stdint.h>

/* The tracefs directory (/sys/kernel/tracing or debugfs' tracing), or NULL. */
const char *tracefs_dir(char *buf, size_t len);
/*
 * Append one line to kprobe_events.  Returns EXIT_OK, or an exit code with
 * the reason printed: for a refused write the newest entry of error_log.
 */
int tracefs_write_events(const char *line);
/* Is addr on the kprobe blacklist?  Then sym gets its entry, path the file. */
int tracefs_blacklisted(uint64_t addr, char *sym, size_t symlen, char *path, size_t plen);
/* A valid tracefs group/event name ([A-Za-z_][A-Za-z0-9_]*, < 64). */
int tracefs_event_name_ok(const char *s);

#endif
