// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The --filter compiler: the postfix code of good expressions, exactly, and the one-line
 * message of bad ones, for a target typed as do_mkdirat(int dfd, const char *name,
 * umode_t mode) returning int.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "capture/arg-filter.h"
#include "capture/syscall-table.h"

static struct attach_target mkdirat = {
	.spec = "fexit:do_mkdirat", .name = "do_mkdirat", .kind = LBRSNAP_KIND_FEXIT,
	.has_ret = true, .ret_kind = LBRSNAP_RET_SIGNED, .ret_size = 4, .nr_args = 3,
	.args = {
		{ .name = "dfd", .type = "int", .enums = "", .kind = LBRSNAP_RET_SIGNED, .size = 4 },
		{ .name = "name", .type = "const char *", .enums = "", .kind = LBRSNAP_ARG_STRING,
		  .size = 8 },
		{ .name = "mode", .type = "umode_t", .enums = "A=1,B=2",
		  .kind = LBRSNAP_RET_UNSIGNED, .size = 2 },
	},
};

/* unsigned int ret(unsigned short mode, unsigned long len, int fd) */
static struct attach_target uret = {
	.spec = "fexit:uret", .name = "uret", .kind = LBRSNAP_KIND_FEXIT,
	.has_ret = true, .ret_kind = LBRSNAP_RET_UNSIGNED, .ret_size = 4, .nr_args = 3,
	.args = {
		{ .name = "mode", .type = "unsigned short", .enums = "",
		  .kind = LBRSNAP_RET_UNSIGNED, .size = 2 },
		{ .name = "len", .type = "unsigned long", .enums = "",
		  .kind = LBRSNAP_RET_UNSIGNED, .size = 8 },
		{ .name = "fd", .type = "int", .enums = "", .kind = LBRSNAP_RET_SIGNED, .size = 4 },
	},
};

static char err[512];
static struct arg_filter_names names;

static int compile_for(const char *expr, struct attach_target *t, unsigned int string_len,
		       struct arg_filter_prog *p)
{
	err[0] = 0;
	return arg_filter__compile(expr, t, NULL, string_len, &names, p, err, sizeof(err));
}

static int compile(const char *expr, struct arg_filter_prog *p)
{
	return compile_for(expr, &mkdirat, 64, p);
}

static void test_postfix(void)
{
	struct arg_filter_prog p;

	CU_ASSERT_EQUAL_FATAL(compile("dfd == -100 && (ret == -EEXIST || !(mode & 0022))", &p),
			      0);
	CU_ASSERT_EQUAL(p.nr_insn, 6);	/* insn[6] is zero: LBRSNAP_FOP_END */
	CU_ASSERT(p.insn[0].op == LBRSNAP_FOP_CMP && p.insn[0].field == 0 &&
		  p.insn[0].cmp == LBRSNAP_FCMP_EQ && p.insn[0].imm == -100 && p.insn[0].is_signed);
	CU_ASSERT(p.insn[1].op == LBRSNAP_FOP_CMP && p.insn[1].field == LBRSNAP_FLD_RET &&
		  p.insn[1].imm == -17 && p.insn[1].is_signed);
	CU_ASSERT(p.insn[2].op == LBRSNAP_FOP_CMP && p.insn[2].field == 2 &&
		  p.insn[2].cmp == LBRSNAP_FCMP_BIT && p.insn[2].imm == 022 &&
		  !p.insn[2].is_signed);
	CU_ASSERT_EQUAL(p.insn[3].op, LBRSNAP_FOP_NOT);
	CU_ASSERT_EQUAL(p.insn[4].op, LBRSNAP_FOP_OR);
	CU_ASSERT_EQUAL(p.insn[5].op, LBRSNAP_FOP_AND);
	CU_ASSERT_EQUAL(p.insn[6].op, LBRSNAP_FOP_END);
}

