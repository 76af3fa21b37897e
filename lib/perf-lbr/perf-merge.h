/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* A capture merged into a perf.data recorded by `perf record -k mono`. */
#ifndef LBRSNAP_PERF_MERGE_H
#define LBRSNAP_PERF_MERGE_H

#include <stdbool.h>

/*
 * Writes rec_path (from `perf record -k mono`) with the capture's lbr events merged in time
 * order to out_path. keep_all keeps the tracing path's entries in the samples' callchains
 * and branch stacks.
 */
int perf_merge(const char *rec_path, const char *cap_path, const char *out_path,
	       const char *kallsyms_path, bool keep_all);

#endif /* LBRSNAP_PERF_MERGE_H */
