/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfdata.h - perf.data files as `perf record` writes them (file mode,
 * "PERFILE2"; tools/perf/Documentation/perf.data-file-format.txt), read
 * and written again with more events, for `kreloc inject`.
 *
 * Read: the header, the event attributes with their ids, every event of
 * the data section in file order with its time (sample_id_all, as perf's
 * evsel__parse_sample() finds it), and the feature sections after the data.
 * Written: a copy whose header, attributes and features are the input's
 * (the build-id feature with entries added), and whose data section is
 * the input's events with others put among them.
 *
 * Only what this machine can read without swapping is taken: a file of
 * the other byte order, pipe mode, the directory format (--threads) and
 * compressed data (-z) are refused with the reason, as is anything that
 * does not fit in the file.  No event is ever read past its own size.
 */
#ifndef KRELOC_PERFDATA_H
#define KRELOC_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* perf's own record types (tools/lib/perf/include/perf/event.h). */
enum {
	PD_RECORD_HEADER_BUILD_ID = 67,
	PD_RECORD_FINISHED_ROUND = 68,
	PD_RECORD_AUXTRACE = 71,
	PD_RECORD_COMPRESSED = 81,
	PD_RECORD_FINISHED_INIT = 82,
};

/* Feature bits (tools/perf/util/header.h). */
enum {
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_ARCH = 6,
	PD_FEAT_DIR_FORMAT = 42,
	PD_FEAT_COMPRESSED = 45,
	PD_FEAT_BITS = 256,
};

/* build_id_event's misc flag: the build id's size is in the event. */
#define PD_MISC_BUILD_ID_SIZE	(1 << 15)

struct pd_section {
	uint64_t offset, size;
};

struct pd_attr {
	struct perf_event_attr attr;	/* the file's, zero-extended or cut to ours */
	const uint64_t *ids;		/* into the mapped file (aligned) */
	size_t nr_ids;
};

struct pd_file {
	const unsigned char *map;
	size_t len;
	uint64_t attr_size;
	struct pd_section attrs, data;
	uint64_t features[PD_FEAT_BITS / 64];
	struct pd_section feat[PD_FEAT_BITS];	/* where each set feature is */
	struct pd_attr *attr;
	size_t nr_attr;
	/* Where perf finds an event's id: in a sample from the start, in others from the end. */
	int id_pos, is_pos;		/* in u64s; -1: no id (one attribute) */
	bool sample_id_all;		/* every attribute has it */
	bool mapped;			/* pd_open()'s: unmapped by pd_close() */
};

/* Map and check a perf.data file.  0, or -1 with err set (the file is left alone). */
int pd_open(struct pd_file *f, const char *path, char *err, size_t errlen);
/* The same for len bytes at data (kept, not copied; name for the messages). */
int pd_parse(struct pd_file *f, const unsigned char *data, size_t len, const char *name,
	     char *err, size_t errlen);
void pd_close(struct pd_file *f);

/* Is feature bit set, and where is its data (NULL if not, or out of the file)? */
const void *pd_feature(const struct pd_file *f, unsigned int bit, size_t *len);
/* A feature that is a perf_header_string (HOSTNAME, OSRELEASE, ARCH, ...) into buf; 0 or -1. */
int pd_feature_string(const struct pd_file *f, unsigned int bit, char *buf, size_t len);

/*
 * The event at *pos in the data section (*pos starts at 0): its header and
 * its whole length (an AUXTRACE record's data included); *pos is moved
 * past it.  1, 0 at the end, or -1 with err set (a truncated or malformed
 * event: where, and why).
 */
int pd_next(const struct pd_file *f, uint64_t *pos, const struct perf_event_header **ev,
	    size_t *len, char *err, size_t errlen);

/* The attribute an event belongs to (as perf finds it), or NULL. */
const struct pd_attr *pd_event_attr(const struct pd_file *f, const struct perf_event_header *ev,
				    size_t len);
/* An event's time (PERF_SAMPLE_TIME), if it has one. */
bool pd_event_time(const struct pd_file *f, const struct perf_event_header *ev, size_t len,
		   uint64_t *time);

/*
 * The sample_id_all fields of a record the kernel would have written for
 * attribute a at time: pid/tid -1, cpu 0, id the attribute's first.  Its
 * length (at most 48 bytes) is returned; out receives it.
 */
size_t pd_id_trailer(const struct pd_file *f, const struct pd_attr *a, uint64_t time,
		     void *out);

/* Writing: the output, a regular file (perf.data is written with seeks). */
struct pd_out {
	FILE *f;
	uint64_t data_size;
	char *err;
	size_t errlen;
};

/* The input's header and attributes; the data section starts where it did. */
int pd_write_begin(struct pd_out *o, const struct pd_file *in);
/* One event (ev is len bytes). */
int pd_write_event(struct pd_out *o, const void *ev, size_t len);
/*
 * The features after the data, the input's, with extra (len bytes of
 * build_id_event records) appended to the build-id feature (which is
 * added if the input has none); then the header's data size.
 */
int pd_write_end(struct pd_out *o, const struct pd_file *in, const void *extra, size_t len);

#endif
