/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * <kreloc/kreloc.h> - libkreloc, the library under the kreloc tool.
 *
 * kreloc makes a running Linux kernel say where its image and every module
 * section sit (the kreloc kernel module's debugfs files), and saves that as
 * a snapshot.  libkreloc reads the live files and snapshots of every format
 * version, checks a System.map, a /proc/kallsyms, a vmlinux or a module's
 * .ko against a snapshot (build id, release, the anchors the running kernel
 * confirmed), and resolves a runtime address of that boot to symbol+offset,
 * section, module and module generation: core kernel, freed init code,
 * module sections and modules unloaded before the snapshot.  Files can be
 * local or fetched by build id from debuginfod servers.
 *
 * Conventions (libbpf's):
 *  - Every function that can fail returns 0 (or a non-negative value) on
 *    success and a negative errno value on failure; kreloc_errmsg() then
 *    gives a one-line reason.  Functions returning a pointer never fail
 *    (they return NULL only for "none").
 *  - A pointer argument may be NULL only where its description says so
 *    ("or NULL"); any other NULL is refused with -EINVAL (a function
 *    returning a string returns NULL, or says so in the caller's buffer),
 *    never dereferenced.
 *  - Callbacks (kreloc_symbol_fn_t, kreloc_candidate_fn_t) return 0 to go
 *    on; any other value stops the walk, and the call then returns a
 *    negative value: the callback's own when negative, -ECANCELED when
 *    positive.  A walk that ends returns 0 or a count, never a negative
 *    value: a stop cannot be taken for a count.
 *  - The library never prints and never exits.  Warnings go to the
 *    callback set with kreloc_set_print(); without one they are dropped.
 *  - Options structs start with a size_t sz member set to their size
 *    (KRELOC_OPTS() does that); information structs are filled up to the
 *    size the caller passes, and zeroed past the library's.  Members are
 *    only ever appended, so a program built against an older header keeps
 *    working with a newer library.  As libbpf's OPTS_VALID(): an options
 *    struct whose sz is below sizeof(size_t) (one not declared with
 *    KRELOC_OPTS()) or that has a nonzero byte past the size this library
 *    knows (an option of a newer header, which it cannot honour) is
 *    refused with -EINVAL and a message; an older caller's smaller struct
 *    gets the defaults of the members it lacks.  A member is appended at
 *    or past the struct's old size, never into its tail padding
 *    (KRELOC_APPENDED), so that an older library sees an option and a
 *    newer caller of an older library finds its info zeroed.
 *  - Strings returned live as long as the object they come from, and are
 *    NUL-terminated.  A resolver holds a reference on its snapshot (and on
 *    its kreloc_files): each may be freed before the resolvers made from
 *    it, which keep it until they are freed.
 *
 * Thread safety: a snapshot is read-only once loaded and may be used from
 * any number of threads.  A resolver may be used by several threads at
 * once for kreloc_resolve(), kreloc_resolve_why() and every other
 * kreloc_resolver_*() query: the first lookup in a module reads that
 * module's file under a lock, later ones take no lock
 * (kreloc_resolver_prefetch() reads them all first).  A kreloc_files may
 * be shared by resolvers in several threads.  Creating and freeing an
 * object is not concurrent with its use.  kreloc_errmsg() is per thread.
 * kreloc_set_print() should be called before other threads use the library.
 *
 * The ABI is versioned (libkreloc.map): symbols never change once
 * released, new ones come in new version nodes, and the SONAME changes
 * if anything old must break.
 */
#ifndef KRELOC_KRELOC_H
#define KRELOC_KRELOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef KRELOC_API
#define KRELOC_API __attribute__((visibility("default")))
#endif

/*
 * On the first member a release appends to a struct: it starts at the
 * struct's old size, never in its tail padding, so that a caller built
 * against this header and running with an older library finds it zeroed
 * (the library zeroes what it does not know), not the older library's
 * padding; and an older library sees it past its size.
 */
#define KRELOC_APPENDED __attribute__((aligned(8)))

/* Declare and initialise an options struct: KRELOC_OPTS(kreloc_resolver_opts, o, .x = y); */
#define KRELOC_OPTS(TYPE, NAME, ...) \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

/* ------------------------------------------------------------------ errors */

/**
 * kreloc_errmsg() - why the calling thread's last failed call failed
 *
 * Return: a one-line reason ("FILE:LINE: reason" for malformed input), or
 * "" if nothing failed yet.  Thread-local; valid until the thread's next
 * call into the library.
 */
KRELOC_API const char *kreloc_errmsg(void);

enum kreloc_print_level {
	KRELOC_WARN,		/* a file was passed over, a record left without symbols... */
	KRELOC_INFO,		/* where a file came from (debuginfod) */
	KRELOC_DEBUG,
};

typedef void (*kreloc_print_fn_t)(enum kreloc_print_level level, const char *msg, void *ctx);

/**
 * kreloc_set_print() - where the library's warnings go
 * @fn:		called with each message (one line, no newline), or NULL to drop them
 * @ctx:	passed to @fn, or NULL
 *
 * Return: the previous callback.
 */
KRELOC_API kreloc_print_fn_t kreloc_set_print(kreloc_print_fn_t fn, void *ctx);

/* ------------------------------------------------------------------ library */

/*
 * The version of this header and of the library built with it (the
 * library's file name, kreloc_version() and libkreloc.pc say the same);
 * MAJOR is the SONAME's, MINOR's functions are in version node
 * KRELOC_MAJOR.MINOR.  At compile time:
 *   #if KRELOC_VERSION_CODE >= KRELOC_VERSION_NUM(0, 3, 0)
 */
#define KRELOC_VERSION_MAJOR	0
#define KRELOC_VERSION_MINOR	3
#define KRELOC_VERSION_PATCH	0
#define KRELOC_VERSION_NUM(major, minor, patch) (((major) << 16) + ((minor) << 8) + (patch))
#define KRELOC_VERSION_CODE \
	KRELOC_VERSION_NUM(KRELOC_VERSION_MAJOR, KRELOC_VERSION_MINOR, KRELOC_VERSION_PATCH)
#define KRELOC__STR(x) #x
#define KRELOC__XSTR(x) KRELOC__STR(x)
#define KRELOC_VERSION_STRING KRELOC__XSTR(KRELOC_VERSION_MAJOR) "." \
	KRELOC__XSTR(KRELOC_VERSION_MINOR) "." KRELOC__XSTR(KRELOC_VERSION_PATCH)

/**
 * kreloc_version() - the version of the library running
 *
 * What a program checks when it needs more than the version it was built
 * with (KRELOC_VERSION_STRING): a newer library runs it too.
 *
 * Return: "MAJOR.MINOR.PATCH", as libkreloc.pc's Version.
 */
KRELOC_API const char *kreloc_version(void);

/**
 * kreloc_snapshot_format() - the snapshot format version this library writes
 *
 * Return: the version; every older one is read too.
 */
KRELOC_API unsigned int kreloc_snapshot_format(void);

enum kreloc_feature {
	KRELOC_FEATURE_XZ,		/* reads .ko.xz (liblzma) */
	KRELOC_FEATURE_ZSTD,		/* reads .ko.zst (libzstd) */
	KRELOC_FEATURE_GZIP,		/* reads .ko.gz (zlib) */
	KRELOC_FEATURE_DEBUGINFOD,	/* fetches files by build id (libdebuginfod.so.1, loaded when used) */
};

/**
 * kreloc_feature() - is an optional feature available
 * @f:		the feature
 *
 * For KRELOC_FEATURE_DEBUGINFOD this loads libdebuginfod.so.1 if it was
 * compiled in.
 *
 * Return: 1 if it is, 0 if not (not compiled in, or the library missing),
 * -EINVAL for an unknown @f.
 */
KRELOC_API int kreloc_feature(enum kreloc_feature f);

/**
 * kreloc_feature_name() - a feature's short name ("xz", "debuginfod", ...)
 * @f:		the feature
 *
 * Return: the name, or NULL for an unknown @f.
 */
KRELOC_API const char *kreloc_feature_name(enum kreloc_feature f);

/* ------------------------------------------------------------------ snapshots */

struct kreloc_snapshot;

/**
 * kreloc_snapshot_load() - read a snapshot file
 * @path:	the file
 * @snap:	set to the new snapshot
 *
 * Any format version up to kreloc_snapshot_format() is read; what a newer
 * kreloc adds (columns, header keys, states) is kept or ignored, never
 * used to resolve.
 *
 * Return: 0, or -ENOENT/-EACCES... (the file), -EBADMSG (malformed: the
 * message is "FILE:LINE: reason"), -EPROTONOSUPPORT (a newer format),
 * -ENOMEM.
 */
KRELOC_API int kreloc_snapshot_load(const char *path, struct kreloc_snapshot **snap);

/**
 * kreloc_snapshot_read() - read a snapshot from a stream
 * @f:		the stream, read to its end
 * @name:	the name errors give it, or NULL ("snapshot")
 * @snap:	set to the new snapshot
 *
 * Return: as kreloc_snapshot_load().
 */
KRELOC_API int kreloc_snapshot_read(FILE *f, const char *name, struct kreloc_snapshot **snap);

/**
 * kreloc_snapshot_live() - read the running kernel's files as one moment
 * @root:	a directory standing for / (tests), or NULL
 * @snap:	set to the new snapshot
 *
 * Reads /sys/kernel/debug/kreloc (info, sections, anchors, modules and each
 * module record), again while GENERATION moves.  Modules without a
 * BUILD_ID column get theirs from /sys/module/NAME/notes.
 *
 * Return: 0, -ENOENT (kreloc not loaded: the message names the directory),
 * -EPERM/-EACCES (refused: the message says whether kernel lockdown or
 * the caller's credentials), -EBADMSG (a file malformed), -EAGAIN (the
 * module records kept changing), -ENOMEM.
 */
KRELOC_API int kreloc_snapshot_live(const char *root, struct kreloc_snapshot **snap);

/**
 * kreloc_snapshot_vmcore() - kreloc's records read from a crash dump
 * @path:	an ELF vmcore of either byte order (QEMU's dump-guest-memory,
 *		/proc/vmcore, makedumpfile -E) of a kernel kreloc was loaded on
 * @snap:	set to the new snapshot
 *
 * The snapshot kreloc_snapshot_live() would have read on that kernel just
 * before it stopped, unloaded modules' records included, found without
 * kreloc.ko's debug info (Documentation/vmcore.md).  Its TAKEN time is the
 * panic's, when kreloc saw one.  A record whose memory in the dump is not
 * whole is left out, with a warning; an event the crash cut short is
 * named (the VMCORE_ header keys of SNAPSHOT.md).  Needs zlib.
 *
 * Return: 0, -EBADMSG (not an ELF crash dump, a truncated one, or kreloc's
 * records malformed), -ENODATA (no kreloc records in it, or none of the
 * dumped kernel), -EPROTONOSUPPORT (a newer kreloc's layout), -ENOTUNIQ
 * (records of several boots that VMCOREINFO does not tell apart),
 * -EOPNOTSUPP (built without zlib), -ENOMEM, or the file's errno.
 */
KRELOC_API int kreloc_snapshot_vmcore(const char *path, struct kreloc_snapshot **snap);

/**
 * kreloc_snapshot_write() - write a snapshot in the current format
 * @snap:	the snapshot
 * @f:		where to
 *
 * Return: 0, or a negative errno of the stream.
 */
KRELOC_API int kreloc_snapshot_write(const struct kreloc_snapshot *snap, FILE *f);

/**
 * kreloc_snapshot_free() - drop the caller's reference to a snapshot
 * @snap:	the snapshot, or NULL (ignored)
 *
 * The snapshot is freed when the last resolver made from it is freed too:
 * a resolver holds a reference, so the two may be freed in any order.
 */
KRELOC_API void kreloc_snapshot_free(struct kreloc_snapshot *snap);

/* A value the kernel may not have published. */
struct kreloc_value {
	uint64_t value;
	bool known;
};

struct kreloc_snapshot_info {
	unsigned int format;		/* version of the file read (the current one when live) */
	const char *osrelease;		/* strings are "-" when unknown */
	const char *arch;		/* `uname -m` */
	const char *endian;		/* little, big */
	const char *elf_abi;		/* v1, v2 on ppc64; "-" elsewhere */
	const char *build_id;		/* the kernel image's GNU build id, hex */
	const char *status;		/* ok, or why offsets are missing */
	const char *init;		/* live, freed */
	const char *linked_source;	/* where kreloc's link-time data came from; NULL if unknown */
	struct kreloc_value generation, kerneloffset, ref_linked, ref_runtime;
	size_t nr_sections, nr_anchors, nr_modules;
	bool modules_tracked;		/* live: the module has module records at all */
};

/**
 * kreloc_snapshot_info() - the snapshot's header
 * @snap:	the snapshot
 * @info:	filled in
 * @sz:		sizeof(*info) as the caller knows it
 *
 * Return: 0, or -EINVAL (NULL @snap or @info).
 */
KRELOC_API int kreloc_snapshot_info(const struct kreloc_snapshot *snap,
				    struct kreloc_snapshot_info *info, size_t sz);

struct kreloc_section_info {
	const char *name;		/* text, rodata, init.text, ... */
	struct kreloc_value linked, runtime, size, offset;
	const char *status;		/* ok, freed, mismatch, unknown (or newer) */
	bool usable;			/* its offset is published: addresses in it resolve */
};

/**
 * kreloc_snapshot_section() - a core kernel section
 * @snap:	the snapshot
 * @i:		0 .. nr_sections - 1
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Return: 0, or -ERANGE past the last one.
 */
KRELOC_API int kreloc_snapshot_section(const struct kreloc_snapshot *snap, size_t i,
				       struct kreloc_section_info *info, size_t sz);

struct kreloc_anchor_info {
	const char *name;
	uint64_t linked;		/* link-time address the running kernel confirmed */
	const char *section;
};

/**
 * kreloc_snapshot_anchor() - an anchor symbol
 * @snap:	the snapshot
 * @i:		0 .. nr_anchors - 1
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Return: 0, or -ERANGE.
 */
KRELOC_API int kreloc_snapshot_anchor(const struct kreloc_snapshot *snap, size_t i,
				      struct kreloc_anchor_info *info, size_t sz);

/* A module record's state, as the kernel's MODULE_STATE_* (kreloc 0.3). */
enum kreloc_module_state {
	KRELOC_MODULE_STATE_OTHER = 0,	/* one a newer kreloc wrote: the state string says */
	KRELOC_MODULE_STATE_COMING,	/* loaded, its ->init not returned yet */
	KRELOC_MODULE_STATE_LIVE,
	KRELOC_MODULE_STATE_GOING,	/* being unloaded, or its ->init failed */
	KRELOC_MODULE_STATE_GONE,	/* unloaded before the snapshot */
};

struct kreloc_module_info {
	const char *name;
	const char *state;		/* coming, live, going, gone (or newer) */
	const char *build_id;		/* hex, NULL if unknown */
	struct kreloc_value text_base, text_size, load_gen, unload_gen;
	size_t nr_mem;			/* regions and sections */
	bool loaded;			/* not gone */
	/* kreloc 0.3: */
	enum kreloc_module_state state_code KRELOC_APPENDED;	/* state as a value */
};

/**
 * kreloc_snapshot_module() - a module record (a module from load to unload)
 * @snap:	the snapshot
 * @i:		0 .. nr_modules - 1
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Return: 0, or -ERANGE.
 */
KRELOC_API int kreloc_snapshot_module(const struct kreloc_snapshot *snap, size_t i,
				      struct kreloc_module_info *info, size_t sz);

enum kreloc_mem_kind {
	KRELOC_MEM_REGION,		/* a memory region (text, data, init.text, ...) */
	KRELOC_MEM_SECTION,		/* an ELF section of the .ko */
};

/* A region's or section's state (kreloc 0.3). */
enum kreloc_mem_state {
	KRELOC_MEM_STATE_OTHER = 0,	/* one a newer kreloc wrote: the state string says */
	KRELOC_MEM_STATE_LIVE,		/* holds the record's code or data */
	KRELOC_MEM_STATE_FREED,		/* init memory, freed when ->init returned */
	KRELOC_MEM_STATE_GONE,		/* the record was unloaded */
};

struct kreloc_mem_info {
	enum kreloc_mem_kind kind;
	const char *name;
	struct kreloc_value address, size;
	const char *state;		/* live, freed, gone (or newer) */
	bool placed;			/* a section holding code or data for the record's whole life */
	/* kreloc 0.3: */
	enum kreloc_mem_state state_code KRELOC_APPENDED;	/* state as a value */
};

/**
 * kreloc_snapshot_module_mem() - a region or section of a module record
 * @snap:	the snapshot
 * @mod:	the record
 * @i:		0 .. nr_mem - 1
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Return: 0, or -ERANGE.
 */
KRELOC_API int kreloc_snapshot_module_mem(const struct kreloc_snapshot *snap, size_t mod,
					  size_t i, struct kreloc_mem_info *info, size_t sz);

/**
 * kreloc_snapshot_module_find() - a module record by name
 * @snap:	the snapshot
 * @name:	module name ('-' and '_' alike)
 * @load_gen:	the record's LOAD_GEN, or NULL for the newest record of @name
 *
 * Return: the record's index, or -ENOENT.
 */
KRELOC_API int kreloc_snapshot_module_find(const struct kreloc_snapshot *snap, const char *name,
					   const uint64_t *load_gen);

/**
 * kreloc_snapshot_module_live_at() - was a record loaded at a generation
 * @snap:	the snapshot
 * @mod:	the record
 * @generation:	a GENERATION value (e.g. when a recording started)
 *
 * Return: 1 if it was loaded at or before @generation and not unloaded by
 * then, 0 if not, -ERANGE for a bad @mod.
 */
KRELOC_API int kreloc_snapshot_module_live_at(const struct kreloc_snapshot *snap, size_t mod,
					      uint64_t generation);

/**
 * kreloc_snapshot_module_superseded() - a newer record in an older one's memory
 * @snap:	the snapshot
 * @mod:	the record
 *
 * Return: the index of a record loaded later into memory that overlaps
 * @mod's regions, or -ENOENT if there is none (-ERANGE for a bad @mod).
 */
KRELOC_API int kreloc_snapshot_module_superseded(const struct kreloc_snapshot *snap, size_t mod);

/* ------------------------------------------------------------------ time */

/*
 * The clocks kreloc's times are in (snapshot format 3, kreloc 0.2 and
 * later): those perf and ftrace stamp their events with.
 */
enum kreloc_clock {
	KRELOC_CLOCK_LOCAL,		/* local_clock(): perf's default, ftrace's "perf" */
	KRELOC_CLOCK_MONOTONIC,		/* CLOCK_MONOTONIC: perf -k monotonic, ftrace's "mono" */
};

/* What happened to a module record's memory. */
enum kreloc_module_event {
	KRELOC_EVENT_LOAD,		/* formed (COMING): its code may run from now */
	KRELOC_EVENT_INIT_DONE,		/* ->init returned or failed: init memory goes */
	KRELOC_EVENT_UNLOAD,		/* unloaded or failed (GOING): all memory goes */
};

/**
 * kreloc_snapshot_module_time() - when something happened to a record
 * @snap:	the snapshot
 * @mod:	the record
 * @ev:		what
 * @clock:	in which clock
 * @ns:		set to the time, in nanoseconds of @clock
 *
 * Return: 0, -ENODATA (kreloc did not see it happen: the module was loaded
 * before kreloc, it has not happened yet, or the snapshot predates times),
 * -ERANGE (bad @mod), -EINVAL (bad @ev or @clock, NULL @ns).
 */
KRELOC_API int kreloc_snapshot_module_time(const struct kreloc_snapshot *snap, size_t mod,
					   enum kreloc_module_event ev, enum kreloc_clock clock,
					   uint64_t *ns);

/**
 * kreloc_snapshot_module_mem_time() - when a region held a record's memory
 * @snap:	the snapshot
 * @mod:	the record
 * @i:		its region (kreloc_snapshot_module_mem(), kind KRELOC_MEM_REGION)
 * @clock:	in which clock
 * @from:	set to its load, 0 if kreloc did not see it (loaded before kreloc)
 * @until:	set to its end: the unload, for an init region ->init's end;
 *		one kreloc did not see ends at the load of a later record into
 *		its memory, else UINT64_MAX (still loaded, or not known)
 *
 * A profiler that knows when it saw an address keeps the maps it builds
 * from a record's regions for exactly this long.
 *
 * Return: 0, -ERANGE (bad @mod or @i), -EINVAL (not a region, bad @clock,
 * NULL pointers).
 */
KRELOC_API int kreloc_snapshot_module_mem_time(const struct kreloc_snapshot *snap, size_t mod,
					       size_t i, enum kreloc_clock clock, uint64_t *from,
					       uint64_t *until);

/* The snapshot's own times. */
enum kreloc_snapshot_time {
	KRELOC_TIME_TAKEN,		/* when it was read from the kernel */
	KRELOC_TIME_SINCE,		/* every module event from then on has times */
	KRELOC_TIME_INIT_FREED_BY,	/* the core kernel had freed its init memory by then */
};

/**
 * kreloc_snapshot_time() - one of the snapshot's times
 * @snap:	the snapshot
 * @what:	which
 * @clock:	in which clock
 * @ns:		set to the time
 *
 * Return: 0, -ENODATA (not known), -EINVAL.
 */
KRELOC_API int kreloc_snapshot_time(const struct kreloc_snapshot *snap,
				    enum kreloc_snapshot_time what, enum kreloc_clock clock,
				    uint64_t *ns);

/*
 * A time an address was seen at: [ns, ns + span_ns] of a clock.  span_ns
 * is the precision of the source (999 for perf script's microseconds), so
 * that a record that began or ended inside it is not excluded.
 */
struct kreloc_time {
	enum kreloc_clock clock;
	uint64_t ns;
	uint64_t span_ns;
};

/**
 * kreloc_snapshot_image_offset() - the one offset the whole image moved by
 * @snap:	the snapshot
 * @offset:	set to KERNELOFFSET
 *
 * x86_64 and ppc64 move the kernel as one piece: a debugger loads vmlinux
 * at this offset.
 *
 * Return: 0, or -ENODATA (no offset published, or sections that moved
 * apart: the message says which).
 */
KRELOC_API int kreloc_snapshot_image_offset(const struct kreloc_snapshot *snap, uint64_t *offset);

/**
 * kreloc_live_lockdown() - the kernel's lockdown mode
 * @root:	a directory standing for /, or NULL
 * @buf:	set to "none", "integrity", "confidentiality" or "" (unknown)
 * @len:	its size
 *
 * Return: 0, or -ENOENT when the kernel has no lockdown file.
 */
KRELOC_API int kreloc_live_lockdown(const char *root, char *buf, size_t len);

/* ------------------------------------------------------------------ specs and probes */

#define KRELOC_MODULE_NAME_MAX	56	/* MODULE_NAME_LEN, with the NUL */
#define KRELOC_SYMBOL_NAME_MAX	512	/* KSYM_NAME_LEN since v6.1, with the NUL */

struct kreloc_probe_spec {
	bool linked;			/* vmlinux:0xADDR: a link-time address */
	uint64_t linked_address;
	char module[KRELOC_MODULE_NAME_MAX];	/* "" for none; '-' written as '_' */
	char symbol[KRELOC_SYMBOL_NAME_MAX];	/* as given, a leading '.' kept */
	uint64_t offset;
};

/**
 * kreloc_probe_spec_parse() - parse a spec as kreloc's lookup takes it
 * @text:	sym, .sym, mod:sym, mod:.sym, each optionally +0xOFF or +DEC;
 *		or vmlinux:0xLINKED
 * @spec:	filled in
 * @sz:		sizeof(*spec)
 *
 * The grammar is the kreloc kernel module's own (the same code).
 *
 * Return: 0, or -EINVAL with the reason.
 */
KRELOC_API int kreloc_probe_spec_parse(const char *text, struct kreloc_probe_spec *spec,
				       size_t sz);

enum kreloc_probe_via {
	KRELOC_VIA_LOOKUP,		/* kreloc's lookup file (what kprobes does) */
	KRELOC_VIA_KALLSYMS,		/* /proc/kallsyms (an older kreloc without lookup) */
	KRELOC_VIA_SECTIONS,		/* vmlinux:0x...: the published text offset */
};

struct kreloc_probe_info {
	uint64_t address;		/* where a kprobe goes (ppc64: past the global entry) */
	char symbol[KRELOC_SYMBOL_NAME_MAX];	/* the name that matched ("" for vmlinux:) */
	char module[KRELOC_MODULE_NAME_MAX];	/* "" for the core kernel */
	enum kreloc_probe_via via;
};

/**
 * kreloc_probe_locate() - the runtime address a kprobe for a spec goes to
 * @live:	the running kernel (kreloc_snapshot_live())
 * @root:	a directory standing for /, or NULL
 * @text:	the spec (kreloc_probe_spec_parse())
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Asks kreloc's lookup file, which knows where kprobes put a probe; an
 * older kreloc without one gets /proc/kallsyms with the same ppc64
 * dot-first policy, SYM+OFF checked against the symbol's size.
 * vmlinux:0xLINKED goes through the published text offset.  Freed init
 * text (the kernel's or a module's) is refused.
 *
 * Return: 0, or -EINVAL (bad spec), -ENOENT (no such symbol), -ENOTUNIQ
 * (several), -ERANGE (offset past the symbol, address outside text),
 * -EACCES (freed init text: the kernel would refuse a probe there),
 * -EPERM (the kernel refused: lockdown or credentials, the message says
 * which), -ENODATA (no published offset), or the lookup file's errno.
 */
KRELOC_API int kreloc_probe_locate(const struct kreloc_snapshot *live, const char *root,
				   const char *text, struct kreloc_probe_info *info, size_t sz);

/* ------------------------------------------------------------------ kernel files */

/*
 * Where the files of a snapshot's kernel are found: the vmlinux (or a
 * map) of its build, the .ko of each module record.  Local files come
 * first; with debuginfod, a file missing locally is fetched by build id
 * from the servers in DEBUGINFOD_URLS (into DEBUGINFOD_CACHE_PATH), asking
 * for the executable and for the debuginfo, never by release name.  A
 * kreloc_files caches what it parsed and fetched by build id, so resolvers
 * of many snapshots of one build (a fleet) read and fetch each file once.
 */
struct kreloc_files;

struct kreloc_files_opts {
	size_t sz;
	const char *modules_dir;	/* searched recursively for NAME.ko[.xz|.zst|.gz] */
	bool debuginfod;		/* fetch what is missing locally (needs DEBUGINFOD_URLS) */
	bool default_paths;		/* also where distributions install vmlinux with symbols */
};

/**
 * kreloc_files_new() - a place to find kernel files
 * @opts:	options, or NULL for none (no modules, no debuginfod)
 * @files:	set to the new object
 *
 * Return: 0, or -ENOTDIR (modules_dir), -ENOSYS (debuginfod asked for, but
 * not available: the message says why), -EINVAL (debuginfod without
 * DEBUGINFOD_URLS; @opts not valid, see the conventions), -ENOMEM.
 */
KRELOC_API int kreloc_files_new(const struct kreloc_files_opts *opts, struct kreloc_files **files);

/**
 * kreloc_files_free() - drop the caller's reference
 * @files:	the object, or NULL (ignored); freed when the last resolver
 *		using it is freed too
 */
KRELOC_API void kreloc_files_free(struct kreloc_files *files);

/* Where a file came from. */
enum kreloc_origin {
	KRELOC_ORIGIN_NONE,
	KRELOC_ORIGIN_LOCAL,		/* given, or found in a local directory */
	KRELOC_ORIGIN_EXECUTABLE,	/* debuginfod, as the build id's executable */
	KRELOC_ORIGIN_DEBUGINFO,	/* debuginfod, as the build id's debuginfo */
};

/**
 * kreloc_origin_name() - "local", "debuginfod executable", "debuginfod debuginfo"
 * @o:		an origin
 *
 * Return: the name, or NULL for an unknown @o.
 */
KRELOC_API const char *kreloc_origin_name(enum kreloc_origin o);

/* ------------------------------------------------------------------ resolvers */

struct kreloc_resolver;

enum kreloc_map_kind {
	KRELOC_MAP_NONE,		/* find the vmlinux by build id (files); or modules only */
	KRELOC_MAP_SYSTEM_MAP,		/* a System.map */
	KRELOC_MAP_KALLSYMS,		/* /proc/kallsyms saved on any boot of the same build */
	KRELOC_MAP_VMLINUX,		/* an ELF vmlinux with a symbol table */
};

struct kreloc_resolver_opts {
	size_t sz;
	enum kreloc_map_kind map_kind;
	const char *map_path;		/* for SYSTEM_MAP, KALLSYMS, VMLINUX */
	struct kreloc_files *files;	/* NULL: modules_dir, debuginfod below */
	const char *modules_dir;	/* without files */
	bool debuginfod;		/* without files */
	bool modules_only;		/* KRELOC_MAP_NONE: no core kernel symbols at all */
};

/**
 * kreloc_resolver_new() - a resolver for one snapshot's addresses
 * @snap:	the snapshot (the resolver takes a reference)
 * @opts:	where the symbols come from, or NULL (the vmlinux of the
 *		snapshot's build id, from where distributions install it)
 * @r:		set to the new resolver
 *
 * The core kernel's map must be of the snapshot's build, as its content
 * says: a vmlinux's build id and linux_banner release, and any map's
 * _text and the snapshot's anchors.  A file's name is no more than a hint
 * (a System.map saved as System.map-host42 is taken when its content
 * agrees).  Modules' .ko files
 * are found (by build id) when an address first falls in them.
 *
 * Return: 0, or -EBADMSG (a malformed map: "FILE:LINE: reason"), -ESTALE
 * (a file of another build or release), -ENODATA (a map without symbols),
 * -ENOENT (no file: for debuginfod the message names the build id looked
 * for), -ECONNREFUSED, -ETIME, -EHOSTUNREACH... (the server could not be
 * asked: try again), -EINVAL (@opts not valid, see the conventions),
 * -ENOMEM.
 */
KRELOC_API int kreloc_resolver_new(const struct kreloc_snapshot *snap,
				   const struct kreloc_resolver_opts *opts,
				   struct kreloc_resolver **r);

/**
 * kreloc_resolver_free() - free a resolver (and its references)
 * @r:		the resolver, or NULL (ignored)
 */
KRELOC_API void kreloc_resolver_free(struct kreloc_resolver *r);

/* Options of kreloc_resolver_prefetch() (kreloc 0.3). */
struct kreloc_prefetch_opts {
	size_t sz;
	unsigned int timeout_ms;	/* a bound on the time debuginfod servers are asked
					 * for, or 0: none but theirs (DEBUGINFOD_TIMEOUT, per
					 * attempt, times DEBUGINFOD_RETRY_LIMIT) */
};

/**
 * kreloc_resolver_prefetch() - read every module record's file now, not on the hot path
 * @r:		the resolver
 * @opts:	options, or NULL (no bound)
 *
 * Finds, reads and checks the .ko of every module record of the snapshot
 * (locally, then by build id from debuginfod), as the first address in
 * each record would.  After it, nothing @r answers reads a file or asks a
 * server: kreloc_resolve(), kreloc_resolve_at(), kreloc_resolve_why(),
 * kreloc_resolve_candidates() and the kreloc_resolver_*() queries do no
 * file or network I/O, so a profiler's loop never blocks.  Without it,
 * each record's file is read when an address first falls in it.
 *
 * With @opts->timeout_ms, servers are asked for no longer than that in
 * all: the request in flight when it runs out is abandoned (and not
 * remembered as "no such file" in libdebuginfod's cache), nothing more is
 * asked, and the records not fetched get KRELOC_FILE_UNAVAILABLE.
 * Whatever it returns, every record is settled (its file, or why none).
 * Other threads may resolve with @r meanwhile.
 *
 * Return: the number of records with a usable .ko (KRELOC_FILE_OK), or
 * -ETIME (the time ran out), the error of a server that could not be
 * asked (-ECONNREFUSED, -EHOSTUNREACH...: some records unavailable),
 * -EINVAL (NULL @r, @opts not valid).
 */
KRELOC_API int kreloc_resolver_prefetch(struct kreloc_resolver *r,
					const struct kreloc_prefetch_opts *opts);

enum kreloc_place {
	KRELOC_UNKNOWN = 0,
	KRELOC_CORE = 1,		/* the core kernel */
	KRELOC_MODULE = 2,		/* a module record */
};

#define KRELOC_RESOLVE_LINKED	0x1	/* the address is a link-time one of the core kernel */

struct kreloc_addr_info {
	const char *symbol;		/* NULL: no symbol, offset is from the section */
	size_t symbol_len;
	uint64_t offset;
	const char *section;		/* core section (text, ...), ELF section (.text, ...), or
					 * a module's region (text, ...) outside its sections */
	int module;			/* record index, -1 for the core kernel */
	const char *module_name;	/* NULL for the core kernel */
	const char *module_state;	/* the record's state: live, gone, ... */
	struct kreloc_value load_gen;
	const char *note;		/* why the address has no symbol (a module's .ko not
					 * found, past the end of the symbol before it...), or NULL */
	/* kreloc 0.2: */
	uint64_t symbol_size;		/* its st_size (a module's, or a vmlinux's), 0 if unknown */
	/*
	 * The module records that held the address (at the time asked, or at
	 * any time): 1 for a module address that resolved.  2 or more: it is
	 * ambiguous, the call answered KRELOC_UNKNOWN and named none of them
	 * (kreloc_resolve_candidates() lists them).
	 */
	unsigned int candidates;
	/* kreloc 0.3: */
	enum kreloc_module_state module_state_code KRELOC_APPENDED;	/* module_state's value */
	uint64_t section_size;		/* section's size (a module section's from its .ko when
					 * the record has none), 0 if unknown */
	/*
	 * An address past the end of the symbol before it (the symbol's size
	 * known: a module's, or a vmlinux's), or past the end of a module's
	 * sections (in its region's padding), is in no symbol: symbol is
	 * NULL, offset is from section (the region then), note says which,
	 * and these name the symbol it lies past, how far and its size.
	 */
	const char *past_symbol;	/* NULL if not past one */
	uint64_t past_offset;		/* the address - past_symbol's start */
	uint64_t past_size;		/* past_symbol's size (0: unknown, past the sections) */
};

/**
 * kreloc_resolve() - a runtime address of the snapshot's boot
 * @r:		the resolver
 * @addr:	the address (with KRELOC_RESOLVE_LINKED a link-time one)
 * @flags:	KRELOC_RESOLVE_*
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * A module address resolves only if one module record ever held it: the
 * loader reuses freed memory, so an address two records held (one
 * unloaded, one loaded after) is ambiguous without the time it was seen
 * (kreloc_resolve_at()), and no record is named alone.  Neither this nor
 * kreloc_resolve_why() sets kreloc_errmsg(): they are the fast path.
 *
 * Return: KRELOC_CORE or KRELOC_MODULE, or KRELOC_UNKNOWN (0) when the
 * snapshot does not place @addr, or places it in several records
 * (info->candidates > 1); kreloc_resolve_why() says which.
 */
KRELOC_API int kreloc_resolve(const struct kreloc_resolver *r, uint64_t addr, unsigned int flags,
			      struct kreloc_addr_info *info, size_t sz);

/**
 * kreloc_resolve_at() - an address of the snapshot's boot, seen at a time
 * @r:		the resolver
 * @addr:	the address
 * @flags:	KRELOC_RESOLVE_*
 * @when:	when it was seen, or NULL (as kreloc_resolve())
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * A module address resolves to the record whose memory held it at @when:
 * a module unloaded before then, or loaded after, is not a candidate.
 * Snapshots without times (format 2 and older) keep every record a
 * candidate.
 *
 * Return: as kreloc_resolve(); KRELOC_UNKNOWN with info->candidates > 1
 * when several records held it at @when.
 */
KRELOC_API int kreloc_resolve_at(const struct kreloc_resolver *r, uint64_t addr,
				 unsigned int flags, const struct kreloc_time *when,
				 struct kreloc_addr_info *info, size_t sz);

typedef int (*kreloc_candidate_fn_t)(void *ctx, const struct kreloc_addr_info *info);

/**
 * kreloc_resolve_candidates() - every module record that held an address
 * @r:		the resolver
 * @addr:	a runtime address
 * @when:	when it was seen, or NULL for at any time
 * @fn:		called with each record's resolution, newest record first
 *		(info->candidates holds their number); nonzero stops (see the
 *		conventions)
 * @ctx:	passed to @fn, or NULL
 *
 * Return: the number of records, or the stop (@fn's value if negative,
 * else -ECANCELED), -EINVAL.
 */
KRELOC_API int kreloc_resolve_candidates(const struct kreloc_resolver *r, uint64_t addr,
					 const struct kreloc_time *when,
					 kreloc_candidate_fn_t fn, void *ctx);

/**
 * kreloc_resolve_why() - why an address did not resolve
 * @r:		the resolver
 * @addr:	the address
 * @flags:	KRELOC_RESOLVE_*
 * @buf:	set to a few words: in no section or record, in a section
 *		without a published offset, a link-time address given as a
 *		runtime one (naming the vmlinux:0x form), ambiguous (naming
 *		the records as NAME@LOAD_GEN)...
 * @len:	its size
 *
 * Return: @buf (with a NULL @r, the words say so), or NULL for a NULL
 * @buf or a zero @len.
 */
KRELOC_API const char *kreloc_resolve_why(const struct kreloc_resolver *r, uint64_t addr,
					  unsigned int flags, char *buf, size_t len);

/**
 * kreloc_resolve_why_at() - why an address seen at a time did not resolve
 * @r:		the resolver
 * @addr:	the address
 * @flags:	KRELOC_RESOLVE_*
 * @when:	as given to kreloc_resolve_at(), or NULL
 * @buf:	as kreloc_resolve_why(), and: no record held it then
 * @len:	its size
 *
 * Return: as kreloc_resolve_why().
 */
KRELOC_API const char *kreloc_resolve_why_at(const struct kreloc_resolver *r, uint64_t addr,
					     unsigned int flags, const struct kreloc_time *when,
					     char *buf, size_t len);

struct kreloc_file_info {
	const char *path;		/* NULL if none */
	enum kreloc_origin origin;
	const char *build_id;		/* hex, "" if the file has none */
	bool compressed;		/* .ko.xz/.zst/.gz (kreloc_resolver_module_image() unpacks) */
};

/**
 * kreloc_resolver_core_file() - the file the core kernel's symbols come from
 * @r:		the resolver
 * @info:	filled in (path NULL for a resolver without core symbols)
 * @sz:		sizeof(*info)
 *
 * Return: 0, or -EINVAL (NULL @r or @info).
 */
KRELOC_API int kreloc_resolver_core_file(const struct kreloc_resolver *r,
					 struct kreloc_file_info *info, size_t sz);

/* A symbol at its runtime address, with its /proc/kallsyms type letter. */
struct kreloc_symbol {
	uint64_t address;
	char type;
	const char *name;
	/* kreloc 0.2: */
	uint64_t size;			/* st_size where the source has one (a .ko, a vmlinux;
					 * not a map), a section's size for sections; else 0 */
};

typedef int (*kreloc_symbol_fn_t)(void *ctx, const struct kreloc_symbol *sym);

/**
 * kreloc_resolver_core_symbols() - the core kernel's symbols of this boot
 * @r:		the resolver
 * @fn:		called for each in the map's order; nonzero stops
 * @ctx:	passed to @fn, or NULL
 * @left_out:	set to the number of symbols in sections without a
 *		published offset, which are not given; or NULL
 *
 * Absolute symbols, and x86_64's per-CPU ones below the lowest section,
 * are given unmoved, as /proc/kallsyms lists them.
 *
 * Return: 0, the stop (@fn's value if negative, else -ECANCELED), or
 * -ENODATA (no core symbols).
 */
KRELOC_API int kreloc_resolver_core_symbols(const struct kreloc_resolver *r,
					    kreloc_symbol_fn_t fn, void *ctx, size_t *left_out);

enum kreloc_file_status {
	KRELOC_FILE_OK,
	KRELOC_FILE_MISSING,		/* no file: no directory, no file of the name or build id */
	KRELOC_FILE_MISMATCH,		/* a file, but not the module that was loaded */
	KRELOC_FILE_UNAVAILABLE,	/* debuginfod could not be asked (down, too slow) */
	/* kreloc 0.3: */
	KRELOC_FILE_CORRUPT,		/* a file that may be the one cannot be read: truncated,
					 * bad compression, not ELF (why says which file and why) */
};

struct kreloc_module_file_info {
	enum kreloc_file_status status;
	const char *why;		/* the reason (also how an unusual choice was made), or NULL */
	struct kreloc_file_info file;	/* path NULL unless a file was found */
};

/**
 * kreloc_resolver_module_file() - the .ko of a module record
 * @r:		the resolver
 * @mod:	the record
 * @info:	filled in
 * @sz:		sizeof(*info)
 *
 * Finds the file (once) as lookups do: by the record's build id, locally
 * then from debuginfod; a record without one (an old snapshot) takes the
 * only file of its name whose section layout is the record's.  The file
 * is checked: its .modinfo name and release, and its section sizes fit
 * the recorded addresses as the kernel's loader packs them.
 *
 * Return: 0 (whatever the status), -ERANGE for a bad @mod, -ENOMEM.
 */
KRELOC_API int kreloc_resolver_module_file(const struct kreloc_resolver *r, size_t mod,
					   struct kreloc_module_file_info *info, size_t sz);

/**
 * kreloc_resolver_module_image() - the ELF bytes of a record's .ko, unpacked
 * @r:		the resolver
 * @mod:	the record (its file status KRELOC_FILE_OK)
 * @data:	set to the bytes (owned by the resolver's files)
 * @len:	set to their number
 *
 * Return: 0, or -ENOENT (no usable file), -ERANGE.
 */
KRELOC_API int kreloc_resolver_module_image(const struct kreloc_resolver *r, size_t mod,
					    const void **data, size_t *len);

/**
 * kreloc_resolver_module_symbols() - a record's symbols at their addresses
 * @r:		the resolver
 * @mod:	the record (its file status KRELOC_FILE_OK)
 * @fn:		called for each symbol of a placed section (see
 *		kreloc_mem_info.placed), with the letter /proc/kallsyms
 *		gives it (upper case when the module exports it)
 * @ctx:	passed to @fn, or NULL
 *
 * Return: the number of symbols, the stop (@fn's value if negative, else
 * -ECANCELED), or -ENOENT (no usable file), -ERANGE.
 */
KRELOC_API int kreloc_resolver_module_symbols(const struct kreloc_resolver *r, size_t mod,
					      kreloc_symbol_fn_t fn, void *ctx);

/**
 * kreloc_resolver_module_symbols_all() - every symbol a record's memory held
 * @r:		the resolver
 * @mod:	the record (its file status KRELOC_FILE_OK)
 * @fn:		called for each symbol of every section the record placed,
 *		its init sections included when they are freed (their
 *		addresses held them while ->init ran), with its st_size
 * @ctx:	passed to @fn, or NULL
 *
 * What a profiler needs for samples taken at any time of the record's
 * life (kreloc_snapshot_module_time() says when each region lived).
 *
 * Return: as kreloc_resolver_module_symbols().
 */
KRELOC_API int kreloc_resolver_module_symbols_all(const struct kreloc_resolver *r, size_t mod,
						  kreloc_symbol_fn_t fn, void *ctx);

/**
 * kreloc_resolver_module_sections() - where a debugger places a record's .ko
 * @r:		the resolver
 * @mod:	the record (its file status KRELOC_FILE_OK)
 * @fn:		called with each section the kernel placed for the record's
 *		life that the .ko loads (allocated, non-empty), in record
 *		order; its sym has the section's name and address, type 0
 * @ctx:	passed to @fn, or NULL
 *
 * Return: the number of sections, the stop (@fn's value if negative, else
 * -ECANCELED), or -ENOENT, -ERANGE.
 */
KRELOC_API int kreloc_resolver_module_sections(const struct kreloc_resolver *r, size_t mod,
					       kreloc_symbol_fn_t fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
