/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Capture (lbrsnap.data) -> trace.dat, alone or merged into a `trace-cmd record -C mono`
 * recording. Merging re-encodes every recorded event of every buffer unchanged and adds the
 * lbr events to the top buffer, on the CPU they were captured on, ordered by time (recorded
 * events first on equal time stamps).
 */
#ifndef LBRSNAP_TRACEDAT_MERGE_H
#define LBRSNAP_TRACEDAT_MERGE_H

#include <stddef.h>
#include <linux/types.h>

struct tracedat_merge_stats {
	__u64 kernel_events;		/* recorded events copied, all buffers */
	__u64 kernel_missed;		/* pages flagged with missed events, copied as such */
	__u64 lbr_records;		/* capture records written */
	__u64 lbr_events;		/* lbr events those became */
	__u64 call_events;		/* funcgraph entries and exits of their calls (--calls) */
	__u64 lbr_lost;			/* records the capture itself lost (its LOSS counts) */
	int in_version;			/* input trace.dat version, 0 without input */
	char in_compression[32];
	int nr_buffers;
};

/*
 * input: a trace.dat file, or NULL to convert the capture alone. On failure returns
 * -errno, writes a message naming the bad input to err and leaves no output file.
 */
int tracedat__write(const char *input, const char *capture, const char *output,
		    struct tracedat_merge_stats *st, char *err, size_t errlen);

/* Merge even a capture of another kernel release or time (capture-match.h) */
#define TRACEDAT_WRITE_FORCE	(1U << 0)

/* tracedat__write() with TRACEDAT_WRITE_* flags */
int tracedat__write_flags(const char *input, const char *capture, const char *output,
			  unsigned int flags, struct tracedat_merge_stats *st, char *err,
			  size_t errlen);

struct kbuffer;
struct tracedat_page_times;

/*
 * A page's times as libtraceevent's kbuffer kb reads them (tracedat-check.h's struct): what
 * the merge uses where its own walk cannot say (an absolute time stamp), and the oracle the
 * walk is tested against.
 */
void tracedat_page_times__kbuffer(struct kbuffer *kb, void *page, struct tracedat_page_times *t);

#endif /* LBRSNAP_TRACEDAT_MERGE_H */
