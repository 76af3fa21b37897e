/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Turning LBR on: the CPU records branches only while a perf event with a branch stack is
 * active on it, so one such event is opened on every online CPU and kept for the capture.
 */
#ifndef LBRSNAP_LBR_ENABLE_H
#define LBRSNAP_LBR_ENABLE_H

#include <stddef.h>
#include <linux/types.h>

struct lbr_enable;

/*
 * Parses a perf -j/--branch-filter list ("any,k", "any_call,u,k", ...) into
 * PERF_SAMPLE_BRANCH_* bits; kernel-only when no privilege level is named.
 * Returns 0 or -EINVAL with the bad word in err.
 */
int branch_filter__parse(const char *spec, __u64 *bits, char *err, size_t err_len);

/*
 * Opens the events. Returns 0, or a negative errno with a one-line reason in why (no PMU,
 * no LBR, permissions) when LBR cannot be had on this machine.
 */
int lbr_enable__open(__u64 branch_filter, struct lbr_enable **out, char *why, size_t why_len);
void lbr_enable__close(struct lbr_enable *lbr);

#endif
