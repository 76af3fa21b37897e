/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Capture records as perf events: one tracepoint-type event "lbr:<spec>" per attach point,
 * whose samples carry the branch snapshot as BRANCH_STACK, the kernel stack as a CALLCHAIN
 * (PERF_CONTEXT_KERNEL first) and the return value and record fields as tracepoint RAW data
 * described by a format in HEADER_TRACING_DATA (system "lbr"), which is what makes
 * `perf script` print "ret=-2" and hand the fields to scripts. Each event's format declares
 * ret as its attach point's return type says, and prints it as lbr_ret__format() does.
 *
 * Like lbrsnap report, the samples leave out the tracing path's own entries (trim.h) at the
 * newest end of the branch stack and the innermost end of the callchain; the RAW data keeps
 * them (tracing_branches, tracing_stack) with their counts (trim_branches, trim_stack).
 *
 * Shared by `lbrsnap perf` (a new perf.data) and `lbrsnap inject` (merged into a recorded one).
 */
#ifndef LBRSNAP_PERF_LBR_H
#define LBRSNAP_PERF_LBR_H

#include <stdbool.h>
#include <stddef.h>
#include "lbrfile/lbrfile.h"
#include "view/event-fields.h"
#include "view/record-fields.h"
#include "perf/perf-data.h"

#define PERF_LBR_SYSTEM		"lbr"
/* --calls: one sample per call of a scope (struct lbr_perf_call_raw), "lbr:call" */
#define PERF_LBR_CALL_EVENT	"call"
/* Bytes of the RAW payload before its argument fields and tails (record-fields.h) */
#define PERF_LBR_RAW_FIXED	sizeof(struct lbr_perf_raw)

/* Every attr carries these; CALLCHAIN/BRANCH_STACK are added when the records have them. */
#define PERF_LBR_SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
				 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
				 PERF_SAMPLE_RAW)

struct perf_lbr_opts {
	__u64 first_id;		/* sample ids first_id, first_id + 1, ... one per attach point */
	__u32 first_tp_id;	/* tracepoint format ids, likewise */
	bool sample_id_all;
	__u64 read_format;
	bool dummy;		/* add a side-band software event (standalone files) */
	bool keep_all;		/* samples keep the tracing path's entries (report --keep-all) */
};

struct perf_lbr;

int perf_lbr__new(struct lbrfile *cap, const char *cap_path, const struct perf_lbr_opts *o,
		  struct perf_lbr **out);
void perf_lbr__free(struct perf_lbr *pl);

size_t perf_lbr__nr_events(const struct perf_lbr *pl);
const struct perf_event_attr *perf_lbr__attr(const struct perf_lbr *pl, size_t i);
__u64 perf_lbr__id(const struct perf_lbr *pl, size_t i);
const char *perf_lbr__name(const struct perf_lbr *pl, size_t i);
bool perf_lbr__is_tracepoint(const struct perf_lbr *pl, size_t i);
/* Whether event i is lbr:call (the calls of --calls scopes), not an attach point's */
bool perf_lbr__is_call_event(const struct perf_lbr *pl, size_t i);
/* How the event's ret field is typed and printed; LBRSNAP_RET_NONE: the event has none. */
enum lbrsnap_ret_kind perf_lbr__ret_kind(const struct perf_lbr *pl, size_t i);
/* Whether attach point i's records carry arguments: its format prints the call first. */
bool perf_lbr__has_args(const struct perf_lbr *pl, size_t i);
/* Event i's argument fields, behind the fixed RAW part (none for the side-band dummy). */
const struct event_fields *perf_lbr__fields(const struct perf_lbr *pl, size_t i);
/* True if a record of a pointer-returning event holds ERR_PTR(-err). */
bool perf_lbr__has_errno(const struct perf_lbr *pl, size_t i, int err);
/* True if any event samples branch stacks (then HEADER_BRANCH_STACK belongs in the file). */
bool perf_lbr__has_branches(const struct perf_lbr *pl);
__u64 perf_lbr__first_time(const struct perf_lbr *pl);
__u64 perf_lbr__last_time(const struct perf_lbr *pl);

/*
 * Emits, in time order: the kernel MMAP (if kernel_mmap), a KSYMBOL per BPF symbol, a COMM
 * whenever a traced thread shows a new name (skipped for threads known() claims), a SAMPLE
 * per record and a LOST per attach point and loss cause. time is the record's timestamp.
 */
typedef int (*perf_lbr_emit_fn)(const struct perf_event_header *rec, __u64 time, void *ctx);
typedef bool (*perf_lbr_known_fn)(__u32 tid, void *ctx);
int perf_lbr__emit(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
		   perf_lbr_emit_fn fn, void *ctx);
/*
 * The same in steps, for a merge that streams the capture between a recording's records:
 * begin (kernel MMAP, KSYMBOLs), until (the records with time <= limit, in time order, as
 * often as needed), end (the records left, then the losses).
 */
int perf_lbr__emit_begin(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
			 perf_lbr_emit_fn fn, void *ctx);
int perf_lbr__emit_until(struct perf_lbr *pl, __u64 limit);
int perf_lbr__emit_end(struct perf_lbr *pl);
/* Where the steps after begin emit to (perf-lbr-stream.h: another thread's blocks) */
void perf_lbr__set_emit(struct perf_lbr *pl, perf_lbr_known_fn known, perf_lbr_emit_fn fn,
			void *ctx);

/* Writes the capture's kallsyms text to path (for `perf report --kallsyms`). */
int perf_lbr__save_kallsyms(const struct perf_lbr *pl, const char *path);

#endif /* LBRSNAP_PERF_LBR_H */
