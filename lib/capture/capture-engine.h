/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The capture engine: resolve attach points, turn LBR on, load and attach one snapshot-first
 * program per attach point, stream records into an lbrsnap.data writer, count every loss.
 *
 *	capture__open()		everything up to and including attach; all or nothing
 *	capture__follow()	trace a process and its future children (for "-- cmd")
 *	capture__watch()	set the user-address watchpoints in the command (mem:)
 *	capture__write_header()	META and ATTACH sections
 *	capture__poll()		move ring-buffer records into the writer
 *	capture__run()		capture__poll() until a signal, a timeout or a child's exit
 *	capture__finish()	detach, wait for running invocations, drain, count; then
 *				losses and kallsyms (BPF symbols still loaded)
 *	capture__close()	detach and free; the kernel also detaches if the process dies,
 *				because nothing is pinned
 */
#ifndef LBRSNAP_CAPTURE_ENGINE_H
#define LBRSNAP_CAPTURE_ENGINE_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>
#include "capture.h"

struct lbrfile_writer;

/* Where LBR comes from: --lbr=auto|off|external */
enum capture_lbr_mode {
	CAPTURE_LBR_AUTO = 0,		/* open branch-stack events; kernel stacks if impossible */
	CAPTURE_LBR_OFF,		/* kernel stacks only */
	CAPTURE_LBR_EXTERNAL,		/* snapshot, but leave enabling LBR to another tool */
};

struct capture_opts {
	const char *const *events;	/* attach specs; none = the documented default */
	const char *const *filters;	/* --filter of each spec (arg-filter.h), or NULL */
	size_t nr_events;
	__u32 pid;			/* -p: process (tgid) */
	__u32 tid;			/* -t: thread */
	const char *comm;		/* --comm */
	__u32 errors;			/* --errors[=null]: LBRSNAP_ERR_* */
	bool ret_on;			/* --ret VALUE */
	__s64 ret;
	__u32 sample;			/* --sample N: keep 1 of N (0, 1: all) */
	bool stack;			/* --stack: kernel stacks as well as LBR */
	bool user_stack;		/* --user-stack: user stacks, and the maps of their
					   processes (proc-maps.h) */
	const char *branch_filter;	/* -j, perf syntax; NULL = "any,k" */
	enum capture_lbr_mode lbr_mode;
	__u64 ringbuf_bytes;		/* power of two, >= page size; 0 = default 8 MiB */
	__u32 slots;			/* snapshot slots per attach point, a power of two;
					   0: possible CPUs rounded up */
	bool follow;			/* only processes added with capture__follow() */
	bool workload;			/* a command comes: user watchpoints wait for
					   capture__watch() */
	__u32 follow_max;		/* processes followed at once; 0: 16384 */
	bool no_args;			/* --no-args: records without arguments */
	__u32 string_len;		/* --string-len: characters kept of a string argument;
					   0: CAPTURE_DEFAULT_STRING_LEN */
	__u64 max_size;			/* --max-size: records stop before the file would
					   pass it, closing sections included; 0: no limit */
	const char *calls;		/* --calls SPEC: functions traced inside a scope */
	size_t calls_event;		/* ... the -e whose attach point is the scope */
	__u64 longer_ns;		/* --longer: only scopes that took longer (--calls) */
	const char *calls_via;		/* --calls-via: this mechanism's key (call-mech.h),
					   not the first the kernel takes; NULL: that one */
	int verbose;
	const char *who;		/* prefix of "WHO: loading N attach points" on stderr,
					   said for many or after 1 s; NULL: silent */
};

#define CAPTURE_DEFAULT_STRING_LEN 64

/* The default attach point: failing syscalls are useful on any machine. */
#define CAPTURE_DEFAULT_EVENT "raw_tp:sys_exit"

/*
 * The final counts, read after detaching and draining, so that they add up exactly:
 *	hits == records + filtered + sampled_out + capture_stats__lost()
 *	emitted == records + lost[LBRSNAP_LOSS_UNREAD]
 */
