/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What a record shows, computed once from the capture file: its attach point, its return
 * value as the type reads, the tracing path's entries apart from the traced code's (trim.h),
 * its call with the arguments, its syscall, whether its branches may be stale, its user
 * frames. The report, the perf.data and trace.dat writers and the fields of their formats
 * (record-fields.h) only encode it, so that every output says the same of a record.
 */
#ifndef LBRSNAP_RECORD_VIEW_H
#define LBRSNAP_RECORD_VIEW_H

#include <stdbool.h>
#include <linux/types.h>
#include "lbrfile/lbrfile.h"
#include "lbrfile/arg-value.h"
#include "lbrfile/ret-value.h"

struct ksyms;

/* A run of bytes of the record (addresses), as a __data_loc tail carries it */
struct lbr_span {
	const void *p;
	unsigned int len;	/* bytes */
};

struct lbr_record_view {
	/* the record as shown: its branches end before the first 0x0 -> 0x0 entry (trim.h) */
	const struct lbr_record *rec;
	const struct lbrsnap_event *ev;
	unsigned int zero_branches;	/* 0x0 -> 0x0 entries and older ones left out */
	const struct lbr_attach_point *ap;	/* NULL: the record names none of the file */
	const char *attach;		/* the attach point's name ("fexit:do_sys_openat2"), "?" */
	const char *target;		/* the traced function or tracepoint, NULL */
	__u64 seq;
	__u64 cgroup;			/* the task's cgroup v2 id, 0 in captures without it */
	/* the return value */
	enum lbrsnap_ret_kind ret_kind;	/* LBRSNAP_RET_NONE: the record holds none */
	__s64 ret;			/* 0 without one */
	int err;			/* the errno it stands for, 0 */
	const char *errno_name;		/* "ENOENT", NULL */
	char ret_str[LBR_RET_LEN];	/* lbr_ret__format(), "" without a value */
	/* the tracing path's entries (trim.h): counted always, left out unless keep_all */
	unsigned int trim_branches;
	unsigned int trim_stack;
	unsigned int skip_branches;	/* entries left out: trim_branches, 0 with keep_all */
	unsigned int skip_stack;
	struct lbr_span tracing_branches;	/* the entries left out, newest first */
	struct lbr_span tracing_stack;
	struct lbr_span branches;	/* the entries shown, newest first */
	struct lbr_span stack;		/* the frames shown, innermost first */
	/* the arguments */
	bool has_args;
	struct lbr_args args;		/* valid when has_args */
	const char *syscall;		/* sys_enter, sys_exit: the syscall's name, else NULL */
	char call[LBR_CALL_LEN];	/* "openat(dfd=-100, ...)", "" without arguments */
	bool lbr_stale;			/* taken while LBR was off on its CPU (lbrfile.h) */
	unsigned int nr_user_frames;	/* user stack entries that are frames (usyms.h) */
	/* the header and record v->ev and v->rec point to when zero entries are left out */
	struct lbrsnap_event ev_shown;
	struct lbr_record rec_shown;
	/* --calls: the scope's call trace, its calls in entry order (capture.h) */
	const struct lbrsnap_calls *calls;	/* NULL: the record has none */
	const char *call_names;		/* META "calls.AP": "F,A,B" by id, or NULL */
	int origin;			/* index in calls->call[] of the error's origin, -1 */
	/* the branches and stacks were taken at the origin's return, not the scope's */
	bool snap_at_origin;
};

enum lbr_record_view_flags {
	LBR_VIEW_KEEP_ALL = 1 << 0,	/* show the tracing path's entries too */
	/* the attach point, seq and return value only: for a pass that needs no more */
	LBR_VIEW_RET_ONLY = 1 << 1,
};

/*
 * The name of call i's function in buf ("lbrsnap_mid"), or "#ID" where the capture names
 * none. Returns buf.
 */
const char *lbr_record_view__call_name(const struct lbr_record_view *v, unsigned int i,
				       char *buf, size_t len);
/*
 * The calls from the scope's own (call 0) down to the origin, each the enclosing call of the
 * next: their indexes in idx[] (max entries, LBRSNAP_CALLS_DEPTH holds any), outermost first.
 * Returns how many, 0 without an origin.
 */
unsigned int lbr_record_view__origin_path(const struct lbr_record_view *v, unsigned int *idx,
					  unsigned int max);
/* The return value of call i as its function's type reads (ret-value.h), its errno or 0 */
int lbr_record_view__call_errno(const struct lbr_record_view *v, unsigned int i);
/*
 * Call i's result as lbrsnap report's tree prints it, the one text every output shows:
 * "-2 (ENOENT)", "0", "ERR_PTR(-ENOENT)", "(void)", "(no return seen)". Returns buf.
 */
const char *lbr_record_view__call_result(const struct lbr_record_view *v, unsigned int i,
					 char *buf, size_t len);

/* How an attach point's records read their return value: its events' declared type */
enum lbrsnap_ret_kind lbr_record_view__ap_ret_kind(const struct lbr_attach_point *ap);

/*
 * Fills v for rec of capture f. ks (may be NULL: nothing trimmed) holds the capture's
 * kernel symbols. v refers to rec and f: valid while they are.
 */
void lbr_record_view__init(struct lbr_record_view *v, const struct lbrfile *f,
			   const struct ksyms *ks, const struct lbr_record *rec, unsigned int flags);

#endif /* LBRSNAP_RECORD_VIEW_H */
