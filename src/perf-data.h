/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf.data files: on-disk layout, a streaming reader and a writer.
 *
 * Layout (little endian): a 104-byte header, the attribute entries (each a perf_event_attr
 * followed by a {offset, size} section of its u64 sample ids), the data section (a stream
 * of perf_event_header records padded to 8 bytes), and the feature table, which starts
 * exactly at data.offset + data.size with one {offset, size} per feature bit set.
 *
 * The reader streams records through a bounded buffer, so files of any size can be
 * rewritten without being loaded. The writer writes "<path>.tmp" and renames it on close.
 */
#ifndef LBRSNAP_PERF_DATA_H
#define LBRSNAP_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define PERF_FILE_MAGIC		"PERFILE2"
#define PERF_FILE_HEADER_SIZE	104
/* perf 6.1 rejects larger attributes; its own sizeof is PERF_ATTR_SIZE_VER7. */
#define PERF_ATTR_WRITE_SIZE	128
#define PERF_FEAT_BITS		256

/* Header feature bits (perf's HEADER_* numbers). */
enum perf_feat {
	PERF_FEAT_TRACING_DATA = 1,
	PERF_FEAT_BUILD_ID = 2,
	PERF_FEAT_HOSTNAME = 3,
	PERF_FEAT_OSRELEASE = 4,
	PERF_FEAT_VERSION = 5,
	PERF_FEAT_ARCH = 6,
	PERF_FEAT_NRCPUS = 7,
	PERF_FEAT_CMDLINE = 11,
	PERF_FEAT_EVENT_DESC = 12,
	PERF_FEAT_BRANCH_STACK = 15,
	PERF_FEAT_AUXTRACE = 18,
	PERF_FEAT_SAMPLE_TIME = 21,
	PERF_FEAT_CLOCKID = 23,
	PERF_FEAT_CLOCK_DATA = 29,
};

/* User-space record types written by perf itself. */
#define PERF_RECORD_USER_TYPE_START	64
#define PERF_RECORD_FINISHED_ROUND	68

struct perf_file_section {
	__u64 offset;
	__u64 size;
};

struct perf_file_header {
	char magic[8];
	__u64 size;
	__u64 attr_size;
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	__u64 features[PERF_FEAT_BITS / 64];
};

/* One attribute with its ids, as read from or written to a file. */
struct perf_file_attr {
	struct perf_event_attr attr;	/* first attr_size bytes of the entry, rest zero */
	__u64 *ids;
	size_t nr_ids;
};

static inline bool perf_feat__test(const __u64 *features, int bit)
{
	return features[bit / 64] & (1ULL << (bit % 64));
}

static inline void perf_feat__set(__u64 *features, int bit)
{
	features[bit / 64] |= 1ULL << (bit % 64);
}

/* Byte offset of TIME in a SAMPLE body (after the header), or -1 if absent. */
int perf_sample__time_pos(__u64 sample_type);
/* Size of the sample_id trailer that sample_id_all appends to non-sample kernel records. */
size_t perf_sample__id_trailer_size(__u64 sample_type);
/* Byte offset of TIME counted back from the end of a record with a trailer, or -1. */
int perf_sample__trailer_time_pos(__u64 sample_type);

/* Reading */
struct perf_reader;

int perf_reader__open(const char *path, struct perf_reader **out);
void perf_reader__close(struct perf_reader *r);
const struct perf_file_header *perf_reader__header(const struct perf_reader *r);
size_t perf_reader__nr_attrs(const struct perf_reader *r);
const struct perf_file_attr *perf_reader__attr(const struct perf_reader *r, size_t i);
/* Size of attr.size in the file: entries are attr_size - 16 bytes. */
size_t perf_reader__attr_bytes(const struct perf_reader *r);
/* A copy of a feature's payload (malloc'd, caller frees); -ENOENT if the bit is clear. */
int perf_reader__feature(struct perf_reader *r, int bit, void **data, size_t *len);
/*
 * Next data record: 1 with *ev pointing at the whole record (valid until the next call),
 * 0 at the end of the data section, or a negative errno for a broken record.
 */
int perf_reader__next(struct perf_reader *r, const struct perf_event_header **ev);
/* Restarts the record stream at the beginning of the data section. */
void perf_reader__rewind(struct perf_reader *r);
/* File offset of the record returned last, for error messages. */
__u64 perf_reader__offset(const struct perf_reader *r);

/* Writing */
struct perf_writer;

/* attr_bytes: size of every attribute entry's attr (PERF_ATTR_WRITE_SIZE for new files). */
int perf_writer__create(const char *path, size_t attr_bytes, struct perf_writer **out);
/* All attributes must be added before the first record. Copies attr and ids. */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const __u64 *ids, size_t nr_ids);
/* Appends one record; its header.size is its length and must be a multiple of 8. */
int perf_writer__write(struct perf_writer *w, const void *rec);
/* Sets a feature bit with a copy of its payload (len may be 0). */
int perf_writer__feature(struct perf_writer *w, int bit, const void *data, size_t len);
/* Writes the feature table and the header, then renames "<path>.tmp" to path. */
int perf_writer__close(struct perf_writer *w);
/* Removes the temporary file; for error paths. */
void perf_writer__abort(struct perf_writer *w);

#endif /* LBRSNAP_PERF_DATA_H */
