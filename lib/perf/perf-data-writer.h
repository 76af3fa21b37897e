/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf.data writer: attributes, records, features, written to a temporary name and renamed. */
#ifndef LBRSNAP_PERF_DATA_WRITER_H
#define LBRSNAP_PERF_DATA_WRITER_H

#include <stddef.h>
#include "perf/perf-data.h"

struct perf_writer;

/* attr_bytes: size of every attribute entry's attr (PERF_ATTR_WRITE_SIZE for new files). */
int perf_writer__create(const char *path, size_t attr_bytes, struct perf_writer **out);
/* All attributes must be added before the first record. Copies attr and ids. */
int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const __u64 *ids, size_t nr_ids);
/* The same for an attribute read from a file, with the fields this system has no names for */
int perf_writer__add_file_attr(struct perf_writer *w, const struct perf_file_attr *fa);
/* Appends one record; its header.size is its length and must be a multiple of 8. */
int perf_writer__write(struct perf_writer *w, const void *rec);
/* Sets a feature bit with a copy of its payload (len may be 0). */
int perf_writer__feature(struct perf_writer *w, int bit, const void *data, size_t len);
/* Writes the feature table and the header, then renames "<path>.tmp" to path. */
int perf_writer__close(struct perf_writer *w);
/* Removes the temporary file; for error paths. */
void perf_writer__abort(struct perf_writer *w);

#endif /* LBRSNAP_PERF_DATA_WRITER_H */
