// SPDX-License-Identifier: GPL-2.0
/* perfdata.c - perf.data files, read and written again with more events. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata.h"

#define PD_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_MAGIC1	0x454c494646524550ULL	/* "PERFFILE" */
#define PD_HDR_SIZE	104			/* struct perf_file_header */
#define PD_HDR_NOFEAT	72			/* its size before the feature bits */
#define PD_PIPE_SIZE	16			/* struct perf_pipe_file_header */

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Is [off, off + size) inside the file? */
static bool in_file(const struct pd_file *f, uint64_t off, uint64_t size)
{
	return off <= f->len && size <= f->len - off;
}

/* perf's __evsel__calc_id_pos(): where a sample's id is, in u64s from the start. */
static int calc_id_pos(uint64_t t)
{
	int idx = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	if (t & PERF_SAMPLE_IP)
		idx++;
	if (t & PERF_SAMPLE_TID)
		idx++;
	if (t & PERF_SAMPLE_TIME)
		idx++;
	if (t & PERF_SAMPLE_ADDR)
		idx++;
	return idx;
}

/* perf's __evsel__calc_is_pos(): where another record's id is, from its end. */
static int calc_is_pos(uint64_t t)
{
	int idx = 1;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	if (t & PERF_SAMPLE_CPU)
		idx++;
	if (t & PERF_SAMPLE_STREAM_ID)
		idx++;
	return idx;
}

static int read_attrs(struct pd_file *f, char *err, size_t errlen)
{
	size_t i, n = f->attrs.size / f->attr_size, copy;

	if (!n)
		return fail(err, errlen, "no event attributes");
	f->attr = calloc(n, sizeof(*f->attr));
	if (!f->attr)
		return fail(err, errlen, "out of memory");
	copy = f->attr_size - sizeof(struct pd_section);
	if (copy > sizeof(struct perf_event_attr))
		copy = sizeof(struct perf_event_attr);
	for (i = 0; i < n; i++) {
		const unsigned char *p = f->map + f->attrs.offset + i * f->attr_size;
		const unsigned char *s = p + f->attr_size - sizeof(struct pd_section);
		struct pd_section ids = { rd64(s), rd64(s + 8) };
		struct pd_attr *a = &f->attr[i];

		memcpy(&a->attr, p, copy);
		if (!in_file(f, ids.offset, ids.size) || ids.offset % 8 || ids.size % 8)
			return fail(err, errlen, "attribute %zu: its ids lie outside the file", i);
		a->ids = (const uint64_t *)(f->map + ids.offset);
		a->nr_ids = ids.size / 8;
	}
	f->nr_attr = n;
	f->sample_id_all = true;
	f->id_pos = f->is_pos = -1;
	for (i = 0; i < n; i++)
		f->sample_id_all &= f->attr[i].attr.sample_id_all;
	if (n > 1) {
		f->id_pos = calc_id_pos(f->attr[0].attr.sample_type);
		f->is_pos = calc_is_pos(f->attr[0].attr.sample_type);
		for (i = 1; i < n; i++)
			if (calc_id_pos(f->attr[i].attr.sample_type) != f->id_pos ||
			    calc_is_pos(f->attr[i].attr.sample_type) != f->is_pos)
				return fail(err, errlen, "its %zu event attributes put the sample id "
					    "in different places (perf cannot read it either)", n);
		if (f->id_pos < 0)
			return fail(err, errlen, "%zu event attributes without sample ids", n);
	}
	return 0;
}

static int read_features(struct pd_file *f, char *err, size_t errlen)
{
	uint64_t at = f->data.offset + f->data.size;
	unsigned int bit;

	for (bit = 0; bit < PD_FEAT_BITS; bit++) {
		if (!(f->features[bit / 64] >> (bit % 64) & 1))
			continue;
		if (!in_file(f, at, sizeof(struct pd_section)))
			return fail(err, errlen, "truncated: the feature sections end past the file "
				    "(%zu bytes)", f->len);
		f->feat[bit].offset = rd64(f->map + at);
		f->feat[bit].size = rd64(f->map + at + 8);
		if (!in_file(f, f->feat[bit].offset, f->feat[bit].size))
			return fail(err, errlen, "truncated: feature %u lies past the end of the file",
				    bit);
		at += sizeof(struct pd_section);
	}
	return 0;
}

