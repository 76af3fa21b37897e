// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat writer tests. The oracles are libtraceevent's kbuffer (page decoding),
 * libtracecmd (reading the written file back) and `trace-cmd report` (what users see).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/kbuffer.h>
#include <trace-cmd/trace-cmd.h>
#include "unit.h"
#include "lbrfile/lbrfile.h"
#include "tracedat/tracedat-check.h"
#include "tracedat-lbr/tracedat-formats.h"
#include "tracedat-lbr/tracedat-merge.h"
#include "tracedat/tracedat-pages.h"
#include "util/out-file.h"

#define PAGE 4096

static char tmpdir[64];

static int suite_init(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test-tracedat.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static char *tmp_path(const char *name)
{
	static char path[4][128];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", tmpdir, name);
	return path[i];
}

/* ---- page encoder against kbuffer ---- */

struct ev {
	unsigned long long ts;
	unsigned int len;
	unsigned int seed;
};

static void fill(unsigned char *buf, unsigned int len, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		buf[i] = (unsigned char)(seed * 31 + i * 7);
}

/* The check's walk of page gives kbuffer's times (or says it cannot: known false) */
static void check_page_times(struct kbuffer *kb, void *page, bool known)
{
	struct tracedat_page_times got, want;
	char why[128];

	CU_ASSERT_EQUAL_FATAL(tracedat_check__page_times(page, PAGE, 0, &got, why, sizeof(why)),
			      0);
	CU_ASSERT_EQUAL(got.known, known);
	if (!known)
		return;
	tracedat_page_times__kbuffer(kb, page, &want);
	CU_ASSERT_EQUAL(got.nr, want.nr);
	CU_ASSERT_EQUAL(got.first_ns, want.first_ns);
	CU_ASSERT_EQUAL(got.last_ns, want.last_ns);
	CU_ASSERT_EQUAL(got.ordered, want.ordered);
	CU_ASSERT_EQUAL(got.missed, want.missed);
}

/* Encodes evs, decodes the pages with kbuffer, checks every ts and payload byte. */
static void roundtrip(const struct ev *evs, int n, int *pages_out)
{
	unsigned char buf[PAGE], want[PAGE], *page;
	struct out_file out = OUT_FILE_INIT;	/* no tmp: written, never synced */
	struct tracedat_pages *p;
	struct kbuffer *kb;
	unsigned long long ts;
	long long size;
	void *data;
	int fd, i = 0, pg;

	fd = open(tmp_path("pages"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	out.fd = fd;
	CU_ASSERT_FATAL(tracedat_pages__new(&out, PAGE, &p) == 0);
	for (i = 0; i < n; i++) {
		fill(buf, evs[i].len, evs[i].seed);
		CU_ASSERT_EQUAL_FATAL(tracedat_pages__add(p, evs[i].ts, buf, evs[i].len, 0), 0);
	}
	size = tracedat_pages__finish(p);
	tracedat_pages__free(p);
	CU_ASSERT_FATAL(size > 0 && size % PAGE == 0);
	kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	CU_ASSERT_FATAL(kb != NULL);
	page = malloc(PAGE);
	i = 0;
	for (pg = 0; pg < size / PAGE; pg++) {
		CU_ASSERT_EQUAL_FATAL(pread(fd, page, PAGE, (off_t)pg * PAGE), PAGE);
		check_page_times(kb, page, true);
		CU_ASSERT_EQUAL_FATAL(kbuffer_load_subbuffer(kb, page), 0);
		for (data = kbuffer_read_event(kb, &ts); data;
		     data = kbuffer_next_event(kb, &ts)) {
			CU_ASSERT_FATAL(i < n);
			CU_ASSERT_EQUAL(ts, evs[i].ts);
			/* payloads are padded to 4 bytes */
			CU_ASSERT_EQUAL((unsigned int)kbuffer_event_size(kb),
					(evs[i].len + 3) & ~3U);
			fill(want, evs[i].len, evs[i].seed);
			CU_ASSERT(memcmp(data, want, evs[i].len) == 0);
			i++;
		}
	}
	CU_ASSERT_EQUAL(i, n);
	if (pages_out)
		*pages_out = size / PAGE;
	kbuffer_free(kb);
	free(page);
	close(fd);
}

static void test_page_boundaries(void)
{
	struct ev evs[600];
	int i, pages;

	/* sizes from 1 to 600 bytes cross type_len 28 (112 bytes) and many page ends */
	for (i = 0; i < 600; i++)
		evs[i] = (struct ev){ .ts = 1000 + i * 3ULL, .len = 1 + (i * 37) % 600, .seed = i };
	roundtrip(evs, 600, &pages);
	CU_ASSERT(pages > 30);
}

static void test_time_extend(void)
{
	static const unsigned long long gaps[] = { 0, 1, 134217727ULL, 134217728ULL,
						   134217729ULL, 1000000000ULL, 5000000000ULL,
						   60000000000ULL, 600000000000ULL, 7 };
	struct ev evs[40];
	unsigned long long t = 123456789ULL;
	int i;

	for (i = 0; i < 40; i++) {
		t += gaps[i % 10];
		evs[i] = (struct ev){ .ts = t, .len = 40 + (i % 3) * 200, .seed = i };
	}
	roundtrip(evs, 40, NULL);
}

static void test_page_rules(void)
{
	unsigned char big[PAGE] = { 0 };
	struct tracedat_pages *p;
	int fd = open(tmp_path("rules"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct out_file out = { .fd = fd, .out_fd = -1 };

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(tracedat_pages__new(&out, PAGE, &p) == 0);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 100, big, TRACEDAT_MAX_PAYLOAD(PAGE) + 1, 0),
			-E2BIG);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 100, big, TRACEDAT_MAX_PAYLOAD(PAGE) - 8, 0), 0);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 200, big, 8, 0), 0);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 150, big, 8, 0), -ERANGE);
	/* a damaged length word read as 4 GiB: refused, not wrapped to a small size */
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 300, big, 0xfffffffcU, 0), -E2BIG);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 300, big, 0, 0), -E2BIG);
	CU_ASSERT_EQUAL(tracedat_pages__finish(p), 2 * PAGE);
	tracedat_pages__free(p);
	close(fd);
}

