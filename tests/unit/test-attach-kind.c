// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The attach kind tables (lbrfile/lbr-kind.c, capture/attach-kind.c): a row in each for
 * every enum lbrsnap_kind, prefixes and aliases that parse back to their kind, the error's
 * list of forms, the help naming every kind, and the program flags each kind takes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"

static void test_every_kind(void)
{
	unsigned int k;

	for (k = LBRSNAP_KIND_FEXIT; k < LBRSNAP_KIND__MAX; k++) {
		const struct attach_kind *ak = attach_kind__get(k);
		const char *name = lbr_kind__name(k);

		CU_ASSERT_PTR_NOT_NULL_FATAL(lbr_kind__get(k));
		CU_ASSERT_PTR_NOT_NULL_FATAL(ak);
		CU_ASSERT_EQUAL(ak->kind, k);
		CU_ASSERT_PTR_NOT_NULL(ak->attach);
		CU_ASSERT(ak->prog && *ak->prog && ak->help && *ak->help && ak->needs);
		/* the form starts with the prefix and its colon */
		CU_ASSERT(!strncmp(ak->form, name, strlen(name)) && ak->form[strlen(name)] == ':');
		CU_ASSERT_EQUAL(lbr_kind__by_prefix(name, strlen(name)), k);
	}
	CU_ASSERT_PTR_NULL(lbr_kind__get(0));
	CU_ASSERT_PTR_NULL(lbr_kind__get(LBRSNAP_KIND__MAX));
	CU_ASSERT_PTR_NULL(attach_kind__get(LBRSNAP_KIND__MAX));
	CU_ASSERT_STRING_EQUAL(lbr_kind__name(77), "unknown");
	CU_ASSERT_FALSE(lbr_kind__is(77, ~0u));
}

static void test_parse(void)
{
	enum lbrsnap_kind kind;
	const char *name;

	CU_ASSERT_EQUAL(attach_spec__parse("rawtrace:sys_enter", &kind, &name), 0);
	CU_ASSERT_EQUAL(kind, LBRSNAP_KIND_RAW_TP);
	CU_ASSERT_STRING_EQUAL(name, "sys_enter");
	CU_ASSERT_EQUAL(attach_spec__parse("raw_tracepoint:x", &kind, &name), 0);
	CU_ASSERT_EQUAL(kind, LBRSNAP_KIND_RAW_TP);
	CU_ASSERT_EQUAL(attach_spec__parse("uretprobe:/bin/true:main", &kind, &name), 0);
	CU_ASSERT_EQUAL(kind, LBRSNAP_KIND_URETPROBE);
	CU_ASSERT_STRING_EQUAL(name, "/bin/true:main");
	/* a prefix of a prefix is no kind, nor is a longer word */
	CU_ASSERT_EQUAL(attach_spec__parse("fex:f", &kind, &name), -EINVAL);
	CU_ASSERT_EQUAL(attach_spec__parse("kprobes:f", &kind, &name), -EINVAL);
	CU_ASSERT_EQUAL(attach_spec__parse("fexit:", &kind, &name), -EINVAL);
	CU_ASSERT_EQUAL(attach_spec__parse("fexit", &kind, &name), -EINVAL);
}

static void test_facts(void)
{
	CU_ASSERT_TRUE(lbr_kind__is_return(LBRSNAP_KIND_FEXIT));
	CU_ASSERT_TRUE(lbr_kind__is_return(LBRSNAP_KIND_KRETPROBE));
	CU_ASSERT_TRUE(lbr_kind__is_return(LBRSNAP_KIND_URETPROBE));
	CU_ASSERT_FALSE(lbr_kind__is_return(LBRSNAP_KIND_KPROBE));
	CU_ASSERT_FALSE(lbr_kind__is_return(LBRSNAP_KIND_UPROBE));
	CU_ASSERT_FALSE(lbr_kind__is_return(LBRSNAP_KIND_RAW_TP));
	CU_ASSERT_TRUE(lbr_kind__is_user(LBRSNAP_KIND_USDT));
	CU_ASSERT_FALSE(lbr_kind__is_user(LBRSNAP_KIND_MEM));
	CU_ASSERT_TRUE(attach_kind__is_multi(LBRSNAP_KIND_KPROBE));
	CU_ASSERT_TRUE(attach_kind__is_multi(LBRSNAP_KIND_KRETPROBE));
	CU_ASSERT_FALSE(attach_kind__is_multi(LBRSNAP_KIND_FEXIT));
}

