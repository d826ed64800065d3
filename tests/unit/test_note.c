// SPDX-License-Identifier: GPL-2.0
/*
 * test_note.c - GNU build-id lookup in ELF notes, finding a note by owner
 * and type, and reading values of the VMCOREINFO text (kreloc_note.c).
 */
#include <stdlib.h>
#include "unit.h"
#include "kreloc_note.h"

#define NT_BUILD_ID	3
#define NT_XEN_ENTRY	1	/* XEN_ELFNOTE_ENTRY */
#define NT_GNU_PROPERTY	5

static const u8 build_id[20] = {
	0x8c, 0x4f, 0x12, 0x6a, 0x01, 0xfe, 0x33, 0x90, 0x5d, 0xb7,
	0x21, 0x0c, 0xe4, 0x48, 0x9a, 0x77, 0x13, 0x6e, 0xc2, 0x05,
};

struct notes {
	u8 buf[512];
	size_t len;
	int big;
};

static void put32(struct notes *n, u32 v)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		n->buf[n->len + i] = n->big ? v >> (24 - 8 * i) : v >> (8 * i);
	n->len += 4;
}

static void put_bytes(struct notes *n, const void *p, size_t len, size_t pad)
{
	memcpy(n->buf + n->len, p, len);
	memset(n->buf + n->len + len, 0, pad - len);
	n->len += pad;
}

/* Append a note record; the name and descriptor are padded to 4 bytes. */
static size_t add_note_raw(struct notes *n, u32 namesz, const char *name,
			   size_t name_bytes, u32 descsz, const void *desc,
			   size_t desc_bytes, u32 type)
{
	size_t desc_off;

	put32(n, namesz);
	put32(n, descsz);
	put32(n, type);
	put_bytes(n, name, name_bytes, (name_bytes + 3) & ~(size_t)3);
	desc_off = n->len;
	put_bytes(n, desc, desc_bytes, (desc_bytes + 3) & ~(size_t)3);
	return desc_off;
}

static size_t add_note(struct notes *n, const char *name, const void *desc,
		       size_t descsz, u32 type)
{
	size_t namesz = strlen(name) + 1;

	return add_note_raw(n, namesz, name, namesz, descsz, desc, descsz, type);
}

/*
 * A large note (sizes above 255 show whether all bytes of a size are
 * swapped), a Xen entry note, a GNU property note, a "Linux" note of type 3,
 * then the build id: what an x86 vmlinux's .notes looks like, and more.
 */
static size_t make_block(struct notes *n, int big)
{
	static const u8 xen_entry[8] = { 0x00, 0x10, 0x00, 0x81, 0xff, 0xff, 0xff, 0xff };
	static const u8 prop[16] = { 2, 0, 0, 0xc0, 4, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0 };
	static const u8 linux_ver[6] = { 1, 2, 3, 4, 5, 6 };
	static const u8 big_desc[0x123] = { 0x42 };

	memset(n, 0, sizeof(*n));
	n->big = big;
	add_note(n, "Xen", big_desc, sizeof(big_desc), 0x10203);
	add_note(n, "Xen", xen_entry, sizeof(xen_entry), NT_XEN_ENTRY);
	add_note(n, "GNU", prop, sizeof(prop), NT_GNU_PROPERTY);
	add_note(n, "Linux", linux_ver, sizeof(linux_ver), NT_BUILD_ID);
	return add_note(n, "GNU", build_id, sizeof(build_id), NT_BUILD_ID);
}

/* Call on an exact-size heap copy so that ASan sees any over-read. */
static int lookup(const void *notes, size_t len, bool swap, size_t *id_off)
{
	u8 *copy = malloc(len ? len : 1);
	const u8 *id = NULL;
	int ret;

	memcpy(copy, notes, len);
	ret = kreloc_note_build_id(copy, len, swap, &id);
	if (ret > 0) {
		if (id >= copy && id + ret <= copy + len)
			*id_off = id - copy;
		else
			*id_off = (size_t)-1;	/* outside the block */
	}
	free(copy);
	return ret;
}

