/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Branch filters in perf's -j/--branch-filter words ("any,k", "any_call,u,k", ...), as
 * tools/perf/util/parse-branch-options.c reads them. The text is what a capture's META
 * branch_filter holds, so both the recorder (which programs LBR with the bits) and the
 * converters (which declare them in perf.data) read it here, without the PMU code.
 */
#ifndef LBRSNAP_BRANCH_FILTER_H
#define LBRSNAP_BRANCH_FILTER_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Parses spec into PERF_SAMPLE_BRANCH_* bits; kernel-only when no privilege level is named.
 * Returns 0, -ENOMEM, or -EINVAL with the bad word in err (bits then untouched).
 */
int branch_filter__parse(const char *spec, __u64 *bits, char *err, size_t err_len);

/* What a branch filter makes LBR record, by kind of instruction */
enum {
	BR_JUMPS = 1 << 0,	/* conditional or unconditional jumps */
	BR_CALLS = 1 << 1,	/* calls, direct or indirect (syscalls, interrupts) */
	BR_RETURNS = 1 << 2,	/* returns */
};

/* BR_* of the bits branch_filter__parse() gave */
unsigned int branch_filter__records(__u64 bits);

#endif /* LBRSNAP_BRANCH_FILTER_H */
