// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture engine (API in capture-engine.h).
 *
 * One BPF object holds LBRSNAP_PROGS_PER_KIND programs of each kind, each with its own
 * snapshot slots; attach point number j of a kind runs program j % 64 of object j / 64.
 * Further objects share the first one's ring buffer and follow map, so one consumer sees
 * every record in commit order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "attach-spec.h"
#include "capture-engine.h"
#include "ksyms.h"
#include "lbr-enable.h"
#include "lbrfile.h"
#include "capture.skel.h"

#define PROGS LBRSNAP_PROGS_PER_KIND
#define DEFAULT_RINGBUF (8ULL << 20)

struct ap_slot {
	size_t obj;		/* object instance */
	__u32 idx;		/* program index inside it: (kind - 1) * PROGS + n */
	struct bpf_program *prog;
	struct bpf_link *link;
};

struct capture {
	struct capture_opts opts;
	struct attach_set set;
	struct ap_slot *aps;
	struct capture_bpf **objs;
	size_t nr_objs;
	struct bpf_link *follow_link;
	struct ring_buffer *rb;
	struct lbr_enable *lbr;
	bool lbr_on;			/* events open, or enabled by another tool */
	char lbr_why[256];
	__u64 branch_filter;
	struct lbrfile_writer *sink;	/* the writer of the poll in progress */
	int sink_err;
	__u64 records;
};

static const char *const prog_kind[] = {
	[LBRSNAP_KIND_FEXIT] = "fexit",
	[LBRSNAP_KIND_RAW_TP] = "rawtp",
	[LBRSNAP_KIND_TP_BTF] = "tpbtf",
};

static int verbosity;
static char failed_prog[64];	/* program named in libbpf's "load failed" warning */
static char verifier_why[256];	/* the verifier's verdict: last line of its log */

/* The verdict is the last log line before the "processed N insns" statistics. */
static void keep_verifier_why(const char *log)
{
	const char *end = strstr(log, "\nprocessed ");
	const char *start;

	if (!end)
		end = strstr(log, "\n-- END PROG LOAD LOG --");
	if (!end)
		return;
	start = end;
	while (start > log && start[-1] != '\n')
		start--;
	snprintf(verifier_why, sizeof(verifier_why), "%.*s", (int)(end - start), start);
}

/* libbpf talks through here: verifier logs only with -vv, failures kept for the error */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	char msg[8192];
	const char *p;
	va_list copy;

	if (level != LIBBPF_DEBUG) {
		va_copy(copy, args);
		vsnprintf(msg, sizeof(msg), fmt, copy);
		va_end(copy);
		p = strstr(msg, "prog '");
		if (p && strstr(msg, "load failed"))
			sscanf(p, "prog '%63[^']'", failed_prog);
		if (strstr(msg, "-- BEGIN PROG LOAD LOG --"))
			keep_verifier_why(msg);
	}
	if (verbosity >= 2 || (verbosity >= 1 && level == LIBBPF_WARN))
		return vfprintf(stderr, fmt, args);
	return 0;
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct capture *c = ctx;
	int err;

	err = lbrfile_writer__record(c->sink, data, size);
	if (err) {
		c->sink_err = err;
		return err;
	}
	c->records++;
	return 0;
}

static void set_rodata(struct capture *c, struct capture_bpf *skel)
{
	const struct capture_opts *o = &c->opts;
	__u32 slots = o->slots ? o->slots : LBRSNAP_SLOTS;

	skel->rodata->slot_mask = slots - 1;
	skel->rodata->slot_shift = __builtin_ctz(slots);
	skel->rodata->filter_pid = o->pid;
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
}

