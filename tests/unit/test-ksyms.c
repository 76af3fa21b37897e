// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* ksyms: kallsyms parsing, ordering, sizes, lookups. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "symbols/ksyms.h"

/* Out of order on purpose (modules load anywhere), with data symbols and an alias. */
static const char sample[] =
	"ffffffffc0a01000 t bpf_prog_6deef7357e7b4530_lbrsnap_fexit\t[bpf]\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t first_func\n"
	"ffffffff81001000 D some_data\n"
	"ffffffff81000180 W weak_func\n"
	"ffffffff81000200 T second_func\n"
	"0000000000000000 T hidden_func\n"
	"ffffffffc0a00000 t bpf_trampoline_6442508829\t[bpf]\n"
	"ffffffffc1000000 t ext4_lookup\t[ext4]\n"
	"ffffffff81000300 r rodata_thing\n"
	"garbage line\n"
	"ffffffff81000400 T last_vmlinux_func";	/* no final newline */

static struct ksyms *parse(const char *text)
{
	struct ksyms *ks = NULL;

	CU_ASSERT_EQUAL_FATAL(ksyms__parse(text, strlen(text), &ks), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ks);
	return ks;
}

static void test_parse_filters_and_sorts(void)
{
	struct ksyms *ks = parse(sample);
	size_t i;

	/* text symbols with an address: 6 vmlinux + 3 module ones */
	CU_ASSERT_EQUAL(ksyms__count(ks), 9);
	for (i = 1; i < ksyms__count(ks); i++)
		CU_ASSERT(ksyms__at(ks, i - 1)->addr <= ksyms__at(ks, i)->addr);
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "some_data"));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "rodata_thing"));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "hidden_func"));
	CU_ASSERT_PTR_NULL(ksyms__at(ks, ksyms__count(ks)));
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "weak_func")->type, 'W');
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "first_func")->type, 't');
	ksyms__free(ks);
}

static void test_sizes(void)
{
	struct ksyms *ks = parse(sample);

	CU_ASSERT_EQUAL(ksyms__by_name(ks, "first_func")->size, 0x80);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "weak_func")->size, 0x80);
	/* aliases share the distance to the next address */
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "_stext")->size, 0x100);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "_text")->size, 0x100);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "bpf_trampoline_6442508829")->size, 0x1000);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "ext4_lookup")->size, 0);
	ksyms__free(ks);
}

static void test_modules(void)
{
	struct ksyms *ks = parse(sample);
	const struct ksym *k;

	k = ksyms__by_name(ks, "bpf_prog_6deef7357e7b4530_lbrsnap_fexit");
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_STRING_EQUAL(k->module, "bpf");
	CU_ASSERT_EQUAL(k->addr, 0xffffffffc0a01000ull);
	CU_ASSERT_STRING_EQUAL(ksyms__by_name(ks, "ext4_lookup")->module, "ext4");
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "second_func")->module);
	CU_ASSERT_PTR_NOT_NULL(ksyms__by_name(ks, "last_vmlinux_func"));
	ksyms__free(ks);
}

static void test_find(void)
{
	struct ksyms *ks = parse(sample);
	const struct ksym *k;

	CU_ASSERT_PTR_NULL(ksyms__find(ks, 0xffffffff80ffffffull));
	k = ksyms__find(ks, 0xffffffff81000000ull);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	/* the first alias in file order */
	CU_ASSERT_STRING_EQUAL(k->name, "_stext");
	CU_ASSERT_STRING_EQUAL(ksyms__find(ks, 0xffffffff810001ffull)->name, "weak_func");
	CU_ASSERT_STRING_EQUAL(ksyms__find(ks, 0xffffffff81000200ull)->name, "second_func");
	CU_ASSERT_STRING_EQUAL(ksyms__find(ks, 0xffffffffc0a01234ull)->name,
			       "bpf_prog_6deef7357e7b4530_lbrsnap_fexit");
	CU_ASSERT_STRING_EQUAL(ksyms__find(ks, 0xffffffffffffffffull)->name, "ext4_lookup");
	ksyms__free(ks);
}

static void test_no_addresses(void)
{
	static const char restricted[] =
		"0000000000000000 T _stext\n0000000000000000 t foo\n";
	struct ksyms *ks = (void *)1;

	/* what an unprivileged reader sees with kptr_restrict */
	CU_ASSERT_EQUAL(ksyms__parse(restricted, strlen(restricted), &ks), -ENODATA);
	CU_ASSERT_PTR_NULL(ks);
	CU_ASSERT_EQUAL(ksyms__parse("", 0, &ks), -ENODATA);
	CU_ASSERT_PTR_NULL(ksyms__find(NULL, 1));
	CU_ASSERT_EQUAL(ksyms__count(NULL), 0);
}

static void test_load_file(void)
{
	char path[] = "/tmp/test-ksyms-XXXXXX";
	struct ksyms *ks = NULL;
	int fd;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, sample, strlen(sample)), (ssize_t)strlen(sample));
	close(fd);
	CU_ASSERT_EQUAL(ksyms__load(path, &ks), 0);
	CU_ASSERT_EQUAL(ksyms__count(ks), 9);
	ksyms__free(ks);
	unlink(path);
	CU_ASSERT_EQUAL(ksyms__load(path, &ks), -ENOENT);
}

