/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Turning LBR on: the CPU records branches only while a perf event with a branch stack is
 * active on it, so one such event is opened on every online CPU and kept for the capture.
 *
 * The events are pinned: perf never multiplexes a pinned event, so it stays on the PMU, or,
 * when it cannot be scheduled (another pinned user of the PMU or of LBR), it goes into
 * error state, where read() returns 0 until it is enabled again (perf_event_open(2)).
 * lbr_enable__check() reads every event with its enabled and running times and records the
 * intervals in which LBR was not fully active on a CPU (running behind enabled, or error
 * state), re-enabling an event found in error state. The decision is lbr_watch__update(),
 * free of syscalls so that it can be tested with synthetic readings.
 */
#ifndef LBRSNAP_LBR_ENABLE_H
#define LBRSNAP_LBR_ENABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "lbrfile/lbrfile.h"
/* the bits lbr_enable__open() takes come from branch_filter__parse() */
#include "lbrfile/branch-filter.h"

struct lbr_enable;
struct lbrfile_writer;
struct perf_event_attr;

/* One read() of an event with read_format TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. */
struct lbr_reading {
	__u64 value;		/* the cycles count (not used: it stops while the CPU idles) */
	__u64 enabled_ns;	/* total time enabled */
	__u64 running_ns;	/* total time on the PMU */
	__u64 before_ns;	/* CLOCK_MONOTONIC just before the read() */
	__u64 after_ns;		/* and just after it */
	bool eof;		/* read() returned 0 (or a short count): error state */
};

/*
 * What the readings of one CPU's event showed. Zero it and set cpu before the first
 * reading; that first reading is the baseline.
 */
struct lbr_watch {
	__u32 cpu;
	bool started;			/* a reading was taken */
	bool has_base;			/* enabled_ns and running_ns hold totals */
	bool rebase;			/* error state seen: the next reading ends the gap */
	bool in_gap;			/* gaps[nr_gaps - 1] is still open */
	__u64 good_ns;			/* gap start: the last good reading's before_ns */
	__u64 enabled_ns, running_ns;	/* totals of the last reading that had them */
	struct lbrfile_lbr_gap *gaps;	/* in time order, never overlapping */
	size_t nr_gaps, cap_gaps;
};

/*
 * Takes one reading: a gap [good_ns, after_ns] is opened, or the open one extended, when
 * running advanced less than enabled since the previous reading or when the event is in
 * error state; a good reading closes it. After error state the next reading (taken after
 * re-enabling) is not judged, since its deltas include the time before the error: it ends
 * the gap. Returns 1 when the event is in error state and must be re-enabled, 0, or
 * -ENOMEM.
 */
int lbr_watch__update(struct lbr_watch *w, const struct lbr_reading *r);
void lbr_watch__free(struct lbr_watch *w);

/*
 * Opens the events. Returns 0, or a negative errno with a one-line reason in why (no PMU,
 * no LBR, permissions) when LBR cannot be had on this machine.
 */
int lbr_enable__open(__u64 branch_filter, struct lbr_enable **out, char *why, size_t why_len);
/* The branch-stack event lbr_enable__open() opens on each CPU for branch_filter. */
void lbr_enable__attr(__u64 branch_filter, struct perf_event_attr *attr);
/*
 * lbr_enable__open() with another event: attr is opened on every online CPU, made pinned
 * and given the times in read_format. The tests use it with a software event, since no machine
 * here has a PMU: everything but the hardware event itself is the same.
 */
int lbr_enable__open_attr(struct perf_event_attr *attr, struct lbr_enable **out, char *why,
			  size_t why_len);
/*
 * Reads every CPU's event (the first reading was taken by lbr_enable__open()), re-enables
 * the ones in error state and reads them again. Returns how many CPUs had LBR off in this
 * check, or -ENOMEM. lbr may be NULL (no events: nothing to check).
 */
int lbr_enable__check(struct lbr_enable *lbr);
/* Gaps found so far, CPU by CPU; NULL past the last. */
const struct lbrfile_lbr_gap *lbr_enable__gap(const struct lbr_enable *lbr, size_t i);
/* Writes every gap as an LBR_GAP section; returns how many, or a negative errno. */
int lbr_enable__write_gaps(const struct lbr_enable *lbr, struct lbrfile_writer *w);
void lbr_enable__close(struct lbr_enable *lbr);

#endif