static void test_found_after_other_notes(void)
{
	struct notes n;
	size_t want = make_block(&n, 0), off = 0;
	const u8 *id = NULL;

	CHECK_INT(lookup(n.buf, n.len, false, &off), 20);
	CHECK_INT(off, want);
	/* The bytes themselves, in place. */
	CHECK_INT(kreloc_note_build_id(n.buf, n.len, false, &id), 20);
	REQUIRE(id == n.buf + want);
	CHECK(!memcmp(id, build_id, sizeof(build_id)));
}

static void test_big_endian(void)
{
	struct notes n;
	size_t want = make_block(&n, 1), off = 0;
	const u8 *id = NULL;

	CHECK_INT(lookup(n.buf, n.len, true, &off), 20);
	CHECK_INT(off, want);
	CHECK_INT(kreloc_note_build_id(n.buf, n.len, true, &id), 20);
	REQUIRE(id != NULL);
	CHECK(!memcmp(id, build_id, sizeof(build_id)));
	/* Read in the wrong byte order, the sizes are absurd. */
	CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);
	make_block(&n, 0);
	CHECK_INT(lookup(n.buf, n.len, true, &off), -EINVAL);
}

/* Notes need not sit at an aligned address for the reader. */
static void test_unaligned_block(void)
{
	struct notes n;
	size_t want = make_block(&n, 1);
	u8 *copy = malloc(n.len + 1);
	const u8 *id = NULL;

	REQUIRE(copy != NULL);
	memcpy(copy + 1, n.buf, n.len);
	CHECK_INT(kreloc_note_build_id(copy + 1, n.len, true, &id), 20);
	CHECK(id == copy + 1 + want);
	free(copy);
}

static void test_short_build_id(void)
{
	struct notes n;
	size_t off = 0, want;

	/* An md5-style 16-byte id and a 1-byte one are fine. */
	memset(&n, 0, sizeof(n));
	want = add_note(&n, "GNU", build_id, 16, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), 16);
	CHECK_INT(off, want);

	memset(&n, 0, sizeof(n));
	want = add_note(&n, "GNU", build_id, 1, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), 1);
	CHECK_INT(off, want);
}

static void test_no_build_id(void)
{
	static const u8 d[8] = { 0 };
	struct notes n;
	size_t off;

	memset(&n, 0, sizeof(n));
	CHECK_INT(lookup(n.buf, 0, false, &off), -ENOENT);

	add_note(&n, "Xen", d, sizeof(d), NT_XEN_ENTRY);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -ENOENT);
	/* Right type, wrong owner; right owner, wrong type. */
	add_note(&n, "Linux", build_id, 20, NT_BUILD_ID);
	add_note(&n, "GNU", build_id, 20, NT_GNU_PROPERTY);
	/* "GNU" without its NUL is not the GNU owner. */
	add_note_raw(&n, 3, "GNU", 3, 20, build_id, 20, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -ENOENT);
	/* A name that merely starts with GNU. */
	add_note(&n, "GNUX", build_id, 20, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -ENOENT);
}

/*
 * Every truncation of a valid block, on an exact-size heap copy: never a
 * build id, never an over-read, and -EINVAL as soon as a record's header
 * is there but its name or descriptor is cut.
 */
