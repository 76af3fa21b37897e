/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Record layouts shared by the capture BPF program (capture.bpf.c) and user space.
 *
 * One ring-buffer record per kept hook invocation: a fixed header followed by nr_branches
 * branch entries (24 bytes each, entries[0] most recent, exactly as the kernel's
 * struct perf_branch_entry), then nr_stack kernel return addresses (innermost first,
 * as bpf_get_stack() returns them) and, with LBRSNAP_EV_HAS_ARGS, an argument block
 * (struct lbrsnap_args, version 3), then with LBRSNAP_EV_HAS_USTACK a user stack block
 * (struct lbrsnap_ustack). The same bytes are stored verbatim in lbrsnap.data files
 * (see lib/lbrfile/lbrfile.h), so this layout is an on-disk ABI: only append fields, bump
 * LBRSNAP_EVENT_VERSION when the header changes.
 */
#ifndef LBRSNAP_CAPTURE_H
#define LBRSNAP_CAPTURE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LBRSNAP_EVENT_VERSION	3

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
 * Snapshot slots: each attach point owns a power-of-two number of them, addressed by the CPU
 * number, so with at least as many slots as possible CPUs two invocations can only share a
 * slot by nesting on one CPU, which the kernel refuses. Slots come from one pool per loaded
 * object; an attach point with more slots leaves room for fewer attach points in an object.
 */
#define LBRSNAP_SLOT_POOL	512
#define LBRSNAP_MAX_SLOTS	LBRSNAP_SLOT_POOL

enum lbrsnap_kind {
	LBRSNAP_KIND_FEXIT = 1,
	LBRSNAP_KIND_RAW_TP = 2,
	LBRSNAP_KIND_TP_BTF = 3,
	LBRSNAP_KIND_MEM = 4,		/* hardware watchpoint: a breakpoint perf event */
	LBRSNAP_KIND_UPROBE = 5,	/* a user function's entry, or an offset in it */
	LBRSNAP_KIND_URETPROBE = 6,	/* a user function's return */
	LBRSNAP_KIND_USDT = 7,		/* a user statically defined tracepoint (SDT note) */
	LBRSNAP_KIND_KPROBE = 8,	/* kprobe-multi: one program and link for a glob */
	LBRSNAP_KIND_KRETPROBE = 9,	/* kretprobe-multi, likewise */
	LBRSNAP_KIND__MAX,
};

/* Kinds of programs in one object: LBRSNAP_PROGS_PER_KIND programs of each */
#define LBRSNAP_NR_KINDS	(LBRSNAP_KIND__MAX - 1)

/* lbrsnap_event.flags */
enum {
	LBRSNAP_EV_HAS_RET = 1 << 0,		/* ret holds a return value */
	LBRSNAP_EV_CLOBBERED = 1 << 1,		/* snapshot slot reused mid-copy: branches dropped */
	LBRSNAP_EV_STACK_ERR = 1 << 2,		/* bpf_get_stack() failed (error in stack_err) */
	LBRSNAP_EV_LBR_STALE = 1 << 3,		/* set by readers: LBR was off on this CPU then */
	LBRSNAP_EV_HAS_ARGS = 1 << 4,		/* an argument block follows the stack */
	LBRSNAP_EV_HAS_USTACK = 1 << 5,		/* a user stack block follows (lbrsnap_ustack) */
	LBRSNAP_EV_HAS_EXTRA = 1 << 6,		/* an extra block ends the record (lbrsnap_extra) */
	LBRSNAP_EV_HAS_CALLS = 1 << 7,		/* a call trace follows the extra block */
};

/*
 * Values a record carries beyond its header, a u64 each, in a block that ends the record
 * (after the user stack block). A new value is a new index here and a line of the program:
 * the 80-byte header never changes, a reader keeps the values it knows (nr says how many
 * the program wrote) and reads 0 for one an older program did not write.
 */
enum lbrsnap_extra_idx {
	LBRSNAP_EXTRA_CGROUP,		/* bpf_get_current_cgroup_id(): the task's cgroup v2 */
	LBRSNAP_EXTRA__MAX,
};