/* The live table: every text line with an address must be there, and lookups agree. */
static void test_live_kallsyms(void)
{
	unsigned long long addr, prev = 0;
	size_t expect = 0, i;
	struct ksyms *ks = NULL;
	char type, name[512];
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fscanf(f, "%llx %c %511s%*[^\n]", &addr, &type, name) == 3)
		expect += addr && strchr("tTwW", type);
	fclose(f);
	if (!expect)
		return;	/* kptr_restrict: nothing to compare */
	CU_ASSERT_EQUAL_FATAL(ksyms__load("/proc/kallsyms", &ks), 0);
	/* modules can come and go between the two reads; vmlinux is fixed */
	CU_ASSERT(ksyms__count(ks) + 64 >= expect && ksyms__count(ks) <= expect + 64);
	CU_ASSERT_PTR_NOT_NULL(ksyms__by_name(ks, "_stext"));
	CU_ASSERT_PTR_NOT_NULL(ksyms__by_name(ks, "schedule"));
	for (i = 0; i < ksyms__count(ks); i++) {
		const struct ksym *k = ksyms__at(ks, i);

		if (k->addr < prev || ksyms__find(ks, k->addr)->addr != k->addr) {
			CU_FAIL("unsorted, or find() disagrees with at()");
			break;
		}
		prev = k->addr;
	}
	CU_ASSERT_EQUAL(ksyms__find(ks, ksyms__by_name(ks, "schedule")->addr + 1)->addr,
			ksyms__by_name(ks, "schedule")->addr);
	ksyms__free(ks);
}

/*
 * A borrowed text is read in place: it ends without a NUL (an exact-size copy, so that a
 * sanitizer sees any read past it), lines may hold a NUL, and kallsyms' late tail (BPF
 * programs, a module) comes after the sorted head in more than one run.
 */
static void test_borrowed(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 t a_func\n"
		"ffffffff81000200 t b_func\0tail after a NUL\n"
		"ffffffff81000300 T c_func\t[\n"
		"ffffffffc0002000 t bpf_prog_2_x\t[bpf]\n"
		"ffffffffc0001000 t bpf_prog_1_x\t[bpf]\n"
		"ffffffff81000280 t late_func\t[mod]\n"
		"ffffffffc0001000 t bpf_alias_x\t[bpf]\n"
		"ffffffff81000180 t odd_func";
	static const char *order[] = {
		"_stext", "_text", "a_func", "odd_func", "b_func", "late_func", "c_func",
		"bpf_prog_1_x", "bpf_alias_x", "bpf_prog_2_x",
	};
	static const char *mods[] = { NULL, NULL, NULL, NULL, NULL, "mod", NULL, "bpf", "bpf",
				      "bpf" };
	size_t n = sizeof(text) - 1, i;
	struct ksyms *ks = NULL;
	const struct ksym *k;
	char *copy = malloc(n);

	CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
	memcpy(copy, text, n);
	CU_ASSERT_EQUAL_FATAL(ksyms__parse_borrowed(copy, n, &ks), 0);
	CU_ASSERT_EQUAL_FATAL(ksyms__count(ks), 10);
	for (i = 0; i < 10; i++) {
		CU_ASSERT_STRING_EQUAL(ksyms__at(ks, i)->name, order[i]);
		if (mods[i]) {
			CU_ASSERT_STRING_EQUAL(ksyms__module_at(ks, i), mods[i]);
		} else {
			CU_ASSERT_PTR_NULL(ksyms__module_at(ks, i));
		}
	}
	CU_ASSERT_PTR_NULL(ksyms__module_at(ks, 10));
	/* the same struct every time, whichever way it is asked for */
	k = ksyms__by_name(ks, "bpf_alias_x");
	CU_ASSERT_PTR_EQUAL(k, ksyms__at(ks, 8));
	CU_ASSERT_PTR_EQUAL(ksyms__find(ks, 0xffffffffc0001010ull), ksyms__at(ks, 7));
	CU_ASSERT_EQUAL(k->size, 0x1000);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "odd_func")->size, 0x80);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "late_func")->size, 0x80);
	CU_ASSERT_EQUAL(ksyms__by_name(ks, "bpf_prog_2_x")->size, 0);
	/* a name is what comes before its tab, its newline or a NUL, never more */
	CU_ASSERT_PTR_NOT_NULL(ksyms__by_name(ks, "b_func"));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "b_func\ttail"));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "c_fun"));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "c_func\t["));
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "odd_func_and_more"));
	/* an unclosed module bracket names no module */
	CU_ASSERT_PTR_NULL(ksyms__by_name(ks, "c_func")->module);
	ksyms__free(ks);
	free(copy);
}

static CU_TestInfo ksyms_tests[] = {
	{ "parse_filters_and_sorts", test_parse_filters_and_sorts },
	{ "sizes", test_sizes },
	{ "modules", test_modules },
	{ "find", test_find },
	{ "no_addresses", test_no_addresses },
	{ "load_file", test_load_file },
	{ "live_kallsyms", test_live_kallsyms },
	{ "borrowed", test_borrowed },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "ksyms", NULL, NULL, NULL, NULL, ksyms_tests },
	CU_SUITE_INFO_NULL,
};