static int open_objects(struct capture *c, char *err, size_t err_len)
{
	size_t per_kind[4] = {}, nth[4] = {}, i;
	struct bpf_program *prog;
	int ret;

	for (i = 0; i < c->set.nr; i++)
		per_kind[c->set.v[i].kind]++;
	c->nr_objs = 1;
	for (i = 1; i < 4; i++) {
		if ((per_kind[i] + PROGS - 1) / PROGS > c->nr_objs)
			c->nr_objs = (per_kind[i] + PROGS - 1) / PROGS;
	}
	c->objs = calloc(c->nr_objs, sizeof(*c->objs));
	c->aps = calloc(c->set.nr, sizeof(*c->aps));
	if (!c->objs || !c->aps)
		return -ENOMEM;
	for (i = 0; i < c->nr_objs; i++) {
		struct capture_bpf *skel = capture_bpf__open();

		if (!skel) {
			snprintf(err, err_len, "cannot open the BPF object: %s", strerror(errno));
			return -errno;
		}
		c->objs[i] = skel;
		bpf_object__for_each_program(prog, skel->obj)
			bpf_program__set_autoload(prog, false);
		set_rodata(c, skel);
		if (i == 0) {
			ret = bpf_map__set_max_entries(skel->maps.events, c->opts.ringbuf_bytes ?:
						       DEFAULT_RINGBUF);
			if (ret) {
				snprintf(err, err_len, "bad ring buffer size %llu: %s",
					 (unsigned long long)c->opts.ringbuf_bytes, strerror(-ret));
				return ret;
			}
			bpf_program__set_autoload(skel->progs.lbrsnap_follow_fork, c->opts.follow);
		}
	}
	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		size_t n = nth[t->kind]++;
		struct ap_slot *s = &c->aps[i];
		struct capture_bpf *skel;
		char name[64];

		s->obj = n / PROGS;
		s->idx = (t->kind - 1) * PROGS + n % PROGS;
		skel = c->objs[s->obj];
		snprintf(name, sizeof(name), "lbrsnap_%s_%zu", prog_kind[t->kind], n % PROGS);
		s->prog = bpf_object__find_program_by_name(skel->obj, name);
		if (!s->prog)
			return -ENOENT;
		bpf_program__set_autoload(s->prog, true);
		skel->rodata->ap_id[s->idx] = i;
		skel->rodata->ap_flags[s->idx] =
			(t->kind == LBRSNAP_KIND_FEXIT && t->has_ret ? LBRSNAP_AP_RET_FEXIT : 0) |
			(t->ret_is_arg1 ? LBRSNAP_AP_RET_ARG1 : 0);
		if (t->kind != LBRSNAP_KIND_RAW_TP) {
			ret = bpf_program__set_attach_target(s->prog, 0, t->name);
			if (ret) {
				snprintf(err, err_len, "cannot target %s: %s", t->spec,
					 strerror(-ret));
				return ret;
			}
		}
	}
	return 0;
}

static void explain_load_error(struct capture *c, size_t obj, int ret, char *err, size_t len)
{
	const char *what = "BPF programs", *spec = NULL;
	size_t i;

	for (i = 0; i < c->set.nr; i++) {
		if (c->aps[i].obj == obj && failed_prog[0] &&
		    !strcmp(bpf_program__name(c->aps[i].prog), failed_prog))
			spec = c->set.v[i].spec;
		if (c->aps[i].obj == obj && c->set.v[i].kind == LBRSNAP_KIND_FEXIT)
			what = "fexit programs";
	}
	if ((ret == -EPERM || ret == -EACCES) && geteuid() != 0)
		snprintf(err, len, "loading %s failed (%s): needs CAP_BPF and CAP_PERFMON, or root",
			 what, strerror(-ret));
	else if (ret == -EPERM && !strcmp(what, "fexit programs"))
		snprintf(err, len, "loading fexit programs failed: %s, although running as root; "
			 "this kernel refuses fentry/fexit (kernel lockdown or a locked function "
			 "tracer); raw_tp and tp_btf may still work", strerror(-ret));
	else if (spec)
		snprintf(err, len, "cannot load the program for %s: %s%s%s", spec, strerror(-ret),
			 verifier_why[0] ? ": " : "", verifier_why);
	else
		snprintf(err, len, "loading %s failed: %s", what, strerror(-ret));
}

