// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * LBR gaps in lbrsnap.data: a synthetic capture with LBR_GAP sections and records inside,
 * on the edges of and outside them; the reader's lookups, the report's marks and summary
 * (text and JSON), and the record commands' closing warning, all exact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "report/lbr-stale.h"
#include "report/report.h"

static char dir[] = "/tmp/test-lbr-stale-XXXXXX";
static char with_gaps[64], without_gaps[64];

#define MS 1000000ull
#define SEC 1000000000ull

static const struct lbrfile_lbr_gap gaps[] = {
	/* written out of order, and two of cpu 0 overlapping: read as one [1.0 s, 1.3 s] */
	{ .cpu = 2, .start_ns = 5 * SEC, .end_ns = 7500 * MS },
	{ .cpu = 0, .start_ns = 1100 * MS, .end_ns = 1300 * MS, .enabled_ns = 200 * MS,
	  .running_ns = 199 * MS },
	{ .cpu = 0, .start_ns = 1 * SEC, .end_ns = 1200 * MS, .enabled_ns = 200 * MS,
	  .running_ns = 150 * MS },
	{ .cpu = 2, .start_ns = 2 * SEC, .end_ns = 2 * SEC + 500000 },
};

/* time, cpu: stale or not follows from the gaps above */
static const struct {
	__u64 time_ns;
	__u32 cpu;
	bool stale;
} recs[] = {
	{ 1 * SEC - 1, 0, false },	/* just before */
	{ 1 * SEC, 0, true },		/* the start itself */
	{ 1100 * MS, 1, false },	/* inside, but another CPU */
	{ 1300 * MS, 0, true },		/* the end of the merged gap */
	{ 1300 * MS + 1, 0, false },	/* just after */
	{ 2 * SEC + 250000, 2, true },
	{ 6 * SEC, 2, true },
	{ 8 * SEC, 2, false },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static int write_capture(const char *path, bool add_gaps)
{
	struct lbr_attach_point ap = {
		.id = 0, .kind = LBRSNAP_KIND_RAW_TP, .spec = "raw_tp:sys_exit",
		.target = "sys_exit",
	};
	struct {
		struct lbrsnap_event ev;
		struct lbrsnap_branch br;
	} r;
	struct lbrfile_writer *w;
	size_t i;
	int err;

	err = lbrfile_writer__create(path, &w);
	if (err)
		return err;
	err = lbrfile_writer__meta(w, "lbr", "available");
	err = err ?: lbrfile_writer__attach(w, &ap);
	for (i = 0; i < NR(recs) && !err; i++) {
		memset(&r, 0, sizeof(r));
		r.ev.time_ns = recs[i].time_ns;
		r.ev.cpu = recs[i].cpu;
		r.ev.pid = 100 + i;
		r.ev.tid = 100 + i;
		snprintf(r.ev.comm, sizeof(r.ev.comm), "task%zu", i);
		r.ev.nr_branches = 1;
		r.ev.lbr_ret = LBRSNAP_BRANCH_SIZE;
		r.br.from = 0xffffffff81000010ull + i;
		r.br.to = 0xffffffff81000020ull;
		err = lbrfile_writer__record(w, &r, sizeof(r));
	}
	for (i = 0; add_gaps && i < NR(gaps) && !err; i++)
		err = lbrfile_writer__lbr_gap(w, &gaps[i]);
	if (err) {
		lbrfile_writer__abort(w);
		return err;
	}
	return lbrfile_writer__close(w);
}

static int suite_init(void)
{
	if (!mkdtemp(dir))
		return -1;
	snprintf(with_gaps, sizeof(with_gaps), "%s/gaps.data", dir);
	snprintf(without_gaps, sizeof(without_gaps), "%s/none.data", dir);
	return write_capture(with_gaps, true) || write_capture(without_gaps, false) ? -1 : 0;
}

static int suite_clean(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static void test_reader(void)
{
	const struct lbrfile_lbr_gap *g;
	struct lbrfile *f = NULL;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(with_gaps, &f), 0);
	CU_ASSERT_EQUAL_FATAL(lbrfile__nr_lbr_gaps(f), 3);
	g = lbrfile__lbr_gap(f, 0);
	CU_ASSERT_EQUAL(g->cpu, 0);
	CU_ASSERT_EQUAL(g->start_ns, 1 * SEC);
	CU_ASSERT_EQUAL(g->end_ns, 1300 * MS);
	CU_ASSERT_EQUAL(g->enabled_ns, 400 * MS);
	CU_ASSERT_EQUAL(g->running_ns, 349 * MS);
	g = lbrfile__lbr_gap(f, 1);
	CU_ASSERT_EQUAL(g->cpu, 2);
	CU_ASSERT_EQUAL(g->start_ns, 2 * SEC);
	CU_ASSERT_EQUAL(g->end_ns, 2 * SEC + 500000);
	g = lbrfile__lbr_gap(f, 2);
	CU_ASSERT_EQUAL(g->cpu, 2);
	CU_ASSERT_EQUAL(g->start_ns, 5 * SEC);
	CU_ASSERT_PTR_NULL(lbrfile__lbr_gap(f, 3));
	for (i = 0; i < NR(recs); i++)
		CU_ASSERT_EQUAL(lbrfile__lbr_stale(f, recs[i].cpu, recs[i].time_ns),
				recs[i].stale);
	/* CPUs before, between and after the ones with gaps */
	CU_ASSERT_FALSE(lbrfile__lbr_stale(f, 1, 6 * SEC));
	CU_ASSERT_FALSE(lbrfile__lbr_stale(f, 3, 6 * SEC));
	CU_ASSERT_TRUE(lbrfile__lbr_stale(f, 2, 7500 * MS));
	CU_ASSERT_FALSE(lbrfile__lbr_stale(f, 2, 7500 * MS + 1));
	CU_ASSERT_FALSE(lbrfile__lbr_stale(f, 2, 3 * SEC));
	lbrfile__close(f);

	/* a file without the section: no gaps, nothing stale */
	CU_ASSERT_EQUAL_FATAL(lbrfile__open(without_gaps, &f), 0);
	CU_ASSERT_EQUAL(lbrfile__nr_lbr_gaps(f), 0);
	CU_ASSERT_PTR_NULL(lbrfile__lbr_gap(f, 0));
	for (i = 0; i < NR(recs); i++)
		CU_ASSERT_FALSE(lbrfile__lbr_stale(f, recs[i].cpu, recs[i].time_ns));
	lbrfile__close(f);
}

/* A gap that ends before it starts makes the file unreadable, not silently wrong. */
static void test_bad_gap(void)
{
	struct lbrfile_lbr_gap bad = { .cpu = 0, .start_ns = 2, .end_ns = 1 };
	struct lbrfile_writer *w;
	struct lbrfile *f = NULL;
	char path[96];

	snprintf(path, sizeof(path), "%s/bad.data", dir);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__create(path, &w), 0);
	CU_ASSERT_EQUAL(lbrfile_writer__lbr_gap(w, &bad), 0);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__close(w), 0);
	CU_ASSERT_EQUAL(lbrfile__open(path, &f), -EBADMSG);
	CU_ASSERT_PTR_NULL(f);
}

