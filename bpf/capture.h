/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Record layouts shared by the capture BPF program (capture.bpf.c) and user space.
 *
 * One ring-buffer record per kept hook invocation: a fixed header followed by nr_branches
 * branch entries (24 bytes each, entries[0] most recent, exactly as the kernel's
 * struct perf_branch_entry) and then nr_stack kernel return addresses (innermost first,
 * as bpf_get_stack() returns them). The same bytes are stored verbatim in lbrsnap.data files
 * (see src/lbrfile.h), so this layout is an on-disk ABI: only append fields, bump
 * LBRSNAP_EVENT_VERSION when the header changes.
 */
#ifndef LBRSNAP_CAPTURE_H
#define LBRSNAP_CAPTURE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LBRSNAP_EVENT_VERSION	1

/* Intel Skylake and later have 32 entries, Haswell and AMD Zen 4 16 (lbr-and-peers.md). */
#define LBRSNAP_MAX_BRANCHES	32
#define LBRSNAP_BRANCH_SIZE	24
#define LBRSNAP_MAX_STACK	64
#define LBRSNAP_COMM_LEN	16

/*
 * Programs per kind in one loaded object. Each attach point gets its own program and its
 * own snapshot slots; more attach points than this open further object instances.
 */
#define LBRSNAP_PROGS_PER_KIND	64

/*
 * Snapshot slots per attach point (a power of two). A slot is taken by ticket before the
 * snapshot, so a slot is shared only by invocations LBRSNAP_SLOTS tickets apart.
 */
#define LBRSNAP_SLOTS		8

enum lbrsnap_kind {
	LBRSNAP_KIND_FEXIT = 1,
	LBRSNAP_KIND_RAW_TP = 2,
	LBRSNAP_KIND_TP_BTF = 3,
};

/* lbrsnap_event.flags */
enum {
	LBRSNAP_EV_HAS_RET = 1 << 0,		/* ret holds a return value */
	LBRSNAP_EV_CLOBBERED = 1 << 1,		/* snapshot slot reused mid-copy: branches dropped */
	LBRSNAP_EV_STACK_ERR = 1 << 2,		/* bpf_get_stack() failed (error in stack_err) */
};

/* Per program flags (rodata ap_flags[]), set from the attach point's BTF */
enum {
	LBRSNAP_AP_RET_FEXIT = 1 << 0,	/* fexit on a function returning a value */
	LBRSNAP_AP_RET_ARG1 = 1 << 1,	/* sys_exit raw tracepoint: args[1] is the return value */
};

/* Loss causes, counted per attach point in the BPF program's stats. */
enum lbrsnap_loss {
	LBRSNAP_LOSS_RINGBUF = 0,		/* bpf_ringbuf_reserve() failed: buffer full */
	LBRSNAP_LOSS_CLOBBERED = 1,		/* snapshot slot reused: record kept, branches dropped */
	LBRSNAP_LOSS_RECURSION = 2,		/* kernel skipped the program (prog->active), from prog info */
	LBRSNAP_LOSS__MAX,
};

struct lbrsnap_branch {
	__u64 from;
	__u64 to;
	__u64 flags;		/* struct perf_branch_entry bitfield */
};

struct lbrsnap_event {
	__u64 time_ns;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__s64 ret;		/* return value when LBRSNAP_EV_HAS_RET */
	__u32 ap;		/* attach point id (index in the session's attach table) */
	__u32 cpu;
	__u32 pid;		/* tgid */
	__u32 tid;
	char comm[LBRSNAP_COMM_LEN];
	__s32 lbr_ret;		/* bpf_get_branch_snapshot() return: bytes, or -errno */
	__s32 stack_err;	/* bpf_get_stack() error, 0 if fine or not asked */
	__u16 nr_branches;
	__u16 nr_stack;
	__u32 flags;		/* LBRSNAP_EV_* */
	__u64 seq;		/* ticket: per attach point invocation number */
	/* followed by struct lbrsnap_branch[nr_branches], then __u64 stack[nr_stack] */
};

/* Ticket state of one attach point's snapshot slots (see capture.bpf.c). */
struct lbrsnap_slot_ctl {
	__u64 next;			/* next ticket */
	__u64 matched;			/* passed the filters: --sample counts these */
	__u64 done[LBRSNAP_SLOTS];	/* completed tickets per slot */
};

/* Per attach point counters kept by the BPF program (a global array, one entry per ap). */
struct lbrsnap_ap_stats {
	__u64 hits;		/* invocations that took a ticket */
	__u64 filtered;		/* rejected by a filter (pid, comm, return value) */
	__u64 sampled_out;	/* passed the filters, dropped by --sample */
	__u64 emitted;		/* records submitted to the ring buffer */
	__u64 lost[LBRSNAP_LOSS__MAX];
};

static inline unsigned int lbrsnap_event_size(unsigned int nr_branches, unsigned int nr_stack)
{
	return sizeof(struct lbrsnap_event) + nr_branches * LBRSNAP_BRANCH_SIZE + nr_stack * 8;
}

#endif /* LBRSNAP_CAPTURE_H */
