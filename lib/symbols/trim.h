/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The tracing path's own branches: between the traced event (a function return, a
 * tracepoint call) and bpf_get_branch_snapshot(), the kernel runs trampolines, kprobe or
 * tracepoint glue, migrate_disable(), the BPF program itself... and the LBR records those
 * branches too, as the newest entries. They say nothing about the traced code, so reports
 * hide them by default.
 */
#ifndef LBRSNAP_TRIM_H
#define LBRSNAP_TRIM_H

#include <stdbool.h>
#include <linux/types.h>
#include "capture.h"
#include "symbols/ksyms.h"

/* True when a function of that name (module may be NULL) runs only for the tracing path. */
bool trim__is_tracing_func(const char *name, const char *module);

/* How a record's tracing path is told from the traced code (trim__rule_*()) */
enum trim_how {
	TRIM_BY_NAME,	/* no range known (tracepoints): the run of tracing-path names */
	TRIM_BY_RANGE,	/* a kernel function: kept from the first entry in its range */
	TRIM_TO_USER,	/* user probes and watchpoints: kept from the first user-mode entry */
};

struct trim_rule {
	enum trim_how how;
	__u64 start, end;	/* TRIM_BY_RANGE: the traced function's [start, end) */
	const char *func;	/* TRIM_BY_RANGE: its name (kallsyms may hold it twice) */
	const char *target;	/* TRIM_BY_NAME: the traced function or tracepoint, NULL */
};

/*
 * The rule of a record of an attach point of kind (enum lbrsnap_kind; 0: unknown) and
 * target, args its argument block (NULL without): a kernel function's range (with
 * kprobe-multi each function is an attach point of its own), the function a kernel
 * watchpoint's access trapped in, the trap from user mode of user probes and watchpoints,
 * the name list for tracepoints and unknown attach points.
 */
void trim__rule(struct trim_rule *r, const struct ksyms *ks, unsigned int kind,
		const char *target, const struct lbrsnap_args *args);
/*
 * The rule of a kernel function traced by name: its range from ks, or the name list where
 * ks has no range for it.
 */
void trim__rule_func(struct trim_rule *r, const struct ksyms *ks, const char *func);
/* The rule of kernel code at addr (a watchpoint's trapping instruction): its function's */
void trim__rule_addr(struct trim_rule *r, const struct ksyms *ks, __u64 addr);
/* The name list, target (may be NULL) never trimmed: tracepoints, unknown attach points */
void trim__rule_names(struct trim_rule *r, const char *target);
/* Everything newer than the trap from user mode: user probes, user watchpoints */
void trim__rule_user(struct trim_rule *r);

/* True for a user-space address (the lower half of x86-64's address space) */
static inline bool trim__is_user_addr(__u64 addr)
{
	return (__s64)addr >= 0;
}

/**
 * trim__valid_branches() - The entries of a snapshot before its first zero entry.
 * @br: branch entries, br[0] the most recent
 * @nr: number of entries
 *
 * Legacy LBR is cleared at a context switch: the entries older than the switch then read
 * 0x0 -> 0x0. They are no branches, and nothing after the first of them is either.
 *
 * Return: the number of entries br[0..n-1] before the first zero entry.
 */
unsigned int trim__valid_branches(const struct lbrsnap_branch *br, unsigned int nr);

/**
 * trim__branches() - Count the tracing path's entries at the newest end of a snapshot.
 * @ks: kernel symbols of the capture
 * @r: the record's rule
 * @br: branch entries, br[0] the most recent
 * @nr: number of entries
 *
 * TRIM_BY_RANGE: the first entry whose source (or target, but for a jump from tracing-path
 * code) lies in the traced function is its return into the trampoline or rethook (fexit,
 * kretprobe), its call into ftrace or its trap (kprobe, kernel watchpoint): the traced
 * code's newest entry; everything newer is hidden. TRIM_TO_USER: the first entry
 * taken in user mode is the trap (int3, debug exception) or the return into the uretprobe
 * trampoline; everything newer is the kernel's handling of it. TRIM_BY_NAME, and a range
 * no entry lies in: an entry belongs to the tracing path when its source is in a
 * tracing-path function; counting stops at the first that is not, or is unknown.
 *
 * Return: the number of entries br[0..n-1] to hide.
 */
unsigned int trim__branches(const struct ksyms *ks, const struct trim_rule *r,
			    const struct lbrsnap_branch *br, unsigned int nr);

/**
 * trim__stack() - Count the tracing path's frames at the innermost end of a kernel stack.
 * @ks: kernel symbols of the capture
 * @r: the record's rule
 * @stack: return addresses, innermost first
 * @nr: number of addresses
 *
 * TRIM_BY_RANGE: kept from the first frame in the traced function; a function that has
 * returned (fexit, kretprobe) is not on the stack: kept from the first frame past the
 * tracing path's, by name. TRIM_TO_USER: a kernel stack of a trap from user mode is the
 * trap's path only: all of it. TRIM_BY_NAME: the innermost frames in tracing-path functions.
 *
 * Return: the number of frames stack[0..n-1] that belong to the tracing path.
 */
unsigned int trim__stack(const struct ksyms *ks, const struct trim_rule *r, const __u64 *stack,
			 unsigned int nr);

#endif /* LBRSNAP_TRIM_H */
