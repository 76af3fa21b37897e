// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture engine (API in capture-engine.h).
 *
 * One BPF object holds LBRSNAP_PROGS_PER_KIND programs of each kind and a pool of
 * LBRSNAP_SLOT_POOL snapshot slots; each attach point takes the next free program of its
 * kind and the next `slots` slots of the pool, and a new object is opened when either runs
 * out. Further objects share the first one's ring buffer and follow map, so one consumer
 * sees every record in commit order; each is loaded and attached in turn and, but for what
 * the capture reads later, closed (keep_object).
 *
 * Ending a capture is ordered so that the counts add up: detach every program, wait for an
 * RCU grace period (membarrier) so no invocation that started before the detach is still
 * running, confirm it with the slots' tickets (taken == completed), drain the ring buffer,
 * and only then read the counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "capture/arg-filter.h"
#include "capture/attach-kind.h"
#include "capture/call-funcs.h"
#include "capture/filter-first.h"
#include "capture/call-mech.h"
#include "capture/attach-spec.h"
#include "capture/capture-engine.h"
#include "capture/kernel-features.h"
#include "capture/kprobe-multi.h"
#include "symbols/ksyms.h"
#include "capture/lbr-enable.h"
#include "lbrfile/lbrfile.h"
#include "capture/mem-watch.h"
#include "util/print.h"
#include "capture/proc-maps.h"
#include "capture/syscall-table.h"
#include "capture/verifier-log.h"
#include "tracedat-lbr/tracedat-fgraph.h"
#include "capture.skel.h"

#define PROGS LBRSNAP_PROGS_PER_KIND
#define NR_PROGS_ALL (LBRSNAP_NR_KINDS * PROGS)
#define DEFAULT_RINGBUF (8ULL << 20)
#define DEFAULT_FOLLOW_MAX 16384
/* per object: task_newtask, sched_process_exec, task_rename (remembered rejections) */
#define VERDICT_LINKS 3
/*
 * A batch of records between two looks at the stop flag, the clock and the child: small
 * enough to take milliseconds, large enough that a busy capture is not all system calls.
 */
#define BATCH_RECORDS 4096
#define BATCH_NS 20000000ULL
#define RUN_TICK_MS 100		/* the longest wait for records: LBR checks, the duration */

struct ap_slot {
	size_t obj;		/* object instance */
	__u32 idx;		/* program index inside it: (kind - 1) * PROGS + n */
	__u32 slot_base;	/* its first slot in the object's pool */
	struct bpf_program *prog;	/* NULL once its object is closed (keep_object) */
	int prog_fd;		/* its program's, kept past its object: recursion misses */
	struct bpf_link *link;
	__u64 records;		/* records of this attach point read from the ring buffer */
	__u32 args_size;	/* bytes of its records' argument block; 0: none */
	struct arg_filter_prog *filter;	/* --filter, compiled */
	struct mem_watch watch;		/* mem: its breakpoint events */
	/*
	 * The kernel's own counts, read as the attach point is detached: its link's `missed`
	 * (kprobe, kretprobe), its breakpoint events' hits (mem); each _err 0 or -errno.
	 */
	__u64 missed, mem_hits;
	int missed_err, mem_err;
	/*
	 * kprobe-multi: the attach points of a spec share the program, slots and counters of
	 * the first, whose index is leader (every other attach point is its own leader),
	 * and each has entry func of the object's funcs map.
	 */
	size_t leader;
	__u32 func;
};

struct capture {
	struct capture_opts opts;
	struct attach_set set;
	struct ap_slot *aps;
	struct capture_bpf **objs;	/* NULL once attached, but where kept (keep_object) */
	size_t nr_objs;
	struct capture_bpf__bss **bss;	/* each object's .bss, mapped on its own */
	size_t bss_len;		/* bss_size in whole pages: what each mapping takes */
	/* the maps all objects share, and their sizes, kept when the first object is closed */
	int events_fd, follow_fd, calls_fd;
	__u32 bss_size, ring_bytes;
	struct bpf_link *follow_link;
	struct bpf_link *follow_exit_link;
	/* --calls: the scope's attach point, its functions and their probes */
	size_t calls_ap;
	struct call_funcs calls;
	struct bpf_link **call_links;
	size_t nr_call_links;
	struct bpf_link *calls_died_link;
	/* kernel scopes: the mechanism chosen for this kernel and what it holds */
	const struct call_mech *calls_mech;
	struct call_mech_ctx calls_mctx;
	struct bpf_link *calls_sys_enter_link;	/* raw_tp:sys_exit's scope opens at sys_enter */
	__u32 slots;			/* per attach point */
	struct ring_buffer *rb;
	struct lbr_enable *lbr;
	bool lbr_on;			/* events open, or enabled by another tool */
	bool user_stack_auto;		/* user stacks taken for user probes, LBR being off */
	__u64 open_ns;			/* CLOCK_MONOTONIC at capture__open() */
	bool said_loading;		/* "loading N attach points" was printed */
	bool kprobe_single;		/* kprobe: and kretprobe: one kprobe link per function */
	char kprobe_why[200];		/* ... and why, or why not (-v) */
	struct kprobe_refused kprobe_refused;
	struct kprobe_missed_at missed_at;	/* where link info holds `missed`, if it does */
	char uncounted[512];		/* per kind, the losses this kernel does not count */
	char lbr_why[256];
	__u64 branch_filter;
	bool filter_first;		/* pid, tid, comm checked before the snapshot */
	bool first_remembered;		/* rejections by pid, tid, follow repeated before it */
	bool comm_remembered;		/* and by comm, a rename watched */
	/* per object, VERDICT_LINKS: stacks reused, tids changed, tasks renamed */
	struct bpf_link **verdict_links;
	char order[200];		/* META order: which came first, and why */
	struct syscall_table *syscalls;	/* sys_enter/sys_exit attach points with arguments */
	struct arg_filter_names filter_names;	/* syscall argument names the filters use */
	__u32 str_size;			/* lbrsnap_str_size(--string-len) */
	void *rec_buf;			/* a record with its argument block moved in place */
	struct lbrfile_writer *sink;	/* the writer of the poll in progress */
	struct proc_maps *maps;		/* --user-stack: processes whose maps are written */
	__u64 ustack_errs;		/* records whose user stack could not be taken */
	int sink_err;
	__u64 records;
	__u32 batch_left;		/* records left in the batch of the poll in progress */
	__u64 batch_end_ns;		/* ... and its deadline, CLOCK_MONOTONIC */
	bool full;			/* --max-size reached: records no longer written */
	__u64 max_reserve;		/* --max-size: bytes kept for the closing sections */
};

static int verbosity;
static char failed_prog[64];	/* program named in libbpf's "load failed" warning */
static char verifier_why[256];	/* the verifier's verdict: last line of its log */

