// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * vmcore.c - kreloc's records read from a crash dump: the snapshot
 * `kreloc snapshot` would have written on that kernel just before it
 * stopped.
 *
 * The module (presentation/dump.c) leaves its records where any ELF
 * vmcore carries them, in the kernel's memory, laid out as
 * lib/kreloc_dump.h says: a descriptor found by its magic at a 4 KiB
 * boundary of physical memory and accepted only where its own physical
 * address and its crc say it is one, then a table and blobs followed by
 * physical address.  No page table, no vmlinux, no debug info of
 * kreloc.ko.  Numbers are read in the dump's byte order (its ELF header);
 * the blobs hold the text of the debugfs files, parsed by debugfs.c's
 * parsers.  Documentation/vmcore.md has the why.
 *
 * What the dump cannot vouch for is never taken as true: a blob whose crc
 * fails is left out with a warning; an event the crash cut short is
 * named; records of another boot (a descriptor left in memory that a
 * kexec reboot did not clear) are told apart by the dump's VMCOREINFO.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef KRELOC_HAVE_ZLIB
#include <zlib.h>
#endif
#include "internal.h"
#include "debugfs.h"
#include "snapshot.h"
#include "vmcore.h"
#include "../../../lib/kreloc_dump.h"
#include "../../../lib/kreloc_note.h"

/* Bounds on what a dump may ask of the reader. */
#define VC_MAX_NOTES	(64u << 20)
#define VC_MAX_PHDRS	(1u << 22)
#define VC_MAX_SLOTS	(1u << 20)
#define VC_MAX_FOUND	16
#define VC_CHUNK	(4u << 20)

_Static_assert(sizeof(struct kreloc_dump_desc) == 160, "descriptor layout");
_Static_assert(sizeof(struct kreloc_dump_table) == 24, "table layout");
_Static_assert(sizeof(struct kreloc_dump_blob) == 40, "blob layout");
_Static_assert(offsetof(struct kreloc_dump_desc, crc) == KRELOC_DUMP_DESC_CRC_LEN, "desc crc");
_Static_assert(offsetof(struct kreloc_dump_table, crc) == KRELOC_DUMP_TABLE_CRC_LEN, "table crc");
_Static_assert(offsetof(struct kreloc_dump_blob, crc) == KRELOC_DUMP_BLOB_CRC_LEN, "blob crc");

struct vseg {
	uint64_t paddr, off, len;
};

struct vc {
	const char *path;
	int fd;
	bool swap;			/* the dump's byte order is not ours */
	bool big;
	unsigned int bits;		/* ELF class: 32 or 64 */
	unsigned int machine;
	struct vseg *seg;
	size_t nr_seg;
	uint8_t *notes;			/* every PT_NOTE, one after the other */
	size_t notes_len;
	const uint8_t *info;		/* VMCOREINFO text, or NULL */
	size_t info_len;
	char *err;
	size_t errlen;
};

/* A descriptor found valid, and what it says. */
struct vdesc {
	uint64_t pa;
	struct kreloc_dump_desc d;
};

static uint16_t g16(const struct vc *v, uint16_t x)
{
	return v->swap ? __builtin_bswap16(x) : x;
}

static uint32_t g32(const struct vc *v, uint32_t x)
{
	return v->swap ? __builtin_bswap32(x) : x;
}

static uint64_t g64(const struct vc *v, uint64_t x)
{
	return v->swap ? __builtin_bswap64(x) : x;
}

static uint32_t crc_of(const void *a, size_t alen, const void *b, size_t blen)
{
#ifdef KRELOC_HAVE_ZLIB
	uLong c = crc32(0L, Z_NULL, 0);

	c = crc32(c, a, (uInt)alen);
	if (blen)
		c = crc32(c, b, (uInt)blen);
	return (uint32_t)c;
#else
	(void)a, (void)alen, (void)b, (void)blen;
	return 0;
#endif
}

