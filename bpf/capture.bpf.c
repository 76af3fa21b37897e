// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * Snapshot-first capture programs.
 *
 * Every attach point gets its own program (lbrsnap_<kind>_<n>) and its own snapshot slots,
 * so two attach points never write the same buffer. The first thing a program does is take
 * the LBR snapshot. Before bpf_get_branch_snapshot() there is only the CPU number that picks
 * the slot and branch-free set-up (a ticket from an atomic add). The CPU id is a helper call
 * on kernels that do not inline it (before 6.10, 1ae6921009e5), which costs two LBR entries;
 * it is the only call allowed there. Filters, pid and comm all come after.
 *
 * Slots: an attach point owns ap_slots consecutive slots of the object's pool, indexed by
 * CPU. With a slot per possible CPU (the default) an invocation has its slot to itself: the
 * kernel refuses same-CPU nesting of one program (prog->active, counted as recursion misses
 * in user space). With fewer slots (--slots) CPUs share them, and reuse is detected: ticket
 * T of a slot trusts its snapshot only if every earlier ticket had completed before T took
 * it (done == T) and no later ticket was handed out before T finished copying.
 *
 * kprobe-multi (lbrsnap_kprobe_<n>, lbrsnap_kretprobe_<n>): one program for all the functions
 * of a spec, each function an attach point. The snapshot goes into the spec's slots like any
 * other; only then does the link's cookie for the function that fired select its funcs entry,
 * which gives the record its attach point and types its return value or arguments.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/usdt.bpf.h>
#include "capture.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define NR_PROGS (LBRSNAP_NR_KINDS * LBRSNAP_PROGS_PER_KIND)
#ifndef E2BIG
#define E2BIG 7		/* errno values are macros, which BTF does not carry */
#endif

struct lbrsnap_branch snap[LBRSNAP_SLOT_POOL][LBRSNAP_MAX_BRANCHES];
struct lbrsnap_slot_ctl ctl[LBRSNAP_SLOT_POOL];
/*
 * --sample N keeps one of every N matching invocations of an attach point, whatever the CPU,
 * so its counter is one per program; it is only touched with --sample.
 */
struct {
	__u64 matched;
} __attribute__((aligned(64))) sample_ctl[NR_PROGS];
/*
 * Invocations in lbrsnap's own process, counted among the filtered ones as well: its reads
 * and writes would feed the very attach points it consumes for (page faults, irqs, syscalls),
 * a loop no consumer can outrun. Only lbrsnap's CPU writes them, so one counter per program.
 */
struct {
	__u64 hits;
} __attribute__((aligned(64))) self_ctl[NR_PROGS];
/*
 * ia32 syscalls (int $0x80, 32-bit tasks) at sys_enter/sys_exit: their numbers and registers
 * follow another table than the x86-64 one the records are named and typed by, so they are
 * not recorded; counted among the filtered ones and here, per program, for the closing line.
 */
struct {
	__u64 hits;
} __attribute__((aligned(64))) ia32_ctl[NR_PROGS];
struct lbrsnap_follow_stats follow_stats;
/* Remembered rejections (capture.h), and those counted per program: filtered hits too */
struct lbrsnap_verdicts verdicts;
struct {
	__u64 hits;
} __attribute__((aligned(64))) remembered_ctl[NR_PROGS];

const volatile __u32 ap_id[NR_PROGS];
const volatile __u32 ap_flags[NR_PROGS];
const volatile __u32 ap_slot_base[NR_PROGS];	/* first slot of the program in the pool */
const volatile __u8 ap_ret_kind[NR_PROGS];	/* enum lbrsnap_ret_kind */
const volatile __u8 ap_ret_shift[NR_PROGS];	/* 64 - 8 * size of the return type */
const volatile __u8 ap_nargs[NR_PROGS];		/* arguments captured; 0: none */
const volatile __u8 ap_nstrs[NR_PROGS];		/* string slots in its records */
const volatile __u16 ap_args_size[NR_PROGS];	/* bytes of its argument block */
const volatile __u64 ap_mem_addr[NR_PROGS];	/* watchpoint: the address watched */
const volatile __u8 ap_mem_len[NR_PROGS];	/* ... bytes read as its value */
const volatile __u8 ap_arg_kind[NR_PROGS][LBRSNAP_MAX_ARGS];	/* lbrsnap_ret/arg_kind */
const volatile __u8 ap_arg_shift[NR_PROGS][LBRSNAP_MAX_ARGS];
const volatile __u16 str_size;			/* lbrsnap_str_size(--string-len) */
const volatile __u16 str_len;			/* --string-len */
const volatile __u8 sys_str_mask[LBRSNAP_NR_SYSCALLS];	/* user string arguments by number */
const volatile __u8 sys_nargs[LBRSNAP_NR_SYSCALLS];	/* arguments by number; 6 if unknown */
const volatile __u8 sys_arg_map[LBRSNAP_FILTER_NAMES][LBRSNAP_NR_SYSCALLS];	/* capture.h */
const volatile struct lbrsnap_filter_insn ap_filter[NR_PROGS][LBRSNAP_FILTER_INSNS];
const volatile char ap_filter_str[NR_PROGS][LBRSNAP_FILTER_STRS][LBRSNAP_FILTER_STR_LEN];
const volatile bool ap_filter_on[NR_PROGS];
const volatile __u32 slot_mask;			/* slots per attach point - 1 */
const volatile __u32 filter_pid;
const volatile __u32 self_tgid;			/* lbrsnap's own process: never traced */
const volatile __u32 filter_tid;
const volatile bool filter_follow;
const volatile bool filter_comm_on;
const volatile char filter_comm[LBRSNAP_COMM_LEN];
const volatile __u32 filter_errors;		/* LBRSNAP_ERR_* */
const volatile bool filter_ret_on;
const volatile __s64 filter_ret;
const volatile __u32 sample_every;
const volatile bool want_stack;
const volatile bool want_ustack;	/* --user-stack */
const volatile bool want_lbr;		/* LBR is on: records carry the branches */
const volatile __u64 wakeup_bytes;	/* wake the consumer once this much data waits */
/*
 * The branch filter records no jump (-j any_call, any_ret, call_stack, ...) and the kernel
 * inlines the task and CPU id helpers: pid, tid and comm are checked before the snapshot in
 * loads and conditional jumps only, which such a filter does not record (filter-first.c).
 */
const volatile bool filter_first;
/*
 * The same free order where the kernel calls the task helper: rejections by pid, tid and
 * follow (and comm: comm_remembered) are remembered per kernel stack and repeated before the
 * snapshot (capture.h).
 */
const volatile bool first_remembered;
/* with it, --comm's rejections remembered too, a rename watched (capture.h) */
const volatile bool comm_remembered;
/* a slot per possible CPU (--slots not below their number): no CPU shares its slot's line */
const volatile bool slot_per_cpu;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20);
} events SEC(".maps");

/* Records are built here, one buffer per nesting level of a CPU (capture.h) */
struct lbrsnap_stage {
	__u8 buf[LBRSNAP_STAGE_SIZE];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LBRSNAP_NEST_MAX);
	__type(key, __u32);
	__type(value, struct lbrsnap_stage);
} stage SEC(".maps");

/*
 * Owners of the CPU's staging buffers, 0 when free. Programs do not nest in order on a CPU:
 * a preempted fexit or uprobe program resumes after others started and ended there, so a
 * buffer is claimed by a compare-and-swap and released by its owner alone (capture.h).
 */
struct lbrsnap_nest {
	__u32 owner[LBRSNAP_NEST_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lbrsnap_nest);
} nest SEC(".maps");

/* kprobe-multi functions, by the cookie their link gives each (capture.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* set to the object's functions by user space */
	__type(key, __u32);
	__type(value, struct lbrsnap_func);
} funcs SEC(".maps");

/* Processes traced with "-- cmd": the workload and its live descendants. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u8);
} follow SEC(".maps");

/*
 * --calls: each task's scope in progress (capture.h), in the slot of its tid's low bits. An
 * array, not a hash by tid: the verifier inlines an array's lookup, so a traced call finds
 * its task's state with a few loads instead of a hash's call, which the calls-cost bench
 * measured at most of a call's cost. A slot is a task's while its owner is tid + 1: taken
 * when the scope opens (a compare-and-swap from 0: a slot held by another task inside a scope
 * leaves this scope untraced, counted as no room), given back when the scope ends (its
 * return reached snap_body) or its task exits inside it (lbrsnap_calls_died). Without
 * --calls one slot that nothing looks up: the call programs are not loaded and no attach
 * point has LBRSNAP_AP_CALLS.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* LBRSNAP_CALLS_TASKS with --calls */
	__type(key, __u32);
	__type(value, struct lbrsnap_call_state);
} calls SEC(".maps");

/* The traced functions' return types, by function id (the links' cookies) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* the scope's functions with --calls */
	__type(key, __u32);
	__type(value, struct lbrsnap_call_func);
} call_funcs SEC(".maps");

struct lbrsnap_calls_stats calls_stats;
/*
 * Each traced exit's branch snapshot, by CPU (capture.h): copied into the task's state only
 * when the exit becomes the error's origin, so the snapshot costs one helper call and no
 * lookup before it. Tickets as the slots': a copy trusts the scratch only if no other exit
 * took it in between (a preempted exit, or CPUs past LBRSNAP_CALLS_CPUS sharing one).
 */
