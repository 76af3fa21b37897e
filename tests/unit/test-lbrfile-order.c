// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The reader's passes in time order (lbrfile_cursor, lbrfile__for_each(sorted)) against a
 * sort of every record: a synthetic capture of several blocks over three CPUs, its times
 * mostly rising with jitter, runs of equal times (file order among them), and one record
 * written last that is the earliest of all (the cursor must hold everything before it).
 * Each CPU's pass, the pass over all, lbrfile__record() and file order, all exact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "lbrfile/lbrfile.h"

#define NR_RECS		20000	/* about 20 of the reader's blocks of 1024 */
#define NR_CPUS		3

static char dir[] = "/tmp/test-lbrfile-order-XXXXXX";
static char path[96], empty_path[96];

/* per record, in file order: its time and CPU; seq holds the place in the file */
static __u64 times[NR_RECS];
static __u32 cpus[NR_RECS];

static int write_capture(const char *p, size_t nr)
{
	struct lbr_attach_point ap = {
		.id = 0, .kind = LBRSNAP_KIND_RAW_TP, .spec = "raw_tp:sys_exit",
		.target = "sys_exit",
	};
	struct lbrsnap_event ev;
	struct lbrfile_writer *w;
	size_t i;
	int err;

	err = lbrfile_writer__create(p, &w);
	if (err)
		return err;
	err = lbrfile_writer__attach(w, &ap);
	for (i = 0; i < nr && !err; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.time_ns = times[i];
		ev.cpu = cpus[i];
		ev.seq = i;
		ev.pid = ev.tid = 100 + cpus[i];
		err = lbrfile_writer__record(w, &ev, sizeof(ev));
	}
	if (err) {
		lbrfile_writer__abort(w);
		return err;
	}
	return lbrfile_writer__close(w);
}

static int setup(void)
{
	unsigned int x = 12345;
	size_t i;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/order.data", dir);
	snprintf(empty_path, sizeof(empty_path), "%s/empty.data", dir);
	for (i = 0; i < NR_RECS; i++) {
		x = x * 1103515245 + 12345;
		/* rising by 10 per record, up to 300 back: a ring buffer's small disorder */
		times[i] = 1000000 + i * 10 - (x >> 8) % 300;
		cpus[i] = (x >> 20) % NR_CPUS;
		/* runs of equal times, on one CPU and across CPUs */
		if (i % 97 < 4)
			times[i] = 1000000 + (i - i % 97) * 10;
	}
	/* the last record is the earliest of all */
	times[NR_RECS - 1] = 5;
	return write_capture(path, NR_RECS) || write_capture(empty_path, 0);
}

static int teardown(void)
{
	unlink(path);
	unlink(empty_path);
	rmdir(dir);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	if (times[x] != times[y])
		return times[x] < times[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The places in the file of cpu's records (all: -1) in time order, into want; how many */
static size_t expected(int cpu, __u32 *want)
{
	size_t i, n = 0;

	for (i = 0; i < NR_RECS; i++) {
		if (cpu < 0 || cpus[i] == (__u32)cpu)
			want[n++] = i;
	}
	qsort(want, n, sizeof(*want), by_time);
	return n;
}

static void test_cursor(void)
{
	static __u32 want[NR_RECS];
	struct lbrfile_cursor *c;
	struct lbr_record rec;
	struct lbrfile *f;
	size_t n, i, bad;
	int cpu, err;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &f), 0);
	CU_ASSERT_EQUAL(lbrfile__nr_records(f), NR_RECS);
	for (cpu = -1; cpu < NR_CPUS + 1; cpu++) {
		n = cpu < NR_CPUS ? expected(cpu, want) : 0;
		CU_ASSERT_EQUAL_FATAL(lbrfile_cursor__new(f, cpu, &c), 0);
		for (i = 0, bad = 0; !(err = lbrfile_cursor__next(c, &rec)); i++)
			bad += i >= n || rec.ev->seq != want[i] || rec.ev->time_ns != times[want[i]];
		CU_ASSERT_EQUAL(err, -ENOENT);
		CU_ASSERT_EQUAL(i, n);
		CU_ASSERT_EQUAL(bad, 0);
		/* after the end it stays at the end */
		CU_ASSERT_EQUAL(lbrfile_cursor__next(c, &rec), -ENOENT);
		lbrfile_cursor__free(c);
	}
	lbrfile__close(f);
}

struct seen {
	size_t n, bad;
	const __u32 *want;
};

static int check_one(const struct lbr_record *rec, void *ctx)
{
	struct seen *s = ctx;

	s->bad += s->n >= NR_RECS || rec->ev->seq != (s->want ? s->want[s->n] : s->n);
	s->n++;
	return 0;
}

static int stop_at_3(const struct lbr_record *rec, void *ctx)
{
	return ++*(int *)ctx == 3 ? -ECANCELED : 0;
}

static void test_for_each(void)
{
	static __u32 want[NR_RECS];
	struct seen sorted = { .want = want }, file = { 0 };
	struct lbr_record rec;
	struct lbrfile *f;
	size_t i, bad = 0;
	int calls = 0;

	expected(-1, want);
	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &f), 0);
	CU_ASSERT_EQUAL(lbrfile__for_each(f, true, check_one, &sorted), 0);
	CU_ASSERT_EQUAL(sorted.n, NR_RECS);
	CU_ASSERT_EQUAL(sorted.bad, 0);
	CU_ASSERT_EQUAL(lbrfile__for_each(f, false, check_one, &file), 0);
	CU_ASSERT_EQUAL(file.n, NR_RECS);
	CU_ASSERT_EQUAL(file.bad, 0);
	/* a callback's error ends the pass and is returned */
	CU_ASSERT_EQUAL(lbrfile__for_each(f, true, stop_at_3, &calls), -ECANCELED);
	CU_ASSERT_EQUAL(calls, 3);
	/*
	 * random access agrees with the passes, both ways: one order at a time, since each
	 * switch of order sorts the index again (alternating per record took a minute)
	 */
	for (i = 0; i < NR_RECS; i++)
		bad += lbrfile__record(f, true, i, &rec) || rec.ev->seq != want[i];
	for (i = 0; i < NR_RECS; i++)
		bad += lbrfile__record(f, false, i, &rec) || rec.ev->seq != i;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(lbrfile__record(f, true, NR_RECS, &rec), -ENOENT);
	lbrfile__close(f);
}

static void test_empty(void)
{
	struct lbrfile_cursor *c;
	struct seen s = { 0 };
	struct lbr_record rec;
	struct lbrfile *f;

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(empty_path, &f), 0);
	CU_ASSERT_EQUAL(lbrfile__nr_records(f), 0);
	CU_ASSERT_EQUAL_FATAL(lbrfile_cursor__new(f, -1, &c), 0);
	CU_ASSERT_EQUAL(lbrfile_cursor__next(c, &rec), -ENOENT);
	lbrfile_cursor__free(c);
	CU_ASSERT_EQUAL(lbrfile__for_each(f, true, check_one, &s), 0);
	CU_ASSERT_EQUAL(lbrfile__for_each(f, false, check_one, &s), 0);
	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_EQUAL(lbrfile__record(f, true, 0, &rec), -ENOENT);
	lbrfile__close(f);
}

static CU_TestInfo order_tests[] = {
	{ "cursor", test_cursor },
	{ "for_each", test_for_each },
	{ "empty", test_empty },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "lbrfile_order", setup, teardown, NULL, NULL, order_tests },
	CU_SUITE_INFO_NULL,
};
