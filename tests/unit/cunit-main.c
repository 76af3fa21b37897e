// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Runs unit_suites and prints one TAP-like line per test for tests/run-tests. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <CUnit/Basic.h>
#include "unit.h"

static void test_done(const CU_pTest test, const CU_pSuite suite,
		      const CU_pFailureRecord failures)
{
	const CU_pFailureRecord f = failures;

	if (!f) {
		printf("ok - %s/%s\n", suite->pName, test->pName);
		return;
	}
	printf("not ok - %s/%s: %s:%u: %s\n", suite->pName, test->pName, f->strFileName,
	       f->uiLineNumber, f->strCondition);
}

static void suite_init_failed(const CU_pSuite suite)
{
	printf("not ok - %s: suite set-up failed\n", suite->pName);
}

int main(void)
{
	unsigned int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(unit_suites) != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_set_test_complete_handler(test_done);
	CU_set_suite_init_failure_handler(suite_init_failed);
	CU_run_all_tests();
	failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}

int unit_self__init(char *self, size_t len, char *tmpdir)
{
	ssize_t n = readlink("/proc/self/exe", self, len - 1);

	if (n <= 0 || !mkdtemp(tmpdir))
		return -1;
	self[n] = 0;
	return 0;
}

int unit_tmpdir__remove(const char *tmpdir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}
