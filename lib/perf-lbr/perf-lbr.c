// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Capture records to perf records (see perf-lbr.h for the event model).
 *
 * Addresses are never changed: the branch entries are copied verbatim (same 24-byte layout as
 * perf_branch_entry) and stacks become kernel callchains. Symbols come from the kallsyms text
 * stored in the capture: the kernel MMAP carries _text as pgoff so perf can relocate, and
 * each "[bpf]" symbol becomes a KSYMBOL because perf does not load those from kallsyms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "util/align.h"
#include "util/min-heap.h"
#include "util/u32-set.h"
#include "util/out-file.h"
#include "symbols/ksyms.h"
#include "lbrfile/branch-filter.h"
#include "lbrfile/lbr-kind.h"
#include "util/print.h"
#include "view/record-view.h"
#include "perf-lbr/perf-lbr.h"
#include "view/event-fields.h"
#include "util/text-escape.h"

/*
 * header, stack, branches, the fixed RAW part, the call, the arguments' typed fields, the
 * user stack (or an MMAP2 with its path)
 */
#define REC_BUF_SIZE		(8192 + LBR_CALL_LEN + \
				 LBRSNAP_MAX_ARGS * (LBRSNAP_MAX_STRING_LEN + 2 + 8) + \
				 (LBRSNAP_MAX_USTACK + 1) * 8 + 4096)
/* what perf record -b says when no -j is given; captures without META branch_filter */
#define DEFAULT_BRANCH_FILTER	"any,k"

struct lbr_event {
	struct perf_event_attr attr;
	__u64 id;
	char *name;
	enum lbrsnap_ret_kind ret_kind;
	/* pointers: the errnos of the ERR_PTR values the records hold, one bit each */
	__u64 errnos[(LBR_MAX_ERRNO + 1 + 63) / 64];
	const char *target;
	__u64 ip;		/* the attach target's address, for records without a stack */
	struct event_fields fields;	/* the arguments, in the RAW data behind struct lbr_raw */
};

/* A call of a record's --calls scope, for lbr:call: emitted at its entry time */
struct call_ref {
	__u64 time;
	size_t seq;		/* the record's place in time order */
	unsigned int idx;	/* in its calls->call[] */
	struct lbr_record rec;
};

/* Open-addressing set of tid -> last COMM emitted. */
struct comm_slot {
	__u32 tid;
	bool used;
	char comm[LBRSNAP_COMM_LEN];
};

struct perf_lbr {
	struct lbrfile *cap;
	struct ksyms *ks;
	const char *kallsyms;
	size_t kallsyms_len;
	struct lbr_event *evs;
	/* attach points, lbr:call if the capture has --calls scopes, the side-band dummy */
	size_t nr_evs;
	size_t nr_aps;
	size_t nr_tps;		/* the tracepoint events: attach points and lbr:call */
	/*
	 * The calls not emitted yet of the records read ahead by a second cursor, a heap in
	 * entry time order: a record comes at most call_lead ns after its first call's entry,
	 * so the calls up to a time T are all in once the records up to T + call_lead are.
	 */
	struct lbrfile_cursor *calls_it;
	struct lbr_record calls_rec;	/* calls_it's next, when has_calls_rec */
	bool has_calls_rec, calls_done;
	size_t calls_seq;
	__u64 call_lead;
	struct call_ref *crefs;
	size_t nr_crefs, cap_crefs;
	bool has_branches;
	bool keep_all;		/* samples keep the tracing path's entries */
	__u64 branch_sample_type;	/* the capture's -j, as perf_event_attr bits */
	__u64 first_time, last_time;
	__u64 nr_bad_ap;	/* records naming no attach point of the file: skipped */
	struct comm_slot *comms;
	size_t comm_cap, nr_comms;
	struct u32_set mmap_pids;	/* processes whose MMAP2s are out */
	/* emit state */
	perf_lbr_emit_fn fn;
	perf_lbr_known_fn known;
	void *ctx;
	struct lbrfile_cursor *next;	/* the records in time order, NULL before the first */
	struct lbr_record next_rec;	/* the next to emit, when has_next */
	bool has_next;
	struct lbr_record_view view;	/* of the record being emitted */
	__u64 buf[REC_BUF_SIZE / 8];
};

size_t perf_lbr__nr_events(const struct perf_lbr *pl)
{
	return pl->nr_evs;
}

const struct perf_event_attr *perf_lbr__attr(const struct perf_lbr *pl, size_t i)
{
	return &pl->evs[i].attr;
}

__u64 perf_lbr__id(const struct perf_lbr *pl, size_t i)
{
	return pl->evs[i].id;
}

const char *perf_lbr__name(const struct perf_lbr *pl, size_t i)
{
	return pl->evs[i].name;
}

bool perf_lbr__is_tracepoint(const struct perf_lbr *pl, size_t i)
{
	return i < pl->nr_tps;
}

