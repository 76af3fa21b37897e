/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kinds of attach point (enum lbrsnap_kind) as their records' readers see them: the
 * spec's prefix and what the kind is (kernel function, tracepoint, user probe, watchpoint;
 * at a return or not). The recorder's side of each kind (its programs, attach function and
 * help) is lib/capture/attach-kind.h, which builds on this.
 */
#ifndef LBRSNAP_LBR_KIND_H
#define LBRSNAP_LBR_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include "capture.h"

enum lbr_kind_flag {
	LBR_KIND_KFUNC = 1 << 0,	/* names kernel functions (BTF FUNCs) */
	LBR_KIND_TRACEPOINT = 1 << 1,	/* names tracepoints (the btf_trace_<name> typedefs) */
	LBR_KIND_USER = 1 << 2,		/* a function or probe in a file: user space */
	LBR_KIND_SDT = 1 << 3,		/* ... a USDT probe, PROVIDER:NAME of its SDT note */
	LBR_KIND_WATCH = 1 << 4,	/* a hardware watchpoint */
	LBR_KIND_RETURN = 1 << 5,	/* runs at the return: sees the return value */
	LBR_KIND_ARGS = 1 << 6,		/* sees the arguments (or a watchpoint's address) */
};

struct lbr_kind {
	const char *name;		/* the spec's prefix: "fexit" */
	unsigned int flags;		/* enum lbr_kind_flag */
};

/* The row of kind, or NULL for a value no kind has (a damaged file). */
const struct lbr_kind *lbr_kind__get(unsigned int kind);
/* Its prefix, "unknown" for a value no kind has. */
const char *lbr_kind__name(unsigned int kind);
/*
 * The kind whose prefix is the len bytes at prefix, perf's and bpftrace's spellings of
 * raw_tp ("rawtrace", "raw_tracepoint") included; 0 (no kind) if none.
 */
enum lbrsnap_kind lbr_kind__by_prefix(const char *prefix, size_t len);
/* Whether kind has any of flags (false for an unknown kind). */
bool lbr_kind__is(unsigned int kind, unsigned int flags);

/* Runs at a return (fexit, kretprobe, uretprobe). */
static inline bool lbr_kind__is_return(unsigned int kind)
{
	return lbr_kind__is(kind, LBR_KIND_RETURN);
}

/* Attaches in user space (uprobe, uretprobe, usdt): its name is no kernel symbol. */
static inline bool lbr_kind__is_user(unsigned int kind)
{
	return lbr_kind__is(kind, LBR_KIND_USER);
}

#endif /* LBRSNAP_LBR_KIND_H */