struct lbrsnap_branch call_snap[LBRSNAP_CALLS_CPUS][LBRSNAP_MAX_BRANCHES];
struct {
	__u64 next;
	__u64 done;
} __attribute__((aligned(64))) call_snap_ctl[LBRSNAP_CALLS_CPUS];
const volatile __u64 calls_longer_ns;		/* --longer: shorter scopes are filtered */


static __always_inline bool comm_matches(const char *comm)
{
	int i;

	for (i = 0; i < LBRSNAP_COMM_LEN; i++) {
		if (comm[i] != filter_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

/* comm_matches() on the task's own copy: loads only, no helper (filter_first) */
static __always_inline bool task_comm_matches(struct task_struct *task)
{
	int i;

#pragma unroll
	for (i = 0; i < LBRSNAP_COMM_LEN; i++) {
		if (task->comm[i] != filter_comm[i])
			return false;
		if (!filter_comm[i])
			break;
	}
	return true;
}

/*
 * args[1] of a raw tracepoint. The verifier takes context loads only at a constant offset
 * from the context pointer itself, which the compiler does not always keep: say it in asm.
 */
static __always_inline __u64 ctx_arg1(void *ctx)
{
	__u64 v;

	asm volatile("%0 = *(u64 *)(%1 + 8)" : "=r"(v) : "r"(ctx));
	return v;
}

/*
 * Context argument n (a constant): fexit and tp_btf contexts are arrays of u64 arguments,
 * a raw tracepoint's struct bpf_raw_tracepoint_args is one too.
 */
#define CTX_LOAD(v, ctx, off) asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(v) : "r"(ctx))
#define CTX_ARG(v, ctx, off) CTX_LOAD(v, ctx, off)
/* offsetof(struct pt_regs, ip) on x86-64, the start of struct bpf_perf_event_data */
#define PT_REGS_IP_OFF 128
/* offsetof(struct pt_regs, ...) on x86-64: the return value and the argument registers */
#define PT_REGS_AX_OFF 80

/*
 * A uprobe's context is the user registers at the probed instruction: at a function's
 * entry the System V ABI's argument registers rdi, rsi, rdx, rcx, r8, r9.
 */
static __always_inline void uregs_args(void *ctx, const __u32 idx, __u64 *v)
{
	const __u32 n = ap_nargs[idx];

	/* a struct returned in memory: its address is a hidden first argument (at most 5 left) */
	if (ap_flags[idx] & LBRSNAP_AP_UREGS_SRET) {
		if (n > 0)
			CTX_LOAD(v[0], ctx, 104);
		if (n > 1)
			CTX_LOAD(v[1], ctx, 96);
		if (n > 2)
			CTX_LOAD(v[2], ctx, 88);
		if (n > 3)
			CTX_LOAD(v[3], ctx, 72);
		if (n > 4)
			CTX_LOAD(v[4], ctx, 64);
		return;
	}
	if (n > 0)
		CTX_LOAD(v[0], ctx, 112);
	if (n > 1)
		CTX_LOAD(v[1], ctx, 104);
	if (n > 2)
		CTX_LOAD(v[2], ctx, 96);
	if (n > 3)
		CTX_LOAD(v[3], ctx, 88);
	if (n > 4)
		CTX_LOAD(v[4], ctx, 72);
	if (n > 5)
		CTX_LOAD(v[5], ctx, 64);
}

/* A USDT probe's arguments where its SDT note says they are: libbpf placed its spec */
static __always_inline void usdt_args(void *ctx, const __u32 idx, __u64 *v)
{
	const __u32 n = ap_nargs[idx];
	long r;

#define UARG(i)								\
	if (n > i) {							\
		bpf_usdt_arg(ctx, i, &r);				\
		v[i] = r;						\
	}
	UARG(0) UARG(1) UARG(2) UARG(3) UARG(4) UARG(5)
#undef UARG
}

static __always_inline void ctx_args(void *ctx, const __u32 idx, __u64 *v)
{
	const __u32 n = ap_nargs[idx];

	/*
	 * n and the kinds are constants of the frozen rodata: the verifier never sees loads
	 * past the last argument, nor of an argument it would refuse (kind NONE, left 0)
	 */
#define ARG(i)								\
	if (n > i && ap_arg_kind[idx][i])				\
		CTX_ARG(v[i], ctx, i * 8);				\
	else if (n > i)							\
		v[i] = 0;
	ARG(0) ARG(1) ARG(2) ARG(3) ARG(4) ARG(5)
#undef ARG
}

/*
 * v, or 0 if above max, checked where the verifier sees it: the compiler drops a repeated
 * check, and 6.1's verifier loses the bound of a value it spilled to the stack.
 */
static __always_inline __u32 bounded(__u32 v, const __u32 max)
{
	asm volatile("if %0 <= %1 goto +1; %0 = 0" : "+r"(v) : "i"(max));
	return v;
}

/* v, or max where it is larger: a clamp the verifier sees next to the use (see bounded()) */
static __always_inline __u32 clamped(__u32 v, const __u32 max)
{
	asm volatile("if %0 <= %1 goto +1; %0 = %1" : "+r"(v) : "i"(max));
	return v;
}

/* The record's extra values (capture.h), one line per enum lbrsnap_extra_idx */
static __always_inline void fill_extra(__u64 *v)
{
	v[LBRSNAP_EXTRA_CGROUP] = bpf_get_current_cgroup_id();
}

static __always_inline __u64 extend(__u64 v, __u8 kind, __u8 shift)
{
	if (kind == LBRSNAP_RET_SIGNED)
		return (__s64)(v << shift) >> shift;
	return (v << shift) >> shift;
}

/* The strings the arguments in mask point to, into the string slots after v[n] */
static __always_inline void fill_strs(__u32 flags, struct lbrsnap_args *a, __u64 *v, __u32 n,
				      __u32 room, __u32 mask)
{
	void *strs = (void *)(v + n);
	struct lbrsnap_str *st;
	__u32 i, k = 0;
	long len;

	/*
	 * The slots carry this record's strings only: the staging buffer still holds earlier
	 * records (other processes', filtered ones) past each NUL and in unused slots. A
	 * failed read zeroes its destination: reading from NULL clears them in one call.
	 */
	if (room > LBRSNAP_MAX_STRS)
		room = LBRSNAP_MAX_STRS;
	/* clamped again: 6.1's verifier loses room's bound through a 32-bit spill */
	bpf_probe_read_kernel(strs, clamped(room * str_size, LBRSNAP_MAX_STRS *
					    LBRSNAP_STR_SIZE(LBRSNAP_MAX_STRING_LEN)), NULL);
	for (i = 0; i < LBRSNAP_MAX_ARGS; i++) {
		if (i >= n || k >= room || k >= LBRSNAP_MAX_STRS)
			break;
		if (!(mask & (1 << i)))
			continue;
		st = strs + k * str_size;
		st->arg = i;
		/* without __user tags in BTF, a char * of a function may point either way */
		len = -14;	/* EFAULT */
		if (!(flags & (LBRSNAP_AP_SYS_ENTER | LBRSNAP_AP_SYS_EXIT | LBRSNAP_AP_UREGS |
			       LBRSNAP_AP_USDT)))
			len = bpf_probe_read_kernel_str(st->s, str_len + 2, (void *)v[i]);
		if (len < 0)
			len = bpf_probe_read_user_str(st->s, str_len + 2, (void *)v[i]);
		st->len = len;
		k++;
	}
	a->nr_strs = k;
}

/* execve and execveat (x86-64 numbers): their success replaces the task's registers */
static __always_inline bool exec_nr(__u64 nr)
{
	return nr == 59 || nr == 322;
}

/*
 * Whether the current syscall is an ia32 one: the entry from int $0x80 or a 32-bit task
 * sets TS_COMPAT in the thread's status until the return, as in_ia32_syscall() reads it.
 */
#define LBRSNAP_TS_COMPAT 0x0002
static __always_inline bool in_ia32_syscall(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	return BPF_CORE_READ(task, thread_info.status) & LBRSNAP_TS_COMPAT;
}

/*
 * The argument block at a: values, then the strings they point to. Syscalls take their
 * six arguments from the registers saved at entry (they stay there until the exit) and
 * read user strings where the syscall's format says it takes one.
 */
static __always_inline void fill_args(void *ctx, const __u32 idx, struct lbrsnap_args *a)
{
	const __u32 flags = ap_flags[idx], n = ap_nargs[idx], room = ap_nstrs[idx];
	__u64 *v = (void *)(a + 1);
	__u32 i, mask = 0;

	a->syscall_nr = -1;
	a->nr_args = n;
	a->size = ap_args_size[idx];
	a->str_size = str_size;
	a->str_len = str_len;
	a->flags = 0;
	a->reserved = 0;
	if (flags & LBRSNAP_AP_MEM) {
		__u32 len = ap_mem_len[idx];

		/* a data breakpoint traps after the access: a write's value is there now */
		v[0] = ap_mem_addr[idx];
		/* the last argument: where the access trapped, regs.ip of the perf context */
		if (n == 2)
			CTX_ARG(v[1], ctx, PT_REGS_IP_OFF);
		if (n == 3) {
			CTX_ARG(v[2], ctx, PT_REGS_IP_OFF);
			v[1] = 0;
			if (len > 8)
				len = 8;
			if (flags & LBRSNAP_AP_MEM_USER)
				bpf_probe_read_user(&v[1], len, (void *)v[0]);
			else
				bpf_probe_read_kernel(&v[1], len, (void *)v[0]);
		}
	} else if (flags & (LBRSNAP_AP_SYS_ENTER | LBRSNAP_AP_SYS_EXIT)) {
		__u64 nr, r[LBRSNAP_MAX_ARGS];
		__u32 cnt = LBRSNAP_MAX_ARGS;
		struct pt_regs *regs;

		CTX_ARG(regs, ctx, 0);
		if (flags & LBRSNAP_AP_SYS_ENTER)
			nr = ctx_arg1(ctx);
		else
			nr = BPF_CORE_READ(regs, orig_ax);
		a->syscall_nr = nr;
		if (nr < LBRSNAP_NR_SYSCALLS) {
			mask = sys_str_mask[nr];
			cnt = sys_nargs[nr];
		}
		/*
		 * A successful exec set up the new program's registers before sys_exit: the
		 * call's arguments are gone (a stash at sys_enter would need that tracepoint
		 * attached too); rt_sigreturn's restored registers are past its 0 arguments.
		 */
		if ((flags & LBRSNAP_AP_SYS_EXIT) && exec_nr(nr) && !ctx_arg1(ctx)) {
			a->flags = LBRSNAP_ARGS_UNAVAILABLE;
			cnt = 0;
			mask = 0;
		}
		r[0] = BPF_CORE_READ(regs, di);
		r[1] = BPF_CORE_READ(regs, si);
		r[2] = BPF_CORE_READ(regs, dx);
		r[3] = BPF_CORE_READ(regs, r10);
		r[4] = BPF_CORE_READ(regs, r8);
		r[5] = BPF_CORE_READ(regs, r9);
		/* registers past the syscall's arguments hold the caller's leftovers: not kept */
		for (i = 0; i < LBRSNAP_MAX_ARGS; i++) {
			if (i >= n)
				break;
			v[i] = i < cnt ? r[i] : 0;
		}
	} else {
		if (flags & LBRSNAP_AP_UREGS)
			uregs_args(ctx, idx, v);
		else if (flags & LBRSNAP_AP_USDT)
			usdt_args(ctx, idx, v);
		else
			ctx_args(ctx, idx, v);
		for (i = 0; i < LBRSNAP_MAX_ARGS; i++) {
			if (i >= n)
				break;
			if (ap_arg_kind[idx][i] == LBRSNAP_ARG_STRING)
				mask |= 1 << i;
			else
				v[i] = extend(v[i], ap_arg_kind[idx][i], ap_arg_shift[idx][i]);
		}
	}
	fill_strs(flags, a, v, n, room, mask);
}

/*
 * A kprobe-multi function's arguments: the registers of its entry, typed by the function's
 * entry in funcs (n <= LBRSNAP_MAX_ARGS, room <= LBRSNAP_MAX_STRS, checked by the caller).
 */
static __always_inline void fill_args_regs(struct pt_regs *regs, const struct lbrsnap_func *fi,
					   struct lbrsnap_args *a, __u32 n, __u32 room)
{
	__u64 *v = (void *)(a + 1), r[LBRSNAP_MAX_ARGS];
	__u32 i, mask = 0;

	a->syscall_nr = -1;
	a->nr_args = n;
	a->size = fi->args_size;
	a->str_size = str_size;
	a->str_len = str_len;
	a->flags = 0;
	a->reserved = 0;
	r[0] = PT_REGS_PARM1(regs);
	r[1] = PT_REGS_PARM2(regs);
	r[2] = PT_REGS_PARM3(regs);
	r[3] = PT_REGS_PARM4(regs);
	r[4] = PT_REGS_PARM5(regs);
	r[5] = regs->r9;	/* the sixth: PT_REGS_PARM6 is newer than some bpf_tracing.h */
	for (i = 0; i < LBRSNAP_MAX_ARGS; i++) {
		if (i >= n)
			break;
		if (fi->arg_kind[i] == LBRSNAP_ARG_STRING) {
			mask |= 1 << i;
			v[i] = r[i];
		} else if (fi->arg_kind[i]) {
			v[i] = extend(r[i], fi->arg_kind[i], fi->arg_shift[i]);
		} else {
			v[i] = 0;
		}
	}
	fill_strs(0, a, v, n, room, mask);
}

/*
 * A string slot of the record against filter string s (constants at a fixed place): its first
 * n bytes, or exactly, the NUL and the captured length too (n - 1 characters), so that a
 * longer string is never equal. n == 0 is the glob "*": any string that could be read.
 */
static __always_inline bool str_matches(const __u32 idx, struct lbrsnap_str *st, __u32 s,
					__u32 n, bool exact)
{
	long r;

	if (st->len <= 0)
		return false;
	if (exact && (__u32)st->len != n)
		return false;
	/* bpf_strncmp() refuses a zero size, at load */
	if (n < 1)
		return true;
	if (n > LBRSNAP_FILTER_STR_LEN)
		n = LBRSNAP_FILTER_STR_LEN;
	if (n > (__u32)str_len + 2)
		n = str_len + 2;
	if (s)
		r = bpf_strncmp(st->s, n, (const char *)ap_filter_str[idx][1]);
	else
		r = bpf_strncmp(st->s, n, (const char *)ap_filter_str[idx][0]);
	return r == 0;
}

/*
 * --filter: runs the attach point's postfix code on its record. The truth values live in
 * the bits of one word, the top of the stack in bit 0.
 */
/* Where syscall nr has the argument the filters call name n (LBRSNAP_SYSARG_*), or 0 */
static __always_inline __u8 sysarg(__s32 nr, __u32 n)
{
	if (nr < 0 || nr >= LBRSNAP_NR_SYSCALLS || n >= LBRSNAP_FILTER_NAMES)
		return 0;
	return sys_arg_map[n][nr];
}

/* The string slot of syscall nr's argument i: its string arguments fill slots in order */
static __always_inline __u32 sysarg_slot(__s32 nr, __u32 i)
{
	__u32 mask = nr >= 0 && nr < LBRSNAP_NR_SYSCALLS ? sys_str_mask[nr] : 0, k = 0, j;

	for (j = 0; j < LBRSNAP_MAX_ARGS; j++)
		k += j < i && (mask >> j) & 1;
	return k;
}

/*
 * --filter: runs the attach point's postfix code on its record. The truth values live in
 * the bits of one word, the top of the stack in bit 0.
 */
static __always_inline bool filter_keeps(const __u32 idx, struct lbrsnap_event *ev,
					 struct lbrsnap_args *a, const __u32 n, const __u32 room)
{
	__u64 *v = (void *)(a + 1), stack = 0, x;
	void *strs = (void *)(v + n);
	struct lbrsnap_str *st;
	__u32 i, f, top, shift;
	bool r, sgn, absent;
	__s64 y;
	__u8 m;

	for (i = 0; i < LBRSNAP_FILTER_INSNS; i++) {
		__u8 op = ap_filter[idx][i].op, cmp = ap_filter[idx][i].cmp;

		if (op == LBRSNAP_FOP_END)
			break;
		if (op == LBRSNAP_FOP_NOT) {
			stack ^= 1;
			continue;
		}
		if (op == LBRSNAP_FOP_AND || op == LBRSNAP_FOP_OR) {
			top = stack & 1;
			stack >>= 1;
			if (op == LBRSNAP_FOP_AND)
				stack &= ~1ULL | top;
			else
				stack |= top;
			continue;
		}
		f = ap_filter[idx][i].field;
		y = ap_filter[idx][i].imm;
		if (op == LBRSNAP_FOP_STR) {
			if (f >= LBRSNAP_FLD_SYSARG) {
				m = sysarg(a->syscall_nr, f - LBRSNAP_FLD_SYSARG);
				f = m & LBRSNAP_SYSARG_STRING ?
				    sysarg_slot(a->syscall_nr, m & LBRSNAP_SYSARG_INDEX) : room;
			}
			absent = f >= room || (a->flags & LBRSNAP_ARGS_UNAVAILABLE);
			if (f > LBRSNAP_MAX_STRS - 1)
				f = LBRSNAP_MAX_STRS - 1;
			st = strs + f * str_size;
			r = !absent && str_matches(idx, st, ap_filter[idx][i].str, y,
						   !ap_filter[idx][i].glob);
			/* a syscall without the argument fails != too */
			r ^= !absent && cmp == LBRSNAP_FCMP_NE;
			stack = stack << 1 | r;
			continue;
		}
		sgn = ap_filter[idx][i].is_signed;
		absent = false;
		if (f == LBRSNAP_FLD_RET) {
			x = ev->ret;
		} else if (f == LBRSNAP_FLD_PID) {
			x = ev->pid;
		} else if (f == LBRSNAP_FLD_TID) {
			x = ev->tid;
		} else if (f == LBRSNAP_FLD_CPU) {
			x = ev->cpu;
		} else if (f == LBRSNAP_FLD_SYSCALL) {
			x = a->syscall_nr;
		} else if (f >= LBRSNAP_FLD_SYSARG) {
			/* the register the syscall at hand keeps it in, extended as it types it */
			m = sysarg(a->syscall_nr, f - LBRSNAP_FLD_SYSARG);
			absent = !(m & LBRSNAP_SYSARG_PRESENT) || n < LBRSNAP_MAX_ARGS ||
				 (a->flags & LBRSNAP_ARGS_UNAVAILABLE);
			x = v[m & LBRSNAP_SYSARG_INDEX & 7];
			shift = 64 - (8 << (m >> LBRSNAP_SYSARG_SIZE_SHIFT));
			sgn = m & LBRSNAP_SYSARG_SIGNED;
			x = sgn ? (__u64)((__s64)(x << shift) >> shift) : (x << shift) >> shift;
			/*
			 * and the value in the same width: close() takes an unsigned int fd,
			 * openat() an int dfd, and "fd == -1" means the same to both
			 */
			y = sgn ? (__s64)((__u64)y << shift) >> shift :
				  (__s64)(((__u64)y << shift) >> shift);
		} else if (f < n && n) {
			x = v[f & 7];
		} else {
			x = 0;
		}
		if (absent)
			r = false;
		else if (cmp == LBRSNAP_FCMP_EQ)
			r = x == (__u64)y;
		else if (cmp == LBRSNAP_FCMP_NE)
			r = x != (__u64)y;
		else if (cmp == LBRSNAP_FCMP_BIT)
			r = (x & y) != 0;
		else if (sgn)
			r = cmp == LBRSNAP_FCMP_LT ? (__s64)x < y : cmp == LBRSNAP_FCMP_LE ?
			    (__s64)x <= y : cmp == LBRSNAP_FCMP_GT ? (__s64)x > y : (__s64)x >= y;
		else
			r = cmp == LBRSNAP_FCMP_LT ? x < (__u64)y : cmp == LBRSNAP_FCMP_LE ?
			    x <= (__u64)y : cmp == LBRSNAP_FCMP_GT ? x > (__u64)y : x >= (__u64)y;
		stack = stack << 1 | r;
	}
	return stack & 1;
}

/* ret is already extended as its type says (ret_kind) */
static __always_inline bool ret_wanted(__u32 kind, __s64 ret)
{
	bool is_err;

	if (kind == LBRSNAP_RET_NONE)
		return !filter_errors && !filter_ret_on;
	if (filter_errors) {
		/* an errno for signed integers; IS_ERR(), or NULL if asked, for pointers */
		if (kind == LBRSNAP_RET_SIGNED)
			is_err = ret < 0 && ret >= -4095;
		else if (kind == LBRSNAP_RET_POINTER)
			is_err = (ret < 0 && ret >= -4095) ||
				 (!ret && (filter_errors & LBRSNAP_ERR_NULL));
		else
			is_err = false;	/* unsigned and bool values carry no errno */
		if (!is_err)
			return false;
	}
	if (filter_ret_on && ret != filter_ret)
		return false;
	return true;
}

/*
 * A free staging buffer of the CPU, claimed for this invocation, or LBRSNAP_NEST_MAX if none.
 * The compare-and-swap makes a claim whole against an interrupt, an NMI or a preempting task
 * between the look and the take.
 */
static __always_inline __u32 stage_claim(struct lbrsnap_nest *own)
{
	__u32 level;

	for (level = 0; level < LBRSNAP_NEST_MAX; level++) {
		if (!own->owner[level] && !__sync_val_compare_and_swap(&own->owner[level], 0, 1))
			return level;
	}
	return LBRSNAP_NEST_MAX;
}

/* Only the claimer frees it, on the CPU it cannot leave while the program runs */
static __always_inline void stage_release(struct lbrsnap_nest *own, __u32 level)
{
	*(volatile __u32 *)&own->owner[level & (LBRSNAP_NEST_MAX - 1)] = 0;
}

/* Whether a return value of this kind can say failure, and whether it does (--errors) */
static __always_inline bool call_can_fail(__u8 kind)
{
	return kind == LBRSNAP_RET_SIGNED || kind == LBRSNAP_RET_POINTER;
}

static __always_inline bool call_is_err(__u8 kind, __s64 ret)
{
	return (ret < 0 && ret >= -4095) ||
	       (kind == LBRSNAP_RET_POINTER && !ret && (filter_errors & LBRSNAP_ERR_NULL));
}

/* A traced exit's snapshot in the CPU's scratch, and its ticket */
struct call_snap_ref {
	struct lbrsnap_branch *buf;
	__u64 t, done_before;
	long lbr_ret;
	__u32 s;
};

/*
 * The origin's snapshot, kept in the task's state: the exit's branches from the scratch (if
 * no other exit reused it meanwhile), then the stacks at this return, as snap_body takes them.
 */
static __always_inline void call_origin_keep(void *ctx, struct call_snap_ref *sr,
					     struct lbrsnap_call_state *cs, __u32 i)
{
	__u32 nb = 0, ns = 0, nu = 0;
	__u64 next;
	long sret;

	cs->o_call = i;
	cs->o_set = 1;
	cs->o_clobbered = 0;
	cs->o_lbr_ret = sr->lbr_ret;
	if (want_lbr && sr->lbr_ret > 0) {
		bpf_probe_read_kernel(cs->o_branches, sizeof(cs->o_branches), sr->buf);
		next = __sync_fetch_and_add(&call_snap_ctl[sr->s & (LBRSNAP_CALLS_CPUS - 1)].next, 0);
		if (sr->done_before != sr->t || next != sr->t + 1) {
			cs->o_clobbered = 1;
		} else {
			nb = sr->lbr_ret / LBRSNAP_BRANCH_SIZE;
			if (nb > LBRSNAP_MAX_BRANCHES)
				nb = LBRSNAP_MAX_BRANCHES;
		}
	}
	cs->o_nr_branches = nb;
	cs->o_stack_err = 0;
	if (want_stack) {
		sret = bpf_get_stack(ctx, cs->o_stack, sizeof(cs->o_stack), 0);
		if (sret < 0) {
			cs->o_stack_err = sret;
		} else {
			ns = sret / 8;
			if (ns > LBRSNAP_MAX_STACK)
				ns = LBRSNAP_MAX_STACK;
		}
	}
	cs->o_nr_stack = ns;
	cs->o_ustack_err = 0;
	cs->o_ustack_taken = want_ustack;
	if (want_ustack) {
		sret = bpf_get_stack(ctx, cs->o_ustack, sizeof(cs->o_ustack), BPF_F_USER_STACK);
		if (sret < 0) {
			cs->o_ustack_err = sret;
		} else {
			nu = sret / 8;
			if (nu > LBRSNAP_MAX_USTACK)
				nu = LBRSNAP_MAX_USTACK;
		}
	}
	cs->o_nr_ustack = nu;
}

/*
 * The origin of an error (retsnoop's rule, call-traces.md 8): every entry clears is_err, a
 * success clears it; the first failing return while it is clear is the origin, and failing
 * returns further up keep it. So the origin is the deepest call where the error appeared.
 * A traced call's exit (sr set) that becomes the origin keeps its snapshot; the scope's own
 * return (sr NULL) needs none kept: its record takes its snapshot there.
 */
static __always_inline void call_origin(void *ctx, struct call_snap_ref *sr,
					struct lbrsnap_call_state *cs, __u32 i, __u8 kind,
					__s64 ret)
{
	if (!call_can_fail(kind))
		return;
	if (!call_is_err(kind, ret)) {
		cs->is_err = 0;
	} else if (!cs->is_err) {
		cs->is_err = 1;
		cs->origin = i;
		if (sr && i < LBRSNAP_MAX_CALLS)
			call_origin_keep(ctx, sr, cs, i);
	}
}

/* The calls slot of tid (held by whichever task, or none) */
static __always_inline struct lbrsnap_call_state *calls_slot(__u32 tid)
{
	__u32 k = tid & (LBRSNAP_CALLS_TASKS - 1);

	return bpf_map_lookup_elem(&calls, &k);
}

/* The scope in progress of task tid, or NULL */
static __always_inline struct lbrsnap_call_state *calls_find(__u32 tid)
{
	struct lbrsnap_call_state *cs = calls_slot(tid);

	return cs && cs->owner == tid + 1 ? cs : NULL;
}

/*
 * The scope of task tid ends (reason: calls_stats.ended or .died): its slot goes back, once.
 * The exchange is fully ordered: every read of the state before it is done before another
 * task can take the slot.
 */
static __always_inline void calls_release(struct lbrsnap_call_state *cs, __u32 tid,
					  __u64 *reason)
{
	if (__sync_val_compare_and_swap(&cs->owner, tid + 1, 0) == tid + 1)
		__sync_fetch_and_add(reason, 1);
}

/*
 * A traced function's entry (or, with fn 0, the scope's own: it opens the scope). Outside a
 * scope other functions cost a slot's lookup only. The task's tid comes from its
 * task_struct: 7.2's verifier inlines bpf_get_current_task_btf(), not the pid_tgid helper.
 * Returns whether the task is inside a scope: only then does the exit have anything to do.
 */
static __always_inline bool call_enter_id(__u16 fn)
{
	__u32 tid = bpf_get_current_task_btf()->pid, tgid, d, i;
	struct lbrsnap_call_state *cs;
	struct lbrsnap_call *c;
	char comm[LBRSNAP_COMM_LEN];

	cs = calls_slot(tid);
	if (!cs)
		return false;
	if (cs->owner != tid + 1) {
		if (fn)
			return false;
		tgid = bpf_get_current_pid_tgid() >> 32;
		if (tgid == self_tgid || (filter_pid && tgid != filter_pid) ||
		    (filter_tid && tid != filter_tid) ||
		    (filter_follow && !bpf_map_lookup_elem(&follow, &tgid)))
			return false;
		/* sys_enter opens a scope per syscall: --comm keeps other tasks out of the map */
		if (filter_comm_on) {
			bpf_get_current_comm(comm, sizeof(comm));
			if (!comm_matches(comm))
				return false;
		}
		if (__sync_val_compare_and_swap(&cs->owner, 0, tid + 1)) {
			__sync_fetch_and_add(&calls_stats.no_room, 1);
			return false;
		}
		/* what a scope reads before writing it: the rest is written first */
		cs->nr = 0;
		cs->origin = 0;
		cs->depth = 0;
		cs->over = 0;
		cs->dropped = 0;
		cs->o_set = 0;
		__sync_fetch_and_add(&calls_stats.scopes, 1);
	}
	cs->is_err = 0;
	d = cs->depth;
	if (d >= LBRSNAP_CALLS_DEPTH) {
		/* its exit only undoes this: the frames stay as they are */
		cs->over++;
		cs->dropped++;
		__sync_fetch_and_add(&calls_stats.dropped, 1);
		return true;
	}
	i = cs->nr;
	if (i < LBRSNAP_MAX_CALLS) {
		/* bounded() although checked: 6.1's verifier loses the bound of a spilled value */
		c = &cs->call[bounded(i, LBRSNAP_MAX_CALLS - 1)];
		c->start_ns = bpf_ktime_get_ns();
		c->end_ns = 0;
		c->ret = 0;
		c->func = fn;
		c->depth = d;
		c->flags = 0;
		c->ret_kind = 0;
		cs->nr = i + 1;
	} else {
		/* the frame is still tracked, so that later exits match */
		i = LBRSNAP_CALLS_NO_ORIGIN;
		cs->dropped++;
		__sync_fetch_and_add(&calls_stats.dropped, 1);
	}
	d = bounded(d, LBRSNAP_CALLS_DEPTH - 1);
	cs->frame_func[d] = fn;
	cs->frame_call[d] = i;
	cs->depth = d + 1;
	return true;
}

static __always_inline int call_enter(void *ctx)
{
	call_enter_id(bpf_get_attach_cookie(ctx));
	return 0;
}

/*
 * A return of function fn: closes its frame, if it is the innermost open one. ctx and sr are
 * a traced exit's (its snapshot, kept if it becomes the origin), NULL for the scope's return.
 */
static __always_inline void call_leave_at(void *ctx, struct call_snap_ref *sr,
					  struct lbrsnap_call_state *cs, __u16 fn, __s64 ret,
					  __u8 kind)
{
	__u32 d = cs->depth, i;
	struct lbrsnap_call *c;

	if (cs->over) {
		cs->over--;
		return;
	}
	if (!d || d > LBRSNAP_CALLS_DEPTH ||
	    cs->frame_func[(d - 1) & (LBRSNAP_CALLS_DEPTH - 1)] != fn) {
		__sync_fetch_and_add(&calls_stats.mismatched, 1);
		return;
	}
	d = (d - 1) & (LBRSNAP_CALLS_DEPTH - 1);
	cs->depth = d;
	i = cs->frame_call[d];
	if (i < LBRSNAP_MAX_CALLS) {
		c = &cs->call[bounded(i, LBRSNAP_MAX_CALLS - 1)];
		c->end_ns = bpf_ktime_get_ns();
		c->ret = ret;
		c->flags = LBRSNAP_CALL_RETURNED | (kind ? LBRSNAP_CALL_HAS_RET : 0);
		c->ret_kind = kind;
	}
	call_origin(ctx, sr, cs, i, kind, ret);
}

static __always_inline void call_leave(struct lbrsnap_call_state *cs, __u16 fn, __s64 ret,
				       __u8 kind)
{
	call_leave_at(NULL, NULL, cs, fn, ret, kind);
}

/*
 * First thing in every traced exit, as in snap_body: the CPU's scratch addressed, a ticket,
 * the branch snapshot. Outside a scope it is wasted, the price of taking it before the lookup.
 * With LBR off (want_lbr, known at load: the verifier drops the dead branch) an exit takes
 * neither: the origin says "not taken" with the helper's own answer where there is no LBR.
 */
#define CALL_SNAP_TAKE(sr)							\
	do {									\
		if (!want_lbr) {						\
			(sr).s = 0;						\
			(sr).t = 0;						\
			(sr).done_before = 0;					\
			(sr).buf = NULL;					\
			(sr).lbr_ret = -2;	/* -ENOENT */			\
			break;							\
		}								\
		(sr).s = bpf_get_smp_processor_id() & (LBRSNAP_CALLS_CPUS - 1);	\
		(sr).t = __sync_fetch_and_add(&call_snap_ctl[(sr).s].next, 1);	\
		(sr).done_before = call_snap_ctl[(sr).s].done;			\
		(sr).buf = call_snap[(sr).s];					\
		(sr).lbr_ret = bpf_get_branch_snapshot((sr).buf, sizeof(call_snap[0]), 0); \
	} while (0)

/* Every way out of a traced exit completes its ticket */
static __always_inline void call_snap_done(struct call_snap_ref *sr)
{
	if (!want_lbr)
		return;
	__sync_fetch_and_add(&call_snap_ctl[sr->s & (LBRSNAP_CALLS_CPUS - 1)].done, 1);
}

/* fexit: the return value from the helper (fexit.multi cannot read ctx), else registers */
static __always_inline int call_exit_from(void *ctx, const bool fexit)
{
	struct call_snap_ref sr;
	__u32 tid, fn;
	const struct lbrsnap_call_func *fi;
	struct lbrsnap_call_state *cs;
	__u8 kind = 0, shift = 0;
	__u64 v = 0;

	CALL_SNAP_TAKE(sr);
	tid = bpf_get_current_task_btf()->pid;
	cs = calls_find(tid);
	if (!cs)
		goto done;
	fn = (__u16)bpf_get_attach_cookie(ctx);
	fi = bpf_map_lookup_elem(&call_funcs, &fn);
	if (fi) {
		kind = fi->ret_kind;
		shift = fi->ret_shift & 63;
	}
	if (fexit)
		bpf_get_func_ret(ctx, &v);
	else
		CTX_ARG(v, ctx, PT_REGS_AX_OFF);
	call_leave_at(ctx, &sr, cs, fn, kind ? extend(v, kind, shift) : 0, kind);
done:
	call_snap_done(&sr);
	return 0;
}

static __always_inline int call_exit(void *ctx)
{
	return call_exit_from(ctx, false);
}

/*
 * A filter-first rejection counts itself with a plain add where nothing else can write its
 * slot meanwhile: no other CPU (slot_per_cpu) and no second run of the same program on this
 * CPU. The kernel skips (as a miss) a run that would nest in one already on the CPU: fexit
 * through its trampoline and raw_tp, tp_btf through the program's own per-CPU active count,
 * perf_event and kprobe.multi through the CPU's bpf_prog_active; the run that began keeps
 * the CPU (preemption or migration off). A uprobe, uretprobe or usdt program runs in the
 * task and may be preempted by another task's run of it: it keeps the locked add.
 */
static __always_inline bool no_self_nesting(const __u32 idx)
{
	const __u32 kind = idx / LBRSNAP_PROGS_PER_KIND + 1;

	return kind != LBRSNAP_KIND_UPROBE && kind != LBRSNAP_KIND_URETPROBE &&
	       kind != LBRSNAP_KIND_USDT;
}

/* The tag of the 16 KiB of kernel address space addr lies in (capture.h) */
static __always_inline __u64 verdict_tag(__u64 addr)
{
	return (addr >> LBRSNAP_VERDICT_SHIFT) & LBRSNAP_VERDICT_TAG_MASK;
}

/*
 * The tag of the kernel stack that ctx lies on: ctx's distance from the table, a scalar to a
 * privileged program, plus the table's address (self). Loads and ALU only.
 */
static __always_inline __u64 verdict_tag_of(void *ctx, __u64 self)
{
	__u64 a;

	asm volatile("%0 = %1\n\t%0 -= %2" : "=&r"(a) : "r"(ctx), "r"(&verdicts));
	return verdict_tag(a + self);
}

static __always_inline __u32 verdict_slot(__u64 tag)
{
	/* stacks lie 2 or 4 tags apart (guard pages): fold the higher bits in */
	return (tag ^ (tag >> 7) ^ (tag >> 17)) & (LBRSNAP_VERDICTS - 1);
}

static __always_inline __u64 verdict_word(__u64 tag, __u64 gen)
{
	return tag | (gen & LBRSNAP_VERDICT_GEN_MASK) << LBRSNAP_VERDICT_TAG_BITS;
}

/*
 * first_remembered: the task behind this context was rejected by pid, tid, follow or comm in
 * this generation. No call, no BPF-to-BPF call, jumps only: what call and return filters do
 * not record. A context off every task's stack (an interrupt's, an exception's) matches
 * nothing.
 */
static __always_inline bool remembered_rejects(void *ctx, const __u32 idx)
{
	__u64 self = verdicts.self, tag;

	if (!self)
		return false;
	tag = verdict_tag_of(ctx, self);
	if (verdicts.v[verdict_slot(tag)] != verdict_word(tag, verdicts.gen))
		return false;
	__sync_fetch_and_add(&remembered_ctl[idx].hits, 1);
	return true;
}

/*
 * The tag of the kernel stack ctx lies on, for a store: the table's address is set on first
 * use, then loaded back as a scalar (the compiler would hand on the pointer it stored)
 */
static __always_inline __u64 verdict_ctx_tag(void *ctx)
{
	if (!verdicts.self)
		verdicts.self = (__u64)&verdicts;
	return verdict_tag_of(ctx, *(volatile __u64 *)&verdicts.self);
}

/*
 * A rejection by pid, tid or follow, decided in generation gen (read before the checks: a
 * process followed meanwhile bumps it, which voids this word): remembered if ctx lies on the
 * current task's own stack, where the tag names the task.
 */
static __always_inline void verdict_remember_task(void *ctx, __u64 gen, struct task_struct *task)
{
	__u64 tag = verdict_ctx_tag(ctx);

	if (tag != verdict_tag((__u64)task->stack))
		return;
	verdicts.v[verdict_slot(tag)] = verdict_word(tag, gen);
}

static __always_inline void verdict_remember(void *ctx, __u64 gen)
{
	verdict_remember_task(ctx, gen, bpf_get_current_task_btf());
}

/*
 * A rejection by comm, remembered if the slot of tag (verdict_ctx_tag()) still holds w0, the
 * word read there before the comm, and w0 is not a rename's mark: a rename in between voids
 * what the old comm decided
 */
static __always_inline void verdict_remember_comm(__u64 tag, __u64 gen, __u64 w0)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (w0 & LBRSNAP_VERDICT_STICKY)
		return;
	if (tag != verdict_tag((__u64)task->stack))
		return;
	__sync_val_compare_and_swap(&verdicts.v[verdict_slot(tag)], w0, verdict_word(tag, gen));
}

/* The slot of a task's stack forgotten: a new task has it, or the task's tid changed */
static __always_inline void verdict_forget(struct task_struct *task)
{
	__u64 tag = verdict_tag((__u64)BPF_CORE_READ(task, stack));
	__u32 s = verdict_slot(tag);

	if ((verdicts.v[s] & LBRSNAP_VERDICT_TAG_MASK) == tag)
		verdicts.v[s] = 0;
}

/*
 * The filter-first checks (filter_first: only loads and conditional jumps, see there), apart
 * from snap_body() so that nothing they compute lives on into it: a value kept for later
 * would be spilled to the stack on the way to every rejection. Each rodata value is read
 * once: the verifier removes the jumps its known value decides, not the loads behind them.
 */
static __always_inline bool first_rejects(void *ctx, const __u32 idx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tgid = task->tgid, want;
	struct lbrsnap_slot_ctl *sc;
	__u64 gen = 0;
	__u32 cpu;

	/* before the checks: a follow after them voids what they decide (verdict_remember()) */
	if (first_remembered)
		gen = verdicts.gen;
	if (tgid == self_tgid) {
		__sync_fetch_and_add(&self_ctl[idx].hits, 1);
		goto rejected;
	}
	want = filter_pid;
	if (want && tgid != want)
		goto rejected_task;
	want = filter_tid;
	if (want && task->pid != want)
		goto rejected_task;
	if (filter_comm_on && !task_comm_matches(task))
		goto rejected;
	return false;
rejected_task:
	/* the task's next events are rejected by the remembered verdict, before these loads */
	if (first_remembered)
		verdict_remember_task(ctx, gen, task);
rejected:
	/* no ticket taken: the counters' sum tells these from the others */
	cpu = bpf_get_smp_processor_id();
	sc = &ctl[ap_slot_base[idx] + (cpu & slot_mask)];
	if (slot_per_cpu && no_self_nesting(idx))
		sc->filtered++;
	else
		__sync_fetch_and_add(&sc->filtered, 1);
	return true;
}

static __always_inline int snap_body(void *ctx, const __u32 idx)
{
	__u32 args_size, ap, nargs, nstrs, ret_shift;
	const struct lbrsnap_func *fi = NULL;
	struct lbrsnap_slot_ctl *sc;
	struct lbrsnap_branch *buf;
	struct lbrsnap_event *ev;
	__u64 t, s, done_before, pid_tgid, next, size;
	char comm[LBRSNAP_COMM_LEN];
	__u32 tgid, tid, cpu, flags = 0, kind = LBRSNAP_RET_NONE, zero, level, nb = 0, ns = 0;
	struct lbrsnap_nest *nest_own;
	struct lbrsnap_call_state *cs = NULL;
	__u32 fn, snap_origin = 0;
	long lbr_ret, sret;
	__u64 gen = 0, verdict_at = 0, verdict_w0 = 0;
	__s64 ret = 0;
	void *body;

	if (first_remembered && remembered_rejects(ctx, idx))
		return 0;
	if (filter_first && first_rejects(ctx, idx))
		return 0;
#ifdef LBRSNAP_PLANT_CALL
	/* tests only: a helper call the static check must find before the snapshot */
	if (filter_first)
		tgid = bpf_get_prandom_u32();
#endif
	/* Call-free but for the CPU id, branch-free: address the slot, take a ticket, snapshot */
	cpu = bpf_get_smp_processor_id();
	s = ap_slot_base[idx] + (cpu & slot_mask);
	sc = &ctl[s];
	t = __sync_fetch_and_add(&sc->next, 1);
	done_before = sc->done;
	buf = snap[s];
	lbr_ret = bpf_get_branch_snapshot(buf, sizeof(snap[0]), 0);

	/* the rest of the attach point's constants after the snapshot: nothing else delays it */
	ap = ap_id[idx];
	nargs = ap_nargs[idx];
	nstrs = ap_nstrs[idx];
	ret_shift = ap_ret_shift[idx];
	args_size = ap_args_size[idx];

	if (first_remembered)
		gen = verdicts.gen;
	pid_tgid = bpf_get_current_pid_tgid();
	tgid = pid_tgid >> 32;
	tid = (__u32)pid_tgid;
	/* the checks a rejected event needs come first: loads and jumps on the task's ids */
	if (tgid == self_tgid) {
		__sync_fetch_and_add(&self_ctl[idx].hits, 1);
		goto filtered;
	}
	if (filter_pid && tgid != filter_pid)
		goto filtered_task;
	if (filter_tid && tid != filter_tid)
		goto filtered_task;
	/*
	 * A --calls scope ends here: its state goes at done, whatever becomes of the record.
	 * Looked up after the id checks, which no scope of this task can fail (call_enter_id()
	 * opens scopes only for tasks that pass them), before the follow and comm checks, which
	 * an exec or an exit may change in mid-scope.
	 */
	if (ap_flags[idx] & LBRSNAP_AP_CALLS)
		cs = calls_find(tid);
	if (filter_follow && !bpf_map_lookup_elem(&follow, &tgid))
		goto filtered_task;
	if (comm_remembered) {
		verdict_at = verdict_ctx_tag(ctx);
		verdict_w0 = *(volatile __u64 *)&verdicts.v[verdict_slot(verdict_at)];
	}
	bpf_get_current_comm(comm, sizeof(comm));
	if (filter_comm_on && !comm_matches(comm)) {
		if (comm_remembered)
			verdict_remember_comm(verdict_at, gen, verdict_w0);
		goto filtered;
	}
	if ((ap_flags[idx] & (LBRSNAP_AP_SYS_ENTER | LBRSNAP_AP_SYS_EXIT)) && in_ia32_syscall()) {
		__sync_fetch_and_add(&ia32_ctl[idx].hits, 1);
		goto filtered;
	}

	kind = ap_ret_kind[idx];
	if (ap_flags[idx] & LBRSNAP_AP_MULTI) {
		/* which function of the glob fired: its attach point, its types */
		fn = bpf_get_attach_cookie(ctx);
		fi = bpf_map_lookup_elem(&funcs, &fn);
		/* cannot happen: the link gives each function the index of its entry */
		if (!fi)
			goto nested;
		ap = fi->ap;
		kind = fi->ret_kind;
		ret_shift = fi->ret_shift & 63;
		nargs = fi->nargs;
		nstrs = fi->nstrs;
		args_size = fi->args_size;
		if (nargs > LBRSNAP_MAX_ARGS || nstrs > LBRSNAP_MAX_STRS ||
		    args_size > LBRSNAP_MAX_ARGS_SIZE)
			goto nested;
	}
	if (ap_flags[idx] & (LBRSNAP_AP_RET_FEXIT | LBRSNAP_AP_RET_ARG1 | LBRSNAP_AP_RET_REGS |
			      LBRSNAP_AP_RET_UREGS) &&
	    kind != LBRSNAP_RET_NONE) {
		__u64 v = 0;

		if (ap_flags[idx] & LBRSNAP_AP_RET_FEXIT)
			bpf_get_func_ret(ctx, &v);
		else if (ap_flags[idx] & LBRSNAP_AP_RET_UREGS)
			CTX_ARG(v, ctx, PT_REGS_AX_OFF);
		else if (ap_flags[idx] & LBRSNAP_AP_RET_REGS)
			v = PT_REGS_RC((struct pt_regs *)ctx);
		else
			v = ctx_arg1(ctx);
		/* the callee sets only its type's bytes: extend from there */
		if (kind == LBRSNAP_RET_SIGNED)
			ret = (__s64)(v << ret_shift) >> ret_shift;
		else
			ret = (__s64)((v << ret_shift) >> ret_shift);
		flags |= LBRSNAP_EV_HAS_RET;
	} else {
		kind = LBRSNAP_RET_NONE;
	}
	if (cs) {
		/* the scope's own frame closes; a recursive call of F leaves the scope open */
		call_leave(cs, 0, ret, kind);
		if (cs->depth || cs->over)
			cs = NULL;
	}
	if (!ret_wanted(kind, ret))
		goto filtered;
	if (calls_longer_ns && (ap_flags[idx] & LBRSNAP_AP_CALLS) &&
	    (!cs || cs->call[0].end_ns - cs->call[0].start_ns <= calls_longer_ns))
		goto filtered;

	/* set here, not at the head: a rejected event would pay its store (filter_first) */
	zero = 0;
	nest_own = bpf_map_lookup_elem(&nest, &zero);
	if (!nest_own)
		goto nested;
	level = stage_claim(nest_own);
	if (level >= LBRSNAP_NEST_MAX)
		goto nested;
	ev = bpf_map_lookup_elem(&stage, &level);
	if (!ev) {
		stage_release(nest_own, level);
		goto nested;
	}

	ev->time_ns = bpf_ktime_get_ns();
	ev->ret = ret;
	ev->ap = ap;
	ev->cpu = cpu;
	ev->pid = tgid;
	ev->tid = tid;
	__builtin_memcpy(ev->comm, comm, sizeof(comm));
	ev->lbr_ret = lbr_ret;
	ev->stack_err = 0;
	ev->nr_branches = 0;
	ev->nr_stack = 0;
	ev->seq = t;
	if (args_size) {
		if (fi)
			fill_args_regs(ctx, fi, (void *)(ev + 1), nargs, nstrs);
		else
			fill_args(ctx, idx, (void *)(ev + 1));
		flags |= LBRSNAP_EV_HAS_ARGS;
		/* --filter reads the record before it costs ring buffer room or a sample */
		if (ap_filter_on[idx] && !filter_keeps(idx, ev, (void *)(ev + 1), nargs, nstrs)) {
			stage_release(nest_own, level);
			goto filtered;
		}
	}
	if (sample_every > 1 &&
	    __sync_fetch_and_add(&sample_ctl[idx].matched, 1) % sample_every) {
		stage_release(nest_own, level);
		__sync_fetch_and_add(&sc->sampled_out, 1);
		goto done;
	}

	/* a constant but for kprobe-multi, whose bound the verifier must see here */
	args_size = bounded(args_size, LBRSNAP_MAX_ARGS_SIZE);
	body = (void *)(ev + 1) + args_size;
	/* a scope with a traced origin: the snapshot and stacks taken at the origin's return */
	if (cs && cs->is_err && cs->o_set && cs->o_call == cs->origin && cs->origin) {
		struct lbrsnap_ustack *u;
		__u32 nu;

		ev->lbr_ret = cs->o_lbr_ret;
		nb = bounded(cs->o_nr_branches, LBRSNAP_MAX_BRANCHES);
		if (cs->o_clobbered) {
			flags |= LBRSNAP_EV_CLOBBERED;
			__sync_fetch_and_add(&sc->clobbered, 1);
		}
		bpf_probe_read_kernel(body, sizeof(cs->o_branches), cs->o_branches);
		ev->nr_branches = nb;
		ns = bounded(cs->o_nr_stack, LBRSNAP_MAX_STACK);
		bpf_probe_read_kernel(body + nb * LBRSNAP_BRANCH_SIZE, sizeof(cs->o_stack),
				      cs->o_stack);
		ev->nr_stack = ns;
		if (cs->o_stack_err) {
			ev->stack_err = cs->o_stack_err;
			flags |= LBRSNAP_EV_STACK_ERR;
		}
		size = sizeof(*ev) + args_size + nb * LBRSNAP_BRANCH_SIZE + ns * 8;
		if (cs->o_ustack_taken) {
			u = (void *)ev + size;
			u->reserved = 0;
			u->err = cs->o_ustack_err;
			nu = bounded(cs->o_nr_ustack, LBRSNAP_MAX_USTACK);
			u->nr = nu;
			bpf_probe_read_kernel(u->ip, sizeof(cs->o_ustack), cs->o_ustack);
			size += sizeof(*u) + nu * 8;
			flags |= LBRSNAP_EV_HAS_USTACK;
		}
		snap_origin = LBRSNAP_CALLS_SNAP_ORIGIN;
		goto extra;
	}
	if (want_lbr && lbr_ret > 0) {
		bpf_probe_read_kernel(body, sizeof(snap[0]), buf);
		/* a full barrier (locked add) orders the copy before the reuse check */
		next = __sync_fetch_and_add(&sc->next, 0);
		if (done_before != t || next != t + 1) {
			flags |= LBRSNAP_EV_CLOBBERED;
			__sync_fetch_and_add(&sc->clobbered, 1);
		} else {
			nb = lbr_ret / LBRSNAP_BRANCH_SIZE;
			if (nb > LBRSNAP_MAX_BRANCHES)
				nb = LBRSNAP_MAX_BRANCHES;
			ev->nr_branches = nb;
		}
	}
	if (want_stack) {
		sret = bpf_get_stack(ctx, body + nb * LBRSNAP_BRANCH_SIZE, LBRSNAP_MAX_STACK * 8, 0);
		if (sret < 0) {
			ev->stack_err = sret;
			flags |= LBRSNAP_EV_STACK_ERR;
		} else {
			ns = sret / 8;
			if (ns > LBRSNAP_MAX_STACK)
				ns = LBRSNAP_MAX_STACK;
			ev->nr_stack = ns;
		}
	}
	size = sizeof(*ev) + args_size + nb * LBRSNAP_BRANCH_SIZE + ns * 8;
	if (want_ustack) {
		struct lbrsnap_ustack *u = (void *)ev + size;
		__u32 nu = 0;

		u->reserved = 0;
		u->err = 0;
		sret = bpf_get_stack(ctx, u->ip, LBRSNAP_MAX_USTACK * 8, BPF_F_USER_STACK);
		if (sret < 0) {
			u->err = sret;
		} else {
			nu = sret / 8;
			if (nu > LBRSNAP_MAX_USTACK)
				nu = LBRSNAP_MAX_USTACK;
		}
		u->nr = nu;
		size += sizeof(*u) + nu * 8;
		flags |= LBRSNAP_EV_HAS_USTACK;
	}
extra:
	if (LBRSNAP_EXTRA__MAX) {
		struct lbrsnap_extra *x = (void *)ev + size;

		x->nr = LBRSNAP_EXTRA__MAX;
		x->reserved = 0;
		x->reserved2 = 0;
		fill_extra(x->v);
		size += lbrsnap_extra_size(LBRSNAP_EXTRA__MAX);
		flags |= LBRSNAP_EV_HAS_EXTRA;
	}
	if (cs) {
		struct lbrsnap_calls *cb = (void *)ev + size;
		__u32 n = cs->nr;

		if (n > LBRSNAP_MAX_CALLS)
			n = LBRSNAP_MAX_CALLS;
		cb->version = LBRSNAP_CALLS_VERSION;
		cb->nr = n;
		cb->origin = cs->is_err ? cs->origin : LBRSNAP_CALLS_NO_ORIGIN;
		cb->flags = snap_origin;
		cb->dropped = cs->dropped;
		cb->reserved2 = 0;
		bpf_probe_read_kernel(cb->call, n * sizeof(struct lbrsnap_call), cs->call);
		size += lbrsnap_calls_size(n);
		flags |= LBRSNAP_EV_HAS_CALLS;
	}
	ev->flags = flags;
	/*
	 * A wake-up per record is a self-interrupt (irq_work), a trapped MSR write on a virtual
	 * machine: wake the consumer by amount, as perf's watermark does; it also polls with a
	 * timeout, so a quiet capture still drains.
	 */
	if (bpf_ringbuf_output(&events, ev, size,
			       bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) + size >= wakeup_bytes ?
			       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP)) {
		stage_release(nest_own, level);
		__sync_fetch_and_add(&sc->lost_ringbuf, 1);
		goto done;
	}
	stage_release(nest_own, level);
	__sync_fetch_and_add(&sc->emitted, 1);
	goto done;
nested:
	__sync_fetch_and_add(&sc->lost_nested, 1);
	goto done;
filtered_task:
	/* what the task is, not the event: the same until it execs or its stack is reused */
	if (first_remembered)
		verdict_remember(ctx, gen);
filtered:
	/*
	 * A ticket rejected after its snapshot adds to done alone: one locked add less on the
	 * path most events take; user space counts it as done minus the other ends (capture.h).
	 */
done:
	if (cs)
		calls_release(cs, tid, &calls_stats.ended);
	__sync_fetch_and_add(&sc->done, 1);
	return 0;
}

/*
 * Fork tracking for "-- cmd": children of a followed process are followed too, and a
 * process is forgotten when its last thread exits, so the map holds live processes only.
 * A child that does not fit is counted, never silently dropped. These programs are not
 * attach points and take no snapshot.
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(lbrsnap_follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == ctgid || !bpf_map_lookup_elem(&follow, &ptgid))
		return 0;
	if (bpf_map_update_elem(&follow, &ctgid, &one, BPF_ANY) == -E2BIG)
		__sync_fetch_and_add(&follow_stats.overflow, 1);
	else
		__sync_fetch_and_add(&follow_stats.added, 1);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(lbrsnap_follow_exit, struct task_struct *p)
{
	__u32 tgid = BPF_CORE_READ(p, tgid);

	/* signal->live reached 0 in do_exit() before this tracepoint: the group is dead */
	if (BPF_CORE_READ(p, signal, live.counter))
		return 0;
	if (!bpf_map_delete_elem(&follow, &tgid))
		__sync_fetch_and_add(&follow_stats.forgotten, 1);
	return 0;
}

