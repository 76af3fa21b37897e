/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The records inside PERF_RECORD_COMPRESSED (`perf record -z`): one zstd stream over the
 * whole file, cut into records of at most 64 KiB of compressed bytes, so a decompressed
 * record may start in one COMPRESSED record and end in the next.
 */
#ifndef LBRSNAP_PERF_UNZIP_H
#define LBRSNAP_PERF_UNZIP_H

#include "perf-data.h"

#define PERF_RECORD_COMPRESSED	81

struct perf_unzip;

int perf_unzip__new(struct perf_unzip **out);
void perf_unzip__free(struct perf_unzip *u);
/* Decompresses one PERF_RECORD_COMPRESSED; 0 or a negative errno (-EBADMSG: bad data). */
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