/*
 * libbpf talks through here: verifier logs only with -vv, failures kept for the error. A
 * message is formatted whole: the verifier's log can be any length, its verdict at its end.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	bool say = verbosity >= 2 || (verbosity >= 1 && level == LIBBPF_WARN);
	char *msg;
	const char *p;
	int n;

	if (level == LIBBPF_DEBUG && !say)
		return 0;
	n = vasprintf(&msg, fmt, args);
	if (n < 0)
		return n;
	if (level != LIBBPF_DEBUG) {
		p = strstr(msg, "prog '");
		if (p && strstr(msg, "load failed"))
			sscanf(p, "prog '%63[^']'", failed_prog);
		if (strstr(msg, "-- BEGIN PROG LOAD LOG --"))
			verifier_log__reason(msg, verifier_why, sizeof(verifier_why));
	}
	if (say)
		pr_warn("%s", msg);
	free(msg);
	return say ? n : 0;
}

/* A record with user addresses: its process's maps must be read while it still runs */
static bool has_user_addrs(const struct lbrsnap_event *ev, const void *data, size_t size)
{
	const struct lbrsnap_branch *b = (const void *)(ev + 1);
	struct lbr_record rec;
	unsigned int i;

	if (lbr_record__parse(data, size, &rec))
		return false;
	if (rec.ustack && rec.ustack->nr)
		return true;
	for (i = 0; i < ev->nr_branches; i++) {
		if ((__s64)b[i].from >= 0 || (__s64)b[i].to >= 0)
			return true;
	}
	return false;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Ends the batch once its budget of records or time is spent. libbpf stops consuming at a
 * negative return, the record itself consumed; -EAGAIN is told apart from a write error by
 * batch_left, which only this sets to 0.
 */
static int batch_next(struct capture *c)
{
	/* the clock every 64 records: a record takes microseconds, the budget milliseconds */
	if (--c->batch_left && ((c->batch_left & 63) || now_ns() < c->batch_end_ns))
		return 0;
	c->batch_left = 0;
	return -EAGAIN;
}

static int handle_record(void *ctx, void *data, size_t size)
{
	const struct lbrsnap_event *ev = data;
	struct capture *c = ctx;
	int err;

	/*
	 * Past --max-size a record is consumed and not written: the programs' emitted count
	 * then exceeds the records read, and capture__finish() counts the difference lost.
	 */
	if (c->opts.max_size && !c->full &&
	    lbrfile_writer__bytes(c->sink) + LBRFILE_RECORD_BYTES(size) + c->max_reserve >
	    c->opts.max_size)
		c->full = true;
	if (c->full)
		return batch_next(c);

	/*
	 * The program sends the argument block right after the header, where its filter read it
	 * (capture.h): lbrsnap.data keeps it behind the stack, before the user stack block.
	 */
	if ((ev->flags & LBRSNAP_EV_HAS_ARGS) && ev->ap < c->set.nr &&
	    c->aps[ev->ap].args_size && ev->nr_branches <= LBRSNAP_MAX_BRANCHES &&
	    ev->nr_stack <= LBRSNAP_MAX_STACK) {
		size_t body = lbrsnap_event_size(ev->nr_branches, ev->nr_stack);
		size_t asz = c->aps[ev->ap].args_size;

		if (size >= body + asz && size <= LBRSNAP_STAGE_SIZE) {
			memcpy(c->rec_buf, data, sizeof(*ev));
			memcpy((char *)c->rec_buf + sizeof(*ev), (char *)data + sizeof(*ev) + asz,
			       body - sizeof(*ev));
			memcpy((char *)c->rec_buf + body, (char *)data + sizeof(*ev), asz);
			memcpy((char *)c->rec_buf + body + asz, (char *)data + body + asz,
			       size - body - asz);
			data = c->rec_buf;
		}
	}
	if (c->maps && has_user_addrs(ev, data, size)) {
		err = proc_maps__see(c->maps, ev->pid, ev->comm, c->sink);
		if (err) {
			c->sink_err = err;
			return err;
		}
	}
	if (ev->flags & LBRSNAP_EV_HAS_USTACK) {
		struct lbr_record rec;

		if (!lbr_record__parse(data, size, &rec) && rec.ustack && rec.ustack->err)
			c->ustack_errs++;
	}
	err = lbrfile_writer__record(c->sink, data, size);
	if (err) {
		c->sink_err = err;
		return err;
	}
	c->records++;
	if (ev->ap < c->set.nr)
		c->aps[ev->ap].records++;
	return batch_next(c);
}

/*
 * What a program captures of its arguments: the values, and a string slot for each
 * char * argument (a syscall may have up to LBRSNAP_MAX_STRS of them). Returns the string
 * slots and sets s->args_size.
 */
static __u32 args_layout(struct capture *c, struct ap_slot *s, const struct attach_target *t)
{
	__u32 i, nstrs = 0;

	/* the filter reads the record's argument block, even an empty one */
	s->args_size = s->filter ? sizeof(struct lbrsnap_args) : 0;
	if (!t->nr_args)
		return 0;
	for (i = 0; i < t->nr_args; i++)
		nstrs += t->args[i].kind == LBRSNAP_ARG_STRING;
	if (t->sys)
		nstrs = LBRSNAP_MAX_STRS;
	if (nstrs > LBRSNAP_MAX_STRS)
		nstrs = LBRSNAP_MAX_STRS;
	s->args_size = sizeof(struct lbrsnap_args) + 8 * t->nr_args + nstrs * c->str_size;
	return nstrs;
}

static void set_args_rodata(struct capture *c, struct capture_bpf *skel, struct ap_slot *s,
			    const struct attach_target *t)
{
	__u32 i, nstrs = args_layout(c, s, t);

	if (s->filter) {
		memcpy((void *)skel->rodata->ap_filter[s->idx], s->filter->insn,
		       sizeof(s->filter->insn));
		memcpy((void *)skel->rodata->ap_filter_str[s->idx], s->filter->str,
		       sizeof(s->filter->str));
		skel->rodata->ap_filter_on[s->idx] = true;
	}
	skel->rodata->ap_args_size[s->idx] = s->args_size;
	/* a kprobe-multi program types each function's arguments from funcs */
	if (attach_kind__is_multi(t->kind))
		return;
	for (i = 0; i < t->nr_args; i++) {
		skel->rodata->ap_arg_kind[s->idx][i] = t->args[i].kind;
		skel->rodata->ap_arg_shift[s->idx][i] = t->args[i].kind ?
							64 - 8 * t->args[i].size : 0;
	}
	skel->rodata->ap_nargs[s->idx] = t->nr_args;
	skel->rodata->ap_nstrs[s->idx] = nstrs;
}

static void set_rodata(struct capture *c, struct capture_bpf *skel)
{
	const struct capture_opts *o = &c->opts;
	__u32 i;

	skel->rodata->slot_mask = c->slots - 1;
	skel->rodata->slot_per_cpu = (int)c->slots >= libbpf_num_possible_cpus();
	skel->rodata->filter_pid = o->pid;
	skel->rodata->self_tgid = getpid();
	skel->rodata->filter_tid = o->tid;
	skel->rodata->filter_follow = o->follow;
	if (o->comm) {
		skel->rodata->filter_comm_on = true;
		strncpy((char *)skel->rodata->filter_comm, o->comm, LBRSNAP_COMM_LEN - 1);
	}
	skel->rodata->filter_errors = o->errors;
	skel->rodata->filter_ret_on = o->ret_on;
	skel->rodata->filter_ret = o->ret;
	skel->rodata->sample_every = o->sample;
	skel->rodata->want_stack = o->stack || !c->lbr_on;
	skel->rodata->want_lbr = c->lbr_on;
	skel->rodata->filter_first = c->filter_first;
	skel->rodata->first_remembered = c->first_remembered;
	skel->rodata->comm_remembered = c->comm_remembered;
	skel->rodata->want_ustack = o->user_stack;
	/* a quarter of the ring buffer: room for the producers while the consumer wakes up */
	skel->rodata->wakeup_bytes = (o->ringbuf_bytes ?: DEFAULT_RINGBUF) / 4;
	skel->rodata->calls_longer_ns = o->longer_ns;
	skel->rodata->str_size = c->str_size;
	skel->rodata->str_len = o->string_len ?: CAPTURE_DEFAULT_STRING_LEN;
	for (i = 0; i < LBRSNAP_NR_SYSCALLS; i++) {
		const struct lbr_syscall *sc = c->syscalls ? syscall_table__get(c->syscalls, i) :
						NULL;

		/* a number without a known prototype keeps its six registers */
		skel->rodata->sys_nargs[i] = sc ? sc->nr_args : LBRSNAP_MAX_ARGS;
		if (c->syscalls)
			skel->rodata->sys_str_mask[i] = syscall_table__str_mask(c->syscalls, i);
	}
	memcpy((void *)skel->rodata->sys_arg_map, c->filter_names.map,
	       sizeof(c->filter_names.map));
}

/* Whether attach point i shares the program of the one before it: the same kprobe glob */
static bool joins_previous(const struct capture *c, size_t i)
{
	const struct attach_target *t = &c->set.v[i];

	return i > 0 && attach_kind__is_multi(t->kind) && c->set.v[i - 1].kind == t->kind &&
	       c->set.v[i - 1].spec_idx == t->spec_idx &&
	       c->aps[i - 1].func + 1 < LBRSNAP_MAX_FUNCS;
}

/*
 * Places every attach point: an object, a program of its kind in it and its pool slots;
 * the functions of a kprobe glob all take the program and slots of its first.
 */
static void place_attach_points(struct capture *c)
{
	size_t nth[LBRSNAP_KIND__MAX] = {}, in_obj = 0, obj = 0, i;
	size_t per_obj = LBRSNAP_SLOT_POOL / c->slots;
	__u32 funcs = 0;

	for (i = 0; i < c->set.nr; i++) {
		enum lbrsnap_kind kind = c->set.v[i].kind;
		struct ap_slot *s = &c->aps[i];

		if (joins_previous(c, i)) {
			s->obj = c->aps[i - 1].obj;
			s->idx = c->aps[i - 1].idx;
			s->slot_base = c->aps[i - 1].slot_base;
			s->leader = c->aps[i - 1].leader;
			s->func = c->aps[i - 1].func + 1;
			funcs++;
			continue;
		}
		if (in_obj == per_obj || nth[kind] == PROGS ||
		    (attach_kind__is_multi(kind) && funcs == LBRSNAP_MAX_FUNCS)) {
			obj++;
			in_obj = 0;
			funcs = 0;
			memset(nth, 0, sizeof(nth));
		}
		s->obj = obj;
		s->idx = (kind - 1) * PROGS + nth[kind]++;
		s->slot_base = in_obj++ * c->slots;
		s->leader = i;
		s->func = funcs;
		funcs += attach_kind__is_multi(kind);
	}
	c->nr_objs = obj + 1;
}

/* Functions of kprobe globs in object obj: its funcs map's entries */
static __u32 object_funcs(const struct capture *c, size_t obj)
{
	__u32 n = 0;
	size_t i;

	for (i = 0; i < c->set.nr; i++)
		n += c->aps[i].obj == obj && attach_kind__is_multi(c->set.v[i].kind);
	return n;
}

/* Fills object obj's funcs map: each kprobe-multi function's attach point and types */
static int set_funcs(struct capture *c, size_t obj, char *err, size_t err_len)
{
	struct lbrsnap_func fi;
	size_t i;
	__u32 nstrs;

	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		struct ap_slot *s = &c->aps[i];

		if (s->obj != obj || !attach_kind__is_multi(t->kind))
			continue;
		nstrs = args_layout(c, s, t);
		kprobe_multi__func(t, i, s->args_size, nstrs, &fi);
		if (bpf_map__update_elem(c->objs[s->obj]->maps.funcs, &s->func, sizeof(s->func),
					 &fi, sizeof(fi), BPF_ANY)) {
			snprintf(err, err_len, "cannot set up %s: %s", t->spec, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

/*
 * Drops the instructions of object obj's attach point programs that no attach point uses:
 * libbpf keeps a copy of every program it parsed, loaded or not (576 of them, about 16 MiB
 * an object), and never relocates or loads one that is not autoloaded. What is freed here
 * serves the next object's parse, so the peak grows by the used programs only.
 */
static int drop_unused_programs(struct capture *c, size_t obj)
{
	/* never loaded: any valid program does */
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct capture_bpf *skel = c->objs[obj];
	bool used[NR_PROGS_ALL] = {};
	struct bpf_program *prog;
	size_t i, j;
	char name[64];
	int kind, ret;

	for (i = 0; i < c->set.nr; i++) {
		if (c->aps[i].obj == obj && c->aps[i].idx < NR_PROGS_ALL)
			used[c->aps[i].idx] = true;
	}
	for (kind = 1; kind < LBRSNAP_KIND__MAX; kind++) {
		for (j = 0; j < PROGS; j++) {
			if (used[(kind - 1) * PROGS + j])
				continue;
			snprintf(name, sizeof(name), "lbrsnap_%s_%zu",
				 attach_kind__get(kind)->prog, j);
			prog = bpf_object__find_program_by_name(skel->obj, name);
			if (!prog || bpf_program__autoload(prog))
				continue;
			ret = bpf_program__set_insns(prog, (struct bpf_insn *)ret0,
						     sizeof(ret0) / sizeof(ret0[0]));
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * --calls: the first object loads the programs of the scope's mechanism only: uprobes for a
 * user scope, the kernel mechanism's pair (fentry clones need their template loaded against
 * a traced function), sys_enter's for raw_tp:sys_exit.
 */
static int calls_autoload(struct capture *c, struct capture_bpf *skel, bool first)
{
	const struct call_mech *mech = c->calls_mech;
	bool user = !mech, fentry = first && mech && mech->progs == CALL_PROGS_FENTRY;
	bool session = first && mech && mech->progs == CALL_PROGS_SESSION;
	bool kprobe = first && mech && mech->progs == CALL_PROGS_KPROBE;
	int ret = 0;

	bpf_program__set_autoload(skel->progs.lbrsnap_call_entry, first && user);
	bpf_program__set_autoload(skel->progs.lbrsnap_call_exit, first && user);
	bpf_program__set_autoload(skel->progs.lbrsnap_kcall_kprobe, kprobe || session);
	bpf_program__set_autoload(skel->progs.lbrsnap_kcall_kretprobe, kprobe);
	bpf_program__set_autoload(skel->progs.lbrsnap_kcall_session, session);
	bpf_program__set_autoload(skel->progs.lbrsnap_kcall_fentry, fentry);
	bpf_program__set_autoload(skel->progs.lbrsnap_kcall_fexit, fentry);
	bpf_program__set_autoload(skel->progs.lbrsnap_calls_sys_enter,
				  first && c->set.v[c->calls_ap].kind == LBRSNAP_KIND_RAW_TP);
	if (session)
		ret = bpf_program__set_expected_attach_type(skel->progs.lbrsnap_kcall_session,
							    KFEAT_ATTACH_KPROBE_SESSION);
	if (fentry) {
		ret = bpf_program__set_attach_target(skel->progs.lbrsnap_kcall_fentry, 0,
						     c->calls.names[1]);
		if (!ret)
			ret = bpf_program__set_attach_target(skel->progs.lbrsnap_kcall_fexit, 0,
							     c->calls.names[1]);
	}
	return ret;
}

/*
 * Opens object obj: its maps sized, every program off but those of its attach points, whose
 * read-only data is set. Objects are opened one at a time, each after the one before it is
 * attached and closed: libbpf's parse of an object (its programs, their relocations, its
 * BTF.ext) is tens of MiB that the next object's parse then reuses.
 */
static int open_object(struct capture *c, size_t obj, char *err, size_t err_len)
{
	struct capture_bpf *skel = capture_bpf__open();
	struct bpf_program *prog;
	size_t i;
	int ret;

	if (!skel) {
		snprintf(err, err_len, "cannot open the BPF object: %s", strerror(errno));
		return -errno;
	}
	c->objs[obj] = skel;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, false);
	set_rodata(c, skel);
	if (obj == 0) {
		ret = bpf_map__set_max_entries(skel->maps.events, c->opts.ringbuf_bytes ?:
					       DEFAULT_RINGBUF);
		if (ret) {
			snprintf(err, err_len, "bad ring buffer size %llu: %s",
				 (unsigned long long)c->opts.ringbuf_bytes, strerror(-ret));
			return ret;
		}
		ret = bpf_map__set_max_entries(skel->maps.follow, c->opts.follow_max ?:
					       DEFAULT_FOLLOW_MAX);
		if (ret)
			return ret;
		bpf_program__set_autoload(skel->progs.lbrsnap_follow_fork, c->opts.follow);
		bpf_program__set_autoload(skel->progs.lbrsnap_follow_exit, c->opts.follow);
	}
	bpf_program__set_autoload(skel->progs.lbrsnap_verdict_new, c->first_remembered);
	bpf_program__set_autoload(skel->progs.lbrsnap_verdict_exec, c->first_remembered);
	bpf_program__set_autoload(skel->progs.lbrsnap_verdict_rename, c->comm_remembered);
	ret = bpf_map__set_max_entries(skel->maps.funcs, object_funcs(c, obj) ?: 1);
	if (ret)
		return ret;
	/* one call-state map for all, the first object's: sized alike to be shared */
	if (c->opts.calls) {
		ret = bpf_map__set_max_entries(skel->maps.calls, LBRSNAP_CALLS_TASKS);
		if (!ret && obj == 0)
			ret = bpf_map__set_max_entries(skel->maps.call_funcs, c->calls.nr);
		if (ret)
			return ret;
		ret = calls_autoload(c, skel, obj == 0);
		if (ret)
			return ret;
		bpf_program__set_autoload(skel->progs.lbrsnap_calls_died, obj == 0);
	}
	ret = drop_unused_programs(c, obj);
	if (ret)
		return ret;
	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		const struct attach_kind *k = attach_kind__get(t->kind);
		struct ap_slot *s = &c->aps[i];
		char name[64];

		if (s->obj != obj || s->leader != i)
			continue;

		snprintf(name, sizeof(name), "lbrsnap_%s_%u", k->prog, s->idx % PROGS);
		s->prog = bpf_object__find_program_by_name(skel->obj, name);
		if (!s->prog)
			return -ENOENT;
		bpf_program__set_autoload(s->prog, true);
		skel->rodata->ap_id[s->idx] = i;
		skel->rodata->ap_slot_base[s->idx] = s->slot_base;
		skel->rodata->ap_ret_kind[s->idx] = t->ret_kind;
		skel->rodata->ap_ret_shift[s->idx] = t->ret_kind ? 64 - 8 * t->ret_size : 0;
		skel->rodata->ap_flags[s->idx] = attach_kind__ap_flags(t) |
			(t->ret_is_arg1 ? LBRSNAP_AP_RET_ARG1 : 0) | (t->nr_args ? t->sys : 0) |
			(t->mem_user ? LBRSNAP_AP_MEM_USER : 0) |
			(t->ret_in_memory ? LBRSNAP_AP_UREGS_SRET : 0) |
			(c->opts.calls && i == c->calls_ap ? LBRSNAP_AP_CALLS : 0);
		skel->rodata->ap_mem_addr[s->idx] = t->mem_addr;
		skel->rodata->ap_mem_len[s->idx] = t->nr_args > 2 ? t->mem_len : 0;
		set_args_rodata(c, skel, s, t);
		ret = k->prepare ? k->prepare(s->prog, t, c->kprobe_single, err, err_len) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

static void explain_load_error(struct capture *c, size_t obj, int ret, char *err, size_t len)
{
	const char *spec = NULL, *refused = NULL;
	char what[64] = "BPF programs";
	size_t i;

	for (i = 0; i < c->set.nr; i++) {
		const struct attach_kind *k = attach_kind__get(c->set.v[i].kind);

		if (c->aps[i].obj == obj && failed_prog[0] && c->aps[i].prog &&
		    !strcmp(bpf_program__name(c->aps[i].prog), failed_prog))
			spec = c->set.v[i].spec;
		/* the kind root may be refused, which is then the likely cause */
		if (c->aps[i].obj == obj && k->load_refused) {
			refused = k->load_refused;
			snprintf(what, sizeof(what), "%s programs", lbr_kind__name(k->kind));
		}
	}
	if ((ret == -EPERM || ret == -EACCES) && geteuid() != 0)
		snprintf(err, len, "loading %s failed (%s): needs CAP_BPF and CAP_PERFMON, or root",
			 what, strerror(-ret));
	else if (ret == -EPERM && refused)
		snprintf(err, len, "loading %s failed: %s, although running as root; %s", what,
			 strerror(-ret), refused);
	else if (spec)
		snprintf(err, len, "cannot load the program for %s: %s%s%s", spec, strerror(-ret),
			 verifier_why[0] ? ": " : "", verifier_why);
	else
		snprintf(err, len, "loading %s failed: %s", what, strerror(-ret));
}

#define LOADING_SAY_NR	64		/* attach points from which loading is said at once */
#define LOADING_SAY_NS	1000000000ULL	/* loading that takes longer is said then, */
#define LOADING_SLOW_NR	8		/* for this many or more: fewer are slow only on a
					   busy machine, where the line would lengthen a
					   one-line error */

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * "WHO: loading N attach points", once, so that a long wait (the verifier, a trampoline
 * per fexit function) is not mistaken for a hang: at once for many, else once it is slow
 */
static void say_loading(struct capture *c, bool start)
{
	if (c->said_loading || !c->opts.who)
		return;
	if (start ? c->set.nr < LOADING_SAY_NR :
	    c->set.nr < LOADING_SLOW_NR || mono_ns() - c->open_ns < LOADING_SAY_NS)
		return;
	pr_warn("%s: loading %zu attach point%s\n", c->opts.who, c->set.nr,
		c->set.nr == 1 ? "" : "s");
	c->said_loading = true;
}

/* The loaded programs the kernel mechanism attaches (calls_autoload() loaded them) */
static void calls_mech_progs(struct capture *c, struct capture_bpf *skel)
{
	enum call_progs progs = c->calls_mech->progs;

	if (progs == CALL_PROGS_FENTRY) {
		c->calls_mctx.entry = skel->progs.lbrsnap_kcall_fentry;
		c->calls_mctx.exit = skel->progs.lbrsnap_kcall_fexit;
		return;
	}
	c->calls_mctx.entry = skel->progs.lbrsnap_kcall_kprobe;
	c->calls_mctx.exit = progs == CALL_PROGS_SESSION ? skel->progs.lbrsnap_kcall_session :
							 skel->progs.lbrsnap_kcall_kretprobe;
}

/*
 * --calls: each function's return type, then its probes (an entry and a return, its id as
 * the cookie), the scope's own entry last, so that a scope opens with every probe in place.
 */
static int attach_calls(struct capture *c, char *err, size_t err_len)
{
	const struct attach_target *t = &c->set.v[c->calls_ap];
	struct capture_bpf *skel = c->objs[0];
	struct bpf_program *prog;
	struct bpf_link *link;
	pid_t pid = c->opts.pid ? (pid_t)c->opts.pid : -1;
	size_t i;
	__u32 k;
	int ret, exit;
	__u64 t0;

	for (k = 0; k < c->calls.nr; k++) {
		if (bpf_map__update_elem(skel->maps.call_funcs, &k, sizeof(k), &c->calls.types[k],
					 sizeof(c->calls.types[k]), BPF_ANY)) {
			ret = -errno;
			snprintf(err, err_len, "cannot set up --calls: %s", strerror(-ret));
			return ret;
		}
	}
	c->call_links = calloc(2 * c->calls.nr, sizeof(*c->call_links));
	if (!c->call_links)
		return -ENOMEM;
	c->calls_died_link = bpf_program__attach(skel->progs.lbrsnap_calls_died);
	if (!c->calls_died_link) {
		ret = -errno;
		snprintf(err, err_len, "cannot attach the --calls exit tracker "
			 "(tp_btf/sched_process_exit): %s", strerror(-ret));
		return ret;
	}
	if (c->calls_mech) {
		c->calls_mctx.funcs = &c->calls;
		c->calls_mctx.spec = c->opts.calls;
		calls_mech_progs(c, skel);
		t0 = now_ns();
		ret = call_mech__attach(c->calls_mech, &c->calls_mctx,
					t->kind != LBRSNAP_KIND_RAW_TP, err, err_len);
		if (!ret && c->opts.verbose)
			pr_info("%s: calls: %zu functions attached by %s in %.1f ms\n",
				c->opts.who ?: "lbrsnap",
				c->calls.nr - 1 - c->calls_mctx.nr_refused, c->calls_mech->name,
				(now_ns() - t0) / 1e6);
		if (!ret && c->calls_mctx.nr_refused)
			pr_info("%s: calls: left out %zu function%s the kernel refused to probe: "
				"%s\n", c->opts.who ?: "lbrsnap", c->calls_mctx.nr_refused,
				c->calls_mctx.nr_refused == 1 ? "" : "s", c->calls_mctx.refused);
		if (ret || t->kind != LBRSNAP_KIND_RAW_TP)
			return ret;
		/* the scope's entry last: sys_enter opens every syscall's scope */
		c->calls_sys_enter_link = bpf_program__attach(skel->progs.lbrsnap_calls_sys_enter);
		if (!c->calls_sys_enter_link) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach the --calls scope's entry "
				 "(raw_tp:sys_enter): %s", strerror(-ret));
		}
		return ret;
	}
	for (i = c->calls.nr; i-- > 0;) {
		for (exit = 0; exit < 2; exit++) {
			LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = c->calls.names[i],
				    .retprobe = exit, .bpf_cookie = i);

			/* the scope's return is its attach point's program */
			if (!i && exit)
				continue;
			prog = exit ? skel->progs.lbrsnap_call_exit :
				      skel->progs.lbrsnap_call_entry;
			link = bpf_program__attach_uprobe_opts(prog, pid, t->upath, 0, &uo);
			if (!link) {
				ret = -errno;
				snprintf(err, err_len, "cannot attach --calls function %s of "
					 "%s: %s", c->calls.names[i], t->upath, strerror(-ret));
				return ret;
			}
			c->call_links[c->nr_call_links++] = link;
		}
	}
	return 0;
}

/* Whether target t can open a --calls scope (attach-kind.c's scope column) */
static bool has_scope(const struct attach_target *t)
{
	const struct attach_kind *k = attach_kind__get(t->kind);

	if (!k || !k->scope)
		return false;
	if (t->kind == LBRSNAP_KIND_URETPROBE)
		return t->upath;
	return t->kind != LBRSNAP_KIND_RAW_TP || !strcmp(t->name, "sys_exit");
}

/* Kernel scopes: the functions from BTF, the mechanism by probing the kernel */
static int resolve_kernel_calls(struct capture *c, const struct btf *btf,
				const struct attach_target *t, char *err, size_t err_len)
{
	const char *who = c->opts.who ?: "lbrsnap";
	char why[512];
	int ret;

	ret = call_funcs__resolve_kernel(&c->calls, btf,
					 t->kind == LBRSNAP_KIND_RAW_TP ? NULL : t->name,
					 c->opts.calls, err, err_len);
	if (ret)
		return ret == -E2BIG ? -EBADMSG : ret;
	if (c->calls.nr_refused && c->opts.verbose)
		pr_info("%s: calls: left out %zu function%s the globs matched: %s%s\n", who,
			c->calls.nr_refused, c->calls.nr_refused == 1 ? "" : "s", c->calls.refused,
			strlen(c->calls.refused) + 1 >= sizeof(c->calls.refused) ? "..." : "");
	c->calls_mech = call_mech__choose_kernel(c->opts.calls_via, why, sizeof(why));
	if (!c->calls_mech && c->opts.calls_via) {
		snprintf(err, err_len, "--calls-via %s: this kernel does not take it (%s)",
			 c->opts.calls_via, why);
		return -EOPNOTSUPP;
	}
	if (!c->calls_mech) {
		snprintf(err, err_len, "--calls '%s': this kernel takes none of the mechanisms "
			 "(%s)", c->opts.calls, why);
		return -EOPNOTSUPP;
	}
	if (c->opts.verbose)
		pr_info("%s: calls: mechanism %s, %zu functions and the scope's entry%s%s\n", who,
			c->calls_mech->name, c->calls.nr - 1, why[0] ? "; " : "", why);
	return 0;
}

/* The scope's attach point and its functions; --longer needs one */
static int resolve_calls(struct capture *c, const struct btf *btf, char *err, size_t err_len)
{
	const struct attach_target *t = NULL;
	size_t i, nr = 0;
	int ret;

	if (!c->opts.calls) {
		if (!c->opts.longer_ns && !c->opts.calls_via)
			return 0;
		snprintf(err, err_len, "%s: it needs --calls", c->opts.longer_ns ?
			 "--longer measures a scope" : "--calls-via says how --calls probes");
		return -EBADMSG;
	}
	for (i = 0; i < c->set.nr; i++) {
		if (c->set.v[i].spec_idx != c->opts.calls_event)
			continue;
		nr++;
		if (!t && has_scope(&c->set.v[i])) {
			t = &c->set.v[i];
			c->calls_ap = i;
		}
	}
	if (!t) {
		snprintf(err, err_len, "--calls '%s': the -e before it has no scope",
			 c->opts.calls);
		return -EBADMSG;
	}
	if (nr > 1) {
		snprintf(err, err_len, "--calls '%s': the -e before it names %zu functions; a "
			 "scope is one", c->opts.calls, nr);
		return -EBADMSG;
	}
	if (t->kind != LBRSNAP_KIND_URETPROBE)
		return resolve_kernel_calls(c, btf, t, err, err_len);
	if (c->opts.calls_via) {
		snprintf(err, err_len, "--calls-via %s: a user scope's functions are probed by "
			 "uprobes", c->opts.calls_via);
		return -EBADMSG;
	}
	ret = call_funcs__resolve(&c->calls, t->upath, t->ufunc, c->opts.calls, err, err_len);
	if (ret == -E2BIG)
		ret = -EBADMSG;
	return ret;
}

/*
 * Loads object obj, its ring buffer and the maps every object shares being the first
 * object's, and attaches its attach points.
 */
static int load_object(struct capture *c, size_t obj, char *err, size_t err_len)
{
	struct capture_bpf *skel = c->objs[obj];
	size_t i;
	int ret;

	/* one ring buffer and one follow map for all: the first object's */
	if (obj > 0 &&
	    (bpf_map__reuse_fd(skel->maps.events, c->events_fd) ||
	     bpf_map__reuse_fd(skel->maps.follow, c->follow_fd) ||
	     bpf_map__reuse_fd(skel->maps.calls, c->calls_fd))) {
		ret = -errno;
		snprintf(err, err_len, "cannot share the ring buffer: %s", strerror(-ret));
		return ret;
	}
	ret = capture_bpf__load(skel);
	if (ret) {
		explain_load_error(c, obj, ret, err, err_len);
		return ret;
	}
	say_loading(c, false);
	ret = set_funcs(c, obj, err, err_len);
	if (ret)
		return ret;
	for (i = 0; i < c->set.nr; i++) {
		struct ap_slot *s = &c->aps[i];
		const struct attach_target *t = &c->set.v[i];
		struct attach_req req = {
			.prog = s->prog, .t = t, .nr = 1, .first_func = s->func,
			.kprobe_single = c->kprobe_single, .pid = c->opts.pid, .tid = c->opts.tid,
			.watch = &s->watch, .refused = &c->kprobe_refused,
			/* the spec as typed: a glob's error names the glob */
			.spec = c->opts.events && t->spec_idx < c->opts.nr_events ?
				c->opts.events[t->spec_idx] : t->spec,
		};
		size_t k;

		if (s->obj != obj)
			continue;
		say_loading(c, false);
		/* the functions of a kprobe glob share their first one's program and link */
		if (s->leader != i)
			continue;
		while (i + req.nr < c->set.nr && c->aps[i + req.nr].leader == i)
			req.nr++;
		req.links = calloc(req.nr, sizeof(*req.links));
		if (!req.links)
			return -ENOMEM;
		ret = attach_kind__get(t->kind)->attach(&req, err, err_len);
		/* each function's link (one kprobe each), or the multi link, is its own */
		for (k = 0; k < req.nr; k++)
			c->aps[i + k].link = req.links[k];
		free(req.links);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * What the capture needs of the first object once it is closed: the maps every object
 * shares, their sizes, and the fork tracker's links (a link holds its program).
 */
static int keep_shared(struct capture *c, struct capture_bpf *skel, char *err, size_t err_len)
{
	int ret;

	c->events_fd = fcntl(bpf_map__fd(skel->maps.events), F_DUPFD_CLOEXEC, 0);
	c->follow_fd = fcntl(bpf_map__fd(skel->maps.follow), F_DUPFD_CLOEXEC, 0);
	c->calls_fd = fcntl(bpf_map__fd(skel->maps.calls), F_DUPFD_CLOEXEC, 0);
	if (c->events_fd < 0 || c->follow_fd < 0 || c->calls_fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "cannot keep the shared maps: %s", strerror(-ret));
		return ret;
	}
	c->bss_size = bpf_map__value_size(skel->maps.bss);
	c->bss_len = (c->bss_size + getpagesize() - 1) & ~((size_t)getpagesize() - 1);
	c->ring_bytes = bpf_map__max_entries(skel->maps.events);
	if (!c->opts.follow)
		return 0;
	c->follow_link = bpf_program__attach(skel->progs.lbrsnap_follow_fork);
	c->follow_exit_link = c->follow_link ?
		bpf_program__attach(skel->progs.lbrsnap_follow_exit) : NULL;
	if (!c->follow_exit_link) {
		ret = -errno;
		snprintf(err, err_len, "cannot attach the fork tracker "
			 "(tp_btf/sched_process_fork, sched_process_exit): %s", strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * Keeps what the capture reads of object obj once it is attached: its .bss (the counters
 * read at the end), mapped on its own, and its programs' fds (their recursion misses).
 * The object is then closed: libbpf holds, as long as an object is open, a copy of its
 * BTF.ext (8 MiB: line info of all its programs), its BTF and its loaded programs'
 * instructions, 10 MiB or more that nothing reads again. Its links keep its programs, and
 * the programs their maps; the first object's shared maps are kept by keep_shared(). The
 * first object stays with --calls (attach_calls() attaches its programs once every object is
 * loaded), and so does one with mem: attach points (attached again when the command starts,
 * capture__watch) or usdt: ones (libbpf's USDT links detach through their object's USDT
 * manager).
 */
static int keep_object(struct capture *c, size_t obj, char *err, size_t err_len)
{
	struct capture_bpf *skel = c->objs[obj];
	struct bpf_program *vp[VERDICT_LINKS];
	bool stays = false;
	size_t i, k;
	void *bss;
	int ret;

	if (obj == 0) {
		ret = keep_shared(c, skel, err, err_len);
		if (ret)
			return ret;
		/* --calls attaches the first object's programs once every object is loaded */
		stays = c->opts.calls;
	}

	/* each object remembers its rejections: its own programs forget what changed */
	vp[0] = skel->progs.lbrsnap_verdict_new;
	vp[1] = skel->progs.lbrsnap_verdict_exec;
	vp[2] = c->comm_remembered ? skel->progs.lbrsnap_verdict_rename : NULL;
	for (k = 0; c->first_remembered && k < VERDICT_LINKS; k++) {
		struct bpf_link *link;

		if (!vp[k])
			continue;
		link = bpf_program__attach(vp[k]);
		if (!link) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach the task tracker of filter-first "
				 "(%s): %s", bpf_program__section_name(vp[k]), strerror(-ret));
			return ret;
		}
		c->verdict_links[VERDICT_LINKS * obj + k] = link;
	}
	/* writable: the rejections' generation is bumped from here (capture__follow) */
	bss = mmap(NULL, c->bss_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		   bpf_map__fd(skel->maps.bss), 0);
	if (bss == MAP_FAILED) {
		ret = -errno;
		snprintf(err, err_len, "cannot map the counters of the BPF object: %s",
			 strerror(-ret));
		return ret;
	}
	c->bss[obj] = bss;
	for (i = 0; i < c->set.nr; i++) {
		struct ap_slot *s = &c->aps[i];

		if (s->obj != obj || s->leader != i)
			continue;
		s->prog_fd = fcntl(bpf_program__fd(s->prog), F_DUPFD_CLOEXEC, 0);
		if (s->prog_fd < 0) {
			ret = -errno;
			snprintf(err, err_len, "cannot keep the program of %s: %s",
				 c->set.v[i].spec, strerror(-ret));
			return ret;
		}
		stays |= lbr_kind__is(c->set.v[i].kind, LBR_KIND_WATCH) ||
			 lbr_kind__is(c->set.v[i].kind, LBR_KIND_SDT);
	}
	if (stays)
		return 0;
	for (i = 0; i < c->set.nr; i++) {
		if (c->aps[i].obj == obj)
			c->aps[i].prog = NULL;
	}
	capture_bpf__destroy(skel);
	c->objs[obj] = NULL;
	return 0;
}

/*
 * Every object in turn: opened, loaded, attached, and closed but for what is read later,
 * so that the peak holds one object's parse at a time. The pages each one freed are given
 * back before the next is opened: the first object stays loaded, and the next one's parse
 * would otherwise come on top of the heap it left (7 MiB more at the second object).
 */
static int load_and_attach(struct capture *c, char *err, size_t err_len)
{
	size_t i;
	int ret;

	place_attach_points(c);
	c->objs = calloc(c->nr_objs, sizeof(*c->objs));
	c->bss = calloc(c->nr_objs, sizeof(*c->bss));
	c->verdict_links = calloc(VERDICT_LINKS * c->nr_objs, sizeof(*c->verdict_links));
	if (!c->objs || !c->bss || !c->verdict_links)
		return -ENOMEM;
	for (i = 0; i < c->nr_objs; i++) {
		ret = open_object(c, i, err, err_len);
		if (!ret)
			ret = load_object(c, i, err, err_len);
		if (!ret)
			ret = keep_object(c, i, err, err_len);
		if (ret)
			return ret;
		malloc_trim(0);
	}
	if (c->opts.calls) {
		ret = attach_calls(c, err, err_len);
		if (ret)
			return ret;
	}
	/* the largest record a program stages */
	c->rec_buf = malloc(LBRSNAP_STAGE_SIZE);
	if (!c->rec_buf)
		return -ENOMEM;
	c->rb = ring_buffer__new(c->events_fd, handle_record, c, NULL);
	if (!c->rb) {
		ret = -errno;
		snprintf(err, err_len, "cannot open the ring buffer: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * Every fexit function holds a program and a link descriptor, every object its maps: 500
 * functions pass the usual soft limit of 1024 open files. Raise it to the hard limit, as
 * perf does; a lower hard limit shows as EMFILE naming the attach point.
 */
static void raise_nofile(void)
{
	struct rlimit r;

	if (!getrlimit(RLIMIT_NOFILE, &r) && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/* A slot per possible CPU, so that no two CPUs ever share one. */
static __u32 default_slots(void)
{
	int cpus = libbpf_num_possible_cpus();
	__u32 slots = 1;

	while (cpus > 0 && slots < (__u32)cpus && slots < LBRSNAP_MAX_SLOTS)
		slots <<= 1;
	return slots;
}

/*
 * The functions of a kprobe glob run one program, so one filter: the expression has to mean
 * the same for each (the same argument positions and types).
 */
static int same_filter(const struct capture *c, size_t i, const char *expr, char *err,
		       size_t err_len)
{
	const struct attach_target *t = &c->set.v[i], *prev = &c->set.v[i - 1];
	const struct arg_filter_prog *a, *b;

	if (!i || !attach_kind__is_multi(t->kind) || prev->kind != t->kind ||
	    prev->spec_idx != t->spec_idx)
		return 0;
	a = c->aps[i - 1].filter;
	b = c->aps[i].filter;
	if (a && b && !memcmp(a->insn, b->insn, sizeof(a->insn)) &&
	    !memcmp(a->str, b->str, sizeof(a->str)))
		return 0;
	snprintf(err, err_len, "--filter '%s' means different things for %s and %s (their "
		 "arguments or return types differ), but %s runs one program for all its "
		 "functions: narrow the glob", expr, prev->name, t->name,
		 c->opts.events[t->spec_idx]);
	return -EBADMSG;
}

/*
 * --filter of each spec, compiled for each of its targets (names differ between the
 * functions a glob matches). A bad one is -EBADMSG, before anything is loaded.
 */
static int compile_filters(struct capture *c, char *err, size_t err_len)
{
	const struct capture_opts *o = &c->opts;
	size_t i;
	int ret;

	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		const char *expr = o->filters && t->spec_idx < o->nr_events ?
				   o->filters[t->spec_idx] : NULL;

		if (!expr)
			continue;
		if (o->no_args) {
			snprintf(err, err_len, "--filter '%s' reads arguments: not with --no-args",
				 expr);
			return -EBADMSG;
		}
		c->aps[i].filter = calloc(1, sizeof(*c->aps[i].filter));
		if (!c->aps[i].filter)
			return -ENOMEM;
		ret = arg_filter__compile(expr, t, c->syscalls,
					  o->string_len ?: CAPTURE_DEFAULT_STRING_LEN,
					  &c->filter_names, c->aps[i].filter, err, err_len);
		if (ret)
			return -EBADMSG;
		ret = same_filter(c, i, expr, err, err_len);
		if (ret)
			return ret;
	}
	return 0;
}

/* Syscall names and argument types, for sys_enter and sys_exit attach points with arguments */
static int load_syscalls(struct capture *c, char *err, size_t err_len)
{
	size_t i;
	int ret;

	for (i = 0; i < c->set.nr; i++) {
		if (c->set.v[i].sys && c->set.v[i].nr_args)
			break;
	}
	if (i == c->set.nr)
		return 0;
	ret = syscall_table__load(&c->syscalls);
	if (ret)
		snprintf(err, err_len, "cannot read the syscall table: %s", strerror(-ret));
	return ret;
}

/* Watchpoints need debug registers, and user addresses a process to be watched in. */
static int check_watchpoints(struct capture *c, char *err, size_t err_len)
{
	const struct capture_opts *o = &c->opts;
	size_t i, nr = 0;

	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];

		if (!lbr_kind__is(t->kind, LBR_KIND_WATCH))
			continue;
		if (++nr > MEM_WATCH_MAX) {
			snprintf(err, err_len, "%s: more than %d watchpoints; x86 has %d hardware "
				 "debug registers", t->spec, MEM_WATCH_MAX, MEM_WATCH_MAX);
			return -ENOSPC;
		}
		if (t->mem_user && !o->pid && !o->tid && !o->workload) {
			snprintf(err, err_len, "%s is a user address: watch it in a process with "
				 "-p PID, -t TID or -- command", t->spec);
			return -EINVAL;
		}
	}
	/* a watchpoint that never fires would record nothing and look like no writes */
	return nr ? mem_watch__probe(err, err_len) : 0;
}

static bool has_user_probe(const struct attach_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++) {
		if (lbr_kind__is_user(set->v[i].kind))
			return true;
	}
	return false;
}

/* kprobe: and kretprobe: attach by name, each glob's names checked against kallsyms */
static bool has_multi(const struct attach_set *set)
{
	size_t i;

	for (i = 0; i < set->nr; i++) {
		if (attach_kind__is_multi(set->v[i].kind))
			return true;
	}
	return false;
}

/*
 * -p and -t name a live process and thread, whatever the attach points: a kernel one would
 * otherwise filter on a pid that never runs and capture nothing, silently. A command line's
 * error (-EBADMSG, exit status 2).
 */
static int check_task(const struct capture_opts *o, char *err, size_t err_len)
{
	char path[64], line[128];
	long tgid = -1;
	FILE *f;

	if (o->pid) {
		snprintf(path, sizeof(path), "/proc/%u/status", o->pid);
		f = fopen(path, "re");
		if (!f) {
			snprintf(err, err_len, "no process %u (--pid)", o->pid);
			return -EBADMSG;
		}
		while (fgets(line, sizeof(line), f) && sscanf(line, "Tgid: %ld", &tgid) != 1)
			;
		fclose(f);
		if (tgid != (long)o->pid) {
			snprintf(err, err_len, "%u is a thread of process %ld: --pid takes a "
				 "process (--tid a thread)", o->pid, tgid);
			return -EBADMSG;
		}
	}
	if (o->tid) {
		snprintf(path, sizeof(path), "/proc/%u/stat", o->tid);
		if (access(path, F_OK)) {
			snprintf(err, err_len, "no thread %u (--tid)", o->tid);
			return -EBADMSG;
		}
	}
	return 0;
}

/*
 * --max-size covers the whole file: the closing sections are kept room for, mostly the copy
 * of /proc/kallsyms, measured now with an eighth more for what loads meanwhile, and 64 KiB
 * for the counts, losses and maps. A limit leaving no room for records is refused.
 */
static int max_size_reserve(struct capture *c, char *err, size_t err_len)
{
	const char *text;
	size_t len = 0;

	if (!c->opts.max_size)
		return 0;
	if (ksyms__live_text(&text, &len))
		len = 0;
	c->max_reserve = len + len / 8 + (64 << 10);
	if (c->max_reserve + (64 << 10) <= c->opts.max_size)
		return 0;
	snprintf(err, err_len, "--max-size %llu leaves no room for records: the closing "
		 "sections take up to %llu bytes here (a copy of /proc/kallsyms, the counts); "
		 "give %llu or more", (unsigned long long)c->opts.max_size,
		 (unsigned long long)c->max_reserve,
		 (unsigned long long)c->max_reserve + (64 << 10));
	return -EBADMSG;
}

/*
 * Per kind present, the losses this kernel does not count, so that the hits are read for
 * what they are: said once with -v, among the closing lines (capture_stats__print), and
 * kept in the file (META uncounted) for lbrsnap report. A link's `missed` is tried on the
 * links themselves.
 */
static void say_uncounted(struct capture *c)
{
	bool probe = false, uret = false;
	size_t i, len = 0, size = sizeof(c->uncounted);
	__u64 missed;

	for (i = 0; i < c->set.nr; i++) {
		enum lbrsnap_kind kind = c->set.v[i].kind;

		if (attach_kind__is_multi(kind) && c->aps[i].link &&
		    kprobe_multi__missed(&c->missed_at, c->aps[i].link, &missed))
			probe = true;
		if (lbr_kind__is_user(kind) && lbr_kind__is_return(kind))
			uret = true;
	}
	if (probe)
		len += snprintf(c->uncounted + len, size - len, "kprobe, kretprobe: hits the "
				"kernel let pass without running the program (kretprobe "
				"instances or the fprobe return pool exhausted, a probe inside a "
				"probe's handler): link info reports them from Linux 6.7%s",
				c->kprobe_single ? ", for kprobes attached by BPF link" : "");
	if (uret && len < size)
		len += snprintf(c->uncounted + len, size - len, "%suretprobe: returns of calls "
				"nested more than 64 deep in a task's uretprobes: the kernel skips "
				"them and counts them nowhere", len ? "; " : "");
}

size_t capture__kprobe_ambiguous(const struct capture *c, const char **example)
{
	*example = c->kprobe_refused.dup_example;
	return c->kprobe_refused.nr_dup;
}

int capture__open(const struct capture_opts *opts, struct capture **out, char *err,
		  size_t err_len)
{
	static const char *const default_events[] = { CAPTURE_DEFAULT_EVENT };
	const char *const *events = opts->events;
	size_t nr_events = opts->nr_events;
	enum filter_first_order order;
	struct btf *btf = NULL;
	struct capture *c;
	size_t i;
	int ret;

	*out = NULL;
	err[0] = 0;
	verbosity = opts->verbose;
	libbpf_set_print(libbpf_print);
	if (opts->slots && (opts->slots > LBRSNAP_MAX_SLOTS ||
			    (opts->slots & (opts->slots - 1)))) {
		snprintf(err, err_len, "slots must be a power of two from 1 to %d",
			 LBRSNAP_MAX_SLOTS);
		return -EINVAL;
	}
	ret = check_task(opts, err, err_len);
	if (ret)
		return ret;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->events_fd = c->follow_fd = c->calls_fd = -1;
	c->opts = *opts;
	c->open_ns = mono_ns();
	c->slots = opts->slots ?: default_slots();
	ret = max_size_reserve(c, err, err_len);
	if (ret)
		goto cleanup;
	if (!nr_events) {
		events = default_events;
		nr_events = 1;
	}
	ret = branch_filter__parse(opts->branch_filter ?: "any,k", &c->branch_filter, err,
				   err_len);
	if (ret)
		goto cleanup;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		ret = -errno;
		snprintf(err, err_len, "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): "
			 "%s; lbrsnap needs CONFIG_DEBUG_INFO_BTF", strerror(-ret));
		goto cleanup;
	}
	ret = attach_set__expand(&c->set, events, nr_events, btf, !opts->no_args, err, err_len);
	if (ret)
		goto cleanup;
	kprobe_multi__missed_at(btf, &c->missed_at);
	for (i = 0; i < c->set.nr; i++) {
		if (!attach_kind__is_multi(c->set.v[i].kind))
			continue;
		c->kprobe_single = kprobe_multi__single(c->kprobe_why, sizeof(c->kprobe_why));
		if (opts->verbose)
			pr_info("%s: kprobe:, kretprobe: %s\n", opts->who ?: "lbrsnap",
				c->kprobe_why);
		break;
	}
	c->str_size = lbrsnap_str_size(opts->string_len ?: CAPTURE_DEFAULT_STRING_LEN);
	ret = load_syscalls(c, err, err_len);
	if (ret)
		goto cleanup;
	c->aps = calloc(c->set.nr, sizeof(*c->aps));
	if (!c->aps) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < c->set.nr; i++)
		c->aps[i].prog_fd = -1;
	ret = compile_filters(c, err, err_len);
	if (ret)
		goto cleanup;
	ret = check_watchpoints(c, err, err_len);
	if (ret)
		goto cleanup;
	ret = resolve_calls(c, btf, err, err_len);
	/* each object's load parses the kernel's BTF again: ours would double the peak */
	btf__free(btf);
	btf = NULL;
	/* kallsyms as read at start-up: kept while loading only for what attaches by name */
	if (!has_multi(&c->set))
		ksyms__live_drop();
	if (ret)
		goto cleanup;
	say_loading(c, true);
	switch (opts->lbr_mode) {
	case CAPTURE_LBR_OFF:
		snprintf(c->lbr_why, sizeof(c->lbr_why), "turned off (--lbr=off)");
		break;
	case CAPTURE_LBR_EXTERNAL:
		c->lbr_on = true;
		break;
	default:
		c->lbr_on = !lbr_enable__open(c->branch_filter, &c->lbr, c->lbr_why,
					      sizeof(c->lbr_why));
		break;
	}
	order = filter_first__choose(c->branch_filter, c->lbr_on, !!c->opts.calls,
				     opts->pid || opts->tid || opts->follow, !!opts->comm,
				     c->order, sizeof(c->order));
	c->filter_first = order == FILTER_FIRST__TASK || order == FILTER_FIRST__TASK_REMEMBERED;
	c->first_remembered = order == FILTER_FIRST__REMEMBERED ||
			      order == FILTER_FIRST__TASK_REMEMBERED;
	/* where the task's ids are checked first, so is its comm: nothing to remember */
	c->comm_remembered = order == FILTER_FIRST__REMEMBERED && opts->comm;
	if (opts->verbose)
		pr_info("%s: %s\n", opts->who ?: "lbrsnap", c->order);
	raise_nofile();
	/*
	 * At a user probe the kernel stack is empty: without LBR, the user stack is what tells
	 * the path there, so it is taken as the kernel stack is at kernel attach points.
	 */
	if (!c->lbr_on && !c->opts.user_stack && has_user_probe(&c->set))
		c->opts.user_stack = c->user_stack_auto = true;
	if (c->opts.user_stack) {
		ret = proc_maps__new(&c->maps);
		if (ret)
			goto cleanup;
	}
	ret = load_and_attach(c, err, err_len);
	if (!ret)
		say_uncounted(c);
cleanup:
	btf__free(btf);
	ksyms__live_drop();
	if (ret) {
		capture__close(c);
		return ret;
	}
	*out = c;
	return 0;
}

int capture__watch(struct capture *c, pid_t pid, char *err, size_t err_len)
{
	size_t i;
	int ret;

	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];

		if (!lbr_kind__is(t->kind, LBR_KIND_WATCH) || !t->mem_user || c->aps[i].watch.nr)
			continue;
		ret = mem_watch__attach_task(&c->aps[i].watch, c->aps[i].prog, t, pid, 0, true,
					     err, err_len);
		if (ret)
			return ret;
	}
	return 0;
}

int capture__follow(struct capture *c, __u32 pid)
{
	__u8 one = 1;
	size_t i;

	if (bpf_map_update_elem(c->follow_fd, &pid, &one, BPF_ANY))
		return -errno;
	/* after the update: a rejection decided before it must not outlive it (capture.h) */
	for (i = 0; c->first_remembered && i < c->nr_objs; i++)
		__atomic_fetch_add(&c->bss[i]->verdicts.gen, 1, __ATOMIC_SEQ_CST);
	return 0;
}

bool capture__has_lbr(const struct capture *c)
{
	return c->lbr_on;
}

size_t capture__kprobe_refused(const struct capture *c, const char **example)
{
	*example = c->kprobe_refused.example;
	return c->kprobe_refused.nr;
}

bool capture__user_stack_auto(const struct capture *c)
{
	return c->user_stack_auto;
}

const char *capture__lbr_why(const struct capture *c)
{
	return c->lbr_on ? NULL : c->lbr_why;
}

size_t capture__nr_attach(const struct capture *c)
{
	return c->set.nr;
}

const char *capture__attach_spec(const struct capture *c, size_t i)
{
	return i < c->set.nr ? c->set.v[i].spec : NULL;
}

size_t capture__attach_owner(const struct capture *c, size_t i)
{
	return i < c->set.nr ? c->aps[i].leader : i;
}

__u32 capture__slots(const struct capture *c)
{
	return c->slots;
}

__u64 capture__attach_bytes(const struct capture *c)
{
	/* its slots: branch buffers and the cache line of tickets and counters of each */
	return c->slots * (sizeof(c->bss[0]->snap[0]) + sizeof(c->bss[0]->ctl[0]));
}

__u64 capture__total_bytes(const struct capture *c)
{
	/* every object's whole .bss is allocated, used or not, plus the one ring buffer */
	return c->nr_objs * c->bss_size + c->ring_bytes;
}

static const char *mode_name(const struct capture *c)
{
	if (!c->lbr_on)
		return "stack";
	return c->opts.stack ? "lbr+stack" : "lbr";
}

int capture__write_header(struct capture *c, struct lbrfile_writer *w)
{
	struct timespec mono, real;
	struct utsname u;
	char host[256] = "";
	size_t i;
	int ret = 0;

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	ret |= lbrfile_writer__meta(w, "clock", "mono");
	ret |= lbrfile_writer__meta(w, "hostname", "%s", host);
	ret |= lbrfile_writer__meta(w, "release", "%s", u.release);
	ret |= lbrfile_writer__meta(w, "machine", "%s", u.machine);
	ret |= lbrfile_writer__meta(w, "nr_cpus", "%d", libbpf_num_possible_cpus());
	ret |= lbrfile_writer__meta(w, "mode", "%s", mode_name(c));
	ret |= lbrfile_writer__meta(w, "lbr", "%s", c->lbr ? "available" :
				    c->lbr_on ? "external (enabled by another tool)" : c->lbr_why);
	ret |= lbrfile_writer__meta(w, "branch_filter", "%s",
				    c->opts.branch_filter ?: "any,k");
	ret |= lbrfile_writer__meta(w, "time_ref", "%llu %llu",
				    (unsigned long long)mono.tv_sec * 1000000000ULL + mono.tv_nsec,
				    (unsigned long long)real.tv_sec * 1000000000ULL + real.tv_nsec);
	ret |= lbrfile_writer__meta(w, "slots", "%u", c->slots);
	/* the same for every attach point: one rodata for all the objects */
	ret |= lbrfile_writer__meta(w, "order", "%s", c->order);
	ret |= lbrfile_writer__meta(w, "user_stack", "%s", c->opts.user_stack ? "yes" : "no");
	if (c->uncounted[0])
		ret |= lbrfile_writer__meta(w, "uncounted", "%s", c->uncounted);
	if (c->opts.calls) {
		char key[32], *list = call_funcs__list(&c->calls), why[256];
		int fg;

		/* the call trace's function ids name these, the scope's own first */
		snprintf(key, sizeof(key), "calls.%zu", c->calls_ap);
		ret |= list ? lbrfile_writer__meta(w, key, "%s", list) : -ENOMEM;
		ret |= lbrfile_writer__meta(w, "calls_mechanism", "%s",
					    c->calls_mech ? c->calls_mech->name : "uprobe");
		ret |= lbrfile_writer__meta(w, "calls_bounds", "depth=%d calls=%d tasks=%d",
					    LBRSNAP_CALLS_DEPTH, LBRSNAP_MAX_CALLS,
					    LBRSNAP_CALLS_TASKS);
		free(list);
		/* trace.dat writes the calls in this kernel's funcgraph layout */
		fg = ret ? 0 : tracedat_fgraph__save_meta(w, why, sizeof(why));
		if (fg == -ENOENT)
			pr_warn("%s: %s: trace.dat will show the calls in the built-in Linux 6.1 "
				"layout\n", c->opts.who, why);
		else
			ret |= fg;
	}
	if (ret)
		return -ENOMEM;
	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		struct lbr_attach_point ap = {
			.id = i,
			.kind = t->kind,
			.flags = t->has_ret ? LBRFILE_AP_HAS_RET : 0,
			.ret_kind = t->ret_kind,
			.ret_size = t->ret_size,
			/* the functions of a kprobe glob share its first one's slots */
			.mem_bytes = c->aps[i].leader == i ? capture__attach_bytes(c) : 0,
			.spec = t->spec,
			.target = t->name,
			.ret_type = t->ret_type,
			.sys = t->nr_args ? t->sys : 0,
			.nr_args = t->nr_args,
		};
		__u32 j;

		for (j = 0; j < t->nr_args; j++) {
			ap.args[j].name = t->args[j].name;
			ap.args[j].type = t->args[j].type;
			ap.args[j].enums = t->args[j].enums;
			ap.args[j].kind = t->args[j].kind;
			ap.args[j].size = t->args[j].size;
		}
		ret = lbrfile_writer__attach(w, &ap);
		if (ret)
			return ret;
	}
	for (i = 0; c->syscalls && i < LBRSNAP_NR_SYSCALLS; i++) {
		const struct lbr_syscall *sc = syscall_table__get(c->syscalls, i);

		ret = sc ? lbrfile_writer__syscall(w, sc) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

int capture__poll(struct capture *c, struct lbrfile_writer *w, int timeout_ms)
{
	__u64 before = c->records;
	struct epoll_event ev;
	int ret;

	/*
	 * Records are submitted without a wake-up until a quarter of the buffer waits, so the
	 * wait may time out with records ready: consume them either way.
	 */
	if (timeout_ms && epoll_wait(ring_buffer__epoll_fd(c->rb), &ev, 1, timeout_ms) < 0 &&
	    errno != EINTR)
		return -errno;
	c->sink = w;
	c->sink_err = 0;
	c->batch_left = BATCH_RECORDS;
	c->batch_end_ns = now_ns() + BATCH_NS;
	ret = ring_buffer__consume(c->rb);
	if (c->sink_err)
		return c->sink_err;
	if (ret < 0 && !(ret == -EAGAIN && !c->batch_left))
		return ret;
	return c->records - before;
}

static double now_s(void)
{
	return now_ns() / 1e9;
}

int capture__trace_exit(struct capture *c, pid_t pid)
{
	if (!c->maps)
		return 0;
	/* before the command runs: it is blocked in workload__prepare()'s pipe */
	if (ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACEEXIT))
		return -errno;
	return 0;
}

static bool stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/*
 * A stop of the command traced by capture__trace_exit(). At its exit its memory is still
 * there: read its maps, which now hold every library it loaded, and let it go. A group-stop
 * (SIGSTOP, SIGTSTP...) stays a stop: PTRACE_LISTEN leaves it stopped until a SIGCONT, as
 * without lbrsnap. Any other stop (a signal) is passed on as it came.
 */
static int capture__traced_stop(struct capture *c, struct lbrfile_writer *w, pid_t pid,
				int status)
{
	int sig = WSTOPSIG(status), event = status >> 16, ret = 0;

	if (sig == SIGTRAP && event == PTRACE_EVENT_EXIT) {
		ret = proc_maps__reread(c->maps, pid, w);
		ptrace(PTRACE_DETACH, pid, 0, 0);
		return ret;
	}
	if (event == PTRACE_EVENT_STOP) {
		if (stop_signal(sig))
			ptrace(PTRACE_LISTEN, pid, 0, 0);
		else
			ptrace(PTRACE_CONT, pid, 0, 0);
		return 0;
	}
	ptrace(PTRACE_CONT, pid, 0, sig);
	return 0;
}

/* Reaps what the child reported; 1 when it exited (run->status), 0, or a negative errno. */
static int capture__reap(struct capture *c, struct lbrfile_writer *w, struct capture_run *run)
{
	int ret;

	while (waitpid(run->child, &run->status, WNOHANG) == run->child) {
		if (!WIFSTOPPED(run->status)) {
			run->exited = true;
			return 1;
		}
		ret = capture__traced_stop(c, w, run->child, run->status);
		if (ret < 0)
			return ret;
	}
	return 0;
}

struct run_waiter {
	int epfd;		/* the ring buffer's epoll set and sigfd */
	int sigfd;		/* SIGCHLD, blocked, read here: the child's stops and exit */
	sigset_t old;		/* the mask before, restored after */
	sigset_t run_mask;	/* while consuming: SIGINT, SIGTERM, SIGCHLD blocked */
	sigset_t wait_mask;	/* while waiting: SIGINT/SIGTERM handlers may run */
};

/*
 * SIGINT, SIGTERM and SIGCHLD are blocked but while waiting (epoll_pwait), so a stop request
 * either comes before the wait and is seen after the batch, or interrupts the wait: never
 * lost in between. SIGCHLD stays blocked and wakes the wait through its signalfd.
 */
static int run_waiter__init(struct run_waiter *rw, struct capture *c)
{
	struct epoll_event ev = { .events = EPOLLIN };
	sigset_t block;
	int ret;

	rw->epfd = rw->sigfd = -1;
	sigprocmask(SIG_BLOCK, NULL, &rw->old);
	rw->run_mask = rw->old;
	sigaddset(&rw->run_mask, SIGCHLD);
	sigaddset(&rw->run_mask, SIGINT);
	sigaddset(&rw->run_mask, SIGTERM);
	if (sigprocmask(SIG_SETMASK, &rw->run_mask, NULL))
		return -errno;
	rw->wait_mask = rw->old;
	sigaddset(&rw->wait_mask, SIGCHLD);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	rw->sigfd = signalfd(-1, &block, SFD_NONBLOCK | SFD_CLOEXEC);
	rw->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (rw->sigfd < 0 || rw->epfd < 0)
		return -errno;
	ev.data.fd = rw->sigfd;
	if (epoll_ctl(rw->epfd, EPOLL_CTL_ADD, rw->sigfd, &ev))
		return -errno;
	ev.data.fd = ring_buffer__epoll_fd(c->rb);
	ret = epoll_ctl(rw->epfd, EPOLL_CTL_ADD, ev.data.fd, &ev);
	return ret ? -errno : 0;
}

static void run_waiter__close(struct run_waiter *rw)
{
	if (rw->epfd >= 0)
		close(rw->epfd);
	if (rw->sigfd >= 0)
		close(rw->sigfd);
	sigprocmask(SIG_SETMASK, &rw->old, NULL);
}

static int run_waiter__wait(struct run_waiter *rw, int timeout_ms)
{
	struct signalfd_siginfo si;
	struct epoll_event ev[2];

	if (epoll_pwait(rw->epfd, ev, 2, timeout_ms, &rw->wait_mask) < 0 && errno != EINTR)
		return -errno;
	/*
	 * A wait that found records ready returns with the signals still pending (only an
	 * interrupted wait runs their handlers): let them in, so that a stop is seen under any
	 * rate of records.
	 */
	sigprocmask(SIG_SETMASK, &rw->wait_mask, NULL);
	sigprocmask(SIG_SETMASK, &rw->run_mask, NULL);
	/* SIGCHLDs coalesce: the caller reaps until waitpid() has nothing more */
	while (read(rw->sigfd, &si, sizeof(si)) == sizeof(si))
		;
	return 0;
}

int capture__run(struct capture *c, struct lbrfile_writer *w, struct capture_run *run)
{
	double start = now_s(), checked = start, left;
	struct run_waiter rw;
	int n, wait_ms = 0;

	n = run_waiter__init(&rw, c);
	for (; n >= 0; ) {
		n = run_waiter__wait(&rw, wait_ms);
		if (n < 0)
			break;
		if (run->child > 0) {
			n = capture__reap(c, w, run);
			if (n)
				break;
		}
		n = capture__poll(c, w, 0);
		if (n < 0)
			break;
		/* a full batch: more is waiting, come back without sleeping */
		wait_ms = c->batch_left ? RUN_TICK_MS : 0;
		/* LBR kept on: check the events every 100 ms */
		if (now_s() - checked >= RUN_TICK_MS / 1000.0) {
			checked = now_s();
			n = lbr_enable__check(c->lbr);
			if (n < 0)
				break;
		}
		n = 0;
		if (c->full)
			break;
		if (run->stop && *run->stop) {
			if (!run->forward_stop || run->child <= 0)
				break;
			kill(run->child, SIGTERM);
			*run->stop = 0;
		}
		if (run->duration_s) {
			left = start + run->duration_s - now_s();
			if (left <= 0)
				break;
			if (wait_ms > left * 1000)
				wait_ms = left * 1000 + 1;
		}
	}
	run_waiter__close(&rw);
	return n < 0 ? n : 0;
}

__u64 capture_stats__lost(const struct capture_stats *st)
{
	__u64 n = 0;
	int c;

	for (c = 0; c < LBRSNAP_LOSS__MAX; c++)
		n += lbrsnap_loss__drops_record(c) ? st->lost[c] : 0;
	return n;
}

/* --calls: every scope entered ended, died inside or was still open; every call kept or counted */
static void calls_stats_print(const struct capture_stats *st, const char *who, FILE *out)
{
	const struct lbrsnap_calls_stats *cs = &st->calls_stats;

	fprintf(out, "[ %s: calls: %llu scopes: %llu ended, %llu died inside, %llu still open ]\n",
		who, (unsigned long long)cs->scopes, (unsigned long long)cs->ended,
		(unsigned long long)cs->died, (unsigned long long)st->calls_open);
	if (cs->dropped)
		fprintf(out, "[ %s: calls: LOST %llu calls: deeper than %d or past %d in a "
			"scope ]\n", who, (unsigned long long)cs->dropped, LBRSNAP_CALLS_DEPTH,
			LBRSNAP_MAX_CALLS);
	if (cs->no_room)
		fprintf(out, "[ %s: calls: LOST %llu scopes untraced: their task's slot (tid "
			"modulo %d) held by another task inside a scope ]\n", who,
			(unsigned long long)cs->no_room, LBRSNAP_CALLS_TASKS);
	if (cs->mismatched)
		fprintf(out, "[ %s: calls: %llu returns matched no open call (an entry lost) ]\n",
			who, (unsigned long long)cs->mismatched);
}

void capture_stats__print(const struct capture_stats *st, const char *who, FILE *out)
{
	static const char *const cause[LBRSNAP_LOSS__MAX] = {
		[LBRSNAP_LOSS_RINGBUF] = "ring buffer full",
		[LBRSNAP_LOSS_CLOBBERED] = "snapshot slot reused (records kept, branches dropped)",
		[LBRSNAP_LOSS_RECURSION] = "skipped by the kernel (recursion)",
		[LBRSNAP_LOSS_UNREAD] = ("submitted by the programs but never read or not "
					 "written (--max-size)"),
		[LBRSNAP_LOSS_NESTED] = "more than 4 programs in progress on one CPU",
		[LBRSNAP_LOSS_PROBE_MISSED] = ("skipped by the kernel's kprobe or fprobe (its "
					       "missed count: kretprobe instances or the return "
					       "pool exhausted, a probe inside a probe)"),
		[LBRSNAP_LOSS_PERF_SKIPPED] = ("breakpoint hits the perf events counted whose "
					       "program the kernel did not run"),
	};
	int i;

	fprintf(out, "[ %s: %llu hook hits: %llu recorded, %llu filtered, %llu sampled out, "
		"%llu lost ]\n", who, (unsigned long long)st->hits,
		(unsigned long long)st->records, (unsigned long long)st->filtered,
		(unsigned long long)st->sampled_out,
		(unsigned long long)capture_stats__lost(st));
	for (i = 0; i < LBRSNAP_LOSS__MAX; i++) {
		if (st->lost[i])
			fprintf(out, "[ %s: LOST %llu: %s ]\n", who,
				(unsigned long long)st->lost[i], cause[i]);
	}
	if (st->filtered_self)
		fprintf(out, "[ %s: %llu of the filtered hits were lbrsnap's own process, never "
			"traced ]\n", who, (unsigned long long)st->filtered_self);
	if (st->filtered_remembered)
		fprintf(out, "[ %s: %llu of the filtered hits were rejected before the snapshot, "
			"their task's rejection remembered ]\n", who,
			(unsigned long long)st->filtered_remembered);
	if (st->filtered_ia32)
		fprintf(out, "[ %s: %llu of the filtered hits were ia32 syscalls (int $0x80, "
			"32-bit tasks), not recorded: x86-64 names and types do not fit them ]\n", who,
			(unsigned long long)st->filtered_ia32);
	if (st->max_size_hit)
		fprintf(out, "[ %s: stopped at --max-size: records past it are counted lost, not "
			"written ]\n", who);
	if (st->in_flight)
		fprintf(out, "[ %s: WARNING: %llu invocations were still running when counted; "
			"the counts may not add up ]\n", who, (unsigned long long)st->in_flight);
	if (st->uncounted[0])
		fprintf(out, "[ %s: not counted on this kernel, so not in the hits: %s ]\n", who,
			st->uncounted);
	if (st->follow_overflow)
		fprintf(out, "[ %s: LOST %llu processes of the command not followed: more than "
			"--follow-max at once ]\n", who,
			(unsigned long long)st->follow_overflow);
	if (st->ustack_errs)
		fprintf(out, "[ %s: %llu records without a user stack: bpf_get_stack() failed ]\n",
			who, (unsigned long long)st->ustack_errs);
	if (st->procs_gone)
		fprintf(out, "[ %s: %llu of %llu processes exited before their maps could be read: "
			"their user addresses stay unnamed ]\n", who,
			(unsigned long long)st->procs_gone, (unsigned long long)st->procs);
	if (st->calls)
		calls_stats_print(st, who, out);
}

/* Sums an attach point's slots: tickets taken and completed, and its counters. */
static void sum_slots(const struct capture *c, const struct ap_slot *s,
		      struct lbrsnap_slot_ctl *sum)
{
	const struct lbrsnap_slot_ctl *sc = &c->bss[s->obj]->ctl[s->slot_base];
	__u64 sampled, emitted, lost_rb, lost_nested, done;
	__u32 i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < c->slots; i++, sc++) {
		/* a ticket's end is counted before its done: read the ends first */
		sampled = __atomic_load_n(&sc->sampled_out, __ATOMIC_ACQUIRE);
		emitted = __atomic_load_n(&sc->emitted, __ATOMIC_ACQUIRE);
		lost_rb = __atomic_load_n(&sc->lost_ringbuf, __ATOMIC_ACQUIRE);
		lost_nested = __atomic_load_n(&sc->lost_nested, __ATOMIC_ACQUIRE);
		/* done first: a ticket completed after this read only makes next larger */
		done = __atomic_load_n(&sc->done, __ATOMIC_ACQUIRE);
		sum->done += done;
		sum->next += __atomic_load_n(&sc->next, __ATOMIC_ACQUIRE);
		/* a ticket rejected after its snapshot adds to done alone (capture.h) */
		done -= sampled + emitted + lost_rb + lost_nested;
		sum->filtered += sc->filtered + ((__s64)done > 0 ? done : 0);
		sum->sampled_out += sampled;
		sum->emitted += emitted;
		sum->lost_ringbuf += lost_rb;
		sum->clobbered += sc->clobbered;
		sum->lost_nested += lost_nested;
	}
}

/* Invocations that took a ticket and have not completed it. */
static __u64 in_flight(const struct capture *c)
{
	struct lbrsnap_slot_ctl sum;
	__u64 n = 0;
	size_t i;

	for (i = 0; i < c->set.nr; i++) {
		if (c->aps[i].leader != i)
			continue;
		sum_slots(c, &c->aps[i], &sum);
		n += sum.next - sum.done;
	}
	return n;
}

/*
 * Detaches every attach point and waits until no invocation is running. A tracepoint or a
 * trampoline may still call a program for an RCU grace period after its link is gone;
 * MEMBARRIER_CMD_GLOBAL waits for one (synchronize_rcu()). The tickets then confirm it.
 */
static __u64 capture__stop(struct capture *c)
{
	__u64 left;
	size_t i;
	int tries;

	/* the call probes first: a scope that opens now would stay open */
	for (i = c->nr_call_links; i-- > 0;) {
		bpf_link__destroy(c->call_links[i]);
		c->call_links[i] = NULL;
	}
	for (i = 0; i < c->set.nr; i++) {
		struct ap_slot *s = &c->aps[i];

		/*
		 * The kernel's counts, read as each link goes: a breakpoint is disabled before
		 * its count is read, a kprobe's `missed` may miss hits of the last instant.
		 */
		s->missed_err = s->link ? kprobe_multi__missed(&c->missed_at, s->link,
							       &s->missed) : -ENOENT;
		s->mem_err = s->watch.nr ? mem_watch__stop_count(&s->watch, &s->mem_hits) :
					   -ENOENT;
		bpf_link__destroy(s->link);
		s->link = NULL;
		mem_watch__detach(&s->watch);
	}
	syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
	for (tries = 0; (left = in_flight(c)) && tries < 1000; tries++)
		usleep(1000);
	return left;
}

int capture__finish(struct capture *c, struct lbrfile_writer *w, struct capture_stats *st)
{
	struct ksyms *ks = NULL;
	char *ksyms = NULL;
	size_t i, len = 0;
	int ret;

	memset(st, 0, sizeof(*st));
	/*
	 * kallsyms before the detach: a fexit trampoline's [bpf] symbol goes with its last link,
	 * one RCU-tasks grace period later, which may end before a copy taken after the drain
	 * (the frames it names would lose their name). Without a copy (unreadable, addresses
	 * hidden) the records are still worth keeping: the caller says so, and `lbrsnap report
	 * --kallsyms` can name them later.
	 */
	st->kallsyms_err = ksyms__read("/proc/kallsyms", &ksyms, &len);
	if (!st->kallsyms_err) {
		st->kallsyms_err = ksyms__parse_borrowed(ksyms, len, &ks);
		ksyms__free(ks);
	}
	st->in_flight = capture__stop(c);
	/* everything the programs submitted is in the ring buffer now */
	do {
		ret = capture__poll(c, w, 0);
	} while (ret > 0);
	if (ret < 0)
		goto cleanup;
	/* LBR kept on: a last check after the detach covers every record; then the gaps */
	ret = lbr_enable__check(c->lbr);
	if (ret >= 0)
		ret = lbr_enable__write_gaps(c->lbr, w);
	if (ret < 0)
		goto cleanup;
	st->lbr_gaps = ret;
	for (i = 0; i < c->set.nr; i++) {
		const struct ap_slot *s = &c->aps[i];
		struct bpf_prog_info info = {};
		__u32 info_len = sizeof(info);
		__u64 lost[LBRSNAP_LOSS__MAX] = {};
		struct lbrsnap_slot_ctl sum;
		__u64 records = 0, runs, remembered;
		size_t j;
		int cause;

		/* a kprobe glob's counters are its first function's (capture.h) */
		if (s->leader != i)
			continue;
		for (j = i; j < c->set.nr && c->aps[j].leader == i; j++)
			records += c->aps[j].records;
		sum_slots(c, s, &sum);
		/* rejected before the snapshot by a remembered verdict: no ticket either */
		remembered = c->bss[s->obj]->remembered_ctl[s->idx].hits;
		sum.filtered += remembered;
		st->filtered_remembered += remembered;
		lost[LBRSNAP_LOSS_RINGBUF] = sum.lost_ringbuf;
		lost[LBRSNAP_LOSS_CLOBBERED] = sum.clobbered;
		lost[LBRSNAP_LOSS_NESTED] = sum.lost_nested;
		if (!bpf_obj_get_info_by_fd(s->prog_fd, &info, &info_len))
			lost[LBRSNAP_LOSS_RECURSION] = info.recursion_misses;
		/* every function's link of a glob (one kprobe each), or its one multi link */
		for (j = i; attach_kind__is_multi(c->set.v[i].kind) && j < c->set.nr &&
			    c->aps[j].leader == i; j++) {
			if (!c->aps[j].missed_err)
				lost[LBRSNAP_LOSS_PROBE_MISSED] += c->aps[j].missed;
		}
		/*
		 * Filter-first rejects without a ticket, counted as filtered only: a ticket ends
		 * in one counter each, so what the counters hold beyond the tickets ran without.
		 */
		runs = sum.filtered + sum.sampled_out + sum.emitted + sum.lost_ringbuf +
		       sum.lost_nested;
		if (runs < sum.next)
			runs = sum.next;
		/* a breakpoint hit either ran the program or was skipped */
		if (!s->mem_err && s->mem_hits > runs)
			lost[LBRSNAP_LOSS_PERF_SKIPPED] = s->mem_hits - runs;
		/* submitted but never seen here: should not happen, and is said if it does */
		if (sum.emitted > records)
			lost[LBRSNAP_LOSS_UNREAD] = sum.emitted - records;
		st->hits += runs + lost[LBRSNAP_LOSS_RECURSION] +
			    lost[LBRSNAP_LOSS_PROBE_MISSED] + lost[LBRSNAP_LOSS_PERF_SKIPPED];
		st->filtered += sum.filtered;
		st->filtered_self += c->bss[s->obj]->self_ctl[s->idx].hits;
		st->filtered_ia32 += c->bss[s->obj]->ia32_ctl[s->idx].hits;
		st->sampled_out += sum.sampled_out;
		st->emitted += sum.emitted;
		for (cause = 0; cause < LBRSNAP_LOSS__MAX; cause++) {
			st->lost[cause] += lost[cause];
			if (!lost[cause])
				continue;
			ret = lbrfile_writer__loss(w, i, cause, lost[cause]);
			if (ret)
				goto cleanup;
		}
	}
	st->records = c->records;
	snprintf(st->uncounted, sizeof(st->uncounted), "%s", c->opts.verbose ? c->uncounted : "");
	st->max_size_hit = c->full;
	st->ustack_errs = c->ustack_errs;
	st->procs = proc_maps__nr_procs(c->maps);
	st->procs_gone = proc_maps__nr_gone(c->maps);
	if (c->opts.calls) {
		struct lbrsnap_call_state cs;
		__u32 key;

		/* the scope's entry first: a scope left half traced would be counted open */
		bpf_link__destroy(c->calls_sys_enter_link);
		c->calls_sys_enter_link = NULL;
		call_mech__detach(c->calls_mech, &c->calls_mctx);
		bpf_link__destroy(c->calls_died_link);
		c->calls_died_link = NULL;
		st->calls = true;
		st->calls_stats = c->bss[0]->calls_stats;
		/* scopes left open (their task still inside, or an exit lost): slots held */
		for (key = 0; key < LBRSNAP_CALLS_TASKS; key++)
			if (!bpf_map_lookup_elem(c->calls_fd, &key, &cs) && cs.owner)
				st->calls_open++;
	}
	if (c->opts.follow) {
		const struct lbrsnap_follow_stats *fs = &c->bss[0]->follow_stats;

		st->follow_added = fs->added;
		st->follow_overflow = fs->overflow;
		st->follow_forgotten = fs->forgotten;
	}
	ret = lbrfile_writer__counts(w, &(struct lbrfile_counts) {
		.hits = st->hits, .records = st->records, .filtered = st->filtered,
		.sampled_out = st->sampled_out, .emitted = st->emitted,
		.in_flight = st->in_flight, .follow_added = st->follow_added,
		.follow_overflow = st->follow_overflow,
		.follow_forgotten = st->follow_forgotten,
		.follow_max = c->opts.follow ? c->opts.follow_max ?: DEFAULT_FOLLOW_MAX : 0,
	});
	if (ret)
		goto cleanup;
	ret = st->kallsyms_err ? 0 : lbrfile_writer__kallsyms(w, ksyms, len);
	/* no room for the copy on the disk: the records are kept without it, and it is said */
	if (ret && !lbrfile_writer__error(w)) {
		st->kallsyms_err = ret;
		ret = 0;
	}
cleanup:
	free(ksyms);
	return ret;
}

void capture__close(struct capture *c)
{
	size_t i;

	if (!c)
		return;
	ring_buffer__free(c->rb);
	bpf_link__destroy(c->follow_exit_link);
	bpf_link__destroy(c->follow_link);
	for (i = 0; c->verdict_links && i < VERDICT_LINKS * c->nr_objs; i++)
		bpf_link__destroy(c->verdict_links[i]);
	free(c->verdict_links);
	for (i = 0; i < c->nr_call_links; i++)
		bpf_link__destroy(c->call_links[i]);
	free(c->call_links);
	bpf_link__destroy(c->calls_sys_enter_link);
	call_mech__detach(c->calls_mech, &c->calls_mctx);
	bpf_link__destroy(c->calls_died_link);
	call_funcs__free(&c->calls);
	for (i = 0; c->aps && i < c->set.nr; i++) {
		bpf_link__destroy(c->aps[i].link);
		mem_watch__detach(&c->aps[i].watch);
		free(c->aps[i].filter);
		if (c->aps[i].prog_fd >= 0)
			close(c->aps[i].prog_fd);
	}
	for (i = 0; c->objs && i < c->nr_objs; i++)
		capture_bpf__destroy(c->objs[i]);
	if (c->events_fd >= 0)
		close(c->events_fd);
	if (c->follow_fd >= 0)
		close(c->follow_fd);
	if (c->calls_fd >= 0)
		close(c->calls_fd);
	for (i = 0; c->bss && i < c->nr_objs; i++) {
		if (c->bss[i])
			munmap(c->bss[i], c->bss_len);
	}
	lbr_enable__close(c->lbr);
	attach_set__free(&c->set);
	syscall_table__free(c->syscalls);
	proc_maps__free(c->maps);
	free(c->rec_buf);
	free(c->aps);
	free(c->objs);
	free(c->bss);
	free(c);
}