int pd_open(struct pd_file *f, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *m;
	int fd;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, errlen, "%s: not a regular file (perf.data of a pipe is not read: "
			    "write it to a file)", path);
	}
	if (st.st_size < PD_PIPE_SIZE) {
		close(fd);
		return fail(err, errlen, "%s: not a perf.data file (%lld bytes)", path,
			    (long long)st.st_size);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (pd_parse(f, m, (size_t)st.st_size, path, err, errlen)) {
		munmap(m, (size_t)st.st_size);
		memset(f, 0, sizeof(*f));
		return -1;
	}
	f->mapped = true;
	return 0;
}

int pd_parse(struct pd_file *f, const unsigned char *data, size_t len, const char *path,
	     char *err, size_t errlen)
{
	uint64_t magic, hsize;

	memset(f, 0, sizeof(*f));
	if (len < PD_PIPE_SIZE)
		return fail(err, errlen, "%s: not a perf.data file (%zu bytes)", path, len);
	f->map = data;
	f->len = len;
	magic = rd64(f->map);
	hsize = rd64(f->map + 8);
	if (magic == __builtin_bswap64(PD_MAGIC2))
		return fail(err, errlen, "%s: recorded on a machine of the other byte order: "
			    "kreloc inject reads perf.data of this one's only", path);
	if (magic == PD_MAGIC1 || magic == __builtin_bswap64(PD_MAGIC1))
		return fail(err, errlen, "%s: perf.data version 1 (PERFFILE), which kreloc does not "
			    "know: perf writes version 2 since 2013", path);
	if (magic != PD_MAGIC2)
		return fail(err, errlen, "%s: not a perf.data file (no PERFILE2 magic)", path);
	if (hsize == PD_PIPE_SIZE)
		return fail(err, errlen, "%s: perf.data of a pipe (perf record -o -): its layout "
			    "has no sections to add to; record to a file", path);
	if ((hsize != PD_HDR_SIZE && hsize != PD_HDR_NOFEAT) || f->len < hsize)
		return fail(err, errlen, "%s: perf.data header of %" PRIu64 " bytes, which kreloc "
			    "does not know", path, hsize);
	f->attr_size = rd64(f->map + 16);
	f->attrs.offset = rd64(f->map + 24);
	f->attrs.size = rd64(f->map + 32);
	f->data.offset = rd64(f->map + 40);
	f->data.size = rd64(f->map + 48);
	if (hsize == PD_HDR_SIZE)
		memcpy(f->features, f->map + PD_HDR_NOFEAT, sizeof(f->features));
	if (f->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_section) ||
	    f->attr_size > 4096 || f->attr_size % 8 || f->attrs.size % f->attr_size)
		return fail(err, errlen, "%s: event attributes of %" PRIu64 " bytes, which kreloc "
			    "does not know", path, f->attr_size);
	if (!in_file(f, f->attrs.offset, f->attrs.size) || f->attrs.offset < hsize)
		return fail(err, errlen, "%s: truncated: the event attributes lie past its end", path);
	if (!f->data.size)
		return fail(err, errlen, "%s: no data: perf record did not finish it (killed?)", path);
	if (!in_file(f, f->data.offset, f->data.size) || f->data.offset % 8 ||
	    f->data.offset < f->attrs.offset + f->attrs.size)
		return fail(err, errlen, "%s: truncated: its data section (%" PRIu64 " bytes at %"
			    PRIu64 ") lies past its end (%zu bytes)", path, f->data.size,
			    f->data.offset, f->len);
	if (f->features[PD_FEAT_DIR_FORMAT / 64] >> (PD_FEAT_DIR_FORMAT % 64) & 1)
		return fail(err, errlen, "%s: the directory format of perf record --threads: "
			    "join it first (perf inject -i DIR -o FILE)", path);
	if (read_features(f, err, errlen) || read_attrs(f, err, errlen))
		return -1;
	return 0;
}

