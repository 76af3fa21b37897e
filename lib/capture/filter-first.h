/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * filter-first: whether the capture programs may check pid, tid and comm before the LBR
 * snapshot. That is free only when the branch filter records none of the instructions the
 * check is made of: conditional jumps (so not -j any, cond, ind_jmp), and calls or returns,
 * which means the task and CPU id helpers must be inlined by the kernel's verifier (x86-64:
 * the CPU id from 6.10; the current task in our 7.2 guest, while 6.18's JIT still calls
 * it). Otherwise the snapshot stays first.
 *
 * No other way to the current task is free before 7.2: the per-CPU current_task (pcpu_hot's
 * on 6.2-6.14) as a typed ksym needs bpf_this_cpu_ptr(), a call in the xlated code of 6.12
 * and 7.2 alike, and a kernel without CONFIG_KALLSYMS_ALL (our host) cannot even resolve it.
 * What a program can tell for free is which kernel stack its context lies on: a task's
 * rejection by pid, tid, follow or comm, which only an exec, a rename or the stack's next
 * owner changes, is remembered by stack after the snapshot and repeated before it
 * (FILTER_FIRST__REMEMBERED).
 */
#ifndef LBRSNAP_FILTER_FIRST_H
#define LBRSNAP_FILTER_FIRST_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

enum filter_first_order {
	FILTER_FIRST__SNAPSHOT,		/* the snapshot first, every check after it */
	FILTER_FIRST__TASK,		/* pid, tid and comm from the inlined task helper first */
	/*
	 * The kernel calls the task helper: rejections by pid, tid, follow and comm are
	 * remembered per kernel stack and repeated first (capture.h, struct lbrsnap_verdicts)
	 */
	FILTER_FIRST__REMEMBERED,
	/*
	 * Both, where the task helper is inlined and a pid, tid or follow filter is on: the
	 * remembered rejection first (fewer loads than the task's ids), then the task's checks,
	 * whose rejections by pid or tid are remembered there
	 */
	FILTER_FIRST__TASK_REMEMBERED,
};

/*
 * The order the capture may run in under branch_filter (PERF_SAMPLE_BRANCH_* bits), LBR
 * being on or not, with --calls or not, with a pid, tid or follow filter (task_filters) or
 * not, with a comm filter or not; why says what decided, for the capture's META and -v.
 */
enum filter_first_order filter_first__choose(__u64 branch_filter, bool lbr_on, bool calls,
					     bool task_filters, bool comm_filter, char *why,
					     size_t why_len);

/*
 * Loads a program made of the CPU id and current task helper calls and reads its xlated
 * code back: 1 if the verifier replaced both calls, 0 if a call is left, a negative errno
 * if the program could not be loaded or read.
 */
int filter_first__helpers_inlined(void);

#endif