bool perf_lbr__is_call_event(const struct perf_lbr *pl, size_t i)
{
	return i == pl->nr_aps && pl->nr_tps > pl->nr_aps;
}

enum lbrsnap_ret_kind perf_lbr__ret_kind(const struct perf_lbr *pl, size_t i)
{
	return pl->evs[i].ret_kind;
}

bool perf_lbr__has_args(const struct perf_lbr *pl, size_t i)
{
	const struct lbr_attach_point *ap = i < pl->nr_aps ? lbrfile__attach(pl->cap, i) : NULL;

	return ap && ap->nr_args;
}

const struct event_fields *perf_lbr__fields(const struct perf_lbr *pl, size_t i)
{
	return &pl->evs[i].fields;
}

bool perf_lbr__has_errno(const struct perf_lbr *pl, size_t i, int err)
{
	return err > 0 && err <= LBR_MAX_ERRNO && pl->evs[i].errnos[err / 64] & 1ULL << err % 64;
}

bool perf_lbr__has_branches(const struct perf_lbr *pl)
{
	return pl->has_branches;
}

__u64 perf_lbr__first_time(const struct perf_lbr *pl)
{
	return pl->first_time;
}

__u64 perf_lbr__last_time(const struct perf_lbr *pl)
{
	return pl->last_time;
}

/* A record's calls: the earliest entry, and how long before the record it is */
static void scan_calls(struct perf_lbr *pl, const struct lbr_record *rec)
{
	__u64 t;
	unsigned int j;

	for (j = 0; j < rec->calls->nr; j++) {
		t = rec->calls->call[j].start_ns;
		if (t < pl->first_time)
			pl->first_time = t;
		if (t < rec->ev->time_ns && rec->ev->time_ns - t > pl->call_lead)
			pl->call_lead = rec->ev->time_ns - t;
	}
}

/* What the open could not learn: a pointer return's errno set, the calls' own events */
static int scan_record(const struct lbr_record *rec, void *ctx)
{
	struct perf_lbr *pl = ctx;
	struct lbr_record_view *v = &pl->view;
	struct lbr_event *e;

	if (rec->ev->ap >= pl->nr_aps)
		return 0;
	e = &pl->evs[rec->ev->ap];
	lbr_record_view__init(v, pl->cap, NULL, rec, LBR_VIEW_RET_ONLY);
	if (e->ret_kind == LBRSNAP_RET_POINTER && v->ret_kind == LBRSNAP_RET_POINTER)
		e->errnos[v->err / 64] |= (__u64)(v->err != 0) << v->err % 64;
	if (pl->nr_tps > pl->nr_aps && rec->calls)
		scan_calls(pl, rec);
	return 0;
}

static int init_event(struct perf_lbr *pl, size_t i, const struct perf_lbr_opts *o)
{
	const struct lbr_attach_point *ap = lbrfile__attach(pl->cap, i);
	struct lbr_event *e = &pl->evs[i];
	struct perf_event_attr *a = &e->attr;
	const struct ksym *sym;

	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_TRACEPOINT;
	a->size = PERF_ATTR_WRITE_SIZE;
	a->config = o->first_tp_id + i;
	a->sample_period = 1;
	a->sample_type = PERF_LBR_SAMPLE_TYPE;
	a->read_format = o->read_format;
	a->sample_id_all = o->sample_id_all;
	a->use_clockid = 1;
	a->clockid = 1;	/* CLOCK_MONOTONIC: bpf_ktime_get_ns() */
	a->exclude_callchain_user = 1;
	e->id = o->first_id + i;
	if (!ap || !ap->spec)
		return -EINVAL;
	if (asprintf(&e->name, PERF_LBR_SYSTEM ":%s", ap->spec) < 0) {
		e->name = NULL;
		return -ENOMEM;
	}
	e->target = ap->target;
	/* the event's format declares ret as the attach point's type */
	e->ret_kind = lbr_record_view__ap_ret_kind(ap);
	/* a user probe's function is no kernel symbol, whatever kallsyms has of that name */
	sym = ap->target && !lbr_kind__is_user(ap->kind) ? ksyms__by_name(pl->ks, ap->target) :
	      NULL;
	e->ip = sym ? sym->addr : 0;
	return 0;
}

/*
 * lbr:call: one sample per call of a --calls scope, with the record's pid, tid and cpu; its
 * RAW data is struct lbr_perf_call_raw, so its format is the same for every capture.
 */
static int init_call_event(struct perf_lbr *pl, const struct perf_lbr_opts *o)
{
	struct lbr_event *e = &pl->evs[pl->nr_aps];

	e->attr = pl->evs[0].attr;
	e->attr.config = o->first_tp_id + pl->nr_aps;
	e->attr.sample_type = PERF_LBR_SAMPLE_TYPE;
	e->id = o->first_id + pl->nr_aps;
	e->ret_kind = LBRSNAP_RET_SIGNED;
	e->name = strdup(PERF_LBR_SYSTEM ":" PERF_LBR_CALL_EVENT);
	return e->name ? 0 : -ENOMEM;
}