/* Remembered rejections (first_remembered): a stack given to a new task, a tid changed */
SEC("tp_btf/task_newtask")
int BPF_PROG(lbrsnap_verdict_new, struct task_struct *task, __u64 clone_flags)
{
	verdict_forget(task);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(lbrsnap_verdict_exec, struct task_struct *p)
{
	verdict_forget(p);
	return 0;
}

/*
 * comm_remembered: a task renamed to a comm --comm keeps has its slot marked, so that no
 * rejection by its old comm is remembered meanwhile; renamed to another, the mark goes
 */
SEC("tp_btf/task_rename")
int BPF_PROG(lbrsnap_verdict_rename, struct task_struct *task, const char *comm)
{
	__u64 tag = verdict_tag((__u64)BPF_CORE_READ(task, stack));
	__u32 s = verdict_slot(tag);
	char buf[LBRSNAP_COMM_LEN] = {};

	/* the kernel keeps what fits, as this read does; an unreadable name is taken as kept */
	if (bpf_probe_read_kernel_str(buf, sizeof(buf), comm) < 0 || comm_matches(buf))
		verdicts.v[s] = tag | LBRSNAP_VERDICT_STICKY;
	else if (verdicts.v[s] == (tag | LBRSNAP_VERDICT_STICKY))
		verdicts.v[s] = 0;
	return 0;
}

/*
 * --calls: a uprobe and a uretprobe per traced function, the function's id as the links'
 * cookie; the scope's own function has an entry probe with id 0, and its return is the
 * attach point's program (snap_body). Neither takes a snapshot: they are not attach points.
 */
SEC("uprobe")
int lbrsnap_call_entry(void *ctx)
{
	return call_enter(ctx);
}

SEC("uretprobe")
int lbrsnap_call_exit(void *ctx)
{
	return call_exit(ctx);
}

/* A task that exits inside a scope never reaches its return: counted, its slot given back */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(lbrsnap_calls_died, struct task_struct *p)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lbrsnap_call_state *cs = calls_find(tid);

	if (cs)
		calls_release(cs, tid, &calls_stats.died);
	return 0;
}