struct lbrsnap_extra {
	__u16 nr;		/* values in v[] */
	__u16 reserved;
	__u32 reserved2;
	__u64 v[];		/* by enum lbrsnap_extra_idx */
};

static inline unsigned int lbrsnap_extra_size(unsigned int nr)
{
	return sizeof(struct lbrsnap_extra) + nr * 8;
}

/*
 * --calls SPEC: the call trace of a scope (F's entry to its return, F the attach point). While
 * a task is inside the scope, each entry and exit of a traced function is kept in the task's
 * call buffer (struct lbrsnap_call_state, the calls array's slot of its tid); when the scope
 * ends and its record is kept, the buffer's calls follow the extra block (struct
 * lbrsnap_calls), in entry order, the scope's own function first (func 0, depth 0). Function
 * ids index the capture's META "calls.AP" list of names. Bounds: LBRSNAP_CALLS_DEPTH nested
 * calls, LBRSNAP_MAX_CALLS calls per scope; a call past either is counted in the block's
 * dropped and the capture's lbrsnap_calls_stats, never silently left out.
 *
 * The origin's snapshot (version 2): every traced exit takes its branch snapshot first, into
 * a per-CPU scratch (call_snap); when that exit becomes the error's origin, the scratch, the
 * kernel stack (--stack) and the user stack (--user-stack) at that return are kept in the
 * task's state (o_* below). A record whose scope has a traced origin then carries those
 * instead of the scope's own, and its calls block says so (LBRSNAP_CALLS_SNAP_ORIGIN).
 * Version 1 blocks (flags 0) are read as the scope's snapshot.
 */
#define LBRSNAP_CALLS_VERSION	2
#define LBRSNAP_CALLS_VERSION_MIN	1	/* the oldest block readers still take */
#define LBRSNAP_CALLS_CPUS	64	/* per-CPU exit scratch; more CPUs share (detected) */
#define LBRSNAP_MAX_CALLS	64
#define LBRSNAP_CALLS_DEPTH	64
#define LBRSNAP_CALLS_NO_ORIGIN	0xffff
#define LBRSNAP_CALLS_TASKS	1024	/* slots for scopes in flight, by tid's low bits */

/* lbrsnap_call.flags */
enum {
	LBRSNAP_CALL_RETURNED = 1 << 0,	/* the exit was seen: end_ns and ret are set */
	LBRSNAP_CALL_HAS_RET = 1 << 1,	/* ret holds a return value (not void) */
};

/* lbrsnap_calls.flags */
enum {
	/* the record's branches and stacks are the ones taken at the origin's return */
	LBRSNAP_CALLS_SNAP_ORIGIN = 1 << 0,
};

struct lbrsnap_call {
	__u64 start_ns;		/* bpf_ktime_get_ns() at the entry */
	__u64 end_ns;		/* ... at the exit; 0 if it never came */
	__s64 ret;		/* extended as the function's type says (lbrsnap_call_func) */
	__u16 func;		/* index in the scope's function list; 0: the scope's function */
	__u8 depth;		/* 0: the scope's function */
	__u8 flags;		/* LBRSNAP_CALL_* */
	__u8 ret_kind;		/* enum lbrsnap_ret_kind of ret */
	__u8 reserved[3];
};

struct lbrsnap_calls {
	__u16 version;		/* LBRSNAP_CALLS_VERSION: others are refused, not misread */
	__u16 nr;		/* calls in call[] */
	__u16 origin;		/* call[] index of the error's origin, or CALLS_NO_ORIGIN */
	__u16 flags;		/* LBRSNAP_CALLS_* (version 2; 0 in version 1) */
	__u32 dropped;		/* calls of the scope not in call[]: too deep or too many */
	__u32 reserved2;
	struct lbrsnap_call call[];
};

static inline unsigned int lbrsnap_calls_size(unsigned int nr)
{
	return sizeof(struct lbrsnap_calls) + nr * sizeof(struct lbrsnap_call);
}

