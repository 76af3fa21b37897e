// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --filter expressions, long and deep ones too (100,000 '!' once overflowed the stack): the
 * first byte picks the attach point, an fexit with an int, a string and an enum argument, or
 * sys_enter with this machine's syscall table (when tracefs has it); the rest is the text.
 */
#include <stdlib.h>
#include "capture/arg-filter.h"
#include "fuzz-file.h"
#include "capture/syscall-table.h"

static struct attach_target mkdirat = {
	.spec = "fexit:do_mkdirat", .name = "do_mkdirat", .kind = LBRSNAP_KIND_FEXIT,
	.has_ret = true, .ret_kind = LBRSNAP_RET_SIGNED, .ret_size = 4, .nr_args = 3,
	.args = {
		{ .name = "dfd", .type = "int", .enums = "", .kind = LBRSNAP_RET_SIGNED,
		  .size = 4 },
		{ .name = "name", .type = "const char *", .enums = "", .kind = LBRSNAP_ARG_STRING,
		  .size = 8 },
		{ .name = "mode", .type = "umode_t", .enums = "A=1,B=2",
		  .kind = LBRSNAP_RET_UNSIGNED, .size = 2 },
	},
};

/* as attach_set__expand() types it: the syscall's arguments, named by its number when read */
static struct attach_target sys_enter = {
	.spec = "raw_tp:sys_enter", .name = "sys_enter", .kind = LBRSNAP_KIND_RAW_TP,
	.sys = LBRSNAP_AP_SYS_ENTER,
};

static void sys_enter__init(void)
{
	int i;

	for (i = 0; i < LBRSNAP_MAX_ARGS; i++) {
		sys_enter.args[i] = (struct attach_arg){ .name = "", .type = "", .enums = "",
						       .kind = LBRSNAP_RET_UNSIGNED, .size = 8 };
	}
	sys_enter.nr_args = LBRSNAP_MAX_ARGS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct syscall_table *sys;
	static int loaded;
	static struct arg_filter_names names;
	struct arg_filter_prog prog;
	char err[512];
	char *expr;

	if (!size)
		return 0;
	if (!loaded++) {
		sys_enter__init();
		if (syscall_table__load(&sys))
			sys = NULL;
	}
	expr = fuzz_file__str(data + 1, size - 1);
	if (data[0] & 1 && sys)
		arg_filter__compile(expr, &sys_enter, sys, 64, &names, &prog, err, sizeof(err));
	else
		arg_filter__compile(expr, &mkdirat, NULL, 64, &names, &prog, err, sizeof(err));
	/* the names of syscall arguments fill up across inputs: start afresh now and then */
	if (names.nr == LBRSNAP_FILTER_NAMES)
		names.nr = 0;
	free(expr);
	return 0;
}
