// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Option rows (parse-options.c) with the capture rows every recording command shares: what
 * getopt_long gives each row, the pass-through rule of trace-cmd-lbr record (a short letter
 * left to another tool is not ours, its long name is), bad values refused, and the --help
 * layout (columns, wrapping at 80, the -e kinds' table kept aligned).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "capture/capture-opts.h"
#include "util/parse-options.h"
#include "util/print.h"

struct own {
	const char *output;
	bool keep;
};

static const struct opt_row own_rows[] = {
	OPT_ROW_STRING('o', "output", "FILE", struct own, output, "where"),
	OPT_ROW_BOOL(0, "keep", struct own, keep, "keep it"),
	OPT_ROW_END
};

/* the refusals are said through the library's printer: counted here, not shown */
static int nr_said;

static int count_print(enum lbrsnap_print_level level, const char *fmt, va_list ap)
{
	nr_said++;
	return 0;
}

static int parse(struct own *own, struct capture_opts *o, const char *skip, int argc,
		 char **argv)
{
	const struct opt_set sets[] = { { own_rows, own }, { capture_opts__rows, o, skip },
					{ 0 } };
	const struct opt_cmd cmd = { .who = "unit", .usage = "usage: unit", .sets = sets,
				     .stop_at_nonopt = 1 };

	return opt_rows__parse(&cmd, argc, argv);
}

static void test_parse(void)
{
	char *argv[] = { "x", "-vv", "-p", "12", "--errors=null", "-e", "raw_tp:a", "--filter",
			 "ret == 1", "--event=tp_btf:b", "--lbr", "off", "-o", "f", "--keep",
			 "--no-args", "--string-len", "9", "-j", "any", "cmd", "-e", NULL };
	struct capture_opts o = {};
	struct own own = {};

	CU_ASSERT_EQUAL(parse(&own, &o, NULL, 22, argv), 20);
	CU_ASSERT_EQUAL(o.verbose, 2);
	CU_ASSERT_EQUAL(o.pid, 12);
	CU_ASSERT_EQUAL(o.errors, LBRSNAP_ERR_ERRNO | LBRSNAP_ERR_NULL);
	CU_ASSERT_EQUAL(o.nr_events, 2);
	CU_ASSERT_STRING_EQUAL(o.events[1], "tp_btf:b");
	CU_ASSERT_STRING_EQUAL(o.filters[0], "ret == 1");
	CU_ASSERT_PTR_NULL(o.filters[1]);
	CU_ASSERT_EQUAL(o.lbr_mode, CAPTURE_LBR_OFF);
	CU_ASSERT_STRING_EQUAL(own.output, "f");
	CU_ASSERT(own.keep);
	CU_ASSERT(o.no_args);
	CU_ASSERT_EQUAL(o.string_len, 9);
	CU_ASSERT_STRING_EQUAL(o.branch_filter, "any");
	capture_opts__free(&o);
}

static void test_refused(void)
{
	char *bad_pid[] = { "x", "--pid", "0", NULL };
	char *bad_lbr[] = { "x", "--lbr", "on", NULL };
	char *unknown[] = { "x", "--nope", NULL };
	char *skipped[] = { "x", "-e", "raw_tp:a", NULL };
	char *help[] = { "x", "--help", NULL };
	struct capture_opts o = {};
	struct own own = {};
	FILE *saved = stdout;
	lbrsnap_print_fn_t old = lbrsnap_set_print(count_print);

	nr_said = 0;
	CU_ASSERT_EQUAL(parse(&own, &o, NULL, 3, bad_pid), OPT_PARSE_USAGE);
	/* a bad value: one line; an unknown option: one line and the usage */
	CU_ASSERT_EQUAL(nr_said, 1);
	CU_ASSERT_EQUAL(parse(&own, &o, NULL, 3, bad_lbr), OPT_PARSE_USAGE);
	nr_said = 0;
	CU_ASSERT_EQUAL(parse(&own, &o, NULL, 2, unknown), OPT_PARSE_USAGE);
	CU_ASSERT_EQUAL(nr_said, 2);
	/* a short letter left to another tool is no option here */
	CU_ASSERT_EQUAL(parse(&own, &o, "e", 3, skipped), OPT_PARSE_USAGE);
	CU_ASSERT_EQUAL(o.nr_events, 0);
	/* the help goes to a file of its own, not among the test's result lines */
	stdout = tmpfile();
	if (stdout) {
		CU_ASSERT_EQUAL(parse(&own, &o, NULL, 2, help), OPT_PARSE_HELP);
		CU_ASSERT(ftell(stdout) > 0);
		fclose(stdout);
	}
	stdout = saved;
	lbrsnap_set_print(old);
	CU_ASSERT_EQUAL(opt_rows__exit(OPT_PARSE_HELP), 0);
	CU_ASSERT_EQUAL(opt_rows__exit(OPT_PARSE_USAGE), 2);
	capture_opts__free(&o);
}

/* trace-cmd-lbr record's rule: long names ours, short letters of the skipped set theirs */
static void test_take(void)
{
	char *argv[] = { "x", "-e", "sched", "--event", "raw_tp:a", "-p", "--stack", "-ofile",
			 "--comm=ls", "--other", "--keep=1", NULL };
	struct capture_opts o = {};
	struct own own = {};
	const struct opt_set sets[] = { { own_rows, &own },
					{ capture_opts__rows, &o, "eptjv" }, { 0 } };
	const struct opt_cmd cmd = { .who = "unit", .usage = "usage: unit", .sets = sets };
	lbrsnap_print_fn_t old = lbrsnap_set_print(count_print);
	int i = 1;

	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 0);	/* -e: trace-cmd's */
	i = 2;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 0);	/* not an option */
	i = 3;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 1);
	CU_ASSERT_EQUAL(i, 4);					/* its value taken */
	i = 5;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 0);	/* -p: trace-cmd's */
	i = 6;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 1);
	i = 7;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 1);
	i = 8;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 1);
	i = 9;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), 0);
	i = 10;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 11, argv, &i), OPT_PARSE_USAGE);
	i = 3;
	CU_ASSERT_EQUAL(opt_rows__take(&cmd, 4, argv, &i), OPT_PARSE_USAGE);	/* no value */
	CU_ASSERT_EQUAL(o.nr_events, 1);
	CU_ASSERT_STRING_EQUAL(o.events[0], "raw_tp:a");
	CU_ASSERT(o.stack);
	CU_ASSERT_STRING_EQUAL(own.output, "file");
	CU_ASSERT_STRING_EQUAL(o.comm, "ls");
	CU_ASSERT(!own.keep);
	lbrsnap_set_print(old);
	capture_opts__free(&o);
}