/* How a traced function's return value is typed (the calls map, by function id) */
struct lbrsnap_call_func {
	__u8 ret_kind;		/* enum lbrsnap_ret_kind */
	__u8 ret_shift;		/* 64 - 8 * size of the return type */
	__u8 reserved[6];
};

/* A task's scope in progress (BPF side only; user space reads its counters) */
struct lbrsnap_call_state {
	__u16 nr;		/* calls in call[] */
	__u16 origin;		/* the deepest error since the last entry or success */
	__u8 depth;		/* frames open, the scope's own included */
	__u8 is_err;		/* an error is travelling up: no entry or success since */
	__u16 over;		/* entries past LBRSNAP_CALLS_DEPTH not yet returned */
	__u32 dropped;
	__u32 owner;		/* tid + 1 of the task whose scope this is; 0: a free slot */
	__u16 frame_func[LBRSNAP_CALLS_DEPTH];	/* the open frames' functions */
	__u16 frame_call[LBRSNAP_CALLS_DEPTH];	/* ... their index in call[], or NO_ORIGIN */
	struct lbrsnap_call call[LBRSNAP_MAX_CALLS];
	/*
	 * The snapshot at the origin's return: for call[o_call] when o_set. Bounded: 1,800
	 * bytes a task, so with the calls 4,144 bytes a task and 4.2 MiB for LBRSNAP_CALLS_TASKS.
	 */
	__u16 o_call;		/* the call whose return took them */
	__u8 o_set;		/* they are valid */
	__u8 o_clobbered;	/* the scratch was reused before the copy: branches dropped */
	__u16 o_nr_branches;
	__u16 o_nr_stack;
	__s32 o_lbr_ret;	/* bpf_get_branch_snapshot() return at that exit */
	__s32 o_stack_err;	/* bpf_get_stack() error, 0 */
	__u16 o_nr_ustack;
	__u16 o_ustack_taken;	/* --user-stack: the user stack was taken */
	__s32 o_ustack_err;
	__u64 o_branches[LBRSNAP_MAX_BRANCHES * LBRSNAP_BRANCH_SIZE / 8];	/* as lbrsnap_branch */
	__u64 o_stack[LBRSNAP_MAX_STACK];
	__u64 o_ustack[64];	/* LBRSNAP_MAX_USTACK, defined below (checked there) */
};

/* What the call tracker counted (one set per capture): scopes == ended + died + open */
struct lbrsnap_calls_stats {
	__u64 scopes;		/* scopes entered with a call buffer */
	__u64 ended;		/* ... that reached their return (kept or filtered) */
	__u64 died;		/* ... whose task exited inside (sched_process_exit) */
	__u64 no_room;		/* scopes untraced: LBRSNAP_CALLS_TASKS already in flight */
	__u64 dropped;		/* calls not kept: too deep or too many in their scope */
	__u64 mismatched;	/* exits that matched no open frame (a lost entry) */
};

/*
 * --user-stack: the current task's user call stack, innermost first, taken after the
 * snapshot (bpf_get_stack() with BPF_F_USER_STACK). It trails the record, after the
 * argument block; the 80-byte header stays as it is, so older readers skip nothing they know.
 */
#define LBRSNAP_MAX_USTACK	64

struct lbrsnap_ustack {
	__u16 nr;		/* entries in ip[] */
	__u16 reserved;
	__s32 err;		/* bpf_get_stack() error, 0 if fine */
	__u64 ip[];		/* user return addresses, innermost first */
};

#ifndef __cplusplus
_Static_assert(sizeof(((struct lbrsnap_call_state *)0)->o_ustack) == LBRSNAP_MAX_USTACK * 8,
	       "the origin's user stack holds LBRSNAP_MAX_USTACK entries");
#endif

static inline unsigned int lbrsnap_ustack_size(unsigned int nr)
{
	return sizeof(struct lbrsnap_ustack) + nr * 8;
}

/*
 * How the return value of an attach point is typed, from its BTF. The program stores it in
 * lbrsnap_event.ret already extended to 64 bits the way the type says, so every filter and
 * every reader compares and prints the value the function really returned.
 */
