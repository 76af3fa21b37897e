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
/*
 * Largest attribute entry kept byte for byte (perf 6.15+ writes 144 bytes, with config3 and
 * config4 after perf 6.1's 128): fields past struct perf_event_attr are carried, not read.
 */
#define PERF_ATTR_MAX_BYTES	512

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
	PERF_FEAT_COMPRESSED = 27,
	PERF_FEAT_CLOCK_DATA = 29,
};

/*
 * Kernel record types newer than this system's linux/perf_event.h: copied like any other,
 * listed for the tests that build them.
 */
#define PERF_RECORD_CALLCHAIN_DEFERRED	22

/* User-space record types written by perf itself. */
#define PERF_RECORD_USER_TYPE_START	64
#define PERF_RECORD_FINISHED_ROUND	68
#define PERF_RECORD_COMPRESSED		81
/* perf 6.15+: {header, u64 data_size, data[data_size]}, padded to 8 bytes */
#define PERF_RECORD_COMPRESSED2		83

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
	union {
		struct perf_event_attr attr;	/* first attr_size bytes of the entry, rest 0 */
		__u8 attr_raw[PERF_ATTR_MAX_BYTES];	/* the same with newer fields */
	};
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

#endif /* LBRSNAP_PERF_DATA_H */
