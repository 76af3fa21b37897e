// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --calls in lbrsnap.data: the call trace block after the extra block (lbr_record__parse),
 * refused when damaged or of another version, and its functions named from META's list
 * (lbr_record_view__call_name), and a call's result as every output prints it
 * (lbr_record_view__call_result).
 */
#include <errno.h>
#include <string.h>
#include "unit.h"
#include "lbrfile/lbrfile.h"
#include "view/record-view.h"

static __u64 rec_buf[512];

/* A record with a user stack of one frame, the extra block and nr calls, origin o */
static size_t build(unsigned int nr, unsigned int origin)
{
	struct lbrsnap_event *ev = (void *)rec_buf;
	struct lbrsnap_ustack *u;
	struct lbrsnap_extra *x;
	struct lbrsnap_calls *cb;
	size_t off = lbrsnap_event_size(0, 1);
	unsigned int i;

	memset(rec_buf, 0, sizeof(rec_buf));
	ev->nr_stack = 1;
	ev->flags = LBRSNAP_EV_HAS_USTACK | LBRSNAP_EV_HAS_EXTRA | LBRSNAP_EV_HAS_CALLS;
	u = (void *)((char *)rec_buf + off);
	u->nr = 1;
	off += lbrsnap_ustack_size(1);
	x = (void *)((char *)rec_buf + off);
	x->nr = 2;	/* a newer program's extra value: skipped by its count */
	off += lbrsnap_extra_size(2);
	cb = (void *)((char *)rec_buf + off);
	cb->version = LBRSNAP_CALLS_VERSION;
	cb->nr = nr;
	cb->origin = origin;
	for (i = 0; i < nr; i++) {
		cb->call[i].func = i;
		cb->call[i].depth = i < 2 ? i : 2;
		cb->call[i].start_ns = 1000 + i;
		cb->call[i].end_ns = 2000 - i;
		cb->call[i].ret = -2;
		cb->call[i].ret_kind = LBRSNAP_RET_SIGNED;
		cb->call[i].flags = LBRSNAP_CALL_RETURNED | LBRSNAP_CALL_HAS_RET;
	}
	return off + lbrsnap_calls_size(nr);
}

static struct lbrsnap_calls *block(void)
{
	return (void *)((char *)rec_buf + lbrsnap_event_size(0, 1) + lbrsnap_ustack_size(1) +
			lbrsnap_extra_size(2));
}

static void test_block(void)
{
	struct lbr_record rec;
	size_t size = build(4, 3);

	CU_ASSERT_EQUAL(sizeof(struct lbrsnap_call), 32);
	CU_ASSERT_EQUAL(sizeof(struct lbrsnap_calls), 16);
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec.calls);
	CU_ASSERT_EQUAL(rec.calls->nr, 4);
	CU_ASSERT_EQUAL(rec.calls->origin, 3);
	CU_ASSERT_EQUAL(rec.calls->call[2].start_ns, 1002);
	CU_ASSERT_EQUAL(lbr_record__size(&rec), size);
	/* without the flag the block is not read, and the record is shorter */
	((struct lbrsnap_event *)rec_buf)->flags &= ~LBRSNAP_EV_HAS_CALLS;
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	CU_ASSERT_PTR_NULL(rec.calls);
	CU_ASSERT_EQUAL(lbr_record__size(&rec), size - lbrsnap_calls_size(4));
	/* no origin */
	size = build(2, LBRSNAP_CALLS_NO_ORIGIN);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), 0);
}

static void test_block_bad(void)
{
	struct lbr_record rec;
	size_t size;

	/* a call short, and the block's header cut */
	size = build(4, 0);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size - 8, &rec), -EINVAL);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size - lbrsnap_calls_size(4) + 8, &rec),
			-EINVAL);
	/* another version: newer, and older than any program wrote */
	block()->version = LBRSNAP_CALLS_VERSION + 1;
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
	block()->version = LBRSNAP_CALLS_VERSION_MIN - 1;
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
	/* an origin that is none of its calls */
	size = build(4, 4);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
	/* a call deeper than a program records */
	size = build(4, 0);
	block()->call[1].depth = LBRSNAP_CALLS_DEPTH;
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
}