static void test_truncated(void)
{
	struct notes n;
	size_t rec[8], nrec = 0, len, off, i;
	int big;

	for (big = 0; big <= 1; big++) {
		size_t pos = 0;

		make_block(&n, big);
		/* Record starts, from the sizes in the headers. */
		nrec = 0;
		while (pos < n.len) {
			u32 namesz, descsz;

			rec[nrec++] = pos;
			memcpy(&namesz, n.buf + pos, 4);
			memcpy(&descsz, n.buf + pos + 4, 4);
			if (big) {
				namesz = __builtin_bswap32(namesz);
				descsz = __builtin_bswap32(descsz);
			}
			pos += 12 + ((namesz + 3) & ~3U) + ((descsz + 3) & ~3U);
		}
		REQUIRE(nrec == 5 && pos == n.len);
		rec[nrec] = n.len;

		for (len = 0; len < n.len; len++) {
			int want = -ENOENT, got;

			for (i = 0; i < nrec; i++)
				if (len > rec[i] && len < rec[i + 1] &&
				    len - rec[i] >= 12)
					want = -EINVAL;
			got = lookup(n.buf, len, big, &off);
			if (!CHECK_INT(got, want))
				unit_diag("  %s-endian block cut to %zu of %zu bytes",
					  big ? "big" : "little", len, n.len);
		}
	}
}

static void test_bad_descsz(void)
{
	u8 desc[28];
	struct notes n;
	size_t off;

	memset(desc, 0x5a, sizeof(desc));
	memset(&n, 0, sizeof(n));
	add_note(&n, "GNU", desc, 0, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);

	memset(&n, 0, sizeof(n));
	add_note(&n, "GNU", desc, 21, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);

	memset(&n, 0, sizeof(n));
	n.big = 1;
	add_note(&n, "GNU", desc, 28, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, true, &off), -EINVAL);

	/* The largest allowed. */
	memset(&n, 0, sizeof(n));
	add_note(&n, "GNU", desc, KRELOC_BUILD_ID_MAX, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), KRELOC_BUILD_ID_MAX);
}

static void test_huge_sizes(void)
{
	static const u32 huge[] = {
		0xffffffff, 0xfffffffd, 0x80000000, 0x7fffffff, 0x10000, 0x100,
	};
	struct notes n;
	size_t off, i;

	for (i = 0; i < UNIT_ARRAY_SIZE(huge); i++) {
		/* Huge namesz, then huge descsz, in a block that is otherwise
		 * a valid build-id note with room to spare. */
		memset(&n, 0, sizeof(n));
		add_note_raw(&n, huge[i], "GNU", 4, 20, build_id, 20, NT_BUILD_ID);
		add_note(&n, "GNU", build_id, 20, NT_BUILD_ID);
		CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);

		memset(&n, 0, sizeof(n));
		add_note_raw(&n, 4, "GNU", 4, huge[i], build_id, 20, 0x1234);
		add_note(&n, "GNU", build_id, 20, NT_BUILD_ID);
		CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);
	}

	/* Fits the block on its own, but not after the header. */
	memset(&n, 0, sizeof(n));
	add_note_raw(&n, 8, "GNU", 4, 0, build_id, 0, NT_BUILD_ID);
	CHECK_INT(n.len, 16);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);
	memset(&n, 0, sizeof(n));
	add_note_raw(&n, 4, "GNU", 4, 12, build_id, 4, NT_BUILD_ID);
	CHECK_INT(lookup(n.buf, n.len, false, &off), -EINVAL);
}

/*
 * Lines of the VMCOREINFO text of Debian's arm64 6.1.0-57 in QEMU (KASLR
 * on; read from the VMCOREINFO note in /proc/kcore), in the kernel's order
 * and formats: "%lx" for KERNELOFFSET and SYMBOL(), "0x%llx" for most
 * NUMBER()s, "%ld" for others.
 */
static const char vmcoreinfo[] =
	"OSRELEASE=6.1.0-57-arm64\n"
	"BUILD-ID=d34ebfe0b641cdfdc5460d84a5d1f9380050eb97\n"
	"PAGESIZE=4096\n"
	"SYMBOL(init_uts_ns)=ffffdc2feb51c030\n"
	"OFFSET(uts_namespace.name)=0\n"
	"SYMBOL(_stext)=ffffdc2fe9610000\n"
	"NUMBER(VA_BITS)=48\n"
	"NUMBER(MODULES_VADDR)=0xffff800000000000\n"
	"NUMBER(MODULES_END)=0xffff800008000000\n"
	"NUMBER(kimage_voffset)=0xffffdc2fa9400000\n"
	"KERNELOFFSET=5c2fe1600000\n"
	"NUMBER(KERNELPACMASK)=0xffff000000000000\n";

