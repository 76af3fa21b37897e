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

#include <stddef.h>

extern CU_SuiteInfo unit_suites[];

/*
 * For suites whose input is the test program itself (its DWARF, symbols and SDT notes): its
 * path into self, and tmpdir (a mkdtemp() template) made. 0 or -1, as a CUnit suite init.
 */
int unit_self__init(char *self, size_t len, char *tmpdir);
/* tmpdir and all in it removed: 0 or -1, as a CUnit suite cleanup */
int unit_tmpdir__remove(const char *tmpdir);

#endif
