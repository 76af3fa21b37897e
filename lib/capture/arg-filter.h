/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * --filter EXPR: an expression on an attach point's arguments and ret, pid, tid, cpu (and
 * syscall, at sys_enter/sys_exit), compiled for the program that runs it in the kernel
 * (struct lbrsnap_filter_insn, capture.h):
 *
 *	expr  := and { "||" and }		and := unary { "&&" unary }
 *	unary := "!" unary | "(" expr ")" | NAME OP VALUE | NAME "&" VALUE
 *	OP    := == != < <= > >=
 *	VALUE := 123, -100, 0x1f, -EEXIST, a syscall name (syscall), "text", "prefix*"
 *
 * Strings only compare with == and != (a trailing * matches a prefix).
 */
#ifndef LBRSNAP_ARG_FILTER_H
#define LBRSNAP_ARG_FILTER_H

#include <stddef.h>
#include "attach-spec.h"

struct arg_filter_prog {
	struct lbrsnap_filter_insn insn[LBRSNAP_FILTER_INSNS];
	char str[LBRSNAP_FILTER_STRS][LBRSNAP_FILTER_STR_LEN];
	unsigned int nr_insn, nr_str;
};

/*
 * Compiles expr for target t. On error returns -EINVAL and writes one line into err: the
 * column and token at fault, what is wrong and, for an unknown name, the names t has.
 */
int arg_filter__compile(const char *expr, const struct attach_target *t,
			struct arg_filter_prog *prog, char *err, size_t err_len);

#endif /* LBRSNAP_ARG_FILTER_H */