/* A page flagged with missed events reads back with its count (kbuffer and libtracecmd). */
static void test_missed_events(void)
{
	unsigned char data[16] = { 1 }, page[PAGE];
	struct tracedat_pages *p;
	struct kbuffer *kb;
	unsigned long long ts;
	int fd = open(tmp_path("missed"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct out_file out = { .fd = fd, .out_fd = -1 };

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(tracedat_pages__new(&out, PAGE, &p) == 0);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 10, data, 16, 0), 0);
	CU_ASSERT_EQUAL(tracedat_pages__add(p, 20, data, 16, 42), 0);
	CU_ASSERT_EQUAL(tracedat_pages__finish(p), 2 * PAGE);
	tracedat_pages__free(p);
	kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	CU_ASSERT_EQUAL(pread(fd, page, PAGE, PAGE), PAGE);
	CU_ASSERT_EQUAL(kbuffer_load_subbuffer(kb, page), 0);
	CU_ASSERT(kbuffer_read_event(kb, &ts) != NULL);
	CU_ASSERT_EQUAL(ts, 20);
	CU_ASSERT_EQUAL(kbuffer_missed_events(kb), 42);
	kbuffer_free(kb);
	close(fd);
}

/* A page by hand: words after the header, its commit count and flags */
static void page_make(unsigned char *page, __u64 stamp, __u64 flags, const __u32 *w, size_t n)
{
	__u64 commit = n * 4 | flags;

	memset(page, 0, PAGE);
	memcpy(page, &stamp, 8);
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, w, n * 4);
}

#define EV(type_len, delta)	((__u32)(type_len) | (__u32)(delta) << 5)