static void test_tally(void)
{
	struct lbrfile *f = NULL;
	struct lbr_stale s;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(with_gaps, &f), 0);
	CU_ASSERT_EQUAL_FATAL(lbr_stale__tally(f, &s), 0);
	CU_ASSERT_EQUAL_FATAL(s.nr_cpus, 2);
	CU_ASSERT_EQUAL(s.cpus[0].cpu, 0);
	CU_ASSERT_EQUAL(s.cpus[0].nr_gaps, 1);
	CU_ASSERT_EQUAL(s.cpus[0].off_ns, 300 * MS);
	CU_ASSERT_EQUAL(s.cpus[0].records, 2);
	CU_ASSERT_EQUAL(s.cpus[1].cpu, 2);
	CU_ASSERT_EQUAL(s.cpus[1].nr_gaps, 2);
	CU_ASSERT_EQUAL(s.cpus[1].off_ns, 2500 * MS + 500000);
	CU_ASSERT_EQUAL(s.cpus[1].records, 2);
	CU_ASSERT_EQUAL(s.records, 4);
	lbr_stale__free(&s);
	lbrfile__close(f);
}

/* Renders a capture (no symbols) into a string; caller frees. */
static char *render(const char *path, bool json)
{
	struct lbrfile *f = NULL;
	struct report r = {};
	char *out = NULL;
	size_t len = 0;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &f), 0);
	r.out = open_memstream(&out, &len);
	r.file = f;
	r.json = json;
	CU_ASSERT_EQUAL(report__run(&r), 0);
	fclose(r.out);
	lbrfile__close(f);
	return out;
}

#define REC(t, cpu, i) t " [00" #cpu "] task" #i "/10" #i "/10" #i " raw_tp:sys_exit\n" \
	"     [#00] 0xffffffff8100001" #i " -> 0xffffffff81000020\n"
#define STALE "    [LBR was off on this CPU: branches may be stale]\n"