/*
 * Errno sets of pointer returns and call traces are learnt record by record (scan_record());
 * without them the capture's records are not read a second time before the merge.
 */
static bool needs_scan(const struct perf_lbr *pl)
{
	size_t i;

	if (pl->nr_tps > pl->nr_aps)
		return true;
	for (i = 0; i < pl->nr_aps; i++) {
		if (pl->evs[i].ret_kind == LBRSNAP_RET_POINTER)
			return true;
	}
	return false;
}

/* The sample types and time range from what the capture learnt as it was opened */
static void scan_held(struct perf_lbr *pl)
{
	size_t i;

	for (i = 0; i < pl->nr_aps; i++) {
		struct lbr_event *e = &pl->evs[i];
		__u32 held = lbrfile__attach(pl->cap, i)->held;

		if (held & LBR_AP_HELD_BRANCHES) {
			e->attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
			e->attr.branch_sample_type = pl->branch_sample_type;
			pl->has_branches = true;
		}
		if (held & (LBR_AP_HELD_STACK | LBR_AP_HELD_USTACK))
			e->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (held & LBR_AP_HELD_USTACK)
			e->attr.exclude_callchain_user = 0;
	}
	lbrfile__time_range(pl->cap, &pl->first_time, &pl->last_time);
}

/* Whether any attach point of the capture was a --calls scope (META calls.AP) */
static bool capture_has_calls(struct lbrfile *cap, size_t nr_aps)
{
	char key[32];
	size_t i;

	for (i = 0; i < nr_aps; i++) {
		snprintf(key, sizeof(key), "calls.%zu", i);
		if (lbrfile__meta(cap, key))
			return true;
	}
	return false;
}

/* Entry time, then the record's place in time order, then entry order */
static bool cref_less(const struct call_ref *x, const struct call_ref *y)
{
	if (x->time != y->time)
		return x->time < y->time;
	if (x->seq != y->seq)
		return x->seq < y->seq;
	return x->idx < y->idx;
}

DEFINE_MIN_HEAP(cref_heap, struct call_ref, cref_less)

static int cref_push(struct perf_lbr *pl, const struct call_ref *r)
{
	void *n;

	if (pl->nr_crefs == pl->cap_crefs) {
		pl->cap_crefs = pl->cap_crefs ? 2 * pl->cap_crefs : 1024;
		n = realloc(pl->crefs, pl->cap_crefs * sizeof(*pl->crefs));
		if (!n)
			return -ENOMEM;
		pl->crefs = n;
	}
	cref_heap__push(pl->crefs, &pl->nr_crefs, r);
	return 0;
}

/*
 * Reads ahead the records whose calls may enter up to t: every record up to t + call_lead,
 * its calls into the heap. A record's sample comes at its scope's end, after its calls, so
 * they are emitted from the heap between the records, each at its entry time.
 */