/*
 * The kernel's pages kbuffer reads in ways the merge's own walk must follow: a time extend
 * before the first event (its page's missed flag then unread), a discarded event (padding
 * that keeps its delta), an event earlier than the one before, long events; an absolute time
 * stamp, which versions of kbuffer read differently, is left to kbuffer.
 */
static void test_page_times(void)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned char page[PAGE];
	const __u32 extend_first[] = { EV(30, 5), 3, EV(1, 0), 0xaa, EV(1, 7), 0xbb };
	const __u32 discarded[] = { EV(2, 1), 1, 2, EV(29, 40), 8, 0, EV(1, 2), 3 };
	const __u32 back[] = { EV(1, 10), 1, EV(30, 0x7ffffff), 0x7fffffff, EV(1, 1), 2,
			       EV(1, 0), 3 };
	const __u32 longev[] = { EV(0, 3), 12, 1, 2, EV(0, 4), 9, 1, 2 };
	const __u32 absolute[] = { EV(1, 1), 1, EV(31, 0), 0, EV(1, 1), 2 };
	const __u32 tail_pad[] = { EV(1, 4), 1, EV(29, 0), 4000 };

	CU_ASSERT_FATAL(kb != NULL);
	page_make(page, 1000, 0, extend_first, 6);
	check_page_times(kb, page, true);
	page_make(page, 1000, 1ULL << 31, extend_first, 6);
	check_page_times(kb, page, true);
	page_make(page, 1000, 1ULL << 31, discarded, 8);
	check_page_times(kb, page, true);
	page_make(page, 1000, 0, back, 8);
	check_page_times(kb, page, true);
	page_make(page, 1ULL << 40, 0, longev, 8);
	check_page_times(kb, page, true);
	page_make(page, 1000, 0, tail_pad, 4);
	check_page_times(kb, page, true);
	page_make(page, 1000, 0, absolute, 6);
	check_page_times(kb, page, false);
	kbuffer_free(kb);
}

/* ---- whole files: synthetic capture -> trace.dat -> libtracecmd and trace-cmd report ---- */

#define NR_SYMS 8
#define SYM_BASE 0xffffffff81000000ULL
/* the last one is tracing path (trim.h): where a snapshot or stack starts in it, it is cut */
#define TRACING_SYM 7
#define SYM_OF(addr) (((addr) - SYM_BASE) / 0x100)
static const char *const sym_names[NR_SYMS] = {
	"alpha", "beta", "gamma_fn", "delta_fn", "epsilon", "zeta", "eta", "bpf_trace_run2",
};

struct synth {
	unsigned int cpus;
	unsigned int nrec;
	unsigned long long gap;		/* between records on one CPU; 0 = growing gaps */
};

static unsigned long long synth_time(const struct synth *s, unsigned int i)
{
	static const unsigned long long gaps[] = { 134217727ULL, 134217728ULL, 1000000000ULL,
						   5000000000ULL, 60000000000ULL,
						   600000000000ULL, 1000 };
	unsigned long long t = 5000000000ULL;
	unsigned int k;

	/* each CPU gets its own offset so that no two CPUs share a time stamp */
	for (k = 0; k < i / s->cpus; k++)
		t += s->gap ? s->gap : gaps[k % 7];
	return t + (i % s->cpus) * 11;
}

static void synth_record(const struct synth *s, unsigned int i, unsigned char *buf,
			 size_t *size)
{
	struct lbrsnap_event *ev = (void *)buf;
	struct lbrsnap_branch *br = (void *)(ev + 1);
	unsigned int nbr = i % 5, nst = i % 3, j;
	__u64 *st;

	memset(buf, 0, 2048);
	ev->time_ns = synth_time(s, i);
	ev->ap = i % 2;
	ev->ret = (long long)i - 7;
	ev->flags = ev->ap ? 0 : LBRSNAP_EV_HAS_RET;
	ev->cpu = i % s->cpus;
	ev->pid = 300 + i % 4;
	ev->tid = ev->pid;
	snprintf(ev->comm, sizeof(ev->comm), "task%u", ev->tid);
	ev->nr_branches = nbr;
	ev->nr_stack = nst;
	for (j = 0; j < nbr; j++) {
		br[j].from = SYM_BASE + ((i + j) % NR_SYMS) * 0x100 + 0x10 + j;
		br[j].to = SYM_BASE + ((i + 2 * j + 1) % NR_SYMS) * 0x100;
		br[j].flags = 0x100 * j + i;
	}
	st = (void *)(br + nbr);
	for (j = 0; j < nst; j++)
		st[j] = SYM_BASE + ((i + 3 + j) % NR_SYMS) * 0x100 + 0x20;
	*size = lbrsnap_event_size(nbr, nst);
}