static void test_strings_enums(void)
{
	struct arg_filter_prog p;

	CU_ASSERT_EQUAL_FATAL(compile("name == \"/tmp/*\" || name != \"x\" || mode == B", &p), 0);
	CU_ASSERT(p.insn[0].op == LBRSNAP_FOP_STR && p.insn[0].field == 0 && p.insn[0].str == 0 &&
		  p.insn[0].imm == 5 && p.insn[0].cmp == LBRSNAP_FCMP_EQ && p.insn[0].glob);
	CU_ASSERT_STRING_EQUAL(p.str[0], "/tmp/");
	/* an exact match compares the NUL too, and the program the captured length */
	CU_ASSERT(p.insn[1].op == LBRSNAP_FOP_STR && p.insn[1].str == 1 && p.insn[1].imm == 2 &&
		  p.insn[1].cmp == LBRSNAP_FCMP_NE && !p.insn[1].glob);
	CU_ASSERT_STRING_EQUAL(p.str[1], "x");
	CU_ASSERT(p.insn[3].op == LBRSNAP_FOP_CMP && p.insn[3].field == 2 && p.insn[3].imm == 2);
	CU_ASSERT_EQUAL(compile("arg1 == \"a\"", &p), 0);
	CU_ASSERT_EQUAL(compile("pid == 0x10 && tid >= 1 && cpu < 2", &p), 0);
	CU_ASSERT_EQUAL(p.insn[0].imm, 16);
}

/* A literal longer than a string slot keeps could never match exactly: refused */
static void test_string_len(void)
{
	struct arg_filter_prog p;

	CU_ASSERT_EQUAL(compile_for("name == \"12345678\"", &mkdirat, 8, &p), 0);
	CU_ASSERT(p.insn[0].imm == 9 && !p.insn[0].glob);
	CU_ASSERT_EQUAL(compile_for("name == \"12345678*\"", &mkdirat, 8, &p), 0);
	CU_ASSERT(p.insn[0].imm == 8 && p.insn[0].glob);
	CU_ASSERT_EQUAL(compile_for("name == \"123456789\"", &mkdirat, 8, &p), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err, "bad --filter 'name == \"123456789\"' for fexit:do_mkdirat: "
			       "at column 9 ('\"123456789\"'): 9 characters, more than the 8 "
			       "--string-len keeps: use --string-len 9 or more");
	CU_ASSERT_EQUAL(compile_for("name != \"123456789*\"", &mkdirat, 8, &p), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "9 characters, more than the 8 --string-len keeps: "
					   "use --string-len 9 or more"));
}

/* "*" is any string: a glob of no characters, which the program never hands to strncmp */
static void test_any_string(void)
{
	struct arg_filter_prog p;

	CU_ASSERT_EQUAL_FATAL(compile("name == \"*\" && name != \"*\"", &p), 0);
	CU_ASSERT(p.insn[0].op == LBRSNAP_FOP_STR && p.insn[0].imm == 0 && p.insn[0].glob &&
		  p.insn[0].cmp == LBRSNAP_FCMP_EQ);
	CU_ASSERT(p.insn[1].op == LBRSNAP_FOP_STR && p.insn[1].imm == 0 && p.insn[1].glob &&
		  p.insn[1].cmp == LBRSNAP_FCMP_NE);
	CU_ASSERT_STRING_EQUAL(p.str[0], "");
}

/* A negative literal is taken in the width of an unsigned value, as in C */
static void test_narrow(void)
{
	struct arg_filter_prog p;

	CU_ASSERT_EQUAL_FATAL(compile_for("ret == -1 && mode == -2 && len == -1 && fd == -1 && "
					  "ret == 7", &uret, 64, &p), 0);
	CU_ASSERT(p.insn[0].field == LBRSNAP_FLD_RET && p.insn[0].imm == 0xffffffffLL &&
		  !p.insn[0].is_signed);
	CU_ASSERT(p.insn[1].field == 0 && p.insn[1].imm == 0xfffeLL);
	CU_ASSERT(p.insn[3].field == 1 && p.insn[3].imm == -1);
	CU_ASSERT(p.insn[5].field == 2 && p.insn[5].imm == -1 && p.insn[5].is_signed);
	CU_ASSERT(p.insn[7].field == LBRSNAP_FLD_RET && p.insn[7].imm == 7);
	/* errno names too: -EPERM against an unsigned int */
	CU_ASSERT_EQUAL(compile_for("ret == -EPERM", &uret, 64, &p), 0);
	CU_ASSERT_EQUAL(p.insn[0].imm, 0xffffffffLL);
	/* signed values keep the sign */
	CU_ASSERT_EQUAL(compile("ret == -1", &p), 0);
	CU_ASSERT_EQUAL(p.insn[0].imm, -1);
}

