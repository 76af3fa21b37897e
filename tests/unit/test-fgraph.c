// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --calls as ftrace funcgraph events (tracedat-fgraph.h): the fields where each kernel's
 * format text puts them (6.1's built-in int depth, 7.2's 8-byte entry depth, an old kernel's
 * exit with depth after rettime), and a call trace's events in tree order, an unreturned
 * call without an exit, times never past the record's nor going back.
 */
#include <errno.h>
#include <string.h>
#include "unit.h"
#include "tracedat-lbr/tracedat-fgraph.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* 7.2.13 (call-traces.md section 5): the entry's depth is an unsigned long */
static const char entry_7_2[] =
	"name: funcgraph_entry\nID: 11\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long depth;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"--> %ps (%lu)\", (void *)REC->func, REC->depth\n";

/* an older kernel's exit (a LISA recording): overrun an unsigned long, depth last */
static const char exit_old[] =
	"name: funcgraph_exit\nID: 10\nformat:\n" COMMON
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long overrun;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:40;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"<-- %lx (%d) (start: %llx  end: %llx) over: %d\", REC->func, "
	"REC->depth, REC->calltime, REC->rettime, REC->depth\n";

static void test_layouts(void)
{
	struct tracedat_fgraph g;

	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__parse(&g, tracedat_fgraph_entry_6_1,
						     tracedat_fgraph_exit_6_1), 0);
	CU_ASSERT_EQUAL(g.entry_id, 11);
	CU_ASSERT_EQUAL(g.exit_id, 10);
	CU_ASSERT_EQUAL(g.e_depth.off, 16);
	CU_ASSERT_EQUAL(g.e_depth.size, 4);
	CU_ASSERT_EQUAL(g.entry_len, 24);	/* 20 bytes, 8-aligned */
	CU_ASSERT_EQUAL(g.exit_len, 40);
	CU_ASSERT_EQUAL(g.x_calltime.off, 24);
	CU_ASSERT_EQUAL(g.x_rettime.off, 32);
	tracedat_fgraph__free(&g);

	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__parse(&g, entry_7_2, exit_old), 0);
	CU_ASSERT_EQUAL(g.e_depth.size, 8);
	CU_ASSERT_EQUAL(g.entry_len, 24);
	CU_ASSERT_EQUAL(g.x_depth.off, 40);
	CU_ASSERT_EQUAL(g.x_overrun.size, 8);
	CU_ASSERT_EQUAL(g.exit_len, 48);
	tracedat_fgraph__free(&g);

	/* a format without depth is not one the tree can be written in */
	CU_ASSERT_EQUAL(tracedat_fgraph__parse(&g, exit_old, exit_old), -EINVAL);
	CU_ASSERT_EQUAL(tracedat_fgraph__parse(&g, "name: x\n", tracedat_fgraph_exit_6_1),
			-EINVAL);
}

struct got {
	unsigned int nr;
	__u64 ts[8];
	unsigned char ev[8][48];
	unsigned int len[8];
};

static int collect(void *ctx, __u64 ts, const void *payload, unsigned int len)
{
	struct got *g = ctx;

	if (g->nr >= 8 || len > 48)
		return -E2BIG;
	g->ts[g->nr] = ts;
	g->len[g->nr] = len;
	memcpy(g->ev[g->nr++], payload, len);
	return 0;
}

static __u64 u64_at(const unsigned char *p, int off)
{
	__u64 v;

	memcpy(&v, p + off, 8);
	return v;
}

static __u32 u32_at(const unsigned char *p, int off)
{
	__u32 v;

	memcpy(&v, p + off, 4);
	return v;
}

static __u64 calls_buf[64];

