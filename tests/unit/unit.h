/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Unit-test glue: each test-*.c defines its suites with CUnit and exports them as
 * unit_suites (NULL-terminated CU_SuiteInfo array). cunit-main.c runs them and prints one
 * "ok - suite/test" or "not ok - suite/test: file:line: assertion" line per test, which
 * tests/run-tests counts.
 */
#ifndef LBRSNAP_UNIT_H
#define LBRSNAP_UNIT_H

#include <CUnit/CUnit.h>

extern CU_SuiteInfo unit_suites[];

#endif