static int write_capture(const struct synth *s, const char *path)
{
	static const struct lbr_attach_point aps[] = {
		{ .id = 0, .kind = LBRSNAP_KIND_FEXIT, .flags = LBRFILE_AP_HAS_RET,
		  .ret_kind = LBRSNAP_RET_SIGNED, .ret_size = 4, .ret_type = "int",
		  .spec = "fexit:alpha", .target = "alpha" },
		{ .id = 1, .kind = LBRSNAP_KIND_RAW_TP, .spec = "raw_tp:sched_switch",
		  .target = "sched_switch" },
	};
	struct lbrfile_writer *w;
	unsigned char buf[2048];
	char ks[1024];
	size_t size, kl = 0;
	unsigned int i;
	int err;

	for (i = 0; i < NR_SYMS; i++)
		kl += snprintf(ks + kl, sizeof(ks) - kl, "%llx T %s\n", SYM_BASE + i * 0x100,
			       sym_names[i]);
	/* libtraceevent gives the last symbol no extent: end the table like kallsyms does */
	kl += snprintf(ks + kl, sizeof(ks) - kl, "%llx T _etext\n", SYM_BASE + i * 0x100);
	err = lbrfile_writer__create(path, &w);
	if (err)
		return err;
	err = lbrfile_writer__meta(w, "clock", "mono") ?:
	      lbrfile_writer__meta(w, "nr_cpus", "%u", s->cpus) ?:
	      lbrfile_writer__attach(w, &aps[0]) ?: lbrfile_writer__attach(w, &aps[1]);
	for (i = 0; !err && i < s->nrec; i++) {
		synth_record(s, i, buf, &size);
		err = lbrfile_writer__record(w, buf, size);
	}
	err = err ?: lbrfile_writer__kallsyms(w, ks, kl);
	if (err) {
		lbrfile_writer__abort(w);
		return err;
	}
	return lbrfile_writer__close(w);
}

static void sym(char *out, size_t len, unsigned long long addr)
{
	unsigned long long i = (addr - SYM_BASE) / 0x100;

	snprintf(out, len, "%s+0x%llx", sym_names[i], (addr - SYM_BASE) % 0x100);
}

