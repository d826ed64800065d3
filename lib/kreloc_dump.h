/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * kreloc_dump.h - how the kreloc module leaves its records in memory for a
 * crash dump to carry (presentation/dump.c), and what a dump reader
 * (tools/lib/kreloc/vmcore.c) checks.  Documentation/vmcore.md says why.
 *
 * Everything is reached by physical address from one descriptor, which a
 * reader finds by scanning the dump's memory for its magic at
 * KRELOC_DUMP_ALIGN boundaries and accepts only where its own physical
 * address (@self) is where it was found and its crc matches.  The
 * descriptor points to a table of slots; each slot holds the physical
 * address of a blob or 0.  A blob is never changed once a slot points to
 * it: a change writes a new blob and stores its address in the slot, one
 * aligned 64-bit store.  A blob holds text in the format of the debugfs
 * files, so readers parse it as they parse those.
 *
 * Numbers are in the kernel's byte order (@byte_order reads as
 * KRELOC_DUMP_BYTE_ORDER in it); every member is of a fixed size at a
 * fixed offset.  A crc is CRC-32 (IEEE 802.3, as zlib's crc32()) of the
 * bytes it covers.
 */
#ifndef _KRELOC_DUMP_H
#define _KRELOC_DUMP_H

#include "kreloc_types.h"

#define KRELOC_DUMP_MAGIC	"\x7fKRELOC-VMCORE\x9c\x41"
#define KRELOC_DUMP_MAGIC_LEN	16
#define KRELOC_DUMP_VERSION	1
#define KRELOC_DUMP_BYTE_ORDER	0x01020304u
/* The descriptor starts at a multiple of this physical address. */
#define KRELOC_DUMP_ALIGN	4096

/* desc.flags */
#define KRELOC_DUMP_F_DOT_SYMBOLS	0x1	/* ppc64 ELF ABIv1 */

/* desc.setup: kreloc's setup work still runs; else 0 or its -errno. */
#define KRELOC_DUMP_SETUP_RUNNING	1

/* A module name with its NUL, as MODULE_NAME_LEN allows on every arch. */
#define KRELOC_DUMP_NAME_LEN	64

struct kreloc_dump_desc {
	u8 magic[KRELOC_DUMP_MAGIC_LEN];
	u32 version;
	u32 byte_order;
	u32 word_size;		/* sizeof(long) */
	u32 flags;
	u64 self;		/* the descriptor's physical address */
	u32 pad;
	u32 crc;		/* of every byte before it */
	/* Below: changed after boot, each member by one aligned store. */
	u64 table;		/* physical address of the table */
	u64 generation;		/* GENERATION after the last event published */
	u64 panic_ns[2];	/* local_clock(), CLOCK_MONOTONIC at panic() */
	u32 panicked;		/* panic_ns is set */
	s32 setup;		/* KRELOC_DUMP_SETUP_RUNNING, 0 or -errno */
	u32 busy;		/* a module event is being recorded */
	u32 unpublished;	/* records left out (out of memory) at the last end */
	char busy_name[KRELOC_DUMP_NAME_LEN];	/* its module, "" for several */
};

/* The bytes desc.crc covers. */
#define KRELOC_DUMP_DESC_CRC_LEN	44

#define KRELOC_DUMP_TABLE_MAGIC	0x4b52544cu	/* "KRTL" */

struct kreloc_dump_table {
	u32 magic;
	u32 nr_slots;
	u64 self;
	u32 pad;
	u32 crc;		/* of the 20 bytes before it */
	/* u64 slot[nr_slots] follows */
};

#define KRELOC_DUMP_TABLE_CRC_LEN	20

#define KRELOC_DUMP_BLOB_MAGIC	0x4b52424cu	/* "KRBL" */

/* What a blob holds: the text of a debugfs file, or of a module record. */
enum kreloc_dump_blob_type {
	KRELOC_DUMP_INFO = 1,		/* info */
	KRELOC_DUMP_SECTIONS = 2,	/* sections */
	KRELOC_DUMP_ANCHORS = 3,	/* anchors */
	KRELOC_DUMP_RECORD = 4,		/* its line of modules, then module/NAME@GEN */
};

/* Where a record stands in modules: live ones in load order, then the history. */
enum kreloc_dump_list {
	KRELOC_DUMP_LIVE = 0,		/* key: LOAD_GEN */
	KRELOC_DUMP_HISTORY = 1,	/* key: UNLOAD_GEN */
};

struct kreloc_dump_blob {
	u32 magic;
	u16 type;
	u16 list;
	u64 self;
	u64 key;
	u64 generation;		/* GENERATION when it was written */
	u32 len;		/* bytes of text after the header */
	u32 crc;		/* of the 36 bytes before it and of the text */
};

#define KRELOC_DUMP_BLOB_CRC_LEN	36
/* No blob's text is larger: a reader refuses one that says so. */
#define KRELOC_DUMP_BLOB_MAX	(1024u * 1024u)

#endif /* _KRELOC_DUMP_H */
