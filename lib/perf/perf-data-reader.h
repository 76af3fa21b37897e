/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf.data reader: header, attributes, features, then records in file order. */
#ifndef LBRSNAP_PERF_DATA_READER_H
#define LBRSNAP_PERF_DATA_READER_H

#include <stddef.h>
#include "perf/perf-data.h"

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

#endif /* LBRSNAP_PERF_DATA_READER_H */