/* Appends the report lines (event name and info) one record becomes, in file order. */
static size_t expect_record(const struct synth *s, unsigned int i, char *out, size_t len)
{
	unsigned char buf[2048];
	struct lbrsnap_event *ev = (void *)buf;
	struct lbrsnap_branch *br = (void *)(ev + 1);
	const char *hook = i % 2 ? "raw_tp:sched_switch" : "fexit:alpha";
	unsigned int j, trim_br, trim_st;
	char a[64], b[64], ret[32] = "";
	size_t n = 0, size;
	__u64 *st;

	synth_record(s, i, buf, &size);
	st = (void *)(br + ev->nr_branches);
	/* the one tracing-path symbol can only lead: the next entry is another function's */
	trim_br = ev->nr_branches && SYM_OF(br[0].from) == TRACING_SYM;
	trim_st = ev->nr_stack && SYM_OF(st[0]) == TRACING_SYM;
	/* fexit:alpha is kept from alpha's first entry or frame where there is one (trim.h) */
	for (j = 0; !ev->ap && j < ev->nr_branches; j++) {
		if (!SYM_OF(br[j].from) || (!SYM_OF(br[j].to) && SYM_OF(br[j].from) != TRACING_SYM)) {
			trim_br = j;
			break;
		}
	}
	for (j = 0; !ev->ap && j < ev->nr_stack; j++) {
		if (!SYM_OF(st[j])) {
			trim_st = j;
			break;
		}
	}
	/* raw_tp:sched_switch has no return value */
	if (!(i % 2))
		snprintf(ret, sizeof(ret), " ret=%lld", (long long)ev->ret);
	n += snprintf(out + n, len - n, "branch_snapshot|%s%s nr=%u trim_branches=%u entries=", hook,
		      ret, ev->nr_branches, trim_br);
	for (j = trim_br; j < ev->nr_branches; j++)
		n += snprintf(out + n, len - n, "%s%llu %llu %llu", j > trim_br ? " " : "",
			      (unsigned long long)br[j].from, (unsigned long long)br[j].to,
			      (unsigned long long)br[j].flags);
	n += snprintf(out + n, len - n, "\n");
	for (j = trim_br; j < ev->nr_branches; j++) {
		sym(a, sizeof(a), br[j].from);
		sym(b, sizeof(b), br[j].to);
		n += snprintf(out + n, len - n, "branch|[%u/%u] %s -> %s flags=0x%llx\n", j,
			      ev->nr_branches, a, b, (unsigned long long)br[j].flags);
	}
	if (!ev->nr_stack)
		return n;
	n += snprintf(out + n, len - n, "stack|%s nr=%u trim_stack=%u ips=", hook, ev->nr_stack,
		      trim_st);
	for (j = trim_st; j < ev->nr_stack; j++)
		n += snprintf(out + n, len - n, "%s0x%llx", j > trim_st ? " " : "",
			      (unsigned long long)st[j]);
	return n + snprintf(out + n, len - n, "\n");
}

/* "  task300-300  [002]  5.000000022: branch:   [0/1] ..." -> fields */
static int parse_report_line(const char *line, char *comm, unsigned int *cpu,
			     unsigned long long *ts, char *name, const char **info)
{
	unsigned long long sec, nsec;
	int n = 0;

	if (sscanf(line, " %63s [%u] %llu.%llu: %63[^:]:%n", comm, cpu, &sec, &nsec, name,
		   &n) != 5 || !n)
		return -1;
	*ts = sec * 1000000000ULL + nsec;
	*info = line + n;
	while (**info == ' ')
		(*info)++;
	return 0;
}

