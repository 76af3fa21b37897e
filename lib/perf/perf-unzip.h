/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The records inside PERF_RECORD_COMPRESSED and COMPRESSED2 (`perf record -z`; 6.15+ writes
 * the second, 8-byte aligned with its data size): one zstd stream over the whole file, cut
 * into records of at most 64 KiB of compressed bytes, so a decompressed record may start in
 * one compressed record and end in the next.
 */
#ifndef LBRSNAP_PERF_UNZIP_H
#define LBRSNAP_PERF_UNZIP_H

#include "perf/perf-data.h"

struct perf_unzip;

int perf_unzip__new(struct perf_unzip **out);
void perf_unzip__free(struct perf_unzip *u);
/*
 * Decompresses one PERF_RECORD_COMPRESSED or COMPRESSED2; 0 or a negative errno (-EBADMSG:
 * bad data or a data size larger than the record).
 */
int perf_unzip__feed(struct perf_unzip *u, const struct perf_event_header *comp);
/*
 * Next whole record decompressed so far: 1 with *ev pointing at it (valid until the next
 * feed), 0 when none is complete yet, -EBADMSG for a record size that cannot be.
 */
int perf_unzip__next(struct perf_unzip *u, const struct perf_event_header **ev);
/* Bytes of a record left incomplete: non-zero at the end of the data means truncation. */
size_t perf_unzip__pending(const struct perf_unzip *u);
/* Forgets everything decompressed, for a new pass over the file. */
void perf_unzip__reset(struct perf_unzip *u);

#endif /* LBRSNAP_PERF_UNZIP_H */