static char *print_row(const struct opt_row *row, const char *skip)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	opt_row__print(row, skip, f);
	fclose(f);
	return text;
}

static void test_layout(void)
{
	const struct opt_row *ev = opt_rows__find(capture_opts__rows, "event");
	const struct opt_row *ret = opt_rows__find(capture_opts__rows, "ret");
	const struct opt_row *errs = opt_rows__find(capture_opts__rows, "errors");
	char *t, *line, *save = NULL;

	t = print_row(ret, NULL);
	CU_ASSERT_STRING_EQUAL(t, "      --ret VALUE         only this return value, as its type "
			       "reads: -17,\n                          -EEXIST, 4294967295, true, "
			       "false, NULL\n");
	free(t);
	t = print_row(errs, NULL);
	CU_ASSERT(!strncmp(t, "      --errors[=null]     only errors:", 38));
	free(t);
	t = print_row(ev, NULL);
	CU_ASSERT(!strncmp(t, "  -e, --event SPEC        ", 26));
	CU_ASSERT(strstr(t, "\n                            kretprobe:FUNC          kernel "
			    "function return value\n") != NULL);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		CU_ASSERT(strlen(line) <= 80);
	free(t);
	t = print_row(ev, "e");
	CU_ASSERT(!strncmp(t, "      --event SPEC        ", 26));
	free(t);
}

static CU_TestInfo opt_tests[] = {
	{ "parse", test_parse },
	{ "refused", test_refused },
	{ "take", test_take },
	{ "layout", test_layout },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "parse_options", NULL, NULL, NULL, NULL, opt_tests },
	CU_SUITE_INFO_NULL,
};