static int load_and_attach(struct capture *c, char *err, size_t err_len)
{
	size_t i;
	int ret;

	for (i = 0; i < c->nr_objs; i++) {
		struct capture_bpf *skel = c->objs[i];

		/* one ring buffer and one follow map for all: the first object's */
		if (i > 0 &&
		    (bpf_map__reuse_fd(skel->maps.events, bpf_map__fd(c->objs[0]->maps.events)) ||
		     bpf_map__reuse_fd(skel->maps.follow, bpf_map__fd(c->objs[0]->maps.follow)))) {
			ret = -errno;
			snprintf(err, err_len, "cannot share the ring buffer: %s", strerror(-ret));
			return ret;
		}
		ret = capture_bpf__load(skel);
		if (ret) {
			explain_load_error(c, i, ret, err, err_len);
			return ret;
		}
	}
	for (i = 0; i < c->set.nr; i++) {
		struct ap_slot *s = &c->aps[i];
		const struct attach_target *t = &c->set.v[i];

		if (t->kind == LBRSNAP_KIND_RAW_TP)
			s->link = bpf_program__attach_raw_tracepoint(s->prog, t->name);
		else
			s->link = bpf_program__attach(s->prog);
		if (!s->link) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach %s: %s", t->spec, strerror(-ret));
			return ret;
		}
	}
	if (c->opts.follow) {
		c->follow_link = bpf_program__attach(c->objs[0]->progs.lbrsnap_follow_fork);
		if (!c->follow_link) {
			ret = -errno;
			snprintf(err, err_len, "cannot attach the fork tracker "
				 "(tp_btf/sched_process_fork): %s", strerror(-ret));
			return ret;
		}
	}
	c->rb = ring_buffer__new(bpf_map__fd(c->objs[0]->maps.events), handle_record, c, NULL);
	if (!c->rb) {
		ret = -errno;
		snprintf(err, err_len, "cannot open the ring buffer: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

int capture__open(const struct capture_opts *opts, struct capture **out, char *err,
		  size_t err_len)
{
	static const char *const default_events[] = { CAPTURE_DEFAULT_EVENT };
	const char *const *events = opts->events;
	size_t nr_events = opts->nr_events;
	struct btf *btf = NULL;
	struct capture *c;
	int ret;

	*out = NULL;
	err[0] = 0;
	verbosity = opts->verbose;
	libbpf_set_print(libbpf_print);
	if (opts->slots && (opts->slots > LBRSNAP_SLOTS || (opts->slots & (opts->slots - 1)))) {
		snprintf(err, err_len, "slots must be a power of two from 1 to %d",
			 LBRSNAP_SLOTS);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->opts = *opts;
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
	ret = attach_set__expand(&c->set, events, nr_events, btf, err, err_len);
	if (ret)
		goto cleanup;
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
	ret = open_objects(c, err, err_len);
	if (ret)
		goto cleanup;
	ret = load_and_attach(c, err, err_len);
cleanup:
	btf__free(btf);
	if (ret) {
		capture__close(c);
		return ret;
	}
	*out = c;
	return 0;
}

int capture__follow(struct capture *c, __u32 pid)
{
	__u8 one = 1;

	if (bpf_map__update_elem(c->objs[0]->maps.follow, &pid, sizeof(pid), &one, sizeof(one),
				 BPF_ANY))
		return -errno;
	return 0;
}

bool capture__has_lbr(const struct capture *c)
{
	return c->lbr_on;
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

__u64 capture__attach_bytes(const struct capture *c)
{
	const struct capture_bpf *skel = c->objs[0];
	__u32 slots = c->opts.slots ? c->opts.slots : LBRSNAP_SLOTS;

	/* used slots, their ticket counters and the loss counters */
	return slots * sizeof(skel->bss->snap[0][0]) + sizeof(skel->bss->ctl[0]) +
	       sizeof(skel->bss->stats[0]);
}

__u64 capture__total_bytes(const struct capture *c)
{
	/* every object's whole .bss is allocated, used or not, plus the one ring buffer */
	return c->nr_objs * bpf_map__value_size(c->objs[0]->maps.bss) +
	       bpf_map__max_entries(c->objs[0]->maps.events);
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
	ret |= lbrfile_writer__meta(w, "slots", "%u", c->opts.slots ?: LBRSNAP_SLOTS);
	if (ret)
		return -ENOMEM;
	for (i = 0; i < c->set.nr; i++) {
		const struct attach_target *t = &c->set.v[i];
		struct lbr_attach_point ap = {
			.id = i,
			.kind = t->kind,
			.flags = t->has_ret ? LBRFILE_AP_HAS_RET : 0,
			.mem_bytes = capture__attach_bytes(c),
			.spec = t->spec,
			.target = t->name,
		};

		ret = lbrfile_writer__attach(w, &ap);
		if (ret)
			return ret;
	}
	return 0;
}

int capture__poll(struct capture *c, struct lbrfile_writer *w, int timeout_ms)
{
	__u64 before = c->records;
	int ret;

	c->sink = w;
	c->sink_err = 0;
	ret = ring_buffer__poll(c->rb, timeout_ms);
	if (c->sink_err)
		return c->sink_err;
	if (ret < 0 && ret != -EINTR)
		return ret;
	return c->records - before;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int capture__run(struct capture *c, struct lbrfile_writer *w, struct capture_run *run)
{
	double start = now_s();
	int n;

	for (;;) {
		n = capture__poll(c, w, 100);
		if (n < 0)
			return n;
		if (run->child > 0 && waitpid(run->child, &run->status, WNOHANG) == run->child) {
			run->exited = true;
			return 0;
		}
		if (run->stop && *run->stop) {
			if (!run->forward_stop || run->child <= 0)
				return 0;
			kill(run->child, SIGTERM);
			*run->stop = 0;
		}
		if (run->duration_s && now_s() - start >= run->duration_s)
			return 0;
	}
}

int capture__finish(struct capture *c, struct lbrfile_writer *w, struct capture_stats *st)
{
	char *ksyms = NULL;
	size_t i, len = 0;
	int ret;

	memset(st, 0, sizeof(*st));
	/* drain what the programs committed before the caller decided to stop */
	do {
		ret = capture__poll(c, w, 0);
	} while (ret > 0);
	if (ret < 0)
		return ret;
	for (i = 0; i < c->set.nr; i++) {
		const struct ap_slot *s = &c->aps[i];
		const struct lbrsnap_ap_stats *as = &c->objs[s->obj]->bss->stats[s->idx];
		struct bpf_prog_info info = {};
		__u32 info_len = sizeof(info);
		__u64 lost[LBRSNAP_LOSS__MAX];
		int cause;

		memcpy(lost, (const void *)as->lost, sizeof(lost));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(s->prog), &info, &info_len))
			lost[LBRSNAP_LOSS_RECURSION] = info.recursion_misses;
		st->hits += as->hits;
		st->filtered += as->filtered;
		st->sampled_out += as->sampled_out;
		for (cause = 0; cause < LBRSNAP_LOSS__MAX; cause++) {
			st->lost[cause] += lost[cause];
			if (!lost[cause])
				continue;
			ret = lbrfile_writer__loss(w, i, cause, lost[cause]);
			if (ret)
				return ret;
		}
	}
	st->records = c->records;
	/* BPF programs are still loaded, so their [bpf] symbols are in this copy */
	ret = ksyms__read("/proc/kallsyms", &ksyms, &len);
	if (!ret) {
		ret = lbrfile_writer__kallsyms(w, ksyms, len);
		free(ksyms);
	}
	return ret;
}

void capture__close(struct capture *c)
{
	size_t i;

	if (!c)
		return;
	ring_buffer__free(c->rb);
	bpf_link__destroy(c->follow_link);
	for (i = 0; c->aps && i < c->set.nr; i++)
		bpf_link__destroy(c->aps[i].link);
	for (i = 0; c->objs && i < c->nr_objs; i++)
		capture_bpf__destroy(c->objs[i]);
	lbr_enable__close(c->lbr);
	attach_set__free(&c->set);
	free(c->aps);
	free(c->objs);
	free(c);
}
