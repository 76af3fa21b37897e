// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbr_watch__update(): the decision of lbr_enable__check(), fed with synthetic readings of a
 * pinned event (value, time enabled, time running, EOF), since no machine here has a PMU.
 * Every case checks the exact gaps. The syscall side (pinned events, the read format,
 * lbr_enable__check()) runs with a software event in place of the hardware one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "unit.h"
#include "capture/lbr-enable.h"
#include "lbrfile/branch-filter.h"

/* A reading taken at t (before == after) with totals e and r. */
static int feed(struct lbr_watch *w, __u64 t, __u64 e, __u64 r)
{
	struct lbr_reading rd = {
		.value = e * 3, .enabled_ns = e, .running_ns = r, .before_ns = t, .after_ns = t,
	};

	return lbr_watch__update(w, &rd);
}

static int feed_eof(struct lbr_watch *w, __u64 t)
{
	struct lbr_reading rd = { .before_ns = t, .after_ns = t, .eof = true };

	return lbr_watch__update(w, &rd);
}

static void check_gap(const struct lbr_watch *w, size_t i, __u64 start, __u64 end,
		      __u64 enabled, __u64 running)
{
	const struct lbrfile_lbr_gap *g;

	CU_ASSERT_FATAL(i < w->nr_gaps);
	g = &w->gaps[i];
	CU_ASSERT_EQUAL(g->cpu, w->cpu);
	CU_ASSERT_EQUAL(g->start_ns, start);
	CU_ASSERT_EQUAL(g->end_ns, end);
	CU_ASSERT_EQUAL(g->enabled_ns, enabled);
	CU_ASSERT_EQUAL(g->running_ns, running);
}

static void test_steady(void)
{
	struct lbr_watch w = { .cpu = 3 };
	__u64 t;

	/* at open, enabled is a little ahead of running: the baseline is not judged */
	CU_ASSERT_EQUAL(feed(&w, 1000, 5000, 4200), 0);
	for (t = 1; t <= 50; t++)
		CU_ASSERT_EQUAL(feed(&w, 1000 + t * 100000000, 5000 + t * 99999000,
				     4200 + t * 99999000), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 0);
	CU_ASSERT_FALSE(w.in_gap);
	lbr_watch__free(&w);
}