/*
 * --calls over kernel functions (call-mech.c picks the mechanism per kernel): one
 * kprobe.session link, a pair of kprobe-multi links, or fentry/fexit clones of these per
 * function. The function id is the
 * link's cookie and the return value comes from the helper or the registers, never from ctx's
 * arguments, so that tracing_multi can reload them as fentry.multi and fexit.multi.
 */
SEC("fentry")
int lbrsnap_kcall_fentry(void *ctx)
{
	return call_enter(ctx);
}

SEC("fexit")
int lbrsnap_kcall_fexit(void *ctx)
{
	return call_exit_from(ctx, true);
}

SEC("kprobe.multi")
int lbrsnap_kcall_kprobe(void *ctx)
{
	return call_enter(ctx);
}

SEC("kretprobe.multi")
int lbrsnap_kcall_kretprobe(void *ctx)
{
	return call_exit(ctx);
}

/* 6.10+'s kprobe.session run context (kernel/trace/bpf_trace.c), its field found by CO-RE */
struct bpf_session_run_ctx___lbr {
	struct bpf_run_ctx run_ctx;
	bool is_return;
} __attribute__((preserve_access_index));

/* 6.2+; the verifier inlines it (a register move) */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

/*
 * Whether a kprobe.session program runs for the return. Not bpf_session_is_return(): its
 * prototype gained an argument in 7.0, and libbpf 1.1 refuses to load an object whose
 * extern matches neither kernel's. The run context current->bpf_ctx points at says it.
 */