static int fail(struct vc *v, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct vc *v, int e, const char *fmt, ...)
{
	char msg[KR_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ksnap_seterr(v->err, v->errlen, "%s: %s", v->path, msg);
	return -e;
}

/* All of [off, off + len) of the file, or -1 (errno; EIO at its end). */
static int read_at(const struct vc *v, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(v->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct vseg *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* The segment holding physical address pa, or NULL. */
static const struct vseg *seg_of(const struct vc *v, uint64_t pa)
{
	size_t lo = 0, hi = v->nr_seg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct vseg *s = &v->seg[mid];

		if (pa < s->paddr)
			hi = mid;
		else if (pa - s->paddr >= s->len)
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}

/* len bytes of physical memory at pa; -1 with why set if the dump lacks any. */
static int read_phys(const struct vc *v, uint64_t pa, void *buf, size_t len, char *why,
		     size_t wlen)
{
	char *p = buf;

	while (len) {
		const struct vseg *s = seg_of(v, pa);
		uint64_t n;

		if (!s) {
			snprintf(why, wlen, "physical address 0x%" PRIx64 " is not in the dump", pa);
			return -1;
		}
		n = s->len - (pa - s->paddr);
		if (n > len)
			n = len;
		if (read_at(v, p, (size_t)n, s->off + (pa - s->paddr))) {
			snprintf(why, wlen, "physical address 0x%" PRIx64 ": %s", pa, strerror(errno));
			return -1;
		}
		p += n;
		pa += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- the ELF file ---- */

struct phdr {
	uint32_t type;
	uint64_t off, paddr, filesz;
};

static int read_phdrs(struct vc *v, uint64_t phoff, unsigned int phentsize, size_t phnum,
		      struct phdr **out)
{
	size_t want = v->bits == 64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	struct phdr *ph;
	unsigned char *raw;
	size_t i;

	if (phentsize != want)
		return fail(v, EBADMSG, "program header entries of %u bytes, not %zu", phentsize,
			    want);
	if (phnum > VC_MAX_PHDRS)
		return fail(v, EBADMSG, "%zu program headers: too many", phnum);
	raw = malloc(phnum * want + 1);
	ph = calloc(phnum + 1, sizeof(*ph));
	if (!raw || !ph) {
		free(raw);
		free(ph);
		return fail(v, ENOMEM, "out of memory");
	}
	if (read_at(v, raw, phnum * want, phoff)) {
		free(raw);
		free(ph);
		return fail(v, EBADMSG, "truncated: its program headers end past the end of the file");
	}
/* Program header i, of type T, its addresses read with G. */
#define VC_PHDR(T, G) do {						\
		T p;							\
									\
		memcpy(&p, raw + i * want, sizeof(p));			\
		ph[i].type = g32(v, p.p_type);				\
		ph[i].off = G(v, p.p_offset);				\
		ph[i].paddr = G(v, p.p_paddr);				\
		ph[i].filesz = G(v, p.p_filesz);			\
	} while (0)
	for (i = 0; i < phnum; i++) {
		if (v->bits == 64)
			VC_PHDR(Elf64_Phdr, g64);
		else
			VC_PHDR(Elf32_Phdr, g32);
	}
#undef VC_PHDR
	free(raw);
	*out = ph;
	return 0;
}

/* e_phnum, or with PN_XNUM the count in section header 0's sh_info. */
static int real_phnum(struct vc *v, uint64_t shoff, size_t *phnum)
{
	uint32_t info;

	if (*phnum != PN_XNUM)
		return 0;
	if (v->bits == 64) {
		Elf64_Shdr sh;

		if (!shoff || read_at(v, &sh, sizeof(sh), shoff))
			return fail(v, EBADMSG, "PN_XNUM program headers but no section header 0");
		info = g32(v, sh.sh_info);
	} else {
		Elf32_Shdr sh;

		if (!shoff || read_at(v, &sh, sizeof(sh), shoff))
			return fail(v, EBADMSG, "PN_XNUM program headers but no section header 0");
		info = g32(v, sh.sh_info);
	}
	*phnum = info;
	return 0;
}

static int add_notes(struct vc *v, const struct phdr *p)
{
	uint8_t *n;

	if (p->filesz > VC_MAX_NOTES || v->notes_len + p->filesz > VC_MAX_NOTES)
		return fail(v, EBADMSG, "notes of %" PRIu64 " bytes: too many", p->filesz);
	n = realloc(v->notes, v->notes_len + p->filesz + 1);
	if (!n)
		return fail(v, ENOMEM, "out of memory");
	v->notes = n;
	if (read_at(v, n + v->notes_len, (size_t)p->filesz, p->off))
		return fail(v, EBADMSG, "truncated: its notes end past the end of the file");
	v->notes_len += (size_t)p->filesz;
	return 0;
}

/* Open and check the ELF crash dump: its segments and VMCOREINFO. */
static int vc_open(struct vc *v)
{
	unsigned char id[EI_NIDENT];
	uint64_t phoff, shoff, fsize, end;
	unsigned int type, phentsize;
	const uint16_t one = 1;
	struct phdr *ph = NULL;
	const uint8_t *desc;
	struct stat st;
	size_t phnum, i;
	int ret, len;

	v->fd = open(v->path, O_RDONLY | O_CLOEXEC);
	if (v->fd < 0)
		return fail(v, errno, "%s", strerror(errno));
	if (fstat(v->fd, &st))
		return fail(v, errno, "%s", strerror(errno));
	fsize = (uint64_t)st.st_size;
	if (read_at(v, id, sizeof(id), 0) || memcmp(id, ELFMAG, SELFMAG))
		return fail(v, EBADMSG, "not an ELF file: a crash dump must be an ELF vmcore "
			    "(QEMU's dump-guest-memory, /proc/vmcore, makedumpfile -E)");
	if ((id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32) ||
	    (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB))
		return fail(v, EBADMSG, "ELF class %u, data %u: neither 32 nor 64 bits of either "
			    "byte order", id[EI_CLASS], id[EI_DATA]);
	v->bits = id[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	v->big = id[EI_DATA] == ELFDATA2MSB;
	v->swap = v->big == (*(const unsigned char *)&one == 1);
/* The fields of an ELF header of type T, its addresses read with G. */
#define VC_EHDR(T, G) do {							\
		T e;								\
									\
		if (read_at(v, &e, sizeof(e), 0))				\
			return fail(v, EBADMSG, "truncated ELF header");	\
		type = g16(v, e.e_type);					\
		v->machine = g16(v, e.e_machine);				\
		phoff = G(v, e.e_phoff);					\
		shoff = G(v, e.e_shoff);					\
		phentsize = g16(v, e.e_phentsize);				\
		phnum = g16(v, e.e_phnum);					\
	} while (0)
	if (v->bits == 64)
		VC_EHDR(Elf64_Ehdr, g64);
	else
		VC_EHDR(Elf32_Ehdr, g32);
#undef VC_EHDR
	if (type != ET_CORE)
		return fail(v, EBADMSG, "an ELF file of type %u, not a crash dump (ET_CORE): a "
			    "vmlinux or a module is not a dump", type);
	ret = real_phnum(v, shoff, &phnum);
	if (!ret)
		ret = read_phdrs(v, phoff, phentsize, phnum, &ph);
	if (ret)
		return ret;
	v->seg = calloc(phnum + 1, sizeof(*v->seg));
	if (!v->seg) {
		free(ph);
		return fail(v, ENOMEM, "out of memory");
	}
	for (i = 0; i < phnum && !ret; i++) {
		const struct phdr *p = &ph[i];

		if ((p->type != PT_LOAD && p->type != PT_NOTE) || !p->filesz)
			continue;
		end = p->off + p->filesz;
		if (end < p->off || end > fsize) {
			ret = fail(v, EBADMSG, "truncated: %s %zu (physical 0x%" PRIx64 ", %" PRIu64
				   " bytes) ends at byte %" PRIu64 " of the file, which has %"
				   PRIu64, p->type == PT_LOAD ? "PT_LOAD" : "PT_NOTE", i, p->paddr,
				   p->filesz, end, fsize);
			break;
		}
		if (p->type == PT_NOTE) {
			ret = add_notes(v, p);
		} else if (p->paddr + p->filesz >= p->paddr) {
			v->seg[v->nr_seg].paddr = p->paddr;
			v->seg[v->nr_seg].off = p->off;
			v->seg[v->nr_seg].len = p->filesz;
			v->nr_seg++;
		}
	}
	free(ph);
	if (ret)
		return ret;
	if (!v->nr_seg)
		return fail(v, EBADMSG, "no memory in it (no PT_LOAD segment)");
	qsort(v->seg, v->nr_seg, sizeof(*v->seg), seg_cmp);
	for (i = 1; i < v->nr_seg; i++)
		if (v->seg[i].paddr < v->seg[i - 1].paddr + v->seg[i - 1].len)
			return fail(v, EBADMSG, "PT_LOAD segments overlap at physical 0x%" PRIx64,
				    v->seg[i].paddr);
	len = v->notes ? kreloc_note_find(v->notes, v->notes_len, v->swap, "VMCOREINFO", 0,
					  &desc) : -ENOENT;
	if (len > 0) {
		v->info = desc;
		v->info_len = (size_t)len;
	}
	return 0;
}

/* A VMCOREINFO line's value ("KEY=VALUE"), or NULL. */
static const char *info_value(const struct vc *v, const char *key, char *buf, size_t len)
{
	const char *p = (const char *)v->info, *end = p + v->info_len;
	size_t k = strlen(key);

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > k && !memcmp(p, key, k) && p[k] == '=' &&
		    (size_t)(le - p - k - 1) < len) {
			memcpy(buf, p + k + 1, (size_t)(le - p - k - 1));
			buf[le - p - k - 1] = '\0';
			return buf;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* ---- kreloc's descriptor, table and blobs ---- */

static void desc_host(const struct vc *v, struct kreloc_dump_desc *d)
{
	d->version = g32(v, d->version);
	d->byte_order = g32(v, d->byte_order);
	d->word_size = g32(v, d->word_size);
	d->flags = g32(v, d->flags);
	d->self = g64(v, d->self);
	d->crc = g32(v, d->crc);
	d->table = g64(v, d->table);
	d->generation = g64(v, d->generation);
	d->panic_ns[0] = g64(v, d->panic_ns[0]);
	d->panic_ns[1] = g64(v, d->panic_ns[1]);
	d->panicked = g32(v, d->panicked);
	d->setup = (int32_t)g32(v, (uint32_t)d->setup);
	d->busy = g32(v, d->busy);
	d->unpublished = g32(v, d->unpublished);
	d->busy_name[sizeof(d->busy_name) - 1] = '\0';
}

/*
 * Is there a descriptor at pa (its magic is)?  1 with *d filled, 0 if
 * not (a copy of the magic elsewhere: kreloc.ko's own bytes), or a
 * negative errno for a descriptor this reader cannot read.
 */
static int desc_at(struct vc *v, uint64_t pa, struct kreloc_dump_desc *d)
{
	char why[128];

	if (read_phys(v, pa, d, sizeof(*d), why, sizeof(why)))
		return 0;
	if (crc_of(d, KRELOC_DUMP_DESC_CRC_LEN, NULL, 0) != g32(v, d->crc))
		return 0;
	desc_host(v, d);
	if (d->self != pa)
		return 0;
	if (d->byte_order != KRELOC_DUMP_BYTE_ORDER)
		return fail(v, EBADMSG, "kreloc's descriptor at physical 0x%" PRIx64 " is of the "
			    "other byte order than the dump's ELF header (%s-endian)", pa,
			    v->big ? "big" : "little");
	if (d->version > KRELOC_DUMP_VERSION)
		return fail(v, EPROTONOSUPPORT, "kreloc's records are in layout version %u, newer "
			    "than this kreloc reads (%d): use a newer kreloc", d->version,
			    KRELOC_DUMP_VERSION);
	return 1;
}

/* Every valid descriptor in the dump's memory, at most VC_MAX_FOUND. */
static int find_descs(struct vc *v, struct vdesc *found, size_t *nr)
{
	unsigned char *buf = malloc(VC_CHUNK);
	size_t i;
	int ret = 0;

	*nr = 0;
	if (!buf)
		return fail(v, ENOMEM, "out of memory");
	for (i = 0; i < v->nr_seg && !ret; i++) {
		const struct vseg *s = &v->seg[i];
		uint64_t end = s->paddr + s->len, pa;

		/* In chunks that start at a boundary: none has a magic cut in two. */
		pa = (s->paddr + KRELOC_DUMP_ALIGN - 1) & ~(uint64_t)(KRELOC_DUMP_ALIGN - 1);
		for (; pa < end && !ret; pa += VC_CHUNK) {
			uint64_t n = end - pa < VC_CHUNK ? end - pa : VC_CHUNK, p;

			if (read_at(v, buf, (size_t)n, s->off + (pa - s->paddr))) {
				ret = fail(v, EIO, "reading it: %s", strerror(errno));
				break;
			}
			for (p = pa; p - pa + KRELOC_DUMP_MAGIC_LEN <= n; p += KRELOC_DUMP_ALIGN) {
				int r;

				if (memcmp(buf + (p - pa), KRELOC_DUMP_MAGIC, KRELOC_DUMP_MAGIC_LEN))
					continue;
				r = desc_at(v, p, &found[*nr].d);
				if (r < 0) {
					ret = r;
					break;
				}
				if (!r)
					continue;
				found[*nr].pa = p;
				if (++*nr == VC_MAX_FOUND) {
					ret = fail(v, ENOTUNIQ, "more than %d kreloc descriptors in it",
						   VC_MAX_FOUND);
					break;
				}
			}
		}
	}
	free(buf);
	return ret;
}

/* One blob's text (malloc'ed, NUL-terminated), or NULL with why set. */
static char *read_blob(const struct vc *v, uint64_t pa, struct kreloc_dump_blob *b, char *why,
		       size_t wlen)
{
	struct kreloc_dump_blob raw;
	char *text;

	if (read_phys(v, pa, &raw, sizeof(raw), why, wlen))
		return NULL;
	*b = raw;
	b->magic = g32(v, raw.magic);
	b->type = g16(v, raw.type);
	b->list = g16(v, raw.list);
	b->self = g64(v, raw.self);
	b->key = g64(v, raw.key);
	b->generation = g64(v, raw.generation);
	b->len = g32(v, raw.len);
	b->crc = g32(v, raw.crc);
	if (b->magic != KRELOC_DUMP_BLOB_MAGIC || b->self != pa || b->len > KRELOC_DUMP_BLOB_MAX) {
		snprintf(why, wlen, "no blob header at physical 0x%" PRIx64, pa);
		return NULL;
	}
	text = malloc((size_t)b->len + 1);
	if (!text) {
		snprintf(why, wlen, "out of memory");
		return NULL;
	}
	if (read_phys(v, pa + sizeof(raw), text, b->len, why, wlen)) {
		free(text);
		return NULL;
	}
	if (crc_of(&raw, KRELOC_DUMP_BLOB_CRC_LEN, text, b->len) != b->crc) {
		snprintf(why, wlen, "crc mismatch at physical 0x%" PRIx64, pa);
		free(text);
		return NULL;
	}
	text[b->len] = '\0';
	return text;
}

/* A blob that was read whole. */
struct vblob {
	struct kreloc_dump_blob b;
	char *text;
	uint32_t slot;
};

struct vrecs {
	struct vblob core[3];		/* info, sections, anchors: text NULL if none */
	struct vblob *rec;
	size_t nr_rec;
	uint64_t torn;
};

static void vrecs_free(struct vrecs *r)
{
	size_t i;

	for (i = 0; i < 3; i++)
		free(r->core[i].text);
	for (i = 0; i < r->nr_rec; i++)
		free(r->rec[i].text);
	free(r->rec);
	memset(r, 0, sizeof(*r));
}

static int rec_cmp(const void *a, const void *b)
{
	const struct vblob *x = a, *y = b;

	if (x->b.list != y->b.list)
		return x->b.list < y->b.list ? -1 : 1;
	return x->b.key < y->b.key ? -1 : x->b.key > y->b.key;
}

/* The table's blobs; a blob that is not whole is counted (and warned of). */
static int read_blobs(struct vc *v, const struct vdesc *vd, struct vrecs *r, bool warn)
{
	struct kreloc_dump_table t;
	uint64_t *slot;
	char why[256];
	uint32_t i, n;

	memset(r, 0, sizeof(*r));
	if (read_phys(v, vd->d.table, &t, sizeof(t), why, sizeof(why)))
		return fail(v, EBADMSG, "kreloc's table: %s", why);
	if (crc_of(&t, KRELOC_DUMP_TABLE_CRC_LEN, NULL, 0) != g32(v, t.crc) ||
	    g32(v, t.magic) != KRELOC_DUMP_TABLE_MAGIC || g64(v, t.self) != vd->d.table ||
	    g32(v, t.nr_slots) > VC_MAX_SLOTS)
		return fail(v, EBADMSG, "kreloc's table at physical 0x%" PRIx64 " is not whole in "
			    "the dump", (uint64_t)vd->d.table);
	n = g32(v, t.nr_slots);
	slot = calloc((size_t)n + 1, sizeof(*slot));
	r->rec = calloc((size_t)n + 1, sizeof(*r->rec));
	if (!slot || !r->rec) {
		free(slot);
		return fail(v, ENOMEM, "out of memory");
	}
	if (read_phys(v, vd->d.table + sizeof(t), slot, (size_t)n * sizeof(*slot), why,
		      sizeof(why))) {
		free(slot);
		return fail(v, EBADMSG, "kreloc's table: %s", why);
	}
	for (i = 0; i < n; i++) {
		struct kreloc_dump_blob b;
		uint64_t pa = g64(v, slot[i]);
		char *text;

		if (!pa)
			continue;
		text = read_blob(v, pa, &b, why, sizeof(why));
		if (!text) {
			r->torn++;
			if (warn)
					kr_warn("%s: kreloc's %s in slot %" PRIu32 " is left out: %s (its "
					"memory is not whole in the dump)", v->path,
					i < 3 ? "core kernel text" : "module record", i, why);
			continue;
		}
		if (i < 3 && b.type == (uint16_t)(KRELOC_DUMP_INFO + i)) {
			r->core[i].b = b;
			r->core[i].text = text;
		} else if (i >= 3 && b.type == KRELOC_DUMP_RECORD) {
			r->rec[r->nr_rec].b = b;
			r->rec[r->nr_rec].text = text;
			r->rec[r->nr_rec].slot = i;
			r->nr_rec++;
		} else {
			free(text);
			r->torn++;
			if (warn)
				kr_warn("%s: kreloc's slot %" PRIu32 " holds a blob of type %u: "
					"left out", v->path, i, b.type);
		}
	}
	free(slot);
	qsort(r->rec, r->nr_rec, sizeof(*r->rec), rec_cmp);
	return 0;
}

/* ---- the snapshot ---- */

/* Parse text with one of debugfs.c's readers, as the file NAME of the dump. */
static int parse_text(struct vc *v, struct ksnap *s, int which, const char *text, size_t len,
		      const char *name)
{
	char path[4200], err[KR_ERR_MAX];
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s(%s)", v->path, name);
	if (!len)
		return which < 0 ? fail(v, EBADMSG, "kreloc's %s is empty", name) : 0;
	f = fmemopen((void *)text, len, "r");
	if (!f)
		return fail(v, ENOMEM, "%s", strerror(errno));
	r = which < 0 ? kreloc_read_info(s, f, path, err, sizeof(err)) :
	    kreloc_read_table_file(s, (enum kreloc_table_file)which, f, path, err, sizeof(err));
	fclose(f);
	if (r) {
		ksnap_seterr(v->err, v->errlen, "%s", err);
		return strstr(err, "out of memory") ? -ENOMEM : -EBADMSG;
	}
	return 0;
}

static int add_record(struct vc *v, struct ksnap *s, const struct vblob *rb)
{
	const char *nl = strchr(rb->text, '\n');
	size_t first = nl ? (size_t)(nl - rb->text) + 1 : strlen(rb->text);
	size_t before = s->nr_mods;
	char name[64];
	int r;

	snprintf(name, sizeof(name), "record in slot %" PRIu32, rb->slot);
	r = parse_text(v, s, KRELOC_FILE_MODULES, rb->text, first, name);
	if (r)
		return r;
	if (s->nr_mods != before + 1)
		return fail(v, EBADMSG, "kreloc's %s does not start with one line of modules",
			    name);
	return parse_text(v, s, KRELOC_FILE_MODULE, rb->text + first, strlen(rb->text + first),
			  name);
}

/*
 * Do the records name the dump's kernel?  0 if they do (or the dump cannot
 * tell: no VMCOREINFO), 1 if not, with why.
 */
static int other_kernel(const struct vc *v, const struct ksnap *s, char *why, size_t wlen)
{
	char buf[128];
	const char *rel = v->info ? info_value(v, "OSRELEASE", buf, sizeof(buf)) : NULL;
	u64 off;

	if (rel && s->osrelease && strcmp(rel, s->osrelease)) {
		snprintf(why, wlen, "they are of OSRELEASE %s, the dump's VMCOREINFO of %s",
			 s->osrelease, rel);
		return 1;
	}
	if (v->info && s->kerneloffset.ok &&
	    !kreloc_vmcoreinfo_hex(v->info, v->info_len, "KERNELOFFSET", &off) &&
	    off != s->kerneloffset.v) {
		snprintf(why, wlen, "they are of KERNELOFFSET 0x%" PRIx64 ", the dump's "
			 "VMCOREINFO says 0x%" PRIx64 " (records of an earlier boot, left in "
			 "memory by a kexec reboot?)", s->kerneloffset.v, (uint64_t)off);
		return 1;
	}
	return 0;
}

/* The ELF machine a `uname -m` runs as, or 0 if this reader does not know. */
static unsigned int arch_machine(const char *arch)
{
	static const struct { const char *arch; unsigned int em; } t[] = {
		{ "x86_64", EM_X86_64 }, { "aarch64", EM_AARCH64 }, { "aarch64_be", EM_AARCH64 },
		{ "ppc64", EM_PPC64 }, { "ppc64le", EM_PPC64 }, { "s390x", EM_S390 },
		{ "riscv64", EM_RISCV }, { "i686", EM_386 }, { "i386", EM_386 },
		{ "loongarch64", 258 }, { "mips64", EM_MIPS },
	};
	size_t i;

	for (i = 0; arch && i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(arch, t[i].arch))
			return t[i].em;
	return 0;
}

/* The snapshot from one descriptor's records; warn: of what it leaves out. */
static int build(struct vc *v, const struct vdesc *vd, struct ksnap *s, bool warn)
{
	static const char *const core_name[] = { "info", "sections", "anchors" };
	struct vrecs r;
	char why[512];
	size_t i;
	int ret, c;
	unsigned int em;

	memset(s, 0, sizeof(*s));
	if (vd->d.setup == KRELOC_DUMP_SETUP_RUNNING)
		return fail(v, ENODATA, "kreloc had not finished its setup when the kernel "
			    "stopped: it had no relocation to publish yet");
	if (vd->d.setup < 0)
		return fail(v, ENODATA, "kreloc's setup had failed on that kernel (%s): it "
			    "published no relocation", strerror(-vd->d.setup));
	ret = read_blobs(v, vd, &r, warn);
	if (ret) {
		vrecs_free(&r);	/* what read_blobs() allocated before it failed */
		return ret;
	}
	s->version = KSNAP_VERSION;
	for (i = 0; i < 3 && !ret; i++) {
		if (!r.core[i].text)
			ret = fail(v, ENODATA, "kreloc's %s is not in the dump%s", core_name[i],
				   r.torn ? " whole" : " (out of memory when it was written)");
		else
			ret = parse_text(v, s, i ? (int)(i == 1 ? KRELOC_FILE_SECTIONS :
							   KRELOC_FILE_ANCHORS) : -1,
					 r.core[i].text, r.core[i].b.len, core_name[i]);
	}
	for (i = 0; i < r.nr_rec && !ret; i++)
		ret = add_record(v, s, &r.rec[i]);
	if (!ret && (!s->osrelease || !s->arch || !s->status))
		ret = fail(v, EBADMSG, "kreloc's info lacks OSRELEASE, ARCH or STATUS");
	if (!ret && other_kernel(v, s, why, sizeof(why)))
		ret = fail(v, ENODATA, "kreloc's records in it are not of the dumped kernel: %s",
			   why);
	em = ret ? 0 : arch_machine(s->arch);
	if (em && em != v->machine)
		ret = fail(v, EBADMSG, "a dump of ELF machine %u, but kreloc's records are of ARCH "
			   "%s (machine %u)", v->machine, s->arch, em);
	if (ret)
		goto out;
	/* What the dump says of the moment: GENERATION after the last event, the panic. */
	s->generation.v = vd->d.generation;
	s->generation.ok = 1;
	for (c = 0; c < KS_NR_CLOCKS; c++) {
		s->taken[c].v = vd->d.panicked ? vd->d.panic_ns[c] : 0;
		s->taken[c].ok = vd->d.panicked != 0;
	}
	s->vmcore_torn.v = r.torn;
	s->vmcore_torn.ok = 1;
	s->vmcore_unpublished.v = vd->d.unpublished;
	s->vmcore_unpublished.ok = 1;
	s->vmcore_busy = strdup(!vd->d.busy ? "-" : vd->d.busy_name[0] ? vd->d.busy_name : "*");
	s->endian = strdup(v->big ? "big" : "little");
	s->abi = strdup(ksnap_abi(s->arch, vd->d.flags & KRELOC_DUMP_F_DOT_SYMBOLS));
	if (!s->vmcore_busy || !s->endian || !s->abi || ksnap_finish(s)) {
		ret = fail(v, ENOMEM, "out of memory");
		goto out;
	}
	if (warn && vd->d.busy)
		kr_warn("%s: the kernel stopped while kreloc recorded an event of %s: %s as they "
			"were before that event (VMCORE_BUSY)", v->path,
			vd->d.busy_name[0] ? vd->d.busy_name : "several modules",
			vd->d.busy_name[0] ? "its records are" : "their records are");
	if (warn && vd->d.unpublished)
		kr_warn("%s: kreloc had %" PRIu32 " module record(s) it could not publish (out of "
			"memory): they are not in the snapshot (VMCORE_UNPUBLISHED)", v->path,
			vd->d.unpublished);
	if (warn && !v->info)
		kr_warn("%s: no VMCOREINFO note: kreloc's records could not be checked against "
			"the dumped kernel (QEMU: -device vmcoreinfo)", v->path);
out:
	vrecs_free(&r);
	if (ret)
		ksnap_free(s);
	return ret;
}

int kvmcore_read(struct ksnap *s, const char *path, char *err, size_t errlen)
{
	struct vc v = { .path = path, .fd = -1, .err = err, .errlen = errlen };
	struct vdesc *found = NULL;
	struct ksnap one;
	size_t nr = 0, i, ok = 0, pick = 0;
	int ret, first_err = 0;
	char first[KR_ERR_MAX] = "";

	memset(s, 0, sizeof(*s));
#ifndef KRELOC_HAVE_ZLIB
	return fail(&v, EOPNOTSUPP, "this libkreloc was built without zlib, whose crc32() "
		    "checks kreloc's records in a dump");
#endif
	ret = vc_open(&v);
	if (!ret) {
		found = calloc(VC_MAX_FOUND, sizeof(*found));
		ret = found ? find_descs(&v, found, &nr) : fail(&v, ENOMEM, "out of memory");
	}
	if (!ret && !nr)
		ret = fail(&v, ENODATA, "no kreloc records in it: kreloc was not loaded on the "
			   "dumped kernel (or its memory is not in the dump)");
	/* Several: a kexec reboot may leave an earlier boot's; VMCOREINFO tells. */
	for (i = 0; !ret && i < nr; i++) {
		int r = build(&v, &found[i], &one, false);

		if (r) {
			if (!first_err) {
				first_err = r;
				snprintf(first, sizeof(first), "%s", err);
			}
			continue;
		}
		ksnap_free(&one);
		pick = i;
		ok++;
	}
	if (!ret && ok > 1)
		ret = fail(&v, ENOTUNIQ, "kreloc records of %zu boots in it, which its VMCOREINFO "
			   "does not tell apart", ok);
	else if (!ret && !ok) {
		snprintf(err, errlen, "%s", first);
		ret = first_err;
	} else if (!ret) {
		ret = build(&v, &found[pick], s, true);
	}
	free(found);
	free(v.seg);
	free(v.notes);
	if (v.fd >= 0)
		close(v.fd);
	return ret;
}

KRELOC_API int kreloc_snapshot_vmcore(const char *path, struct kreloc_snapshot **snap)
{
	char err[KR_ERR_MAX];
	struct kreloc_snapshot *s;
	int ret;

	if (!snap)
		return kr_null(__func__, "snap");
	*snap = NULL;
	if (!path)
		return kr_null(__func__, "path");
	s = kr_snap_new();
	if (!s)
		return kr_fail(ENOMEM, "out of memory");
	ret = kvmcore_read(&s->s, path, err, sizeof(err));
	if (ret) {
		free(s);
		return kr_fail_msg(-ret, err);
	}
	*snap = s;
	kr_ok();
	return 0;
}
