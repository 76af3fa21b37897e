// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Builds the metadata of the output (the recording's, or tracefs headers for a capture
 * alone, plus the lbr system), then streams each buffer's CPUs through the page encoder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/kbuffer.h>
#include "lbrfile/capture-match.h"
#include "lbrfile/lbrfile.h"
#include "tracedat-lbr/cpu-copier.h"
#include "tracedat-lbr/lbr-encoder.h"
#include "tracedat-lbr/tracedat-fgraph.h"
#include "tracedat-lbr/tracedat-formats.h"
#include "tracedat/tracedat-check.h"
#include "tracedat/tracedat-input.h"
#include "tracedat/tracedat-live.h"
#include "tracedat-lbr/tracedat-merge.h"
#include "tracedat/tracedat-pages.h"
#include "tracedat/tracedat-writer.h"
#include "util/align.h"
#include "util/print.h"
#include "util/text-escape.h"

/* A task of the capture, with the comm of its first record (first in CPU, then time, order) */
struct task_first {
	__u32 tid;
	unsigned int cpu;
	__u64 time_ns;			/* its record's time, then place in the file */
	size_t idx;
	char comm[LBRSNAP_COMM_LEN];
};

/* A CPU's first capture record as the encoder sends them (time, then file order) */
struct cpu_first {
	__u64 time_ns;			/* its own time */
	__u64 first_ns;			/* its events' earliest (lbr_record__first_ns()) */
};

/* Tasks by tid, open addressing: memory grows with the tasks, not the records */
struct task_table {
	struct task_first *v;
	size_t nr;
	size_t cap;			/* a power of two; tid 0 is a task too, so used says */
	bool *used;
};

/*
 * A CPU's lbr and funcgraph events not written yet, in time order (equal times in the order
 * they came): a record's calls start before its time, so the recorded events and the other
 * records' events that fall between go in between.
 */
struct lbr_pending {
	__u64 ts;
	size_t off;			/* in the queue's data */
	unsigned int len;
};

struct lbr_queue {
	struct lbr_pending *v;
	size_t head, nr, alloc;
	unsigned char *data;
	size_t used, cap;
	__u64 last_ts;			/* the CPU's last event written */
};

struct merge {
	struct lbrfile *cap;
	struct ksyms *ks;		/* the capture's kallsyms: tells the tracing path */
	struct usyms *us;		/* user frames' names (--user-stack captures) */
	struct tracecmd_input *in;
	/*
	 * Uncompressed recorded pages are read here, not through libtracecmd: a run of events
	 * before the next lbr record is a whole page copied as it is.
	 */
	int in_fd;
	bool in_sparse;			/* it has holes: read, never mapped */
	const char *input;
	const char *output;
	bool damaged;			/* a page failed its check as it was read: err says */
	struct tracedat_cpu_table layout;
	struct kbuffer *kbuf;
	unsigned char *rbuf;
	struct tracedat_meta meta;
	struct tracedat_writer *w;
	size_t *cpu_nr;			/* the capture's records per CPU */
	struct cpu_first *cpu_first;	/* per CPU: its first record in time order */
	unsigned int nr_cap_cpus;
	size_t next_idx;		/* collect(): index of the record it is given */
	int collect_err;		/* collect()'s error, told from the capture's own */
	struct task_table tasks;
	struct tracedat_merge_stats *st;
	struct tracedat_pages *pages;
	struct event_fields *fields;	/* per attach point: its argument event's fields */
	size_t nr_fields;
	/* --calls: the funcgraph layout written, the functions' addresses per attach point */
	bool has_calls;
	struct tracedat_fgraph fg;
	__u64 **call_addrs;
	size_t *nr_call_addrs;
	struct lbr_queue q;		/* the CPU being written's */
	struct page_event *evs;		/* the page's events since the last capture event */
	size_t nr_evs, max_evs;
	/* the capture's records, encoded on a second CPU while this thread copies the recording */
	struct lbr_encoder enc;
	/* the top buffer's pages that go out as they are, copied beside the encoding */
	struct cpu_copier copier;
	struct cpu_copy *copies;
	/*
	 * What libtracecmd adds to the recorded time stamps (DATE, OFFSET options): they are
	 * copied shifted and the options left out, so the lbr events are shifted alike.
	 */
	long long ts_offset;
	unsigned int flags;		/* TRACEDAT_WRITE_* */
	struct capture_origin cap_at;	/* the capture's records' time range */
	struct capture_origin rec_at;	/* the top buffer's recorded events' */
	char rec_release[128];
	char *err;
	size_t errlen;
};