enum lbrsnap_ret_kind {
	LBRSNAP_RET_NONE = 0,		/* void function, or a tracepoint without one */
	LBRSNAP_RET_SIGNED = 1,		/* signed integer or enum: sign-extended from ret_size */
	LBRSNAP_RET_UNSIGNED = 2,	/* unsigned integer or enum, char: zero-extended */
	LBRSNAP_RET_BOOL = 3,		/* _Bool: low byte, zero-extended; printed true/false */
	LBRSNAP_RET_POINTER = 4,	/* 64 bits; IS_ERR() values are ERR_PTR(-errno) */
};

/* Where a program finds its return value (rodata ap_flags[]) */
enum {
	LBRSNAP_AP_RET_FEXIT = 1 << 0,	/* fexit on a function returning a value */
	LBRSNAP_AP_RET_ARG1 = 1 << 1,	/* sys_exit raw tracepoint: args[1] is the return value */
	LBRSNAP_AP_SYS_ENTER = 1 << 2,	/* sys_enter: args[1] is the syscall number */
	LBRSNAP_AP_SYS_EXIT = 1 << 3,	/* sys_exit: the number is args[0]->orig_ax */
	LBRSNAP_AP_MEM = 1 << 4,	/* watchpoint: args are the address and the value there */
	LBRSNAP_AP_MEM_USER = 1 << 5,	/* ... a user address, read with the user-memory helper */
	LBRSNAP_AP_UREGS = 1 << 6,	/* uprobe: arguments in the x86-64 argument registers */
	LBRSNAP_AP_RET_UREGS = 1 << 7,	/* uretprobe: the return value in rax */
	LBRSNAP_AP_USDT = 1 << 8,	/* usdt: arguments as the probe's SDT note places them */
	LBRSNAP_AP_MULTI = 1 << 9,	/* kprobe-multi: typed per function (lbrsnap_func) */
	LBRSNAP_AP_RET_REGS = 1 << 10,	/* ... kretprobe: the return value is in a register */
	LBRSNAP_AP_UREGS_SRET = 1 << 11,	/* uprobe of a struct returned in memory: rdi is
						 * its address, the arguments start at rsi */
	LBRSNAP_AP_CALLS = 1 << 12,	/* a --calls scope's end: its record takes the calls */
};

/*
 * Arguments: a fexit function's parameters, a tracepoint's prototype after its void *
 * (raw_tp, tp_btf), a syscall's six register arguments (sys_enter, sys_exit). Values are
 * extended as their type says, like return values (the same kinds); STRING arguments keep
 * their pointer as the value and their text in a string slot.
 */
#define LBRSNAP_MAX_ARGS	6
#define LBRSNAP_MAX_STRS	3	/* string slots per record: mount(2) has three */
#define LBRSNAP_MAX_STRING_LEN	1024
#define LBRSNAP_NR_SYSCALLS	512	/* x86-64 numbers below this */

/*
 * A kprobe-multi program runs for every function of its glob, and each function is an attach
 * point of its own. The link gives each function a cookie, its index in the object's funcs
 * map, whose value says which attach point fired and how to type its values; the program
 * reads it only after the snapshot. The glob's snapshot slots and counters are shared by its
 * functions (counted on its first function's attach point).
 */
#define LBRSNAP_MAX_FUNCS	65536	/* functions of kprobe-multi globs per object */

struct lbrsnap_func {
	__u32 ap;			/* attach point id */
	__u16 args_size;		/* bytes of its argument block; 0: none */
	__u8 ret_kind;			/* enum lbrsnap_ret_kind */
	__u8 ret_shift;			/* 64 - 8 * size of the return type */
	__u8 nargs;			/* arguments captured */
	__u8 nstrs;			/* string slots in its records */
	__u8 arg_kind[LBRSNAP_MAX_ARGS];	/* lbrsnap_ret/arg_kind */
	__u8 arg_shift[LBRSNAP_MAX_ARGS];
};

enum lbrsnap_arg_kind {
	/* 1..4 as enum lbrsnap_ret_kind */
	LBRSNAP_ARG_STRING = 5,		/* char *: the pointer, and the text read from it */
};