/* The flags the BPF program reads, as the engine set them before the table */
static void test_ap_flags(void)
{
	struct attach_target t = {};

	t.kind = LBRSNAP_KIND_FEXIT;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), 0);
	t.has_ret = true;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_RET_FEXIT);
	t.kind = LBRSNAP_KIND_KRETPROBE;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_MULTI | LBRSNAP_AP_RET_REGS);
	t.kind = LBRSNAP_KIND_URETPROBE;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_RET_UREGS);
	t.has_ret = false;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), 0);
	t.kind = LBRSNAP_KIND_UPROBE;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), 0);
	t.nr_args = 2;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_UREGS);
	t.kind = LBRSNAP_KIND_USDT;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_USDT);
	t.kind = LBRSNAP_KIND_MEM;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_MEM);
	t.kind = LBRSNAP_KIND_KPROBE;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), LBRSNAP_AP_MULTI);
	t.kind = LBRSNAP_KIND_TP_BTF;
	CU_ASSERT_EQUAL(attach_kind__ap_flags(&t), 0);
}

static void test_forms(void)
{
	char buf[256];

	attach_kinds__forms(buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "fexit:FUNC, kprobe:FUNC, kretprobe:FUNC, raw_tp:NAME, "
			       "tp_btf:NAME, mem:ADDR, uprobe:PATH:FUNC[+OFF], "
			       "uretprobe:PATH:FUNC or usdt:PATH:PROVIDER:NAME");
	/* cut short, still a string */
	attach_kinds__forms(buf, 12);
	CU_ASSERT_STRING_EQUAL(buf, "fexit:FUNC,");
}

static void test_help(void)
{
	char *text = NULL;
	size_t len = 0;
	unsigned int k;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	attach_kinds__print_help(f);
	fclose(f);
	for (k = LBRSNAP_KIND_FEXIT; k < LBRSNAP_KIND__MAX; k++) {
		char line[64];

		snprintf(line, sizeof(line), "  %s ", attach_kind__get(k)->form);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	}
	free(text);
}

/* -e's help: one line per kind, in the table's order, none past 80 columns where --help puts it */
static void test_e_help(void)
{
	const char *text = attach_kinds__help(), *line = text, *nl;
	unsigned int n = 0;

	for (; (nl = strchr(line, '\n')); line = nl + 1, n++) {
		CU_ASSERT(26 + nl - line <= 80);
		CU_ASSERT(!strncmp(line, "  ", 2) && line[2] != ' ');
	}
	CU_ASSERT_EQUAL(*line, 0);
	CU_ASSERT_EQUAL(n, LBRSNAP_NR_KINDS);
	CU_ASSERT(!strncmp(text, "  fexit:FUNC ", 13));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n  usdt:PATH:PROVIDER:NAME USDT probe, all sites, args\n"));
	/* built once */
	CU_ASSERT_PTR_EQUAL(attach_kinds__help(), text);
}

static CU_TestInfo kind_tests[] = {
	{ "every_kind", test_every_kind },
	{ "parse", test_parse },
	{ "facts", test_facts },
	{ "ap_flags", test_ap_flags },
	{ "forms", test_forms },
	{ "help", test_help },
	{ "e_help", test_e_help },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "attach_kind", NULL, NULL, NULL, NULL, kind_tests },
	CU_SUITE_INFO_NULL,
};