static __always_inline bool session_is_return(void)
{
	struct bpf_session_run_ctx___lbr *sc;

	sc = bpf_rdonly_cast(bpf_get_current_task_btf()->bpf_ctx,
			     bpf_core_type_id_kernel(struct bpf_session_run_ctx___lbr));
	return sc->is_return;
}

/*
 * kprobe.session (6.10+): one program for a function's entry and its return, on one fprobe,
 * so that a call costs the kernel one ftrace callback, not the two of a kprobe-multi pair's
 * links. An entry outside every scope returns 1, and the kernel then skips that call's return
 * altogether. capture-engine.c loads it as BPF_TRACE_KPROBE_SESSION (libbpf 1.1 knows no such
 * section). Where the kernel does not inline bpf_get_current_task_btf() (before 7.2) an exit's
 * snapshot has its call and return as the newest branches, which the tracing-path trim
 * (lib/symbols/trim.c) drops.
 */
SEC("kprobe.multi")
int lbrsnap_kcall_session(void *ctx)
{
	if (session_is_return())
		return call_exit(ctx);
	return !call_enter_id(bpf_get_attach_cookie(ctx));
}

/* raw_tp:sys_exit's scope opens at the task's sys_enter (no cookie on raw_tp before 6.10) */
SEC("raw_tp/sys_enter")
int lbrsnap_calls_sys_enter(void *ctx)
{
	call_enter_id(0);
	return 0;
}