static void test_running_lags(void)
{
	struct lbr_watch w = { .cpu = 1 };

	CU_ASSERT_EQUAL(feed(&w, 100, 1000, 1000), 0);
	CU_ASSERT_EQUAL(feed(&w, 200, 1100, 1100), 0);
	/* 100 enabled, 60 running: off the PMU for 40 somewhere in [200, 300] */
	CU_ASSERT_EQUAL(feed(&w, 300, 1200, 1160), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	check_gap(&w, 0, 200, 300, 100, 60);
	/* lagging again: the same gap grows */
	CU_ASSERT_EQUAL(feed(&w, 400, 1300, 1210), 0);
	check_gap(&w, 0, 200, 400, 200, 110);
	/* a good reading closes it */
	CU_ASSERT_EQUAL(feed(&w, 500, 1400, 1310), 0);
	CU_ASSERT_FALSE(w.in_gap);
	CU_ASSERT_EQUAL(feed(&w, 600, 1500, 1410), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	check_gap(&w, 0, 200, 400, 200, 110);
	/* the next lag is a new gap from the last good reading */
	CU_ASSERT_EQUAL(feed(&w, 700, 1600, 1509), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 2);
	check_gap(&w, 1, 600, 700, 100, 99);
	lbr_watch__free(&w);
}

static void test_eof_recovery(void)
{
	struct lbr_watch w = { .cpu = 0 };

	CU_ASSERT_EQUAL(feed(&w, 100, 1000, 1000), 0);
	CU_ASSERT_EQUAL(feed(&w, 200, 1100, 1100), 0);
	/* error state: re-enable asked for, gap from the last good reading */
	CU_ASSERT_EQUAL(feed_eof(&w, 300), 1);
	check_gap(&w, 0, 200, 300, 0, 0);
	/*
	 * Read again after re-enabling: running now. Its deltas include the time before the
	 * error (70 of 80 on the PMU), so it is not judged; it ends the gap.
	 */
	CU_ASSERT_EQUAL(feed(&w, 301, 1180, 1170), 0);
	check_gap(&w, 0, 200, 301, 80, 70);
	CU_ASSERT_FALSE(w.in_gap);
	/* running from the re-enable on: no new gap */
	CU_ASSERT_EQUAL(feed(&w, 400, 1279, 1269), 0);
	CU_ASSERT_EQUAL(feed(&w, 500, 1379, 1369), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	lbr_watch__free(&w);
}

static void test_eof_persists(void)
{
	struct lbr_watch w = { .cpu = 2 };

	CU_ASSERT_EQUAL(feed(&w, 100, 1000, 1000), 0);
	CU_ASSERT_EQUAL(feed_eof(&w, 200), 1);
	/* the re-enable did not help: still in error state right after it */
	CU_ASSERT_EQUAL(feed_eof(&w, 201), 1);
	CU_ASSERT_EQUAL(feed_eof(&w, 300), 1);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	check_gap(&w, 0, 100, 300, 0, 0);
	/* back on after the re-enable of the check at 400 */
	CU_ASSERT_EQUAL(feed_eof(&w, 400), 1);
	CU_ASSERT_EQUAL(feed(&w, 402, 1040, 1030), 0);
	check_gap(&w, 0, 100, 402, 40, 30);
	/* lagging right after the recovery continues the same gap: they touch at 402 */
	CU_ASSERT_EQUAL(feed(&w, 500, 1140, 1120), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	check_gap(&w, 0, 100, 500, 140, 120);
	CU_ASSERT_EQUAL(feed(&w, 600, 1240, 1220), 0);
	CU_ASSERT_FALSE(w.in_gap);
	lbr_watch__free(&w);
}

static void test_eof_at_open(void)
{
	struct lbr_watch w = { .cpu = 5 };

	/* already in error state when opened (another pinned user of the PMU) */
	CU_ASSERT_EQUAL(feed_eof(&w, 100), 1);
	check_gap(&w, 0, 100, 100, 0, 0);
	/* no totals before: nothing to subtract */
	CU_ASSERT_EQUAL(feed(&w, 101, 50, 40), 0);
	check_gap(&w, 0, 100, 101, 0, 0);
	CU_ASSERT_EQUAL(feed(&w, 200, 150, 140), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	CU_ASSERT_FALSE(w.in_gap);
	lbr_watch__free(&w);
}

/* A reading takes time: gaps start before the good read and end after the bad one. */
static void test_read_window(void)
{
	struct lbr_reading rd = { .enabled_ns = 1000, .running_ns = 1000,
				  .before_ns = 100, .after_ns = 110 };
	struct lbr_watch w = { .cpu = 7 };

	CU_ASSERT_EQUAL(lbr_watch__update(&w, &rd), 0);
	rd = (struct lbr_reading){ .enabled_ns = 1100, .running_ns = 1100,
				   .before_ns = 200, .after_ns = 210 };
	CU_ASSERT_EQUAL(lbr_watch__update(&w, &rd), 0);
	rd = (struct lbr_reading){ .enabled_ns = 1200, .running_ns = 1199,
				   .before_ns = 300, .after_ns = 312 };
	CU_ASSERT_EQUAL(lbr_watch__update(&w, &rd), 0);
	check_gap(&w, 0, 200, 312, 100, 99);
	lbr_watch__free(&w);
}

/* Totals that go back prove nothing: the interval counts as a gap with no deltas. */
static void test_totals_back(void)
{
	struct lbr_watch w = { .cpu = 0 };

	CU_ASSERT_EQUAL(feed(&w, 100, 1000, 1000), 0);
	CU_ASSERT_EQUAL(feed(&w, 200, 900, 900), 0);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	check_gap(&w, 0, 100, 200, 0, 0);
	/* judged from the new totals on */
	CU_ASSERT_EQUAL(feed(&w, 300, 1000, 1000), 0);
	CU_ASSERT_FALSE(w.in_gap);
	CU_ASSERT_EQUAL(w.nr_gaps, 1);
	lbr_watch__free(&w);
}

/*
 * The events lbr_enable__open() makes, with cpu-clock for cycles: a pinned software event
 * always fits, so every check finds it running for as long as it was enabled.
 */
static void test_software_events(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct lbr_enable *lbr = NULL;
	char why[256] = "";
	int i, ret;

	ret = lbr_enable__open_attr(&attr, &lbr, why, sizeof(why));
	if (ret == -EACCES || ret == -EPERM) {
		printf("skip - lbr_watch/software_events: %s\n", why);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT_EQUAL(attr.pinned, 1);
	CU_ASSERT_EQUAL(attr.read_format,
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
	for (i = 0; i < 5; i++) {
		usleep(20000);
		CU_ASSERT_EQUAL(lbr_enable__check(lbr), 0);
	}
	CU_ASSERT_PTR_NULL(lbr_enable__gap(lbr, 0));
	lbr_enable__close(lbr);
	/* no events (no PMU, --lbr=off or external): nothing to check, no gaps */
	CU_ASSERT_EQUAL(lbr_enable__check(NULL), 0);
	CU_ASSERT_PTR_NULL(lbr_enable__gap(NULL, 0));
}

/* -j: perf's words, exact bits; u alone keeps user branches only, no kernel bit added */
static void test_branch_filter(void)
{
	struct perf_event_attr attr;
	char err[256] = "";
	__u64 bits = 0;

	CU_ASSERT_EQUAL(branch_filter__parse("any,u", &bits, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(bits, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	lbr_enable__attr(bits, &attr);
	CU_ASSERT_EQUAL(attr.type, PERF_TYPE_HARDWARE);
	CU_ASSERT_EQUAL(attr.size, sizeof(attr));
	CU_ASSERT_EQUAL(attr.config, PERF_COUNT_HW_CPU_CYCLES);
	CU_ASSERT_EQUAL(attr.sample_period, 100000000);
	CU_ASSERT_EQUAL(attr.sample_type, PERF_SAMPLE_BRANCH_STACK);
	CU_ASSERT_EQUAL(attr.branch_sample_type, 0x1 | 0x8);	/* USER | ANY, uapi values */
	CU_ASSERT_EQUAL(attr.exclude_user, 0);
	CU_ASSERT_EQUAL(attr.exclude_kernel, 0);

	CU_ASSERT_EQUAL(branch_filter__parse("any_call,u,k", &bits, err, sizeof(err)), 0);
	lbr_enable__attr(bits, &attr);
	CU_ASSERT_EQUAL(attr.branch_sample_type, 0x10 | 0x1 | 0x2);
	/* no privilege word: kernel branches, the default */
	CU_ASSERT_EQUAL(branch_filter__parse("any", &bits, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(bits, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL);
	/* u alone names no branch type */
	bits = 7;
	CU_ASSERT_EQUAL(branch_filter__parse("u", &bits, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "branch filter 'u' names no branch type (e.g. any)");
	CU_ASSERT_EQUAL(bits, 7);
	CU_ASSERT_EQUAL(branch_filter__parse("any,user", &bits, err, sizeof(err)), -EINVAL);
}

/* What each filter records decides filter-first: only call and return filters allow it */
static void test_branch_filter_records(void)
{
	static const struct {
		const char *spec;
		unsigned int records;
	} cases[] = {
		{ "any,k", BR_JUMPS | BR_CALLS | BR_RETURNS },
		{ "any_ret", BR_RETURNS },
		{ "any_call,u,k", BR_CALLS },
		{ "call", BR_CALLS },
		{ "ind_call,save_type", BR_CALLS },
		{ "call_stack", BR_CALLS | BR_RETURNS },
		{ "any_ret,cond", BR_JUMPS | BR_RETURNS },
		{ "ind_jmp", BR_JUMPS },
		{ "any_call,in_tx", BR_JUMPS | BR_CALLS },
	};
	char err[256] = "";
	__u64 bits;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(branch_filter__parse(cases[i].spec, &bits, err,
							   sizeof(err)), 0);
		CU_ASSERT_EQUAL(branch_filter__records(bits), cases[i].records);
	}
}

static CU_TestInfo watch_tests[] = {
	{ "branch_filter", test_branch_filter },
	{ "branch_filter_records", test_branch_filter_records },
	{ "steady", test_steady },
	{ "running_lags", test_running_lags },
	{ "eof_recovery", test_eof_recovery },
	{ "eof_persists", test_eof_persists },
	{ "eof_at_open", test_eof_at_open },
	{ "read_window", test_read_window },
	{ "totals_back", test_totals_back },
	{ "software_events", test_software_events },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "lbr_watch", NULL, NULL, NULL, NULL, watch_tests },
	CU_SUITE_INFO_NULL,
};
