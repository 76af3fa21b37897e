/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf.data's HEADER_TRACING_DATA feature with the lbr events' formats. */
#ifndef LBRSNAP_PERF_TRACING_DATA_H
#define LBRSNAP_PERF_TRACING_DATA_H

#include <stddef.h>
#include <linux/types.h>

struct perf_lbr;

/*
 * HEADER_TRACING_DATA: a new payload with the "lbr" system (orig NULL), or orig with the
 * "lbr" system added.
 */
int perf_lbr__tracing_data(const struct perf_lbr *pl, const void *orig, size_t orig_len,
			   void **out, size_t *out_len);
/* Highest event format ID in a TRACING_DATA payload (0 if none), or negative errno. */
int perf_tracing_data__max_id(const void *data, size_t len, __u32 *max_id);

#endif /* LBRSNAP_PERF_TRACING_DATA_H */
