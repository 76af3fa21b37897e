/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * perf_lbr's steps (perf-lbr.h) with the records encoded on a second CPU: a thread runs
 * perf_lbr__emit_until(~0) into blocks (util/block-queue.h: 256 KiB, 4 in flight, memory flat
 * in the records) and until() writes them out up to each limit, as the steps would. What
 * depends on the recording read so far is decided as the records are written: a COMM is
 * left out for a thread known() claims by then, as perf_lbr's own COMM would be.
 */
#ifndef LBRSNAP_PERF_LBR_STREAM_H
#define LBRSNAP_PERF_LBR_STREAM_H

#include "perf-lbr/perf-lbr.h"

struct perf_lbr_stream;

/*
 * perf_lbr__emit_begin() into fn, then the thread started: pl is the thread's until
 * perf_lbr_stream__end() or perf_lbr_stream__free(). 0 or a negative errno.
 */
int perf_lbr_stream__start(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
			   perf_lbr_emit_fn fn, void *ctx, struct perf_lbr_stream **out);
/* The records with time <= limit into fn, in time order (perf_lbr__emit_until()) */
int perf_lbr_stream__until(struct perf_lbr_stream *s, __u64 limit);
/* The records left, then the losses (perf_lbr__emit_end()); pl is the caller's again */
int perf_lbr_stream__end(struct perf_lbr_stream *s);
/* The thread stopped wherever it is, and everything freed; NULL: nothing */
void perf_lbr_stream__free(struct perf_lbr_stream *s);

#endif /* LBRSNAP_PERF_LBR_STREAM_H */