void pd_close(struct pd_file *f)
{
	if (f->map && f->mapped)
		munmap((void *)f->map, f->len);
	free(f->attr);
	memset(f, 0, sizeof(*f));
}

const void *pd_feature(const struct pd_file *f, unsigned int bit, size_t *len)
{
	if (bit >= PD_FEAT_BITS || !(f->features[bit / 64] >> (bit % 64) & 1))
		return NULL;
	*len = f->feat[bit].size;
	return f->map + f->feat[bit].offset;
}

int pd_feature_string(const struct pd_file *f, unsigned int bit, char *buf, size_t len)
{
	const unsigned char *p;
	size_t flen;
	uint32_t n;

	p = pd_feature(f, bit, &flen);
	if (!p || flen < 4)
		return -1;
	memcpy(&n, p, 4);
	if (n > flen - 4 || !len)
		return -1;
	snprintf(buf, len, "%.*s", (int)strnlen((const char *)p + 4, n), p + 4);
	return 0;
}

int pd_next(const struct pd_file *f, uint64_t *pos, const struct perf_event_header **ev,
	    size_t *len, char *err, size_t errlen)
{
	const unsigned char *p = f->map + f->data.offset + *pos;
	struct perf_event_header h;
	uint64_t left = f->data.size - *pos, n;

	if (!left)
		return 0;
	if (left < sizeof(h))
		return fail(err, errlen, "truncated event at data offset %" PRIu64, *pos);
	memcpy(&h, p, sizeof(h));
	n = h.size;
	if (n < sizeof(h) || n % 8)
		return fail(err, errlen, "malformed event (type %u, size %u) at data offset %"
			    PRIu64, h.type, h.size, *pos);
	if (h.type == PD_RECORD_COMPRESSED)
		return fail(err, errlen, "compressed data (perf record -z): decompress it first "
			    "(perf inject -i IN -o OUT)");
	/* An AUXTRACE record is followed by its data, which its size does not count. */
	if (h.type == PD_RECORD_AUXTRACE) {
		if (n < sizeof(h) + 8 || n > left)
			return fail(err, errlen, "truncated AUXTRACE event at data offset %" PRIu64,
				    *pos);
		n += rd64(p + sizeof(h));
	}
	if (n > left)
		return fail(err, errlen, "truncated: an event (type %u) runs past the data section "
			    "at offset %" PRIu64, h.type, *pos);
	*ev = (const struct perf_event_header *)p;
	*len = (size_t)n;
	*pos += n;
	return 1;
}

static const struct pd_attr *attr_of_id(const struct pd_file *f, uint64_t id)
{
	size_t i, j;

	for (i = 0; i < f->nr_attr; i++)
		for (j = 0; j < f->attr[i].nr_ids; j++)
			if (f->attr[i].ids[j] == id)
				return &f->attr[i];
	return NULL;
}

const struct pd_attr *pd_event_attr(const struct pd_file *f, const struct perf_event_header *ev,
				    size_t len)
{
	const unsigned char *a = (const unsigned char *)(ev + 1);
	size_t n = (len - sizeof(*ev)) / 8;

	if (f->nr_attr == 1)
		return &f->attr[0];
	if (ev->type == PERF_RECORD_SAMPLE)
		return (size_t)f->id_pos < n ? attr_of_id(f, rd64(a + 8 * f->id_pos)) : NULL;
	if (ev->type >= PERF_RECORD_MAX || !f->sample_id_all || f->is_pos < 0 ||
	    (size_t)f->is_pos > n)
		return NULL;
	return attr_of_id(f, rd64(a + 8 * (n - f->is_pos)));
}

bool pd_event_time(const struct pd_file *f, const struct perf_event_header *ev, size_t len,
		   uint64_t *time)
{
	const unsigned char *a = (const unsigned char *)(ev + 1);
	size_t n = (len - sizeof(*ev)) / 8, idx;
	const struct pd_attr *pa;
	uint64_t t;

	if (ev->type >= PERF_RECORD_MAX)
		return false;
	pa = pd_event_attr(f, ev, len);
	if (!pa || !(pa->attr.sample_type & PERF_SAMPLE_TIME))
		return false;
	t = pa->attr.sample_type;
	if (ev->type == PERF_RECORD_SAMPLE) {
		idx = !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
		      !!(t & PERF_SAMPLE_TID);
		if (idx >= n)
			return false;
	} else {
		if (!pa->attr.sample_id_all)
			return false;
		idx = 1 + !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_CPU) +
		      !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_ID);
		if (idx > n)
			return false;
		idx = n - idx;
	}
	*time = rd64(a + 8 * idx);
	return true;
}