static void test_errors(void)
{
	static const struct {
		const char *expr, *msg;
	} bad[] = {
		{ "foo == 1", "at column 1 ('foo'): unknown name; fexit:do_mkdirat has dfd, name, "
			      "mode, arg0..arg2, ret, pid, tid, cpu" },
		{ "name == 3", "at column 9 ('3'): a string argument compares with a \"string\"" },
		{ "dfd == \"x\"", "a number argument does not compare with a string" },
		{ "(dfd == 1", "at its end: expected ')' (unbalanced parentheses)" },
		{ "dfd == 1)", "at column 9 (')'): unbalanced parentheses" },
		{ "name < \"a\"", "strings compare only with == and !=" },
		{ "name == \"a*b\"", "only a trailing * is a glob" },
		{ "ret == -ENOPE", "unknown errno name" },
		{ "dfd ==", "at its end: expected a number" },
		{ "", "empty expression" },
		{ "syscall == 1", "unknown name" },
		{ "dfd = 1", "expected a comparison" },
		{ "((((((((( dfd == 1 )))))))))",
		  "at column 9 ('('): '!' and parentheses nested more than 8 deep" },
		{ "!!!!!!!!! dfd == 1", "at column 9 ('!'): '!' and parentheses nested more than 8 "
					"deep" },
	};
	struct arg_filter_prog p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(compile(bad[i].expr, &p), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, bad[i].msg));
		CU_ASSERT_PTR_NULL(strchr(err, '\n'));
		if (!strstr(err, bad[i].msg))
			fprintf(stderr, "%s: %s\n", bad[i].expr, err);
	}
}

/* 100,000 '!' once overflowed the stack: the parser stops at its depth budget */
static void test_deep_not(void)
{
	struct arg_filter_prog p;
	size_t n = 100000;
	char *expr = malloc(n + sizeof(" dfd == 1"));

	CU_ASSERT_PTR_NOT_NULL_FATAL(expr);
	memset(expr, '!', n);
	strcpy(expr + n, " dfd == 1");
	CU_ASSERT_EQUAL(compile(expr, &p), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "at column 9 ('!'): '!' and parentheses nested more "
					   "than 8 deep"));
	CU_ASSERT_EQUAL(compile("!!!!!!!! dfd == 1", &p), 0);
	free(expr);
}

/*
 * Syscall names are ABI numbers: the build machine's headers (Debian 12's end at 450) and
 * lib/capture/syscalls-late.tbl past them, so a filter names a newer kernel's syscalls too.
 */
static void test_syscall_names(void)
{
	static const struct {
		const char *name;
		int nr;
	} abi[] = {
		{ "read", 0 }, { "mkdir", 83 }, { "openat", 257 }, { "uretprobe", 335 },
		{ "set_mempolicy_home_node", 450 }, { "cachestat", 451 }, { "fchmodat2", 452 },
		{ "futex_wake", 454 }, { "listmount", 458 }, { "mseal", 462 },
		{ "file_setattr", 469 }, { "listns", 470 },
		{ "uname", 63 }, { "newuname", 63 },	/* the tracefs event's name too */
		{ "no_such_call", -ENOENT },
	};
	size_t i;

	for (i = 0; i < sizeof(abi) / sizeof(abi[0]); i++) {
		CU_ASSERT_EQUAL(syscall_table__nr(abi[i].name), abi[i].nr);
		if (syscall_table__nr(abi[i].name) != abi[i].nr)
			fprintf(stderr, "%s: %d\n", abi[i].name, syscall_table__nr(abi[i].name));
	}
}

static CU_TestInfo filter_tests[] = {
	{ "postfix", test_postfix },
	{ "strings_enums", test_strings_enums },
	{ "string_len", test_string_len },
	{ "any_string", test_any_string },
	{ "narrow", test_narrow },
	{ "errors", test_errors },
	{ "deep_not", test_deep_not },
	{ "syscall_names", test_syscall_names },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "arg-filter", NULL, NULL, NULL, NULL, filter_tests },
	CU_SUITE_INFO_NULL,
};