static void test_names(void)
{
	struct lbr_record rec;
	struct lbr_record_view v = {};
	char buf[32];

	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, build(4, 3), &rec), 0);
	v.rec = &rec;
	v.calls = rec.calls;
	v.call_names = "top,mid,ok_leaf";
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_name(&v, 0, buf, sizeof(buf)), "top");
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_name(&v, 2, buf, sizeof(buf)), "ok_leaf");
	/* an id past the list, and a capture that names none */
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_name(&v, 3, buf, sizeof(buf)), "#3");
	v.call_names = NULL;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_name(&v, 1, buf, sizeof(buf)), "#1");
	CU_ASSERT_EQUAL(lbr_record_view__call_errno(&v, 1), ENOENT);
	block()->call[1].ret_kind = LBRSNAP_RET_UNSIGNED;
	CU_ASSERT_EQUAL(lbr_record_view__call_errno(&v, 1), 0);
}

/*
 * Version 1 blocks (before the origin's snapshot) still read, as the scope's snapshot; a
 * version 2 block says the origin's with its flag, and only when it has an origin.
 */
static void test_snap_at(void)
{
	struct lbr_record rec;
	struct lbr_record_view v = {};
	size_t size = build(4, 3);
	unsigned int idx[LBRSNAP_CALLS_DEPTH];

	block()->version = 1;
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	v.rec = &rec;
	v.ev = rec.ev;
	lbr_record_view__init(&v, NULL, NULL, &rec, LBR_VIEW_RET_ONLY);
	CU_ASSERT_EQUAL(v.origin, 3);
	CU_ASSERT_FALSE(v.snap_at_origin);
	block()->version = LBRSNAP_CALLS_VERSION;
	block()->flags = LBRSNAP_CALLS_SNAP_ORIGIN;
	lbr_record_view__init(&v, NULL, NULL, &rec, LBR_VIEW_RET_ONLY);
	CU_ASSERT_TRUE(v.snap_at_origin);
	/* depths 0 1 2 2: call 3's path is 0 > 1 > 3 (call 2 is its sibling) */
	CU_ASSERT_EQUAL_FATAL(lbr_record_view__origin_path(&v, idx, LBRSNAP_CALLS_DEPTH), 3);
	CU_ASSERT_EQUAL(idx[0], 0);
	CU_ASSERT_EQUAL(idx[1], 1);
	CU_ASSERT_EQUAL(idx[2], 3);
	CU_ASSERT_EQUAL(lbr_record_view__origin_path(&v, idx, 2), 0);
	size = build(4, LBRSNAP_CALLS_NO_ORIGIN);
	block()->flags = LBRSNAP_CALLS_SNAP_ORIGIN;
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	lbr_record_view__init(&v, NULL, NULL, &rec, LBR_VIEW_RET_ONLY);
	CU_ASSERT_FALSE(v.snap_at_origin);
	CU_ASSERT_EQUAL(lbr_record_view__origin_path(&v, idx, LBRSNAP_CALLS_DEPTH), 0);
}

/* The one result text of a call, which report's tree, perf's lbr:call and lbr-calltree show */
static void test_result(void)
{
	struct lbrsnap_call *c = &block()->call[1];
	struct lbr_record rec;
	struct lbr_record_view v = {};
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, build(4, 3), &rec), 0);
	v.rec = &rec;
	v.calls = rec.calls;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_result(&v, 1, buf, sizeof(buf)),
			       "-2 (ENOENT)");
	c->ret = 0;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_result(&v, 1, buf, sizeof(buf)), "0");
	/* a pointer names its errno itself */
	c->ret = -17;
	c->ret_kind = LBRSNAP_RET_POINTER;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_result(&v, 1, buf, sizeof(buf)),
			       "ERR_PTR(-EEXIST)");
	c->flags = LBRSNAP_CALL_RETURNED;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_result(&v, 1, buf, sizeof(buf)), "(void)");
	c->flags = 0;
	CU_ASSERT_STRING_EQUAL(lbr_record_view__call_result(&v, 1, buf, sizeof(buf)),
			       "(no return seen)");
}

static CU_TestInfo tests[] = {
	{ "block", test_block },
	{ "block_bad", test_block_bad },
	{ "names", test_names },
	{ "snap_at", test_snap_at },
	{ "result", test_result },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "calls", NULL, NULL, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};