/*
 * The argument block: this header, u64 val[nr_args], then nr_strs string slots of str_size
 * bytes each (struct lbrsnap_str), size bytes in all (a multiple of 8).
 */
struct lbrsnap_args {
	__s32 syscall_nr;	/* sys_enter/sys_exit: the syscall number; else -1 */
	__u8 nr_args;
	__u8 nr_strs;
	__u16 size;
	__u16 str_size;
	__u16 str_len;		/* --string-len: characters kept */
	__u16 flags;		/* LBRSNAP_ARGS_* */
	__u16 reserved;
};

/* lbrsnap_args.flags */
enum {
	/*
	 * sys_exit of a successful execve/execveat: the exec reset the registers the
	 * arguments were in, so the values are not the call's (stored as 0, shown unavailable)
	 */
	LBRSNAP_ARGS_UNAVAILABLE = 1 << 0,
};

struct lbrsnap_str {
	__s16 len;		/* bpf_probe_read_*_str(): bytes with the NUL, or -errno */
	__u8 arg;		/* the argument it was read from */
	__u8 reserved[5];
	char s[];		/* up to str_len + 2 bytes; len == str_len + 2: truncated */
};

/*
 * --filter EXPR, compiled in user space (lib/capture/arg-filter.c) into postfix code the
 * program runs on its record before submitting it: comparisons push a truth value on a
 * stack of bits, AND/OR/NOT combine the top ones; the record is kept when the top is 1.
 */
#define LBRSNAP_FILTER_INSNS	16
#define LBRSNAP_FILTER_STRS	2
#define LBRSNAP_FILTER_STR_LEN	32

enum lbrsnap_filter_op {
	LBRSNAP_FOP_END = 0,
	LBRSNAP_FOP_CMP = 1,		/* field cmp imm */
	LBRSNAP_FOP_STR = 2,		/* string slot == filter string (glob: its first imm bytes) */
	LBRSNAP_FOP_AND = 3,
	LBRSNAP_FOP_OR = 4,
	LBRSNAP_FOP_NOT = 5,
};

enum lbrsnap_filter_cmp {
	LBRSNAP_FCMP_EQ, LBRSNAP_FCMP_NE, LBRSNAP_FCMP_LT, LBRSNAP_FCMP_LE, LBRSNAP_FCMP_GT,
	LBRSNAP_FCMP_GE, LBRSNAP_FCMP_BIT,	/* field & imm != 0 */
};

/*
 * Fields 0..5 are the arguments. At sys_enter/sys_exit a filter names a syscall's argument
 * ("fd"), which sits in a different register per syscall: field LBRSNAP_FLD_SYSARG + n is
 * the argument called by the capture's name n, found through sys_arg_map[n][syscall].
 */
enum {
	LBRSNAP_FLD_RET = 6, LBRSNAP_FLD_PID, LBRSNAP_FLD_TID, LBRSNAP_FLD_CPU,
	LBRSNAP_FLD_SYSCALL,
	LBRSNAP_FLD_SYSARG = 16,
};

#define LBRSNAP_FILTER_NAMES	4	/* syscall argument names of a capture's filters */

/*
 * sys_arg_map entries: where a syscall has the named argument and how it is typed. A
 * syscall without it makes every comparison of it false, != included.
 */
enum {
	LBRSNAP_SYSARG_INDEX = 7,		/* bits 0-2: the argument's register */
	LBRSNAP_SYSARG_PRESENT = 1 << 3,
	LBRSNAP_SYSARG_SIGNED = 1 << 4,	/* compared as signed, sign-extended from its size */
	LBRSNAP_SYSARG_STRING = 1 << 5,	/* a user string: read into a string slot */
	LBRSNAP_SYSARG_SIZE_SHIFT = 6,	/* bits 6-7: log2 of its size in bytes */
};

struct lbrsnap_filter_insn {
	__u8 op;		/* enum lbrsnap_filter_op */
	__u8 cmp;		/* enum lbrsnap_filter_cmp; STR: EQ or NE */
	__u8 field;		/* CMP: LBRSNAP_FLD_* or an argument; STR: the string slot */
	__u8 is_signed;		/* CMP: compare as signed values */
	__u8 str;		/* STR: the filter string */
	__u8 glob;		/* STR: a prefix of imm bytes */
	__u8 pad[2];
	__s64 imm;
};

