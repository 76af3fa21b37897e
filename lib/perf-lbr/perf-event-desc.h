/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* perf.data's HEADER_EVENT_DESC feature with the lbr events, and feature strings. */
#ifndef LBRSNAP_PERF_EVENT_DESC_H
#define LBRSNAP_PERF_EVENT_DESC_H

#include <stddef.h>
#include <linux/types.h>

struct perf_lbr;

/*
 * HEADER_EVENT_DESC: orig (may be NULL) with add_sample_type or'ed into its attributes and
 * an entry per lbr event appended.
 */
int perf_lbr__event_desc(const struct perf_lbr *pl, const void *orig, size_t orig_len,
			 __u64 add_sample_type, void **out, size_t *out_len);

/* Feature string: u32 len, NUL-terminated text padded to 8. Returns the bytes written. */
size_t perf_feat__put_string(void *buf, const char *s);
size_t perf_feat__string_size(const char *s);

#endif /* LBRSNAP_PERF_EVENT_DESC_H */