#define DEFINE_PROGS(i)								\
SEC("fexit")									\
int lbrsnap_fexit_##i(void *ctx)						\
{										\
	return snap_body(ctx, i);						\
}										\
SEC("raw_tp")									\
int lbrsnap_rawtp_##i(void *ctx)						\
{										\
	return snap_body(ctx, LBRSNAP_PROGS_PER_KIND + i);			\
}										\
SEC("tp_btf")									\
int lbrsnap_tpbtf_##i(void *ctx)						\
{										\
	return snap_body(ctx, 2 * LBRSNAP_PROGS_PER_KIND + i);			\
}										\
SEC("perf_event")								\
int lbrsnap_mem_##i(void *ctx)							\
{										\
	return snap_body(ctx, 3 * LBRSNAP_PROGS_PER_KIND + i);			\
}										\
SEC("uprobe")									\
int lbrsnap_uprobe_##i(void *ctx)						\
{										\
	return snap_body(ctx, (LBRSNAP_KIND_UPROBE - 1) * LBRSNAP_PROGS_PER_KIND + i); \
}										\
SEC("uretprobe")								\
int lbrsnap_uretprobe_##i(void *ctx)						\
{										\
	return snap_body(ctx, (LBRSNAP_KIND_URETPROBE - 1) * LBRSNAP_PROGS_PER_KIND + i); \
}										\
SEC("usdt")									\
int lbrsnap_usdt_##i(void *ctx)							\
{										\
	return snap_body(ctx, (LBRSNAP_KIND_USDT - 1) * LBRSNAP_PROGS_PER_KIND + i); \
}										\
SEC("kprobe.multi")								\
int lbrsnap_kprobe_##i(void *ctx)						\
{										\
	return snap_body(ctx, (LBRSNAP_KIND_KPROBE - 1) * LBRSNAP_PROGS_PER_KIND + i); \
}										\
SEC("kretprobe.multi")								\
int lbrsnap_kretprobe_##i(void *ctx)						\
{										\
	return snap_body(ctx, (LBRSNAP_KIND_KRETPROBE - 1) * LBRSNAP_PROGS_PER_KIND + i); \
}

