/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A capture merged into a perf.data recorded by `perf record -k mono`. */
#ifndef LBRSNAP_PERF_MERGE_H
#define LBRSNAP_PERF_MERGE_H

#include <stdbool.h>
#include <linux/types.h>

/* What a merge wrote, for its closing line. */
struct perf_merge_stats {
	__u64 rec_samples;		/* samples of the recording, all copied */
	__u64 lbr_samples;		/* lbr samples added */
};

/*
 * Writes rec_path (from `perf record -k mono`) with the capture's lbr events merged in time
 * order to out_path. keep_all keeps the tracing path's entries in the samples' callchains
 * and branch stacks. st (may be NULL) receives the counts. Returns 0, a negative errno, or
 * 1 when out_path was written but the kallsyms copy could not be (said through pr_warn()).
 */
int perf_merge(const char *rec_path, const char *cap_path, const char *out_path,
	       const char *kallsyms_path, bool keep_all, struct perf_merge_stats *st);

/* Merge even a capture of another kernel release or time (capture-match.h) */
#define PERF_MERGE_FORCE	(1U << 0)

/* perf_merge() with PERF_MERGE_* flags */
int perf_merge_flags(const char *rec_path, const char *cap_path, const char *out_path,
		     const char *kallsyms_path, bool keep_all, unsigned int flags,
		     struct perf_merge_stats *st);

#endif /* LBRSNAP_PERF_MERGE_H */