/* Slot bytes for strings of up to len characters: one more to tell truncation, and the NUL */
#define LBRSNAP_STR_SIZE(len)	((8 + (len) + 2 + 7) & ~7u)

static inline unsigned int lbrsnap_str_size(unsigned int len)
{
	return LBRSNAP_STR_SIZE(len);
}

/* What --errors keeps (rodata filter_errors) */
enum {
	LBRSNAP_ERR_ERRNO = 1 << 0,	/* signed -4095..-1, pointers IS_ERR() */
	LBRSNAP_ERR_NULL = 1 << 1,	/* --errors=null: NULL pointers as well */
};

/* Loss causes, counted per attach point in the BPF program's stats. */
enum lbrsnap_loss {
	LBRSNAP_LOSS_RINGBUF = 0,		/* bpf_ringbuf_output() failed: buffer full */
	LBRSNAP_LOSS_CLOBBERED = 1,		/* snapshot slot reused: record kept, branches dropped */
	LBRSNAP_LOSS_RECURSION = 2,		/* kernel skipped the program (prog->active), from prog info */
	LBRSNAP_LOSS_UNREAD = 3,		/* emitted by the program, never read (user space) */
	LBRSNAP_LOSS_NESTED = 4,		/* more than LBRSNAP_NEST_MAX programs deep on a CPU */
	/*
	 * kprobe, kretprobe: hits the kprobe or fprobe under the link let pass without running
	 * the program (its `missed` in link info, 6.7+): kretprobe instances or the fprobe
	 * return pool exhausted, a probe hit inside another probe's handler.
	 */
	LBRSNAP_LOSS_PROBE_MISSED = 5,
	/* mem: breakpoint hits its perf events counted whose program never ran (count - runs) */
	LBRSNAP_LOSS_PERF_SKIPPED = 6,
	LBRSNAP_LOSS__MAX,
};

/* Whether invocations counted under cause have no record: a clobbered one is kept. */
static inline int lbrsnap_loss__drops_record(unsigned int cause)
{
	return cause != LBRSNAP_LOSS_CLOBBERED;
}

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

/*
 * One snapshot slot's tickets and counters, a cache line of its own. With a slot per CPU
 * only that CPU writes the line, so the counters of an invocation never bounce between
 * CPUs; user space sums an attach point's slots. Every invocation takes a ticket (next)
 * before the snapshot and completes it (done) at the end, so after detaching, next == done
 * says no invocation is still running and the counters are final:
 *	next == filtered + sampled_out + emitted + lost_ringbuf + lost_nested
 */
struct lbrsnap_slot_ctl {
	__u64 next;			/* tickets taken: invocations */
	__u64 done;			/* tickets completed */
	/*
	 * rejected by a filter before any ticket (filter-first); a ticket rejected after the
	 * snapshot is counted by done alone: done - sampled_out - emitted - lost_ringbuf -
	 * lost_nested
	 */
	__u64 filtered;
	__u64 sampled_out;		/* passed the filters, dropped by --sample */
	__u64 emitted;			/* records submitted to the ring buffer */
	__u64 lost_ringbuf;		/* bpf_ringbuf_output() failed: buffer full */
	__u64 clobbered;		/* emitted with branches dropped: slot reused */
	__u64 lost_nested;		/* no staging buffer free on the CPU: LBRSNAP_LOSS_NESTED */
} __attribute__((aligned(64)));