/* 64 programs per kind: LBRSNAP_PROGS_PER_KIND */
DEFINE_PROGS(0) DEFINE_PROGS(1) DEFINE_PROGS(2) DEFINE_PROGS(3) DEFINE_PROGS(4) DEFINE_PROGS(5) DEFINE_PROGS(6) DEFINE_PROGS(7)
DEFINE_PROGS(8) DEFINE_PROGS(9) DEFINE_PROGS(10) DEFINE_PROGS(11) DEFINE_PROGS(12) DEFINE_PROGS(13) DEFINE_PROGS(14) DEFINE_PROGS(15)
DEFINE_PROGS(16) DEFINE_PROGS(17) DEFINE_PROGS(18) DEFINE_PROGS(19) DEFINE_PROGS(20) DEFINE_PROGS(21) DEFINE_PROGS(22) DEFINE_PROGS(23)
DEFINE_PROGS(24) DEFINE_PROGS(25) DEFINE_PROGS(26) DEFINE_PROGS(27) DEFINE_PROGS(28) DEFINE_PROGS(29) DEFINE_PROGS(30) DEFINE_PROGS(31)
DEFINE_PROGS(32) DEFINE_PROGS(33) DEFINE_PROGS(34) DEFINE_PROGS(35) DEFINE_PROGS(36) DEFINE_PROGS(37) DEFINE_PROGS(38) DEFINE_PROGS(39)
DEFINE_PROGS(40) DEFINE_PROGS(41) DEFINE_PROGS(42) DEFINE_PROGS(43) DEFINE_PROGS(44) DEFINE_PROGS(45) DEFINE_PROGS(46) DEFINE_PROGS(47)
DEFINE_PROGS(48) DEFINE_PROGS(49) DEFINE_PROGS(50) DEFINE_PROGS(51) DEFINE_PROGS(52) DEFINE_PROGS(53) DEFINE_PROGS(54) DEFINE_PROGS(55)
DEFINE_PROGS(56) DEFINE_PROGS(57) DEFINE_PROGS(58) DEFINE_PROGS(59) DEFINE_PROGS(60) DEFINE_PROGS(61) DEFINE_PROGS(62) DEFINE_PROGS(63)
