// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ksyms__by_name() answers its first lookups by a scan of the table and later ones by a hash
 * built on demand: both must give the same symbol (the first of a name in address order).
 */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "symbols/ksyms.h"

/* A name twice, at two addresses, the higher first in the text; a module's alias of it */
static const char text[] =
	"ffffffff81000300 t dup_func\n"
	"ffffffff81000100 t dup_func\n"
	"ffffffffc1000000 t dup_func\t[mod]\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000200 T other_func\n"
	"ffffffff81000400 T _etext\n";

static void test_scan_then_hash(void)
{
	struct ksyms *ks = NULL;
	const struct ksym *s;
	int i, bad = 0;

	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, strlen(text), &ks), 0);
	/* far more lookups than the scans before the hash: every answer the same */
	for (i = 0; i < 100; i++) {
		s = ksyms__by_name(ks, "dup_func");
		bad += !s || s->addr != 0xffffffff81000100ULL || s->module;
		s = ksyms__by_name(ks, "other_func");
		bad += !s || s->addr != 0xffffffff81000200ULL;
		bad += ksyms__by_name(ks, "no_such_func") != NULL;
		bad += ksyms__by_name(ks, "") != NULL;
	}
	CU_ASSERT_EQUAL(bad, 0);
	ksyms__free(ks);
}

static CU_TestInfo lookup_tests[] = {
	{ "scan_then_hash", test_scan_then_hash },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "ksyms_lookups", NULL, NULL, NULL, NULL, lookup_tests },
	CU_SUITE_INFO_NULL,
};