struct capture_stats {
	__u64 records;			/* read from the ring buffer and written */
	__u64 hits;			/* invocations: program runs, and the hits the kernel
					   counted but did not run it for (recursion, probe
					   missed, breakpoint skipped) */
	__u64 filtered, sampled_out;
	__u64 filtered_self;		/* ... of filtered, invocations in lbrsnap's own process */
	__u64 filtered_remembered;	/* ... rejected before the snapshot by a remembered verdict */
	__u64 filtered_ia32;		/* ... of filtered, ia32 syscalls at sys_enter/exit */
	__u64 emitted;			/* records the programs submitted */
	__u64 lost[LBRSNAP_LOSS__MAX];	/* LBRSNAP_LOSS_CLOBBERED records are kept */
	__u64 in_flight;		/* invocations still running when counted: 0 */
	__u64 follow_added;		/* children of the command followed */
	__u64 follow_overflow;		/* children not followed: --follow-max reached */
	__u64 follow_forgotten;		/* followed processes that exited */
	__u64 lbr_gaps;			/* intervals with LBR off on a CPU (LBR_GAP) */
	__u64 ustack_errs;		/* --user-stack: records whose user stack failed */
	__u64 procs;			/* --user-stack: processes whose maps were written */
	__u64 procs_gone;		/* ... of them, gone before their maps could be read */
	bool calls;			/* --calls: the call tracker's counts follow */
	struct lbrsnap_calls_stats calls_stats;
	__u64 calls_open;		/* scopes still open when the probes were detached */
	bool max_size_hit;		/* --max-size reached: later records not written */
	/*
	 * -v: per kind, the losses the kernel does not count, else empty; a copy, since the
	 * closing lines are printed after the capture is closed
	 */
	char uncounted[512];
	/*
	 * Why the capture holds no kallsyms copy, 0 when it does: -ENODATA when every address
	 * reads as zero (kernel.kptr_restrict), -ENOSPC (-EDQUOT, -EFBIG) when the disk had no
	 * room for it, else the error reading /proc/kallsyms. The capture is written all the
	 * same.
	 */
	int kallsyms_err;
};

/* Invocations whose record is missing: ring buffer full, skipped by the kernel, unread. */
__u64 capture_stats__lost(const struct capture_stats *st);
/*
 * The closing lines every recording command prints: "[ WHO: H hook hits: R recorded, F
 * filtered, S sampled out, L lost ]", then one line per loss cause and per warning.
 */
void capture_stats__print(const struct capture_stats *st, const char *who, FILE *out);

struct capture;

int capture__open(const struct capture_opts *opts, struct capture **out, char *err,
		  size_t err_len);
int capture__follow(struct capture *c, __u32 pid);
/*
 * --user-stack: trace the command pid (not yet started) so that capture__run() reads its
 * maps at its exit, when every library it loaded is still mapped. 0 without --user-stack.
 */
int capture__trace_exit(struct capture *c, pid_t pid);
/*
 * Sets the watchpoints on user addresses in process pid, its threads and future children,
 * before it runs. Returns 0 or a negative errno with a message in err.
 */
int capture__watch(struct capture *c, pid_t pid, char *err, size_t err_len);
int capture__write_header(struct capture *c, struct lbrfile_writer *w);
/*
 * Moves one bounded batch of ring-buffer records into the writer, waiting up to timeout_ms
 * for the first: a consumer whose own writes feed the attach points must still come back to
 * check why it should stop. Returns records moved (>= 0) or a negative errno.
 */
int capture__poll(struct capture *c, struct lbrfile_writer *w, int timeout_ms);

/* What ends capture__run(). */
struct capture_run {
	pid_t child;			/* stop when it exits (0: no child) */
	volatile sig_atomic_t *stop;	/* set by a signal handler (NULL: none) */
	bool forward_stop;		/* on *stop, SIGTERM the child and keep going until it exits */
	double duration_s;		/* 0: no limit */
	int status;			/* out: the child's wait status, when exited */
	bool exited;			/* out: the child was reaped */
};

/*
 * Polls records into w until run says stop; returns 0 or a negative errno (write error).
 * Records come in bounded batches, and between two of them the stop flag, the duration,
 * --max-size and the child are checked: a stop is seen within a batch (milliseconds)
 * whatever the event rate. A traced child's stops (--user-stack) wake it at once
 * (signalfd), so a command taking many signals runs at its speed; its group-stops stay
 * stopped (PTRACE_LISTEN), as they would without lbrsnap.
 */
int capture__run(struct capture *c, struct lbrfile_writer *w, struct capture_run *run);
int capture__finish(struct capture *c, struct lbrfile_writer *w, struct capture_stats *st);
void capture__close(struct capture *c);

/* True when records are laid out for branches (LBR events open, or --lbr=external). */
bool capture__has_lbr(const struct capture *c);
/*
 * Functions of kprobe:/kretprobe: globs left out, kprobes refusing them where the kernel has
 * no kprobe-multi links; example names one.
 */
size_t capture__kprobe_refused(const struct capture *c, const char **example);
/* Functions of kprobe globs left out: kallsyms holds their name twice; one as an example */
size_t capture__kprobe_ambiguous(const struct capture *c, const char **example);
/* user stacks taken without --user-stack: user probes and no LBR */
bool capture__user_stack_auto(const struct capture *c);
/* Why there is no LBR, or NULL. */
const char *capture__lbr_why(const struct capture *c);
size_t capture__nr_attach(const struct capture *c);
const char *capture__attach_spec(const struct capture *c, size_t i);
/*
 * The attach point whose program and snapshot slots attach point i runs on: i itself, or
 * the first function of its kprobe glob.
 */
size_t capture__attach_owner(const struct capture *c, size_t i);
/* Snapshot slots per attach point. */
__u32 capture__slots(const struct capture *c);
/* Snapshot memory owned by one attach point, and by the whole capture. */
__u64 capture__attach_bytes(const struct capture *c);
__u64 capture__total_bytes(const struct capture *c);

#endif /* LBRSNAP_CAPTURE_ENGINE_H */