/* Converts a synthetic capture and checks trace-cmd report's lines one by one. */
static void check_report(const struct synth *s)
{
	char cap[128], dat[128], cmd[400], line[4096], comm[64], name[64], got[4200];
	char *want = malloc(1 << 20);
	unsigned int cpu, i, lines = 0, wlines = 0;
	struct tracedat_merge_stats st;
	unsigned long long ts;
	const char *info, *w;
	size_t wn = 0;
	char err[256];
	FILE *f;

	CU_ASSERT_FATAL(want != NULL);
	snprintf(cap, sizeof(cap), "%s", tmp_path("synth.data"));
	snprintf(dat, sizeof(dat), "%s", tmp_path("synth.dat"));
	CU_ASSERT_EQUAL_FATAL(write_capture(s, cap), 0);
	CU_ASSERT_EQUAL_FATAL(tracedat__write(NULL, cap, dat, &st, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(st.lbr_records, s->nrec);
	/* synth_time() keeps time order equal to record order */
	for (i = 0; i < s->nrec; i++)
		wn += expect_record(s, i, want + wn, (1 << 20) - wn);
	snprintf(cmd, sizeof(cmd), "trace-cmd report -t '%s' 2>&1", dat);
	f = popen(cmd, "r");
	CU_ASSERT_FATAL(f != NULL);
	w = want;
	i = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpus=", 5))
			continue;
		line[strcspn(line, "\n")] = 0;
		lines++;
		if (parse_report_line(line, comm, &cpu, &ts, name, &info)) {
			CU_FAIL("unparsable report line");
			continue;
		}
		snprintf(got, sizeof(got), "%s|%s", name, info);
		if (strncmp(w, got, strcspn(w, "\n")) || strlen(got) != strcspn(w, "\n")) {
			fprintf(stderr, "want: %.*s\n got: %s\n", (int)strcspn(w, "\n"), w, got);
			CU_FAIL("report line differs");
		}
		if (!strcmp(name, "branch_snapshot")) {
			CU_ASSERT_EQUAL(ts, synth_time(s, i));
			CU_ASSERT_EQUAL(cpu, i % s->cpus);
			i++;
		}
		w += strcspn(w, "\n");
		if (*w)
			w++;
	}
	for (w = want; *w; w++)
		wlines += *w == '\n';
	CU_ASSERT_EQUAL(pclose(f), 0);
	CU_ASSERT_EQUAL(lines, wlines);
	CU_ASSERT_EQUAL(i, s->nrec);
	free(want);
}

static void test_report_exact(void)
{
	struct synth s = { .cpus = 2, .nrec = 40, .gap = 1000 };

	check_report(&s);
}

static void test_report_many_cpus_gaps(void)
{
	struct synth s = { .cpus = 13, .nrec = 13 * 14, .gap = 0 };

	check_report(&s);
}

/* Enough records to fill many pages per CPU; read back with libtracecmd's public API. */
static void test_libtracecmd_readback(void)
{
	struct synth s = { .cpus = 4, .nrec = 4000, .gap = 50000 };
	char cap[128], dat[128], err[256];
	struct tracedat_merge_stats st;
	struct tracecmd_input *h;
	struct tep_record *r;
	struct tep_handle *tep;
	struct tep_event *e;
	unsigned long long per_cpu[4] = { 0 }, prev, total = 0, val;
	unsigned int cpu;

	snprintf(cap, sizeof(cap), "%s", tmp_path("many.data"));
	snprintf(dat, sizeof(dat), "%s", tmp_path("many.dat"));
	CU_ASSERT_EQUAL_FATAL(write_capture(&s, cap), 0);
	CU_ASSERT_EQUAL_FATAL(tracedat__write(NULL, cap, dat, &st, err, sizeof(err)), 0);
	h = tracecmd_open(dat, TRACECMD_FL_LOAD_NO_PLUGINS);
	CU_ASSERT_FATAL(h != NULL);
	tep = tracecmd_get_tep(h);
	for (cpu = 0; cpu < 4; cpu++) {
		prev = 0;
		for (r = tracecmd_read_cpu_first(h, cpu); r; r = tracecmd_read_data(h, cpu)) {
			CU_ASSERT(r->ts >= prev);
			prev = r->ts;
			e = tep_find_event_by_record(tep, r);
			CU_ASSERT_FATAL(e != NULL);
			if (e->id == TRACEDAT_ID_SNAPSHOT) {
				CU_ASSERT_EQUAL(r->ts, synth_time(&s, per_cpu[cpu] * 4 + cpu));
				tep_get_field_val(NULL, e, "nr", r, &val, 0);
				CU_ASSERT_EQUAL(val, (per_cpu[cpu] * 4 + cpu) % 5);
				per_cpu[cpu]++;
			}
			total++;
			tracecmd_free_record(r);
		}
	}
	tracecmd_close(h);
	CU_ASSERT_EQUAL(per_cpu[0] + per_cpu[1] + per_cpu[2] + per_cpu[3], s.nrec);
	CU_ASSERT_EQUAL(total, st.lbr_events);
}

static void test_formats_parse(void)
{
	CU_ASSERT_EQUAL(tracedat_formats__check(), 0);
}

static void test_bad_input(void)
{
	struct tracedat_merge_stats st;
	char err[256], *bad = tmp_path("bad.data"), *out = tmp_path("bad.dat");
	FILE *f = fopen(bad, "w");
	struct stat sb;

	CU_ASSERT_FATAL(f != NULL);
	fputs("not a capture", f);
	fclose(f);
	CU_ASSERT(tracedat__write(NULL, bad, out, &st, err, sizeof(err)) < 0);
	CU_ASSERT(strstr(err, bad) != NULL);
	CU_ASSERT(stat(out, &sb) < 0);
	/* a capture is not a trace.dat to merge into */
	CU_ASSERT(tracedat__write(bad, bad, out, &st, err, sizeof(err)) < 0);
	CU_ASSERT(stat(out, &sb) < 0);
}

/* What libtracecmd reads without checking: clock and hook texts, pages (tracedat-check.h) */
static void test_check(void)
{
	unsigned char page[PAGE] = { 0 };
	__u64 commit = 12;
	__u32 w[4] = { 2, 0x01020304, 0x05060708, 0 };
	char why[128];

	CU_ASSERT(tracedat_check__clock("local [mono] boot", 18));
	CU_ASSERT(tracedat_check__clock("local global", 13));
	CU_ASSERT(!tracedat_check__clock("[]", 3));
	CU_ASSERT(!tracedat_check__clock("local [[ x", 11));
	CU_ASSERT(!tracedat_check__clock("[mono]", 6));	/* no NUL inside its size */
	CU_ASSERT(tracedat_check__hook("sched:sched_switch,next_pid/sched:sched_wakeup,pid",
				       51));
	CU_ASSERT(tracedat_check__hook("a,b,7/c,d,PS", 13));
	CU_ASSERT(!tracedat_check__hook("a,b/c", 6));
	CU_ASSERT(!tracedat_check__hook("a:,b/c,d", 9));
	CU_ASSERT(!tracedat_check__hook("a,b/c,d,", 9));
	/* one event of 8 bytes (type_len 2), then a long event whose length word is 0 */
	memcpy(page + 8, &commit, 8);
	memcpy(page + 16, w, 12);
	CU_ASSERT_EQUAL(tracedat_check__pages(page, PAGE, PAGE, why, sizeof(why)), 0);
	commit = 16;
	memcpy(page + 8, &commit, 8);
	CU_ASSERT_EQUAL(tracedat_check__pages(page, PAGE, PAGE, why, sizeof(why)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "page 0 of the CPU data: event at byte 28 runs past the "
			       "commit count 16");
	commit = 20;
	memcpy(page + 8, &commit, 8);
	CU_ASSERT_EQUAL(tracedat_check__pages(page, PAGE, PAGE, why, sizeof(why)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "page 0 of the CPU data: event at byte 28 has length word 0");
	commit = PAGE;
	memcpy(page + 8, &commit, 8);
	CU_ASSERT_EQUAL(tracedat_check__pages(page, PAGE, PAGE, why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(tracedat_check__cpu(100, 90, 20, PAGE, false, why, sizeof(why)), -EINVAL);
	CU_ASSERT_EQUAL(tracedat_check__cpu(100, ~0ULL, 20, PAGE, false, why, sizeof(why)),
			-EINVAL);
	CU_ASSERT_EQUAL(tracedat_check__cpu(2 * PAGE, PAGE, PAGE, PAGE, true, why, sizeof(why)),
			0);
}

static CU_TestInfo page_tests[] = {
	{ "page_boundaries", test_page_boundaries },
	{ "time_extend_gaps", test_time_extend },
	{ "page_rules", test_page_rules },
	{ "missed_events", test_missed_events },
	{ "check", test_check },
	{ "page_times", test_page_times },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo file_tests[] = {
	{ "formats_parse", test_formats_parse },
	{ "report_exact", test_report_exact },
	{ "report_many_cpus_gaps", test_report_many_cpus_gaps },
	{ "libtracecmd_readback", test_libtracecmd_readback },
	{ "bad_input", test_bad_input },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "tracedat_pages", suite_init, suite_clean, NULL, NULL, page_tests },
	{ "tracedat_file", suite_init, suite_clean, NULL, NULL, file_tests },
	CU_SUITE_INFO_NULL,
};