size_t pd_id_trailer(const struct pd_file *f, const struct pd_attr *a, uint64_t time, void *out)
{
	uint64_t t = a->attr.sample_type, id = a->nr_ids ? a->ids[0] : 0, v[6];
	size_t n = 0;

	(void)f;
	if (!a->attr.sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID)
		v[n++] = UINT64_MAX;		/* pid, tid -1: the kernel's */
	if (t & PERF_SAMPLE_TIME)
		v[n++] = time;
	if (t & PERF_SAMPLE_ID)
		v[n++] = id;
	if (t & PERF_SAMPLE_STREAM_ID)
		v[n++] = id;
	if (t & PERF_SAMPLE_CPU)
		v[n++] = 0;
	if (t & PERF_SAMPLE_IDENTIFIER)
		v[n++] = id;
	memcpy(out, v, n * 8);
	return n * 8;
}

/* ---- writing ---- */

static int out_write(struct pd_out *o, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, o->f) != len)
		return fail(o->err, o->errlen, "write: %s", strerror(errno ? errno : EIO));
	return 0;
}

int pd_write_begin(struct pd_out *o, const struct pd_file *in)
{
	o->data_size = 0;
	return out_write(o, in->map, in->data.offset);
}

int pd_write_event(struct pd_out *o, const void *ev, size_t len)
{
	o->data_size += len;
	return out_write(o, ev, len);
}

int pd_write_end(struct pd_out *o, const struct pd_file *in, const void *extra, size_t len)
{
	uint64_t features[PD_FEAT_BITS / 64], at, start = in->data.offset + o->data_size;
	struct pd_section table[PD_FEAT_BITS];
	unsigned int bit, n = 0;

	memcpy(features, in->features, sizeof(features));
	if (len)
		features[PD_FEAT_BUILD_ID / 64] |= 1ULL << (PD_FEAT_BUILD_ID % 64);
	for (bit = 0; bit < PD_FEAT_BITS; bit++)
		n += features[bit / 64] >> (bit % 64) & 1;
	/* The table first, filled in once the sections after it are written. */
	memset(table, 0, sizeof(table));
	if (fseeko(o->f, (off_t)(start + n * sizeof(table[0])), SEEK_SET))
		return fail(o->err, o->errlen, "seek: %s", strerror(errno));
	at = start + n * sizeof(table[0]);
	for (n = 0, bit = 0; bit < PD_FEAT_BITS; bit++) {
		const struct pd_section *s = &in->feat[bit];
		bool had = in->features[bit / 64] >> (bit % 64) & 1;

		if (!(features[bit / 64] >> (bit % 64) & 1))
			continue;
		table[n].offset = at;
		table[n].size = (had ? s->size : 0) + (bit == PD_FEAT_BUILD_ID ? len : 0);
		if ((had && out_write(o, in->map + s->offset, s->size)) ||
		    (bit == PD_FEAT_BUILD_ID && out_write(o, extra, len)))
			return -1;
		at += table[n++].size;
	}
	if (fseeko(o->f, (off_t)start, SEEK_SET) ||
	    out_write(o, table, n * sizeof(table[0])) ||
	    fseeko(o->f, 48, SEEK_SET) || out_write(o, &o->data_size, 8))
		return -1;
	if (rd64(in->map + 8) == PD_HDR_SIZE &&
	    (fseeko(o->f, PD_HDR_NOFEAT, SEEK_SET) || out_write(o, features, sizeof(features))))
		return -1;
	return fseeko(o->f, 0, SEEK_END) ? fail(o->err, o->errlen, "seek: %s", strerror(errno)) : 0;
}
