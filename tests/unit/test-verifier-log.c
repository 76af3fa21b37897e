// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The verifier's verdict from the end of its log, as libbpf prints it on a failed load: a
 * log of many kilobytes (once cut at 8 KiB, which lost the verdict), a log the verifier did
 * not finish (no statistics), a bare log, and none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "capture/verifier-log.h"

#define VERDICT "R2 invalid zero-sized read: u64=[0,0]"
#define STATS "processed 5127 insns (limit 1000000) max_states_per_insn 4 total_states 311 " \
	      "peak_states 311 mark_read 45\n"

/* libbpf's message around a log of lines insn lines, then tail */
static char *load_log(int lines, const char *tail)
{
	size_t cap = 128 + lines * 80 + strlen(tail), n = 0;
	char *log = malloc(cap);
	int i;

	if (!log)
		return NULL;
	n += snprintf(log + n, cap - n, "libbpf: prog 'ap_raw_tp_3': -- BEGIN PROG LOAD LOG --\n");
	for (i = 0; i < lines; i++)
		n += snprintf(log + n, cap - n,
			      "%d: (79) r1 = *(u64 *)(r10 -%d)         ; R1_w=scalar()\n", i,
			      8 * (i % 64 + 1));
	snprintf(log + n, cap - n, "%s-- END PROG LOAD LOG --\n", tail);
	return log;
}

static void test_long_log(void)
{
	char why[256], *log = load_log(1000, "1001: (85) call bpf_strncmp#182\n" VERDICT "\n" STATS);

	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT(strlen(log) > 6 * 8192);
	CU_ASSERT_EQUAL(verifier_log__reason(log, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, VERDICT);
	free(log);
}

/* a log without statistics (the verifier gave up, or the log was cut): its last line */
static void test_unfinished(void)
{
	char why[256], *log = load_log(200, "201: (85) call bpf_strncmp#182\n" VERDICT "\n");

	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(verifier_log__reason(log, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, VERDICT);
	free(log);
	/* ... and a log without a newline before libbpf's end mark */
	log = load_log(3, VERDICT);
	CU_ASSERT_EQUAL(verifier_log__reason(log, why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, VERDICT);
	free(log);
}

static void test_bare_and_empty(void)
{
	char why[16];

	CU_ASSERT_EQUAL(verifier_log__reason("0: (b7) r0 = 0\n" VERDICT "\n\n" STATS, why,
					     sizeof(why)), 0);
	/* cut to the buffer */
	CU_ASSERT_STRING_EQUAL(why, "R2 invalid zero");
	CU_ASSERT_EQUAL(verifier_log__reason("libbpf: prog 'x': -- BEGIN PROG LOAD LOG --\n"
					     "-- END PROG LOAD LOG --\n", why, sizeof(why)),
			-ENOENT);
	CU_ASSERT_STRING_EQUAL(why, "");
	CU_ASSERT_EQUAL(verifier_log__reason("", why, sizeof(why)), -ENOENT);
}

static CU_TestInfo log_tests[] = {
	{ "long_log", test_long_log },
	{ "unfinished", test_unfinished },
	{ "bare_and_empty", test_bare_and_empty },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "verifier-log", NULL, NULL, NULL, NULL, log_tests },
	CU_SUITE_INFO_NULL,
};