static void test_report_text(void)
{
	static const char want[] =
		REC("0.999999", 0, 0) "\n"
		REC("1.000000", 0, 1) STALE "\n"
		REC("1.100000", 1, 2) "\n"
		REC("1.300000", 0, 3) STALE "\n"
		REC("1.300000", 0, 4) "\n"
		REC("2.000250", 2, 5) STALE "\n"
		REC("6.000000", 2, 6) STALE "\n"
		REC("8.000000", 2, 7) "\n"
		"[ lbrsnap: 8 records, none lost ]\n"
		"LBR: available\n"
		"[ lbrsnap: cpu 0: LBR was off for up to 300.000 ms (1 interval): 2 records may "
		"have stale branches ]\n"
		"[ lbrsnap: cpu 2: LBR was off for up to 2.500 s (2 intervals): 2 records may "
		"have stale branches ]\n";
	char *out = render(with_gaps, false);

	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	out = render(without_gaps, false);
	CU_ASSERT_PTR_NULL(strstr(out, "LBR was off"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[ lbrsnap: 8 records, none lost ]\nLBR: available\n"));
	free(out);
}

/* The lbr_stale flag of every record line, in order, and the summary line. */
static void json_flags(const char *path, char *flags, size_t len, char **summary)
{
	char *out = render(path, true), *line, *save = NULL;
	size_t n = 0;

	*summary = NULL;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "{\"losses\":", 10)) {
			*summary = strdup(line);
			continue;
		}
		if (strstr(line, ",\"lbr_stale\":true,"))
			flags[n++] = 'T';
		else if (strstr(line, ",\"lbr_stale\":false,"))
			flags[n++] = 'F';
		else
			flags[n++] = '?';
		if (n == len - 1)
			break;
	}
	flags[n] = 0;
	free(out);
}

static void test_report_json(void)
{
	char flags[16], *summary;

	json_flags(with_gaps, flags, sizeof(flags), &summary);
	CU_ASSERT_STRING_EQUAL(flags, "FTFTFTTF");
	CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
	CU_ASSERT_PTR_NOT_NULL(strstr(summary, ",\"lbr_off\":[{\"cpu\":0,\"intervals\":1,"
				      "\"off_ns\":300000000,\"stale_records\":2},{\"cpu\":2,"
				      "\"intervals\":2,\"off_ns\":2500500000,"
				      "\"stale_records\":2}],\"lbr_stale_records\":4}"));
	free(summary);
	json_flags(without_gaps, flags, sizeof(flags), &summary);
	CU_ASSERT_STRING_EQUAL(flags, "FFFFFFFF");
	CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
	CU_ASSERT_PTR_NOT_NULL(strstr(summary, ",\"lbr_off\":[],\"lbr_stale_records\":0}"));
	free(summary);
}

static char *warn(const char *path, int *err)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);

	*err = lbr_stale__warn(m, "lbrsnap record", path);
	fclose(m);
	return out;
}

static void test_warning(void)
{
	char missing[96], *out;
	int err;

	out = warn(with_gaps, &err);
	CU_ASSERT_EQUAL(err, 0);
	CU_ASSERT_STRING_EQUAL(out, "[ lbrsnap record: WARNING: LBR was off on cpu 0 for up to "
			       "300.000 ms (1 interval), on cpu 2 for up to 2.500 s (2 intervals); "
			       "4 records taken then may have stale branches ]\n");
	free(out);
	out = warn(without_gaps, &err);
	CU_ASSERT_EQUAL(err, 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	free(out);
	snprintf(missing, sizeof(missing), "%s/missing.data", dir);
	out = warn(missing, &err);
	CU_ASSERT_EQUAL(err, -ENOENT);
	CU_ASSERT(strstr(out, "[ lbrsnap record: WARNING: LBR was off on some CPU; cannot read ")
		  == out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "missing.data back to say where: No such file or "
				      "directory ]\n"));
	free(out);
}

static void test_duration(void)
{
	char buf[32];

	CU_ASSERT_STRING_EQUAL(lbr_stale__duration(0, buf, sizeof(buf)), "0.000 ms");
	CU_ASSERT_STRING_EQUAL(lbr_stale__duration(1500, buf, sizeof(buf)), "0.001 ms");
	CU_ASSERT_STRING_EQUAL(lbr_stale__duration(999999999, buf, sizeof(buf)), "999.999 ms");
	CU_ASSERT_STRING_EQUAL(lbr_stale__duration(SEC, buf, sizeof(buf)), "1.000 s");
	CU_ASSERT_STRING_EQUAL(lbr_stale__duration(3723 * SEC + 45 * MS, buf, sizeof(buf)),
			       "3723.045 s");
}

static CU_TestInfo stale_tests[] = {
	{ "reader", test_reader },
	{ "bad_gap", test_bad_gap },
	{ "tally", test_tally },
	{ "report_text", test_report_text },
	{ "report_json", test_report_json },
	{ "warning", test_warning },
	{ "duration", test_duration },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "lbr_stale", suite_init, suite_clean, NULL, NULL, stale_tests },
	CU_SUITE_INFO_NULL,
};
