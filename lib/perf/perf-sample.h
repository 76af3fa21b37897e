/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Where fields sit in perf records, from sample_type. */
#ifndef LBRSNAP_PERF_SAMPLE_H
#define LBRSNAP_PERF_SAMPLE_H

#include <stddef.h>
#include "perf/perf-data.h"

/* Byte offset of TIME in a SAMPLE body (after the header), or -1 if absent. */
int perf_sample__time_pos(__u64 sample_type);
/* Size of the sample_id trailer that sample_id_all appends to non-sample kernel records. */
size_t perf_sample__id_trailer_size(__u64 sample_type);
/* Byte offset of TIME counted back from the end of a record with a trailer, or -1. */
int perf_sample__trailer_time_pos(__u64 sample_type);

#endif /* LBRSNAP_PERF_SAMPLE_H */