static int vhex(const char *text, const char *key, u64 *v)
{
	size_t len = strlen(text);
	u8 *copy = malloc(len ? len : 1);	/* exact size: ASan sees over-reads */
	int ret;

	memcpy(copy, text, len);
	ret = kreloc_vmcoreinfo_hex(copy, len, key, v);
	free(copy);
	return ret;
}

static void test_vmcoreinfo_note(void)
{
	static const u8 d[8] = { 0 };
	const u8 *desc = NULL;
	struct notes n;
	size_t want;
	int len = sizeof(vmcoreinfo) - 1;
	u64 v = 0;

	/* The kernel's note: owner "VMCOREINFO", type 0, after other notes. */
	memset(&n, 0, sizeof(n));
	add_note(&n, "CORE", d, sizeof(d), 0);
	add_note(&n, "VMCOREINF", d, sizeof(d), 0);
	want = add_note(&n, "VMCOREINFO", vmcoreinfo, len, 0);
	CHECK_INT(kreloc_note_find(n.buf, n.len, false, "VMCOREINFO", 0, &desc), len);
	CHECK(desc == n.buf + want);
	CHECK_INT(kreloc_note_find(n.buf, n.len, false, "VMCOREINFO", 1, &desc), -ENOENT);
	CHECK_INT(kreloc_note_find(n.buf, n.len, false, "VMCORE", 0, &desc), -ENOENT);
	/* The zero-filled rest of the kernel's buffer is no note. */
	CHECK_INT(kreloc_note_find(n.buf, sizeof(n.buf), false, "VMCOREINFO", 0, &desc), len);
	CHECK_INT(kreloc_vmcoreinfo_hex(desc, len, "KERNELOFFSET", &v), 0);
	CHECK_U64(v, 0x5c2fe1600000ULL);
}

static void test_vmcoreinfo_values(void)
{
	u64 v = 0;

	CHECK_INT(vhex(vmcoreinfo, "KERNELOFFSET", &v), 0);
	CHECK_U64(v, 0x5c2fe1600000ULL);
	CHECK_INT(vhex(vmcoreinfo, "NUMBER(kimage_voffset)", &v), 0);
	CHECK_U64(v, 0xffffdc2fa9400000ULL);
	CHECK_INT(vhex(vmcoreinfo, "SYMBOL(_stext)", &v), 0);
	CHECK_U64(v, 0xffffdc2fe9610000ULL);
	/* The first line, and the last line without its newline. */
	CHECK_INT(vhex("KERNELOFFSET=0\nX=1\n", "KERNELOFFSET", &v), 0);
	CHECK_U64(v, 0);
	CHECK_INT(vhex("X=1\nKERNELOFFSET=ffffffffffffffff", "KERNELOFFSET", &v), 0);
	CHECK_U64(v, ~0ULL);

	/* A key is a whole name at the start of a line. */
	CHECK_INT(vhex(vmcoreinfo, "OFFSET", &v), -ENOENT);
	CHECK_INT(vhex(vmcoreinfo, "KERNELOFFSE", &v), -ENOENT);
	CHECK_INT(vhex("NUMBER(KERNELOFFSET)=5\n", "KERNELOFFSET", &v), -ENOENT);
	CHECK_INT(vhex("", "KERNELOFFSET", &v), -ENOENT);
	CHECK_INT(vhex("KERNELOFFSET\n", "KERNELOFFSET", &v), -ENOENT);

	/* Not one hex number of at most 64 bits. */
	CHECK_INT(vhex("KERNELOFFSET=\n", "KERNELOFFSET", &v), -EINVAL);
	CHECK_INT(vhex("KERNELOFFSET=0x\n", "KERNELOFFSET", &v), -EINVAL);
	CHECK_INT(vhex("KERNELOFFSET=12g4\n", "KERNELOFFSET", &v), -EINVAL);
	CHECK_INT(vhex("KERNELOFFSET=12 \n", "KERNELOFFSET", &v), -EINVAL);
	CHECK_INT(vhex("KERNELOFFSET=-1\n", "KERNELOFFSET", &v), -EINVAL);
	CHECK_INT(vhex("KERNELOFFSET=10000000000000000\n", "KERNELOFFSET", &v), -EINVAL);
	/* Twice: which one would be meant? */
	CHECK_INT(vhex("KERNELOFFSET=1\nKERNELOFFSET=1\n", "KERNELOFFSET", &v), -EINVAL);
}