static int read_calls_until(struct perf_lbr *pl, __u64 t)
{
	__u64 until = t > ~0ULL - pl->call_lead ? ~0ULL : t + pl->call_lead;
	struct call_ref r;
	unsigned int j;
	int err;

	if (!pl->calls_it && !pl->calls_done) {
		err = lbrfile_cursor__new(pl->cap, -1, &pl->calls_it);
		if (err)
			return err;
	}
	while (!pl->calls_done) {
		if (!pl->has_calls_rec) {
			err = lbrfile_cursor__next(pl->calls_it, &pl->calls_rec);
			if (err == -ENOENT) {
				pl->calls_done = true;
				break;
			}
			if (err)
				return err;
			pl->has_calls_rec = true;
		}
		if (pl->calls_rec.ev->time_ns > until)
			break;
		pl->has_calls_rec = false;
		r.seq = pl->calls_seq++;
		r.rec = pl->calls_rec;
		if (!r.rec.calls || r.rec.ev->ap >= pl->nr_aps)
			continue;
		for (j = 0; j < r.rec.calls->nr; j++) {
			r.time = r.rec.calls->call[j].start_ns;
			r.idx = j;
			err = cref_push(pl, &r);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * perf report switches to its tracepoint view (sorted by trace output, no branch columns)
 * when every event is a tracepoint; a software dummy event, which never samples, keeps the
 * normal and branch views. Like perf record's dummy:HG it also owns the side-band records.
 */
static int init_dummy(struct perf_lbr *pl, const struct perf_lbr_opts *o)
{
	struct lbr_event *e = &pl->evs[pl->nr_tps];

	e->attr = pl->evs[0].attr;
	e->attr.type = PERF_TYPE_SOFTWARE;
	e->attr.config = PERF_COUNT_SW_DUMMY;
	e->attr.sample_type = PERF_LBR_SAMPLE_TYPE & ~PERF_SAMPLE_RAW;
	e->id = o->first_id + pl->nr_tps;
	e->name = strdup(PERF_LBR_SYSTEM ":sideband");
	return e->name ? 0 : -ENOMEM;
}

int perf_lbr__new(struct lbrfile *cap, const char *cap_path, const struct perf_lbr_opts *o,
		  struct perf_lbr **out)
{
	const char *filter = lbrfile__meta(cap, "branch_filter") ?: DEFAULT_BRANCH_FILTER;
	struct perf_lbr *pl;
	char why[256];
	size_t i;
	int err;

	pl = calloc(1, sizeof(*pl));
	if (!pl)
		return -ENOMEM;
	pl->cap = cap;
	pl->keep_all = o->keep_all;
	err = branch_filter__parse(filter, &pl->branch_sample_type, why, sizeof(why));
	if (err) {
		pr_warn("%s: META branch_filter: %s\n", cap_path,
			err == -EINVAL ? why : strerror(-err));
		goto cleanup;
	}
	pl->kallsyms = lbrfile__kallsyms(cap, &pl->kallsyms_len);
	if (!pl->kallsyms || !pl->kallsyms_len) {
		pr_warn("%s: the capture holds no kallsyms: symbols cannot be resolved\n",
			cap_path);
		err = -EINVAL;
		goto cleanup;
	}
	err = ksyms__parse_borrowed(pl->kallsyms, pl->kallsyms_len, &pl->ks);
	if (err) {
		pr_warn("%s: cannot parse the stored kallsyms: %s\n", cap_path,
			strerror(-err));
		goto cleanup;
	}
	pl->nr_aps = lbrfile__nr_attach(cap);
	pl->nr_tps = pl->nr_aps + capture_has_calls(cap, pl->nr_aps);
	pl->nr_evs = pl->nr_tps + o->dummy;
	if (!pl->nr_aps) {
		pr_warn("%s: the capture has no attach points\n", cap_path);
		err = -EINVAL;
		goto cleanup;
	}
	pl->evs = calloc(pl->nr_evs, sizeof(*pl->evs));
	if (!pl->evs) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < pl->nr_aps; i++) {
		event_fields__init(&pl->evs[i].fields, lbrfile__attach(cap, i), PERF_LBR_RAW_FIXED);
		err = init_event(pl, i, o);
		if (err) {
			pr_warn("%s: bad attach point %zu\n", cap_path, i);
			goto cleanup;
		}
	}
	if (pl->nr_tps > pl->nr_aps) {
		err = init_call_event(pl, o);
		if (err)
			goto cleanup;
	}
	if (o->dummy) {
		err = init_dummy(pl, o);
		if (err)
			goto cleanup;
	}
	scan_held(pl);
	if (needs_scan(pl)) {
		err = lbrfile__for_each(cap, false, scan_record, pl);
		if (err)
			goto cleanup;
	}
	*out = pl;
	return 0;
cleanup:
	perf_lbr__free(pl);
	return err;
}

void perf_lbr__free(struct perf_lbr *pl)
{
	size_t i;

	if (!pl)
		return;
	for (i = 0; pl->evs && i < pl->nr_evs; i++)
		free(pl->evs[i].name);
	free(pl->evs);
	free(pl->crefs);
	lbrfile_cursor__free(pl->calls_it);
	free(pl->comms);
	u32_set__free(&pl->mmap_pids);
	lbrfile_cursor__free(pl->next);
	ksyms__free(pl->ks);
	free(pl);
}

/* sample_id trailer (TID, TIME, CPU, IDENTIFIER for our attrs) for non-sample records. */
static size_t put_trailer(const struct lbr_event *e, __u64 *p, __u32 pid, __u32 tid, __u64 time,
			  __u32 cpu)
{
	if (!e->attr.sample_id_all)
		return 0;
	p[0] = (__u64)tid << 32 | pid;
	p[1] = time;
	p[2] = cpu;
	p[3] = e->id;
	return 4 * 8;
}

static int emit(struct perf_lbr *pl, __u32 type, __u16 misc, size_t size, __u64 time)
{
	struct perf_event_header *h = (void *)pl->buf;

	h->type = type;
	h->misc = misc;
	h->size = size;
	return pl->fn(h, time, pl->ctx);
}

/* A kernel-space MMAP as perf record writes it: pid -1, tid 0, misc KERNEL. */
static int emit_kmmap(struct perf_lbr *pl, __u64 start, __u64 len, __u64 pgoff, const char *name)
{
	char *body = (char *)(pl->buf + 1);
	size_t nlen = strlen(name) + 1, n;

	*(__s32 *)body = -1;
	*(__u32 *)(body + 4) = 0;
	*(__u64 *)(body + 8) = start;
	*(__u64 *)(body + 16) = len;
	*(__u64 *)(body + 24) = pgoff;
	memset(body + 32, 0, ALIGN(nlen, 8));
	memcpy(body + 32, name, nlen);
	n = 8 + 32 + ALIGN(nlen, 8);
	n += put_trailer(&pl->evs[pl->nr_evs - 1], (__u64 *)((char *)pl->buf + n), -1, 0, 0, 0);
	return emit(pl, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, n, 0);
}

static int emit_kernel_mmap(struct perf_lbr *pl)
{
	const struct ksym *text = ksyms__by_name(pl->ks, "_text");
	const struct ksym *etext = ksyms__by_name(pl->ks, "_etext");

	if (!text) {
		pr_warn("kallsyms has no _text symbol: cannot map the kernel\n");
		return -EINVAL;
	}
	/* pgoff = _text, so that perf can relocate a kallsyms copy from another boot */
	return emit_kmmap(pl, text->addr, etext && etext->addr > text->addr ?
			  etext->addr - text->addr : ~0ULL - text->addr, text->addr,
			  "[kernel.kallsyms]_text");
}

static int emit_ksymbols(struct perf_lbr *pl)
{
	char mname[600];
	size_t i, nlen, n;
	int err;

	for (i = 0; i < ksyms__count(pl->ks); i++) {
		const char *mod = ksyms__module_at(pl->ks, i);
		char *body = (char *)(pl->buf + 1);
		const struct ksym *s;

		if (!mod || strcmp(mod, "bpf"))
			continue;
		s = ksyms__at(pl->ks, i);
		if (!s)
			return -ENOMEM;
		nlen = strlen(s->name) + 1;
		if (nlen > 512)
			continue;
		/*
		 * A bracketed module map first: the KSYMBOL then adds its symbol to that map
		 * instead of creating a DSO named after the program, on which perf 6.1 runs
		 * addr2line for `report --branch-history` and dies of SIGPIPE when it fails.
		 */
		snprintf(mname, sizeof(mname), "[%s]", s->name);
		err = emit_kmmap(pl, s->addr, s->size ? s->size : 1, 0, mname);
		if (err)
			return err;
		/* addr, len, ksym_type 1 (BPF), flags 0, name */
		*(__u64 *)body = s->addr;
		*(__u32 *)(body + 8) = s->size ? s->size : 1;
		*(__u16 *)(body + 12) = 1;
		*(__u16 *)(body + 14) = 0;
		memset(body + 16, 0, ALIGN(nlen, 8));
		memcpy(body + 16, s->name, nlen);
		n = 8 + 16 + ALIGN(nlen, 8);
		n += put_trailer(&pl->evs[pl->nr_evs - 1], (__u64 *)((char *)pl->buf + n), 0, 0, 0, 0);
		err = emit(pl, PERF_RECORD_KSYMBOL, PERF_RECORD_MISC_KERNEL, n, 0);
		if (err)
			return err;
	}
	return 0;
}

static struct comm_slot *comm_slot(struct perf_lbr *pl, __u32 tid)
{
	size_t i, mask;

	if (pl->nr_comms * 2 >= pl->comm_cap) {
		struct comm_slot *old = pl->comms, *n;
		size_t old_cap = pl->comm_cap;

		pl->comm_cap = old_cap ? old_cap * 2 : 256;
		pl->comms = calloc(pl->comm_cap, sizeof(*pl->comms));
		if (!pl->comms) {
			pl->comms = old;
			pl->comm_cap = old_cap;
			return NULL;
		}
		pl->nr_comms = 0;
		for (i = 0; i < old_cap; i++) {
			if (!old[i].used)
				continue;
			n = comm_slot(pl, old[i].tid);
			*n = old[i];
		}
		free(old);
	}
	mask = pl->comm_cap - 1;
	for (i = (tid * 2654435761u) & mask; pl->comms[i].used; i = (i + 1) & mask) {
		if (pl->comms[i].tid == tid)
			return &pl->comms[i];
	}
	pl->comms[i].used = true;
	pl->comms[i].tid = tid;
	pl->comms[i].comm[0] = '\0';
	pl->nr_comms++;
	return &pl->comms[i];
}

/* ev's thread name, if it is new, at time (the sample's that follows) */
static int emit_comm(struct perf_lbr *pl, const struct lbrsnap_event *ev, __u64 time)
{
	const struct lbr_event *e = &pl->evs[ev->ap];
	char *body = (char *)(pl->buf + 1);
	char comm[TEXT_ESCAPE_LEN(LBRSNAP_COMM_LEN)];
	struct comm_slot *slot;
	size_t len, n;

	slot = comm_slot(pl, ev->tid);
	if (!slot)
		return -ENOMEM;
	if (!strncmp(slot->comm, ev->comm, LBRSNAP_COMM_LEN))
		return 0;
	memcpy(slot->comm, ev->comm, LBRSNAP_COMM_LEN);
	slot->comm[LBRSNAP_COMM_LEN - 1] = '\0';
	if (pl->known && pl->known(ev->tid, pl->ctx))
		return 0;
	/* perf script prints the comm as it is: a newline in it would forge a line */
	len = text_escape(comm, sizeof(comm), slot->comm, LBRSNAP_COMM_LEN) + 1;
	*(__u32 *)body = ev->pid;
	*(__u32 *)(body + 4) = ev->tid;
	memset(body + 8, 0, ALIGN(len, 8));
	memcpy(body + 8, comm, len);
	n = 8 + 8 + ALIGN(len, 8);
	n += put_trailer(e, (__u64 *)((char *)pl->buf + n), ev->pid, ev->tid, time, ev->cpu);
	return emit(pl, PERF_RECORD_COMM, 0, n, time);
}

/*
 * The sample shows what lbrsnap report shows: the callchain and branch stack without the
 * tracing path's entries (unless keep_all), which go to the RAW tail instead, so that the
 * file still holds every captured address.
 */
static int emit_sample(struct perf_lbr *pl, const struct lbr_record *rec)
{
	const struct lbrsnap_event *ev = rec->ev;
	const struct lbr_event *e = &pl->evs[ev->ap];
	struct lbr_record_view *v = &pl->view;
	/* the RAW rows read the view only */
	const struct lbr_fields_extra *x __attribute__((unused)) = NULL;
	__u64 st = e->attr.sample_type, *p = pl->buf + 1;
	unsigned int off, room, i, nu, nr_br, nr_st;
	const __u64 *stack;
	struct lbr_perf_raw *payload;
	__u32 *raw_size;
	char *buf;

	lbr_record_view__init(v, pl->cap, pl->ks, rec, pl->keep_all ? LBR_VIEW_KEEP_ALL : 0);
	nr_br = v->branches.len / sizeof(*rec->branches);
	nr_st = v->stack.len / 8;
	stack = v->stack.p;
	*p++ = e->id;						/* IDENTIFIER */
	*p++ = nr_st ? stack[0] :				/* IP */
	       e->ip ? e->ip : nr_br ? rec->branches[v->skip_branches].from : 0;
	*p++ = (__u64)ev->tid << 32 | ev->pid;			/* TID */
	*p++ = ev->time_ns;					/* TIME */
	*p++ = ev->cpu;						/* CPU */
	*p++ = 1;						/* PERIOD */
	if (st & PERF_SAMPLE_CALLCHAIN) {
		/* the user frames as report has them: not the data a frame-pointer walk read on */
		nu = v->nr_user_frames;
		*p++ = (nr_st ? nr_st + 1 : 0) + (nu ? nu + 1 : 0);
		if (nr_st)
			*p++ = PERF_CONTEXT_KERNEL;
		for (i = 0; i < nr_st; i++)
			*p++ = stack[i];
		/* the user part follows the kernel's, as perf record's callchains have it */
		if (nu)
			*p++ = PERF_CONTEXT_USER;
		for (i = 0; i < nu; i++)
			*p++ = rec->ustack->ip[i];
	}
	raw_size = (__u32 *)p;
	payload = (struct lbr_perf_raw *)(raw_size + 1);
	buf = (char *)payload;
	memset(payload, 0, e->fields.end > sizeof(*payload) ? e->fields.end : sizeof(*payload));
	payload->c.common_type = e->attr.config;
	payload->c.common_pid = ev->tid;
	off = e->fields.end;
	LBR_PERF_FIELDS(LBR_F_ENCODE)
	room = sizeof(pl->buf) - (buf - (char *)pl->buf) -
	       (ev->nr_branches + 1) * sizeof(*rec->branches) - 8;
	event_fields__encode(&e->fields, v->has_args ? &v->args : NULL, (unsigned char *)buf,
			     &off, room);
	/* u32 size + payload end 8-aligned */
	while ((4 + off) % 8)
		buf[off++] = 0;
	*raw_size = off;
	p = (__u64 *)(buf + off);
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		*p++ = nr_br;
		memcpy(p, v->branches.p, v->branches.len);
		p += nr_br * 3;
	}
	return emit(pl, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (char *)p - (char *)pl->buf,
		    ev->time_ns);
}

/* Call idx of rec as an lbr:call sample at its entry time, with the record's task and CPU */
static int emit_call(struct perf_lbr *pl, const struct lbr_record *rec, unsigned int idx)
{
	const struct lbrsnap_event *ev = rec->ev;
	const struct lbr_event *e = &pl->evs[pl->nr_aps];
	struct lbr_record_view *v = &pl->view;
	struct lbr_fields_extra xs = { 0 }, *x = &xs;
	char func[128], result[LBR_RET_LEN + 24], nr_name[24];
	const struct ksym *sym = NULL;
	struct lbr_perf_call_raw *payload;
	__u64 *p = pl->buf + 1;
	unsigned int off;
	__u32 *raw_size;
	char *buf;
	int err;

	lbr_record_view__init(v, pl->cap, pl->ks, rec, LBR_VIEW_RET_ONLY);
	/* a raw_tp:sys_exit scope's own frame (id 0) is named by its syscall: its args block */
	v->syscall = rec->calls->call[idx].func ? NULL :
		     lbr_args__syscall(pl->cap, v->ap, rec, nr_name, sizeof(nr_name));
	x->call = &v->calls->call[idx];
	x->idx = idx;
	x->func = lbr_record_view__call_name(v, idx, func, sizeof(func));
	x->result = lbr_record_view__call_result(v, idx, result, sizeof(result));
	x->err = lbr_record_view__call_errno(v, idx);
	err = emit_comm(pl, ev, x->call->start_ns);
	if (err)
		return err;
	/* a kernel function's address, for perf's symbol columns; a user one's is not known */
	if (v->ap && !lbr_kind__is_user(v->ap->kind))
		sym = ksyms__by_name(pl->ks, func);
	*p++ = e->id;						/* IDENTIFIER */
	*p++ = sym ? sym->addr : 0;				/* IP */
	*p++ = (__u64)ev->tid << 32 | ev->pid;			/* TID */
	*p++ = x->call->start_ns;				/* TIME */
	*p++ = ev->cpu;						/* CPU */
	*p++ = 1;						/* PERIOD */
	raw_size = (__u32 *)p;
	payload = (struct lbr_perf_call_raw *)(raw_size + 1);
	buf = (char *)payload;
	memset(payload, 0, sizeof(*payload));
	payload->c.common_type = e->attr.config;
	payload->c.common_pid = ev->tid;
	off = sizeof(*payload);
	if (strlen(v->attach) > 4096)
		return -EINVAL;
	LBR_PERF_CALL_FIELDS(LBR_F_ENCODE)
	while ((4 + off) % 8)
		buf[off++] = 0;
	*raw_size = off;
	p = (__u64 *)(buf + off);
	return emit(pl, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, (char *)p - (char *)pl->buf,
		    x->call->start_ns);
}

/* Marks pid; true when its MMAP2s were out already (or no memory to remember it) */
static bool mmap_pid_done(struct perf_lbr *pl, __u32 pid)
{
	return u32_set__add(&pl->mmap_pids, pid) != 0;
}

/*
 * A user MMAP2 as perf record writes it, with the build id the capture read (perf checks
 * the file it finds against it), else the device and inode.
 */
static int emit_mmap2(struct perf_lbr *pl, const struct lbr_event *e,
		      const struct lbrsnap_event *ev, const struct lbrfile_map *m, const char *path)
{
	char *body = (char *)(pl->buf + 1);
	size_t nlen = strlen(path) + 1, n;
	__u16 misc = PERF_RECORD_MISC_USER;

	if (nlen > 4096)
		return 0;
	memset(body, 0, 64 + ALIGN(nlen, 8));
	*(__u32 *)body = ev->pid;
	*(__u32 *)(body + 4) = ev->pid;
	*(__u64 *)(body + 8) = m->start;
	*(__u64 *)(body + 16) = m->end - m->start;
	*(__u64 *)(body + 24) = m->pgoff;
	if (m->build_id_size) {
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		body[32] = m->build_id_size;
		memcpy(body + 36, m->build_id, m->build_id_size);
	} else {
		*(__u32 *)(body + 32) = m->dev_major;
		*(__u32 *)(body + 36) = m->dev_minor;
		*(__u64 *)(body + 40) = m->ino;
	}
	/* ino_generation (body + 48) unknown: 0 */
	*(__u32 *)(body + 56) = m->prot;
	*(__u32 *)(body + 60) = MAP_PRIVATE;
	memcpy(body + 64, path, nlen);
	n = 8 + 64 + ALIGN(nlen, 8);
	n += put_trailer(e, (__u64 *)((char *)pl->buf + n), ev->pid, ev->pid, ev->time_ns,
			 ev->cpu);
	return emit(pl, PERF_RECORD_MMAP2, misc, n, ev->time_ns);
}

/* The maps of the record's process, before its first sample, older sections first */
static int emit_user_maps(struct perf_lbr *pl, const struct lbr_record *rec)
{
	const struct lbr_event *e = &pl->evs[rec->ev->ap];
	size_t i, nr = lbrfile__nr_procs(pl->cap);
	struct lbr_proc p;
	__u32 j;
	int err;

	if (!nr || mmap_pid_done(pl, rec->ev->pid))
		return 0;
	for (i = 0; i < nr; i++) {
		if (lbrfile__proc(pl->cap, i, &p) || p.pid != rec->ev->pid)
			continue;
		for (j = 0; j < p.nr_maps; j++) {
			err = emit_mmap2(pl, e, rec->ev, &p.maps[j], lbr_proc__path(&p, j));
			if (err)
				return err;
		}
	}
	return 0;
}

static int emit_record(const struct lbr_record *rec, void *ctx)
{
	struct perf_lbr *pl = ctx;
	int err;

	if (rec->ev->ap >= pl->nr_aps) {
		pl->nr_bad_ap++;
		return 0;
	}
	err = emit_comm(pl, rec->ev, rec->ev->time_ns);
	if (!err)
		err = emit_user_maps(pl, rec);
	if (err)
		return err;
	return emit_sample(pl, rec);
}

static int emit_losses(struct perf_lbr *pl)
{
	size_t i, n;
	int c;
	__u64 count;
	int err;

	/* clobbered records were kept (flag in their raw data): every other cause is lost */
	for (i = 0; i < pl->nr_evs; i++) {
		for (c = 0; c < LBRSNAP_LOSS__MAX; c++) {
			count = lbrsnap_loss__drops_record(c) ? lbrfile__loss(pl->cap, i, c) : 0;
			if (!count)
				continue;
			pl->buf[1] = pl->evs[i].id;
			pl->buf[2] = count;
			n = 3 * 8;
			n += put_trailer(&pl->evs[i], pl->buf + 3, 0, 0, pl->last_time, 0);
			err = emit(pl, PERF_RECORD_LOST, 0, n, pl->last_time);
			if (err)
				return err;
		}
	}
	return 0;
}

void perf_lbr__set_emit(struct perf_lbr *pl, perf_lbr_known_fn known, perf_lbr_emit_fn fn,
			void *ctx)
{
	pl->fn = fn;
	pl->known = known;
	pl->ctx = ctx;
}

int perf_lbr__emit_begin(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
			 perf_lbr_emit_fn fn, void *ctx)
{
	int err = 0;

	perf_lbr__set_emit(pl, known, fn, ctx);
	pl->nr_comms = 0;
	pl->nr_bad_ap = 0;
	u32_set__clear(&pl->mmap_pids);
	lbrfile_cursor__free(pl->next);
	pl->next = NULL;
	pl->has_next = false;
	lbrfile_cursor__free(pl->calls_it);
	pl->calls_it = NULL;
	pl->has_calls_rec = pl->calls_done = false;
	pl->calls_seq = pl->nr_crefs = 0;
	if (pl->comms)
		memset(pl->comms, 0, pl->comm_cap * sizeof(*pl->comms));
	if (kernel_mmap)
		err = emit_kernel_mmap(pl);
	if (!err)
		err = emit_ksymbols(pl);
	return err;
}

/* The calls that entered up to limit, and before the record at next_time */
static int emit_calls_until(struct perf_lbr *pl, __u64 limit, __u64 next_time)
{
	__u64 t = limit < next_time ? limit : next_time;
	struct call_ref c;
	int err;

	if (pl->nr_tps == pl->nr_aps)
		return 0;
	err = read_calls_until(pl, t);
	while (!err && pl->nr_crefs && pl->crefs[0].time <= t) {
		c = cref_heap__pop(pl->crefs, &pl->nr_crefs);
		err = emit_call(pl, &c.rec, c.idx);
	}
	return err;
}

int perf_lbr__emit_until(struct perf_lbr *pl, __u64 limit)
{
	int err = pl->next ? 0 : lbrfile_cursor__new(pl->cap, -1, &pl->next);

	/* records are converted as they are written: the cursor holds a bounded few */
	while (!err) {
		if (!pl->has_next) {
			err = lbrfile_cursor__next(pl->next, &pl->next_rec);
			if (err == -ENOENT)
				return emit_calls_until(pl, limit, ~0ULL);
			if (err)
				return err;
			pl->has_next = true;
		}
		if (pl->next_rec.ev->time_ns > limit)
			break;
		/* a call entered before the scope ended: its sample goes first */
		err = emit_calls_until(pl, limit, pl->next_rec.ev->time_ns);
		if (err)
			return err;
		pl->has_next = false;
		err = emit_record(&pl->next_rec, pl);
	}
	return err ? err : emit_calls_until(pl, limit, ~0ULL);
}

int perf_lbr__emit_end(struct perf_lbr *pl)
{
	int err = perf_lbr__emit_until(pl, ~0ULL) ?: emit_losses(pl);

	if (pl->nr_bad_ap)
		pr_warn("warning: %llu records name no attach point of the capture and were "
			"left out\n", (unsigned long long)pl->nr_bad_ap);
	return err;
}

int perf_lbr__emit(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
		   perf_lbr_emit_fn fn, void *ctx)
{
	return perf_lbr__emit_begin(pl, kernel_mmap, known, fn, ctx) ?: perf_lbr__emit_end(pl);
}

int perf_lbr__save_kallsyms(const struct perf_lbr *pl, const char *path)
{
	struct out_file out;
	int err;

	err = out_file__open(&out, path);
	if (!err)
		err = write_all(out.fd, pl->kallsyms, pl->kallsyms_len);
	if (!err)
		err = out_file__commit(&out);
	if (err)
		pr_warn("%s: cannot write: %s: the kallsyms copy is not saved\n", path,
			strerror(-err));
	out_file__abort(&out);
	return err;
}