static int fail(struct merge *mg, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct merge *mg, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mg->err, mg->errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static int task_table__grow(struct task_table *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256, i, h;
	struct task_first *v = calloc(cap, sizeof(*v));
	bool *used = calloc(cap, sizeof(*used));

	if (!v || !used) {
		free(v);
		free(used);
		return -ENOMEM;
	}
	for (i = 0; i < t->cap; i++) {
		if (!t->used[i])
			continue;
		for (h = (t->v[i].tid * 2654435761u) & (cap - 1); used[h]; h = (h + 1) & (cap - 1))
			;
		used[h] = true;
		v[h] = t->v[i];
	}
	free(t->v);
	free(t->used);
	t->v = v;
	t->used = used;
	t->cap = cap;
	return 0;
}

/* Whether ev (the idx-th record of the file) comes before e in CPU, then time, order */
static bool first_before(const struct lbrsnap_event *ev, size_t idx, const struct task_first *e)
{
	if (ev->cpu != e->cpu)
		return ev->cpu < e->cpu;
	if (ev->time_ns != e->time_ns)
		return ev->time_ns < e->time_ns;
	return idx < e->idx;
}

/* Keeps, per task, its record that comes first in CPU then time order. */
static int task_table__see(struct task_table *t, const struct lbrsnap_event *ev, size_t idx)
{
	struct task_first *e;
	size_t h;

	if ((t->nr + 1) * 2 > t->cap && task_table__grow(t))
		return -ENOMEM;
	for (h = (ev->tid * 2654435761u) & (t->cap - 1); t->used[h]; h = (h + 1) & (t->cap - 1)) {
		e = &t->v[h];
		if (e->tid != ev->tid)
			continue;
		if (first_before(ev, idx, e)) {
			e->cpu = ev->cpu;
			e->time_ns = ev->time_ns;
			e->idx = idx;
			memcpy(e->comm, ev->comm, sizeof(e->comm));
		}
		return 0;
	}
	t->used[h] = true;
	e = &t->v[h];
	e->tid = ev->tid;
	e->cpu = ev->cpu;
	e->time_ns = ev->time_ns;
	e->idx = idx;
	memcpy(e->comm, ev->comm, sizeof(e->comm));
	t->nr++;
	return 0;
}

static int collect_one(const struct lbr_record *rec, void *ctx)
{
	struct merge *mg = ctx;
	unsigned int cpu = rec->ev->cpu;
	size_t idx = mg->next_idx++;

	/* lbr_record__parse() bounds cpu, so cpu + 1 cannot wrap; checked again all the same */
	if (cpu >= LBRFILE_MAX_CPUS)
		return -EINVAL;
	if (idx > UINT32_MAX)
		return -E2BIG;
	if (cpu >= mg->nr_cap_cpus) {
		size_t *n = realloc(mg->cpu_nr, (cpu + 1) * sizeof(*n));
		struct cpu_first *f;

		if (!n)
			return -ENOMEM;
		memset(n + mg->nr_cap_cpus, 0, (cpu + 1 - mg->nr_cap_cpus) * sizeof(*n));
		mg->cpu_nr = n;
		f = realloc(mg->cpu_first, (cpu + 1) * sizeof(*f));
		if (!f)
			return -ENOMEM;
		memset(f + mg->nr_cap_cpus, 0, (cpu + 1 - mg->nr_cap_cpus) * sizeof(*f));
		mg->cpu_first = f;
		mg->nr_cap_cpus = cpu + 1;
	}
	/* file order here: an equal time keeps the one met first, as the encoder's sort does */
	if (!mg->cpu_nr[cpu] || rec->ev->time_ns < mg->cpu_first[cpu].time_ns)
		mg->cpu_first[cpu] = (struct cpu_first){ .time_ns = rec->ev->time_ns,
							 .first_ns = lbr_record__first_ns(rec) };
	if (task_table__see(&mg->tasks, rec->ev, idx))
		return -ENOMEM;
	if (!mg->cap_at.last_ns || rec->ev->time_ns < mg->cap_at.first_ns)
		mg->cap_at.first_ns = rec->ev->time_ns;
	if (rec->ev->time_ns > mg->cap_at.last_ns)
		mg->cap_at.last_ns = rec->ev->time_ns;
	mg->cpu_nr[cpu]++;
	return 0;
}

/* Called as the capture is opened */
static int collect(const struct lbr_record *rec, void *ctx)
{
	struct merge *mg = ctx;

	mg->collect_err = collect_one(rec, mg);
	return mg->collect_err;
}

static int open_capture(struct merge *mg, const char *path)
{
	const char *clock;
	unsigned int ap;
	int err;

	/* file order: what is kept per task does not depend on the order they are met in */
	err = lbrfile__open_each(path, collect, mg, &mg->cap);
	if (err && mg->collect_err)
		return fail(mg, err, "%s: damaged capture: %s", path, strerror(-err));
	if (err)
		return fail(mg, err, "%s: cannot read capture: %s", path, lbrfile__strerror(err));
	clock = lbrfile__meta(mg->cap, "clock");
	/* "mono", "CLOCK_MONOTONIC", "monotonic": anything else cannot line up with -C mono */
	if (clock && !strcasestr(clock, "mono"))
		return fail(mg, -EINVAL, "%s: capture clock is '%s', not CLOCK_MONOTONIC", path,
			    clock);
	for (ap = 0; ap < lbrfile__nr_attach(mg->cap); ap++) {
		mg->st->lbr_lost += lbrfile__lost(mg->cap, ap);
	}
	return 0;
}

/* CPU, then time, then place in the file: the order the tasks' first records are met in */
static int cmp_first(const void *a, const void *b)
{
	const struct task_first *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

/* The pids a cmdlines text ("pid comm\n" per task) names, sorted. */
static int cmdline_pids(const struct tracedat_blob *cl, __u32 **out, size_t *nr)
{
	const char *p = cl->data, *end = cl->data ? cl->data + cl->len : NULL;
	size_t n = 0, cap = 0;
	__u32 *v = NULL, *nv;
	char *e;

	while (p && p < end && *p) {
		unsigned long pid = strtoul(p, &e, 10);

		if (e != p && *e == ' ' && pid <= UINT32_MAX) {
			if (n == cap) {
				cap = cap ? cap * 2 : 256;
				nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
			}
			v[n++] = pid;
		}
		p = memchr(p, '\n', end - p);
		p = p ? p + 1 : NULL;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_u32);
	*out = v;
	*nr = n;
	return 0;
}

/*
 * Adds the capture's tasks the recording does not name (its own names win), each once with
 * the comm of its first record, in the order those records come.
 */
static int add_cmdlines(struct merge *mg)
{
	struct tracedat_blob *cl = &mg->meta.cmdlines;
	struct task_table *t = &mg->tasks;
	struct tracedat_blob add = { 0 };
	size_t i, nr_known = 0, nr_new = 0;
	__u32 *known = NULL;
	char line[32 + TEXT_ESCAPE_LEN(LBRSNAP_COMM_LEN)];
	char comm[TEXT_ESCAPE_LEN(LBRSNAP_COMM_LEN)];
	int err;

	err = cmdline_pids(cl, &known, &nr_known);
	if (err || !t->nr)
		goto cleanup;
	/* the table's live entries, packed to its front */
	for (i = 0; i < t->cap; i++) {
		if (!t->used[i])
			continue;
		if (nr_known && bsearch(&t->v[i].tid, known, nr_known, sizeof(*known), cmp_u32))
			continue;
		t->v[nr_new++] = t->v[i];
	}
	qsort(t->v, nr_new, sizeof(*t->v), cmp_first);
	for (i = 0; i < nr_new && !err; i++) {
		int len;

		/* one line per task: a newline in a comm would name another pid */
		text_escape(comm, sizeof(comm), t->v[i].comm, LBRSNAP_COMM_LEN);
		len = snprintf(line, sizeof(line), "%u %s\n", t->v[i].tid, comm);

		err = tracedat_blob__append(&add, line, len);
	}
	if (!err && add.len)
		err = tracedat_blob__append(cl, add.data, add.len);
cleanup:
	/* packed: no longer a table */
	free(t->used);
	t->used = NULL;
	t->cap = 0;
	free(add.data);
	free(known);
	return err;
}

/* One event per attach point with arguments: its typed fields (tracedat-formats.h) */
static const char *ap_spec(const void *cap, size_t i)
{
	const struct lbr_attach_point *ap = lbrfile__attach(cap, i);

	return ap ? ap->spec : "";
}

static int add_arg_events(struct merge *mg)
{
	const char *text;
	char name[256];
	size_t i;
	int err = 0;

	mg->nr_fields = lbrfile__nr_attach(mg->cap);
	mg->fields = calloc(mg->nr_fields ?: 1, sizeof(*mg->fields));
	if (!mg->fields)
		return -ENOMEM;
	for (i = 0; i < mg->nr_fields && !err; i++) {
		const struct lbr_attach_point *ap = lbrfile__attach(mg->cap, i);

		event_fields__init(&mg->fields[i], ap, sizeof(__u64));
		if (!ap)
			continue;
		event_fields__unique_name(ap_spec, mg->cap, i, name, sizeof(name));
		text = tracedat_format__args(ap, name, &mg->fields[i], &err);
		if (text)
			err = tracedat_meta__add_system(&mg->meta, TRACEDAT_LBR_SYSTEM, 1, &text);
		free((char *)text);
	}
	return err;
}

/* The ftrace format text named name ("funcgraph_entry") of the recording, NUL-terminated */
static char *recorded_format(const struct tracedat_meta *m, const char *name)
{
	char want[64];
	size_t n = snprintf(want, sizeof(want), "name: %s\n", name);
	int i;

	for (i = 0; i < m->nr_ftrace; i++) {
		const struct tracedat_blob *b = &m->ftrace[i];

		if (b->len > n && !memcmp(b->data, want, n))
			return strndup(b->data, b->len);
	}
	return NULL;
}

static int add_ftrace_format(struct tracedat_meta *m, const char *text)
{
	struct tracedat_blob *v = realloc(m->ftrace, (m->nr_ftrace + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	m->ftrace = v;
	memset(&v[m->nr_ftrace], 0, sizeof(*v));
	if (tracedat_blob__set(&v[m->nr_ftrace], text, strlen(text)))
		return -ENOMEM;
	m->nr_ftrace++;
	return 0;
}

/*
 * --calls: the funcgraph layout. A merge writes in the recording's own formats; a convert in
 * the capture's (the recording kernel's), which go into the file's ftrace section.
 */
static bool format_id_taken(const struct tracedat_meta *m, long id);

static int fgraph_setup(struct merge *mg, const char *input, const char *capture)
{
	char *entry, *exit;
	int err;

	mg->has_calls = tracedat_fgraph__capture_has_calls(mg->cap);
	if (!mg->has_calls)
		return 0;
	if (format_id_taken(&mg->meta, TRACEDAT_ID_CALLS))
		return fail(mg, -EEXIST, "%s: event id %d is taken", input ?: capture,
			    TRACEDAT_ID_CALLS);
	if (!input) {
		err = tracedat_fgraph__from_capture(&mg->fg, mg->cap);
		if (err)
			return fail(mg, err, "%s: its saved funcgraph formats cannot be written: "
				    "%s", capture, mg->fg.why);
		if (mg->fg.builtin)
			pr_warn("%s: no funcgraph formats saved (%s): calls written in the "
				"built-in Linux 6.1 layout\n", capture, mg->fg.why);
		return add_ftrace_format(&mg->meta, mg->fg.entry_text) ?:
		       add_ftrace_format(&mg->meta, mg->fg.exit_text);
	}
	entry = recorded_format(&mg->meta, "funcgraph_entry");
	exit = recorded_format(&mg->meta, "funcgraph_exit");
	err = entry && exit ? tracedat_fgraph__parse(&mg->fg, entry, exit) : -ENOENT;
	free(entry);
	free(exit);
	if (err == -ENOENT)
		return fail(mg, -EINVAL, "%s: no ftrace funcgraph_entry and funcgraph_exit formats: "
			    "the calls of %s (--calls) cannot be written in its layout", input,
			    capture);
	if (err)
		return fail(mg, err, "%s: its funcgraph formats cannot be written: %s", input,
			    mg->fg.why);
	return 0;
}

/*
 * The lbr:calls event; each attach point's call functions' addresses, user ones named in the
 * file's kallsyms
 */
static int add_call_addrs(struct merge *mg)
{
	const char *calls = tracedat_fgraph_calls_format;
	size_t ap;
	int err;

	if (tracedat_meta__add_system(&mg->meta, TRACEDAT_LBR_SYSTEM, 1, &calls))
		return -ENOMEM;

	mg->call_addrs = calloc(mg->nr_fields ?: 1, sizeof(*mg->call_addrs));
	mg->nr_call_addrs = calloc(mg->nr_fields ?: 1, sizeof(*mg->nr_call_addrs));
	if (!mg->call_addrs || !mg->nr_call_addrs)
		return -ENOMEM;
	for (ap = 0; ap < mg->nr_fields; ap++) {
		err = tracedat_fgraph__addrs(mg->cap, mg->ks, ap, &mg->call_addrs[ap],
					     &mg->nr_call_addrs[ap]);
		if (err)
			return err;
	}
	return tracedat_fgraph__user_kallsyms(mg->cap, &mg->meta.kallsyms);
}

static int add_lbr_system(struct merge *mg)
{
	const char *texts[TRACEDAT_NR_FORMATS];
	size_t len;
	const char *ks;
	int i;

	if (tracedat_formats__check())
		return fail(mg, -EINVAL, "internal error: lbr event formats do not parse");
	for (i = 0; i < TRACEDAT_NR_FORMATS; i++)
		texts[i] = tracedat_format(i);
	if (tracedat_meta__add_system(&mg->meta, TRACEDAT_LBR_SYSTEM, TRACEDAT_NR_FORMATS, texts))
		return -ENOMEM;
	if (add_arg_events(mg))
		return -ENOMEM;
	/*
	 * kallsyms taken at the end of the capture also name BPF programs and trampolines;
	 * written from the capture as they are (it stays open until the output is written)
	 */
	ks = lbrfile__kallsyms(mg->cap, &len);
	if (ks && len)
		tracedat_blob__borrow(&mg->meta.kallsyms, ks, len);
	/* only the calls' addresses need them here; else the encoder parses them (7 ms) */
	if (ks && len && mg->has_calls && ksyms__parse_borrowed(ks, len, &mg->ks))
		return fail(mg, -EINVAL, "the capture's kallsyms cannot be parsed");
	if (mg->has_calls && add_call_addrs(mg))
		return -ENOMEM;
	if (mg->nr_cap_cpus > mg->meta.nr_cpus)
		mg->meta.nr_cpus = mg->nr_cap_cpus;
	return add_cmdlines(mg);
}

static int meta_from_capture(struct merge *mg)
{
	struct tracedat_meta *m = &mg->meta;
	const char *v;
	char uname[256];
	int err;

	m->page_size = 4096;
	v = lbrfile__meta(mg->cap, "nr_cpus");
	m->nr_cpus = v ? strtoul(v, NULL, 10) : 0;
	if (!m->nr_cpus || m->nr_cpus > 8192)
		m->nr_cpus = 1;
	err = tracedat_live__headers(m);
	if (err < 0)
		return fail(mg, err, "cannot set up ring-buffer headers");
	snprintf(uname, sizeof(uname), "Linux %s %s", lbrfile__meta(mg->cap, "hostname") ?: "-",
		 lbrfile__meta(mg->cap, "release") ?: "-");
	err = tracedat_meta__add_str_option(m, TRACEDAT_OPT_TRACECLOCK, "[mono]") ?:
	      tracedat_meta__add_str_option(m, TRACEDAT_OPT_UNAME, uname) ?:
	      tracedat_meta__add_buffer(m, "", "mono");
	return err ? fail(mg, err, "out of memory") : 0;
}

/* The recording's kernel release (its UNAME option) against the capture's. */
static int check_release(struct merge *mg, const char *input)
{
	struct capture_origin cap = { .release = lbrfile__meta(mg->cap, "release") };
	struct capture_origin rec = { .release = mg->rec_release };
	char why[256];
	int i;

	for (i = 0; i < mg->meta.nr_options; i++) {
		const struct tracedat_option *o = &mg->meta.options[i];

		if (o->id == TRACEDAT_OPT_UNAME)
			capture_match__uname_release(o->data, o->size, mg->rec_release,
						     sizeof(mg->rec_release));
	}
	if (mg->flags & TRACEDAT_WRITE_FORCE || !capture_match__check(&cap, &rec, why, sizeof(why)))
		return 0;
	return fail(mg, -EXDEV, "%s: not recorded with the capture: %s; --force merges all the "
		    "same", input, why);
}

/* The "ID: N" line of an event format text */
static long format_id(const struct tracedat_blob *b)
{
	const char *p = b->data, *end = p ? p + b->len : NULL;

	for (; p && end - p > 4; p = memchr(p, '\n', end - p), p = p ? p + 1 : NULL) {
		if (!memcmp(p, "ID: ", 4))
			return strtol(p + 4, NULL, 10);
	}
	return -1;
}

/* Whether an event of the recording (ftrace's or a system's) has this id */
static bool format_id_taken(const struct tracedat_meta *m, long id)
{
	int s, i;

	for (i = 0; i < m->nr_ftrace; i++) {
		if (format_id(&m->ftrace[i]) == id)
			return true;
	}
	for (s = 0; s < m->nr_systems; s++) {
		for (i = 0; i < m->systems[s].nr; i++) {
			if (format_id(&m->systems[s].formats[i]) == id)
				return true;
		}
	}
	return false;
}

static const struct tracedat_cpu_data *raw_pages(struct merge *mg, int buffer, unsigned int cpu);

/* Whether every CPU of every buffer is read as pages here, libtracecmd not needed */
static bool all_raw(struct merge *mg)
{
	const struct tracedat_cpu_data *d;
	unsigned int cpu;
	int b;

	if (mg->in_fd < 0 || mg->layout.converted)
		return false;
	for (b = 0; b < mg->meta.nr_buffers; b++) {
		for (cpu = 0; cpu < mg->meta.nr_cpus; cpu++) {
			d = tracedat_cpu_table__find(&mg->layout, mg->meta.buffers[b].name, cpu);
			/* a CPU the file has no data for has no events */
			if (d && !raw_pages(mg, b, cpu))
				return false;
		}
	}
	return true;
}

static int meta_from_recording(struct merge *mg, const char *input)
{
	struct tracedat_meta *m = &mg->meta;
	const char *ks;
	size_t len;
	struct tracedat_input_info info;
	struct stat st;
	struct tep_handle *tep;
	int err;
	int i;

	/* the pages walked here are checked as they are copied: the input is read once */
	mg->layout.pages_later = true;
	/* the capture's kallsyms replace the recording's, which is then not copied */
	ks = lbrfile__kallsyms(mg->cap, &len);
	if (ks && len)
		tracedat_blob__borrow(&m->kallsyms, ks, len);
	mg->input = input;
	err = tracedat_input__read_layout(input, m, &info, &mg->layout, mg->err, mg->errlen);
	if (err)
		return err;
	mg->st->in_version = info.version;
	snprintf(mg->st->in_compression, sizeof(mg->st->in_compression), "%s", info.compression);
	mg->ts_offset = info.ts_offset;
	if (strcmp(m->buffers[0].clock, "mono"))
		return fail(mg, -EINVAL,
			    "%s: recorded with trace clock '%s'; lbrsnap time stamps are "
			    "CLOCK_MONOTONIC, record with `trace-cmd record -C mono`",
			    input, m->buffers[0].clock);
	if (tracedat_meta__find_system(m, TRACEDAT_LBR_SYSTEM))
		return fail(mg, -EEXIST, "%s: already has lbr events (merged before?)", input);
	err = check_release(mg, input);
	if (err)
		return err;
	/* no pages read here when it cannot be opened again: libtracecmd reads them */
	mg->in_fd = open(input, O_RDONLY | O_CLOEXEC);
	/* a file with holes is read, not mapped: a read fault in a tmpfs hole allocates it */
	mg->in_sparse = mg->in_fd >= 0 && !fstat(mg->in_fd, &st) &&
			(__u64)st.st_blocks * 512 < (__u64)st.st_size;
	if (all_raw(mg)) {
		/* libtracecmd parses every format and kallsyms: not needed for the pages */
		for (i = 0; i < TRACEDAT_NR_FORMATS + (int)lbrfile__nr_attach(mg->cap) &&
		     TRACEDAT_ID_SNAPSHOT + i <= TRACEDAT_ID_MAX; i++) {
			if (format_id_taken(m, TRACEDAT_ID_SNAPSHOT + i))
				return fail(mg, -EEXIST, "%s: event id %d is taken", input,
					    TRACEDAT_ID_SNAPSHOT + i);
		}
		return 0;
	}
	/* libtracecmd's kbuffer believes every length word: its pages are checked first */
	err = tracedat_input__check_pages(input, &mg->layout, m->page_size, mg->err, mg->errlen);
	if (err)
		return err;
	/*
	 * tracecmd_open() closes the handle when its CPU data do not read, and that close
	 * dereferences NULL: the steps are taken one by one, and a handle that failed is left
	 * unclosed (tracedat_input__read_meta() refuses such files first; this is the last line)
	 */
	mg->in = tracecmd_open_head(input, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!mg->in)
		return fail(mg, -EINVAL, "%s: libtracecmd cannot read its headers", input);
	if (tracecmd_init_data(mg->in) < 0) {
		mg->in = NULL;
		return fail(mg, -EINVAL, "%s: libtracecmd cannot read its CPU data", input);
	}
	tep = tracecmd_get_tep(mg->in);
	/* the fixed events' IDs, then one per attach point for its arguments */
	for (i = 0; i < TRACEDAT_NR_FORMATS + (int)lbrfile__nr_attach(mg->cap) &&
	     TRACEDAT_ID_SNAPSHOT + i <= TRACEDAT_ID_MAX; i++) {
		if (tep && tep_find_event(tep, TRACEDAT_ID_SNAPSHOT + i))
			return fail(mg, -EEXIST, "%s: event id %d is taken", input,
				    TRACEDAT_ID_SNAPSHOT + i);
	}
	return 0;
}

/* Queues an event in time order, after those of the same time already queued */
static int lbr_queue__add(struct lbr_queue *q, __u64 ts, const void *payload, unsigned int len)
{
	size_t k;

	if (q->nr == q->alloc) {
		size_t alloc = q->alloc ? q->alloc * 2 : 256;
		struct lbr_pending *v = realloc(q->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		q->v = v;
		q->alloc = alloc;
	}
	if (q->used + len > q->cap) {
		size_t cap = q->cap ? q->cap : 65536;
		unsigned char *d;

		while (cap < q->used + len)
			cap *= 2;
		d = realloc(q->data, cap);
		if (!d)
			return -ENOMEM;
		q->data = d;
		q->cap = cap;
	}
	memcpy(q->data + q->used, payload, len);
	for (k = q->nr; k > q->head && q->v[k - 1].ts > ts; k--)
		;
	memmove(q->v + k + 1, q->v + k, (q->nr - k) * sizeof(*q->v));
	q->v[k] = (struct lbr_pending){ .ts = ts, .off = q->used, .len = len };
	q->nr++;
	q->used += len;
	return 0;
}

/* Writes the queued events before ts (all: ~0); none goes back past the CPU's last event */
static int lbr_queue__put_before(struct merge *mg, __u64 ts)
{
	struct lbr_queue *q = &mg->q;
	const struct lbr_pending *e;
	int err;

	for (; q->head < q->nr && (ts == ~0ULL || q->v[q->head].ts < ts); q->head++) {
		e = &q->v[q->head];
		if (e->ts > q->last_ts)
			q->last_ts = e->ts;
		err = tracedat_pages__add(mg->pages, q->last_ts, q->data + e->off, e->len, 0);
		if (err)
			return err;
	}
	if (q->head == q->nr)
		q->head = q->nr = q->used = 0;
	return 0;
}

/*
 * Whether an event's payload size fits a page. kbuffer gives a length word below 4 as a size
 * near 4 GiB: compressed pages are not checked before (tracedat-check.h), so each event is.
 */
static bool recorded_size_ok(const struct merge *mg, int size)
{
	return size > 0 && (unsigned int)size <= mg->meta.page_size - TRACEDAT_PAGE_HEADER;
}

/*
 * nr recorded events written, the first at first_ns, the last at last_ns; missed: events
 * were lost before them. The CPU's last time and the top buffer's range follow them.
 */
static void recorded_written(struct merge *mg, int buffer, __u64 first_ns, __u64 last_ns,
			     size_t nr, bool missed)
{
	mg->q.last_ts = last_ns;
	mg->st->kernel_events += nr;
	mg->st->kernel_missed += missed;
	if (buffer == 0) {
		if (!mg->rec_at.last_ns || first_ns < mg->rec_at.first_ns)
			mg->rec_at.first_ns = first_ns;
		if (last_ns > mg->rec_at.last_ns)
			mg->rec_at.last_ns = last_ns;
	}
}

/* One recorded event, as libtracecmd or the page walk gives it */
static int put_recorded(struct merge *mg, int buffer, __u64 ts, const void *data, int size,
			long long missed)
{
	int err;

	if (!recorded_size_ok(mg, size))
		return -EMSGSIZE;
	err = tracedat_pages__add(mg->pages, ts, data, size, missed);
	if (err)
		return err;
	recorded_written(mg, buffer, ts, ts, 1, missed != 0);
	return 0;
}

/* A CPU's capture records, as the encoder sent them: the next one's time and events */
struct lbr_cursor {
	unsigned int cpu;
	bool has;			/* item is the next to put */
	const struct lbr_item *item;
};

/* The next record's item; none left (the CPU's end) is no error */
static int lbr_cursor__next(struct merge *mg, struct lbr_cursor *c)
{
	int err = lbr_encoder__next(&mg->enc, c->cpu, &c->item);

	c->has = !err && !c->item->end;
	return err;
}

static int lbr_cursor__init(struct merge *mg, struct lbr_cursor *c, bool has_lbr,
			    unsigned int cpu)
{
	c->cpu = cpu;
	c->has = false;
	return has_lbr ? lbr_cursor__next(mg, c) : 0;
}

/* The cursor's record's events queued (copied: the block goes back) */
static int lbr_cursor__queue(struct merge *mg, const struct lbr_cursor *c)
{
	const struct lbr_item *it = c->item;
	const unsigned char *p = (const void *)(it + 1), *end = p + it->len;
	const struct lbr_item_event *e;
	int err;

	for (; p < end; p += sizeof(*e) + ALIGN(e->len, 8)) {
		e = (const void *)p;
		err = lbr_queue__add(&mg->q, e->ts, e + 1, e->len);
		if (err)
			return err;
	}
	mg->st->lbr_records++;
	mg->st->lbr_events += it->nr_lbr;
	mg->st->call_events += it->nr_calls;
	return 0;
}

/*
 * Puts the capture's events that go before a recorded event at ts (all: ~0): each record is
 * queued when its first event's time comes, the queue written up to the next one's
 */
static int lbr_cursor__put_before(struct merge *mg, struct lbr_cursor *c, __u64 ts)
{
	__u64 next;
	int err;

	for (;;) {
		next = c->has ? c->item->first_ns : ~0ULL;
		err = lbr_queue__put_before(mg, next < ts ? next : ts);
		if (err || next == ~0ULL || (ts != ~0ULL && next >= ts))
			return err;
		err = lbr_cursor__queue(mg, c) ?: lbr_cursor__next(mg, c);
		if (err)
			return err;
	}
}

/* Whether no capture event goes before a recorded event at ts */
static bool lbr_cursor__none_before(struct merge *mg, const struct lbr_cursor *c, __u64 ts)
{
	if (mg->q.head < mg->q.nr && mg->q.v[mg->q.head].ts < ts)
		return false;
	return !c->has || c->item->first_ns >= ts;
}

/* A recorded event of the page being copied event by event, and where its record lies */
struct page_event {
	__u64 ts;
	void *data;
	int len;			/* its payload's */
	unsigned int off, size;		/* its record's, header included, in the page */
	long long missed;
};

/* Whole pages read into rbuf, one after the other, not written yet */
struct page_run {
	const unsigned char *start;
	size_t len;
	__u64 in_off;			/* where start was read from */
	__u64 last_ts;
};

static int page_run__put(struct merge *mg, struct page_run *run)
{
	int err = tracedat_pages__copy_run(mg->pages, run->start, run->len, mg->in_fd,
					   run->in_off, run->last_ts);

	run->len = 0;
	return err;
}

void tracedat_page_times__kbuffer(struct kbuffer *kb, void *page, struct tracedat_page_times *t)
{
	unsigned long long ts;
	void *data;

	tracedat_page_times__init(t);
	kbuffer_load_subbuffer(kb, page);
	t->missed = kbuffer_missed_events(kb) != 0;
	for (data = kbuffer_read_event(kb, &ts); data && t->ordered;
	     data = kbuffer_next_event(kb, &ts))
		tracedat_page_times__add(t, ts);
}

/* Whether the records of page in [from, to) are TIME_EXTENDs alone (8 bytes each) */
static bool only_extends(const unsigned char *page, unsigned int from, unsigned int to)
{
	__u32 word;

	for (; from < to; from += 8) {
		memcpy(&word, page + from, 4);
		if ((word & 31) != KBUFFER_TYPE_TIME_EXTEND || to - from < 8)
			return false;
	}
	return true;
}

/*
 * The events of a page gathered in mg->evs, no capture event between them: each run of them
 * that fits the output page goes as the kernel wrote it (its deltas kept), but for its
 * first event, added at its time after whatever the output page holds. A run stops at a
 * record other than a TIME_EXTEND between two events (an absolute time stamp would not move
 * with the times, padding need not be kept) and where the page is full.
 */
static int put_events(struct merge *mg, int buffer, const unsigned char *page)
{
	const struct page_event *e = mg->evs, *first, *last;
	size_t i, j, n = mg->nr_evs;
	unsigned int start, room;
	int err;

	mg->nr_evs = 0;
	for (i = 0; i < n; i = j) {
		first = &e[i];
		err = put_recorded(mg, buffer, first->ts, first->data, first->len, first->missed);
		if (err)
			return err;
		start = first->off + first->size;
		room = tracedat_pages__room(mg->pages);
		for (j = i + 1; j < n; j++) {
			if (e[j].missed || !recorded_size_ok(mg, e[j].len) ||
			    e[j].off + e[j].size - start > room ||
			    !only_extends(page, e[j - 1].off + e[j - 1].size, e[j].off))
				break;
		}
		if (j == i + 1)
			continue;
		last = &e[j - 1];
		err = tracedat_pages__add_raw(mg->pages, page + start, last->off + last->size - start,
					      last->ts);
		if (err)
			return err;
		recorded_written(mg, buffer, e[i + 1].ts, last->ts, j - i - 1, false);
	}
	return 0;
}

/*
 * One page of the recording (read from in_off), its times t from the check's walk: copied
 * whole when no capture record goes between its events and its times need no shift (added
 * to run, written with the pages next to it), else in runs of events with the capture's
 * records in between (put_events()), after run. Events as libtracecmd gives them (its
 * kbuffer walks the page).
 */
static int copy_page(struct merge *mg, int buffer, struct lbr_cursor *lc, unsigned char *page,
		     __u64 in_off, struct page_run *run, struct tracedat_page_times *t)
{
	unsigned long long ts;
	void *data;
	int err;

	if (!t->known)
		tracedat_page_times__kbuffer(mg->kbuf, page, t);
	if (!t->nr)
		return 0;
	if (t->ordered && !mg->ts_offset && lbr_cursor__none_before(mg, lc, t->last_ns)) {
		if (run->len && run->start + run->len != page) {
			err = page_run__put(mg, run);
			if (err)
				return err;
		}
		if (!run->len) {
			run->start = page;
			run->in_off = in_off;
		}
		run->len += mg->meta.page_size;
		run->last_ts = t->last_ns;
		recorded_written(mg, buffer, t->first_ns, t->last_ns, t->nr, t->missed);
		return 0;
	}
	if (run->len) {
		err = page_run__put(mg, run);
		if (err)
			return err;
	}
	kbuffer_load_subbuffer(mg->kbuf, page);
	mg->nr_evs = 0;
	for (data = kbuffer_read_event(mg->kbuf, &ts); data;
	     data = kbuffer_next_event(mg->kbuf, &ts)) {
		ts += mg->ts_offset;
		/* a capture event goes before this one: the events before it are written first */
		if (!lbr_cursor__none_before(mg, lc, ts)) {
			err = put_events(mg, buffer, page) ?: lbr_cursor__put_before(mg, lc, ts);
			if (err)
				return err;
		}
		mg->evs[mg->nr_evs++] = (struct page_event){
			.ts = ts, .data = data, .len = kbuffer_event_size(mg->kbuf),
			.off = kbuffer_curr_offset(mg->kbuf), .size = kbuffer_curr_size(mg->kbuf),
			.missed = kbuffer_missed_events(mg->kbuf) };
		/* an event's record is 8 bytes at least: a page holds fewer than max_evs */
		if (mg->nr_evs == mg->max_evs) {
			err = put_events(mg, buffer, page);
			if (err)
				return err;
		}
	}
	return put_events(mg, buffer, page);
}

/* A page read here, checked as tracedat_input__read_layout() would have before the copy */
static int check_page(struct merge *mg, int buffer, const struct tracedat_cpu_data *d,
		      const unsigned char *page, size_t index, struct tracedat_page_times *t)
{
	char why[192];

	if (!tracedat_check__page_times(page, mg->meta.page_size, index, t, why, sizeof(why)))
		return 0;
	mg->damaged = true;
	return fail(mg, -EINVAL, "%s: buffer '%s' CPU %u: %s", mg->input,
		    mg->meta.buffers[buffer].name, d->cpu, why);
}

/* A CPU from its uncompressed pages, TRACEDAT_READ_BYTES at a time */
static int copy_cpu_pages(struct merge *mg, int buffer, const struct tracedat_cpu_data *d,
			  __u64 from, struct lbr_cursor *lc)
{
	size_t ps = mg->meta.page_size, chunk = TRACEDAT_READ_BYTES / ps * ps ?: ps;
	size_t n, i, map_len = 0;
	struct tracedat_page_times t;
	struct page_run run = { 0 };
	unsigned char *pages;
	void *map;
	__u64 off;
	int err = 0;

	if (!mg->rbuf) {
		mg->rbuf = malloc(chunk);
		mg->kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
		mg->max_evs = ps / 8;
		mg->evs = calloc(mg->max_evs, sizeof(*mg->evs));
		if (!mg->rbuf || !mg->kbuf || !mg->evs)
			return -ENOMEM;
	}
	for (off = from; off < d->size && !err; off += n) {
		n = d->size - off < chunk ? d->size - off : chunk;
		pages = tracedat_cpu_data__get(d, mg->in_fd, mg->in_sparse, off, n, mg->rbuf, &map,
					       &map_len);
		if (!pages)
			return -errno;
		for (i = 0; i < n && !err; i += ps)
			err = check_page(mg, buffer, d, pages + i, (off + i) / ps, &t) ?:
			      copy_page(mg, buffer, lc, pages + i, d->offset + off + i, &run, &t);
		/* the chunk is read into again, or unmapped */
		if (!err && run.len)
			err = page_run__put(mg, &run);
		if (map != MAP_FAILED)
			munmap(map, map_len);
	}
	return err ?: lbr_cursor__put_before(mg, lc, ~0ULL);
}

/* The recorded pages can be walked here: uncompressed, times not converted by libtracecmd */
static const struct tracedat_cpu_data *raw_pages(struct merge *mg, int buffer, unsigned int cpu)
{
	const struct tracedat_cpu_data *d;

	if (mg->in_fd < 0 || mg->layout.converted)
		return NULL;
	d = tracedat_cpu_table__find(&mg->layout, mg->meta.buffers[buffer].name, cpu);
	return d && !d->compressed && mg->meta.page_size <= TRACEDAT_READ_BYTES ? d : NULL;
}

/*
 * Where the capture's records go to some CPU, the top buffer's pages that go out as they are
 * (walkable here, times not shifted) are sized on a thread of their own as the headers are
 * written, then copied beside the encoding (cpu-copier.h): a CPU's up to its first capture
 * record, all of a CPU without one.
 */
static int copier_start(struct merge *mg)
{
	const struct tracedat_cpu_data *d;
	unsigned int cpu, n = 0;
	bool lbr = false;

	for (cpu = 0; cpu < mg->nr_cap_cpus; cpu++)
		lbr |= mg->cpu_nr[cpu] != 0;
	if (!lbr || mg->ts_offset)
		return 0;
	/* by CPU: a CPU whose pages cannot be walked here has none (d NULL) */
	mg->copies = calloc(mg->meta.nr_cpus, sizeof(*mg->copies));
	if (!mg->copies)
		return -ENOMEM;
	for (cpu = 0; cpu < mg->meta.nr_cpus; cpu++) {
		d = raw_pages(mg, 0, cpu);
		if (!d)
			continue;
		n++;
		mg->copies[cpu].d = d;
		mg->copies[cpu].limit_ns = cpu < mg->nr_cap_cpus && mg->cpu_nr[cpu] ?
					   mg->cpu_first[cpu].first_ns : ~0ULL;
	}
	if (!n)
		return 0;
	mg->copier = (struct cpu_copier){
		.in_fd = mg->in_fd, .in_sparse = mg->in_sparse, .page_size = mg->meta.page_size,
		.input = mg->input, .cpus = mg->copies, .nr_cpus = mg->meta.nr_cpus };
	return cpu_copier__size(&mg->copier);
}

/* The copier's error: a damaged page as the merge's own check says it */
static int copier_fail(struct merge *mg, int err)
{
	if (!mg->copier.damaged)
		return fail(mg, err, "copying pages of %s into %s: %s", mg->input, mg->output,
			    strerror(-err));
	mg->damaged = true;
	return fail(mg, err, "%s", mg->copier.why);
}

/* The copier's pages of the top buffer's cpu, NULL if none */
static struct cpu_copy *copier_cpu(struct merge *mg, unsigned int cpu)
{
	return cpu < mg->copier.nr_cpus && mg->copies[cpu].d ? &mg->copies[cpu] : NULL;
}

/* Whether the copier has all of cpu: its pages, and no capture record goes there */
static bool copier_whole(struct merge *mg, unsigned int cpu)
{
	const struct cpu_copy *c = copier_cpu(mg, cpu);

	return c && c->all && c->limit_ns == ~0ULL;
}

/* c's events, counted as the merge's own copy counts them */
static void copier_written(struct merge *mg, const struct cpu_copy *c)
{
	if (c->nr_events)
		recorded_written(mg, 0, c->first_ns, c->last_ns, c->nr_events, false);
	mg->st->kernel_missed += c->nr_missed;
}

/*
 * Sizing waited for, then the copier's whole CPUs given room first in the top buffer and
 * their copy started; a CPU it has the first pages of is posted as the merge begins it
 */
static int copier_reserve(struct merge *mg)
{
	struct cpu_copy *c;
	unsigned int cpu;
	bool behind;
	__u64 off;
	int err, fd;

	err = cpu_copier__wait(&mg->copier);
	if (err)
		return copier_fail(mg, err);
	fd = tracedat_writer__fd(mg->w, &behind);
	err = cpu_copier__copy(&mg->copier, fd, behind);
	if (err)
		return fail(mg, err, "cannot start the copying thread: %s", strerror(-err));
	for (cpu = 0; cpu < mg->copier.nr_cpus && !err; cpu++) {
		if (!copier_whole(mg, cpu))
			continue;
		c = &mg->copies[cpu];
		err = tracedat_writer__reserve_cpu(mg->w, cpu, c->size, &off) ?:
		      cpu_copier__post(&mg->copier, c, off);
		copier_written(mg, c);
	}
	return err;
}

/*
 * Begins the top buffer's cpu after the copier's first pages of it (c), posted; the merge
 * goes on from where they end
 */
static int copier_begin(struct merge *mg, struct cpu_copy *c)
{
	__u64 off;

	return tracedat_writer__begin_cpu_after(mg->w, c->d->cpu, c->size, &off, &mg->pages) ?:
	       cpu_copier__post(&mg->copier, c, off);
}

/* One CPU of one buffer: the recorded events, with the capture's merged in for the top. */
static int copy_cpu(struct merge *mg, struct tracecmd_input *h, int buffer, unsigned int cpu)
{
	bool lbr = buffer == 0 && cpu < mg->nr_cap_cpus && mg->cpu_nr[cpu];
	const struct tracedat_cpu_data *pages = raw_pages(mg, buffer, cpu);
	/* the copier's first pages of the CPU, the merge's the rest and the capture's events */
	struct cpu_copy *first = buffer ? NULL : copier_cpu(mg, cpu);
	struct tep_record *rec = NULL;
	struct lbr_cursor lc = { 0 };
	int err;

	err = first ? copier_begin(mg, first) :
		      tracedat_writer__begin_cpu(mg->w, buffer, cpu, &mg->pages);
	if (err)
		return err;
	mg->q.head = mg->q.nr = mg->q.used = 0;
	mg->q.last_ts = 0;
	/* after the copier's pages: as if this thread had copied them */
	if (first)
		copier_written(mg, first);
	err = lbr_cursor__init(mg, &lc, lbr, cpu);
	if (err)
		goto cleanup;
	if (pages) {
		err = copy_cpu_pages(mg, buffer, pages, first ? first->done_at : 0, &lc);
		goto cleanup;
	}
	if (h)
		rec = tracecmd_read_cpu_first(h, cpu);
	while (rec) {
		err = lbr_cursor__put_before(mg, &lc, rec->ts) ?:
		      put_recorded(mg, buffer, rec->ts, rec->data, rec->size, rec->missed_events);
		if (err)
			goto cleanup;
		tracecmd_free_record(rec);
		rec = tracecmd_read_data(h, cpu);
	}
	err = lbr_cursor__put_before(mg, &lc, ~0ULL);
cleanup:
	if (rec)
		tracecmd_free_record(rec);
	mg->pages = NULL;
	return err ?: tracedat_writer__end_cpu(mg->w);
}

static struct tracecmd_input *buffer_handle(struct merge *mg, const char *name)
{
	int n = tracecmd_buffer_instances(mg->in);
	const char *bn;
	int i;

	for (i = 0; i < n; i++) {
		bn = tracecmd_buffer_instance_name(mg->in, i);
		if (bn && !strcmp(bn, name))
			return tracecmd_buffer_instance_handle(mg->in, i);
	}
	return NULL;
}

static int write_data(struct merge *mg)
{
	struct tracecmd_input *h;
	unsigned int cpu;
	int err = 0;
	int b;

	for (b = 0; b < mg->meta.nr_buffers && !err; b++) {
		h = mg->in;
		if (b && mg->in) {
			h = buffer_handle(mg, mg->meta.buffers[b].name);
			if (!h)
				return fail(mg, -EINVAL, "buffer '%s' cannot be read",
					    mg->meta.buffers[b].name);
		}
		if (!b && mg->copier.nr_cpus)
			err = copier_reserve(mg);
		for (cpu = 0; cpu < mg->meta.nr_cpus && !err; cpu++) {
			if (!b && copier_whole(mg, cpu))
				continue;
			err = copy_cpu(mg, h, b, cpu);
			if (err && mg->enc.ks_err)
				fail(mg, err, "the capture's kallsyms cannot be parsed: %s",
				     strerror(-err));
			else if (err && !mg->damaged)
				fail(mg, err, "buffer '%s' CPU %u: %s", mg->meta.buffers[b].name,
				     cpu, err == -ERANGE ? "time stamps go backwards" :
				     err == -EMSGSIZE ? "an event's length word does not fit its "
				     "page (damaged)" : strerror(-err));
		}
		if (b && h)
			tracecmd_close(h);
	}
	if (!err && mg->copier.nr_cpus) {
		err = cpu_copier__finish(&mg->copier);
		if (err)
			copier_fail(mg, err);
	}
	return err;
}

/* A merge whose time ranges do not overlap is refused when known, after the copy, unwritten. */
static int check_overlap(struct merge *mg, const char *input)
{
	struct capture_origin cap = mg->cap_at;
	char why[320];

	if (!input || mg->flags & TRACEDAT_WRITE_FORCE)
		return 0;
	/* the recorded time stamps were read shifted by the DATE and OFFSET options */
	if (cap.last_ns) {
		cap.first_ns += mg->ts_offset;
		cap.last_ns += mg->ts_offset;
	}
	if (!capture_match__check(&cap, &mg->rec_at, why, sizeof(why)))
		return 0;
	return fail(mg, -EXDEV, "%s: not recorded with the capture: %s; --force merges all the "
		    "same", input, why);
}

int tracedat__write(const char *input, const char *capture, const char *output,
		    struct tracedat_merge_stats *st, char *err, size_t errlen)
{
	return tracedat__write_flags(input, capture, output, 0, st, err, errlen);
}

int tracedat__write_flags(const char *input, const char *capture, const char *output,
			  unsigned int flags, struct tracedat_merge_stats *st, char *err,
			  size_t errlen)
{
	struct merge mg = { .st = st, .flags = flags, .err = err, .errlen = errlen, .in_fd = -1,
			    .output = output };
	unsigned int c;
	int ret;

	memset(st, 0, sizeof(*st));
	*err = 0;
	ret = open_capture(&mg, capture);
	if (!ret)
		ret = input ? meta_from_recording(&mg, input) : meta_from_capture(&mg);
	if (!ret)
		ret = fgraph_setup(&mg, input, capture);
	if (!ret)
		ret = add_lbr_system(&mg);
	if (!ret && lbrfile__nr_procs(mg.cap))
		ret = usyms__new(&mg.us);
	if (ret)
		goto cleanup;
	st->nr_buffers = mg.meta.nr_buffers;
	/* started first: the capture's first records are encoded as the headers are written */
	mg.enc = (struct lbr_encoder){
		.cap = mg.cap, .ks = mg.ks, .us = mg.us, .fields = mg.fields,
		.nr_fields = mg.nr_fields, .has_calls = mg.has_calls, .fg = &mg.fg,
		.call_addrs = mg.call_addrs, .nr_call_addrs = mg.nr_call_addrs,
		.ts_offset = mg.ts_offset, .cpu_nr = mg.cpu_nr, .nr_cpus = mg.nr_cap_cpus };
	mg.enc.ks_text = lbrfile__kallsyms(mg.cap, &mg.enc.ks_len);
	ret = lbr_encoder__start(&mg.enc);
	if (ret) {
		fail(&mg, ret, "cannot start the encoding thread: %s", strerror(-ret));
		goto cleanup;
	}
	ret = copier_start(&mg);
	if (ret) {
		fail(&mg, ret, "cannot start the copying thread: %s", strerror(-ret));
		goto cleanup;
	}
	ret = tracedat_writer__create(output, &mg.meta, &mg.w);
	if (ret) {
		fail(&mg, ret, "%s: cannot write: %s", output, strerror(-ret));
		goto cleanup;
	}
	ret = write_data(&mg) ?: check_overlap(&mg, input);
	if (ret) {
		/* the copier writes through the writer's descriptor: stopped before it closes */
		cpu_copier__free(&mg.copier);
		tracedat_writer__abort(mg.w);
		goto cleanup;
	}
	ret = tracedat_writer__close(mg.w);
	if (ret)
		fail(&mg, ret, "%s: cannot write: %s", output, strerror(-ret));
cleanup:
	lbr_encoder__stop(&mg.enc);
	cpu_copier__free(&mg.copier);
	free(mg.copies);
	if (ret && !*err)
		fail(&mg, ret, "%s", strerror(-ret));
	if (mg.in)
		tracecmd_close(mg.in);
	if (mg.in_fd >= 0)
		close(mg.in_fd);
	if (mg.kbuf)
		kbuffer_free(mg.kbuf);
	free(mg.rbuf);
	free(mg.evs);
	tracedat_cpu_table__free(&mg.layout);
	if (mg.cap)
		lbrfile__close(mg.cap);
	ksyms__free(mg.ks);
	usyms__free(mg.us);
	free(mg.fields);
	for (c = 0; mg.call_addrs && c < mg.nr_fields; c++)
		free(mg.call_addrs[c]);
	free(mg.call_addrs);
	free(mg.nr_call_addrs);
	tracedat_fgraph__free(&mg.fg);
	free(mg.q.v);
	free(mg.q.data);
	free(mg.cpu_nr);
	free(mg.cpu_first);
	free(mg.tasks.v);
	free(mg.tasks.used);
	tracedat_meta__free(&mg.meta);
	return ret;
}