static int vbytes(const char *text, const char *key, u8 *out, size_t max)
{
	size_t len = strlen(text);
	u8 *copy = malloc(len ? len : 1);	/* exact size: ASan sees over-reads */
	int ret;

	memcpy(copy, text, len);
	ret = kreloc_vmcoreinfo_bytes(copy, len, key, out, max);
	free(copy);
	return ret;
}

/* BUILD-ID=%20phN, as kernel/crash_core.c (v5.9+) writes it. */
static void test_vmcoreinfo_build_id(void)
{
	static const u8 want[20] = {
		0xd3, 0x4e, 0xbf, 0xe0, 0xb6, 0x41, 0xcd, 0xfd, 0xc5, 0x46,
		0x0d, 0x84, 0xa5, 0xd1, 0xf9, 0x38, 0x00, 0x50, 0xeb, 0x97,
	};
	u8 id[KRELOC_BUILD_ID_MAX], small[4];

	CHECK_INT(vbytes(vmcoreinfo, "BUILD-ID", id, sizeof(id)), 20);
	CHECK(!memcmp(id, want, sizeof(want)));
	CHECK_INT(vbytes("X=1\nBUILD-ID=0aFf", "BUILD-ID", small, sizeof(small)), 2);
	CHECK(small[0] == 0x0a && small[1] == 0xff);
	CHECK_INT(vbytes(vmcoreinfo, "BUILD", id, sizeof(id)), -ENOENT);
	CHECK_INT(vbytes("", "BUILD-ID", id, sizeof(id)), -ENOENT);
	/* Odd, not hex, empty, longer than the buffer, twice. */
	CHECK_INT(vbytes("BUILD-ID=abc\n", "BUILD-ID", id, sizeof(id)), -EINVAL);
	CHECK_INT(vbytes("BUILD-ID=zz\n", "BUILD-ID", id, sizeof(id)), -EINVAL);
	CHECK_INT(vbytes("BUILD-ID=\n", "BUILD-ID", id, sizeof(id)), -EINVAL);
	CHECK_INT(vbytes("BUILD-ID=0102030405\n", "BUILD-ID", small, sizeof(small)), -EINVAL);
	CHECK_INT(vbytes("BUILD-ID=01\nBUILD-ID=01\n", "BUILD-ID", id, sizeof(id)), -EINVAL);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_found_after_other_notes),
	UNIT_CASE(test_big_endian),
	UNIT_CASE(test_unaligned_block),
	UNIT_CASE(test_short_build_id),
	UNIT_CASE(test_no_build_id),
	UNIT_CASE(test_truncated),
	UNIT_CASE(test_bad_descsz),
	UNIT_CASE(test_huge_sizes),
	UNIT_CASE(test_vmcoreinfo_note),
	UNIT_CASE(test_vmcoreinfo_values),
	UNIT_CASE(test_vmcoreinfo_build_id),
};

UNIT_MAIN(cases)