/* top { leaf (returned); open (no exit) }, the record at 5000 */
static void test_encode(void)
{
	struct lbrsnap_calls *cs = (void *)calls_buf;
	struct lbrsnap_event ev = { .tid = 4242, .time_ns = 5000 };
	struct lbr_record_view v = { .ev = &ev, .calls = cs };
	const __u64 addrs[] = { 0xffffffff81000100ULL, 0xffffffff81000200ULL,
				0xffffffff81000300ULL };
	struct tracedat_fgraph g;
	struct got got = { 0 };

	cs->version = LBRSNAP_CALLS_VERSION;
	cs->nr = 3;
	cs->call[0] = (struct lbrsnap_call){ .start_ns = 1000, .end_ns = 6000, .func = 0,
					     .depth = 0, .flags = LBRSNAP_CALL_RETURNED };
	cs->call[1] = (struct lbrsnap_call){ .start_ns = 1100, .end_ns = 1300, .func = 1,
					     .depth = 1, .flags = LBRSNAP_CALL_RETURNED };
	cs->call[2] = (struct lbrsnap_call){ .start_ns = 1400, .func = 2, .depth = 1 };
	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__parse(&g, entry_7_2, tracedat_fgraph_exit_6_1), 0);
	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__encode(&g, &v, addrs, 3, NULL, collect, &got), 5);
	/* entry top, entry leaf, exit leaf, entry open, exit top: no exit for open */
	CU_ASSERT_EQUAL(u32_at(got.ev[0], 0) & 0xffff, 11);
	CU_ASSERT_EQUAL(u32_at(got.ev[0], 4), 4242);
	CU_ASSERT_EQUAL(u64_at(got.ev[0], 8), addrs[0]);
	CU_ASSERT_EQUAL(u64_at(got.ev[1], 16), 1);		/* 8-byte depth */
	CU_ASSERT_EQUAL(got.len[1], 24);
	CU_ASSERT_EQUAL(u32_at(got.ev[2], 0) & 0xffff, 10);
	CU_ASSERT_EQUAL(u64_at(got.ev[2], 8), addrs[1]);
	CU_ASSERT_EQUAL(u32_at(got.ev[2], 16), 1);		/* 6.1's int depth */
	CU_ASSERT_EQUAL(u64_at(got.ev[2], 24), 1100);
	CU_ASSERT_EQUAL(u64_at(got.ev[2], 32), 1300);
	CU_ASSERT_EQUAL(got.len[2], 40);
	CU_ASSERT_EQUAL(u64_at(got.ev[3], 8), addrs[2]);
	CU_ASSERT_EQUAL(u32_at(got.ev[4], 0) & 0xffff, 10);
	CU_ASSERT_EQUAL(u64_at(got.ev[4], 8), addrs[0]);
	/* the exit keeps its own rettime, its time stamp no later than the record's */
	CU_ASSERT_EQUAL(u64_at(got.ev[4], 32), 6000);
	CU_ASSERT_EQUAL(got.ts[0], 1000);
	CU_ASSERT_EQUAL(got.ts[1], 1100);
	CU_ASSERT_EQUAL(got.ts[2], 1300);
	CU_ASSERT_EQUAL(got.ts[3], 1400);
	CU_ASSERT_EQUAL(got.ts[4], 5000);
	tracedat_fgraph__free(&g);
}

/* A sys_exit scope's frame 0 is its record's syscall: frame0 names it, addrs stays as it is */
static void test_encode_frame0(void)
{
	struct lbrsnap_calls *cs = (void *)calls_buf;
	struct lbrsnap_event ev = { .tid = 7, .time_ns = 5000 };
	struct lbr_record_view v = { .ev = &ev, .calls = cs };
	const __u64 addrs[] = { 0xffffffff81000100ULL, 0xffffffff81000200ULL };
	const __u64 sys_mkdir = 0xffffffff81000900ULL;
	struct tracedat_fgraph g;
	struct got got = { 0 };

	cs->version = LBRSNAP_CALLS_VERSION;
	cs->nr = 2;
	cs->call[0] = (struct lbrsnap_call){ .start_ns = 1000, .end_ns = 4000, .func = 0,
					     .depth = 0, .flags = LBRSNAP_CALL_RETURNED };
	cs->call[1] = (struct lbrsnap_call){ .start_ns = 1100, .end_ns = 1300, .func = 1,
					     .depth = 1, .flags = LBRSNAP_CALL_RETURNED };
	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__parse(&g, tracedat_fgraph_entry_6_1,
						     tracedat_fgraph_exit_6_1), 0);
	CU_ASSERT_EQUAL_FATAL(tracedat_fgraph__encode(&g, &v, addrs, 2, &sys_mkdir, collect,
						      &got), 4);
	/* entry scope, entry leaf, exit leaf, exit scope */
	CU_ASSERT_EQUAL(u64_at(got.ev[0], 8), sys_mkdir);
	CU_ASSERT_EQUAL(u64_at(got.ev[1], 8), addrs[1]);
	CU_ASSERT_EQUAL(u64_at(got.ev[2], 8), addrs[1]);
	CU_ASSERT_EQUAL(u64_at(got.ev[3], 8), sys_mkdir);
	CU_ASSERT_EQUAL(addrs[0], 0xffffffff81000100ULL);
	tracedat_fgraph__free(&g);
}

static CU_TestInfo tests[] = {
	{ "layouts", test_layouts },
	{ "encode", test_encode },
	{ "encode_frame0", test_encode_frame0 },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "fgraph", NULL, NULL, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};