/*
 * Remembered rejections (filter-first where the kernel calls the current-task helper): a task
 * rejected by --pid, --tid, --follow or --comm is rejected again before the snapshot, known by
 * the kernel stack its program's context lies on. A slot holds the stack's tag (its address >>
 * LBRSNAP_VERDICT_SHIFT, LBRSNAP_VERDICT_TAG_BITS of it) and the generation it was written
 * in; lbrsnap bumps gen when it changes what those filters decide (a process followed), a
 * task's slot is cleared when its stack is given to a new task (task_newtask) and when its
 * exec changes its tid (sched_process_exec). self is the table's own address, stored by the
 * first rejection: a context's distance from the table is all the verifier lets a program
 * compute, and the two give the context's address.
 * A rename (task_rename) to a comm --comm keeps marks the task's slot LBRSNAP_VERDICT_STICKY:
 * the tracepoint fires before the new name is copied, so an event of the task on another
 * CPU may still read the old one. A rejection by comm is stored by compare-and-swap from the
 * word read before the comm, and never over a sticky word: such an event cannot remember a
 * rejection the rename voids. A rename to another comm takes the mark away.
 */
#define LBRSNAP_VERDICTS	1024		/* slots, a power of two */
#define LBRSNAP_VERDICT_SHIFT	14		/* 16 KiB, x86-64's THREAD_SIZE without KASAN */
#define LBRSNAP_VERDICT_TAG_BITS 44		/* address bits 14-57: every kernel address */
#define LBRSNAP_VERDICT_TAG_MASK ((1ULL << LBRSNAP_VERDICT_TAG_BITS) - 1)
/* the generation's bits, below the sticky bit: no generation's word is sticky */
#define LBRSNAP_VERDICT_GEN_MASK ((1ULL << (63 - LBRSNAP_VERDICT_TAG_BITS)) - 1)
#define LBRSNAP_VERDICT_STICKY	(1ULL << 63)

struct lbrsnap_verdicts {
	__u64 self;
	__u64 gen;
	__u64 v[LBRSNAP_VERDICTS];
};

/* Counters of the fork tracker (-- cmd), one set per capture. */
struct lbrsnap_follow_stats {
	__u64 added;			/* children followed */
	__u64 overflow;			/* children not followed: the follow map was full */
	__u64 forgotten;		/* followed processes that exited */
};

/*
 * A record is built in a per-CPU staging buffer, filtered there and copied into the ring
 * buffer at its real size (bpf_ringbuf_output()), so a rejected record never takes ring
 * buffer room and a kept one takes only what it holds. Programs of different attach points
 * nest on one CPU (an interrupt's tracepoint inside a function's fexit), and fexit and uprobe
 * programs run preemptible (migration disabled only), so another task's program may start
 * and end on the CPU while one is in progress, in any order: a CPU has LBRSNAP_NEST_MAX
 * buffers, each claimed by an invocation (compare-and-swap of its owner word) and released
 * on every way out; an invocation that finds none free is counted lost.
 * In the ring buffer a record is the header, the argument block (at a fixed place, where the
 * filter reads it), the branches, the stack, the user stack block, then the extra block; user
 * space moves the argument block between the stack and the user stack block, where
 * lbrsnap.data keeps it.
 */
#define LBRSNAP_NEST_MAX	4
#define LBRSNAP_MAX_ARGS_SIZE	(sizeof(struct lbrsnap_args) + 8 * LBRSNAP_MAX_ARGS + \
				 LBRSNAP_MAX_STRS * LBRSNAP_STR_SIZE(LBRSNAP_MAX_STRING_LEN))
#define LBRSNAP_STAGE_SIZE	(sizeof(struct lbrsnap_event) + LBRSNAP_MAX_ARGS_SIZE + \
				 LBRSNAP_MAX_BRANCHES * LBRSNAP_BRANCH_SIZE + LBRSNAP_MAX_STACK * 8 + \
				 sizeof(struct lbrsnap_ustack) + LBRSNAP_MAX_USTACK * 8 + \
				 sizeof(struct lbrsnap_extra) + LBRSNAP_EXTRA__MAX * 8 + \
				 sizeof(struct lbrsnap_calls) + \
				 LBRSNAP_MAX_CALLS * sizeof(struct lbrsnap_call))

static inline unsigned int lbrsnap_event_size(unsigned int nr_branches, unsigned int nr_stack)
{
	return sizeof(struct lbrsnap_event) + nr_branches * LBRSNAP_BRANCH_SIZE + nr_stack * 8;
}

#endif /* LBRSNAP_CAPTURE_H */
