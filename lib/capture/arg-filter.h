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
 * Strings only compare with == and != (a trailing * matches a prefix, "*" alone any string
 * that could be read), with literals of at most --string-len characters. At sys_enter and
 * sys_exit a name may be any syscall's argument name ("fd", "filename"); a syscall without
 * it fails the comparison.
 */
#ifndef LBRSNAP_ARG_FILTER_H
#define LBRSNAP_ARG_FILTER_H

#include <stddef.h>
#include "capture/attach-spec.h"

struct arg_filter_prog {
	struct lbrsnap_filter_insn insn[LBRSNAP_FILTER_INSNS];
	char str[LBRSNAP_FILTER_STRS][LBRSNAP_FILTER_STR_LEN];
	unsigned int nr_insn, nr_str;
};

/*
 * The syscall argument names a capture's filters use at sys_enter/sys_exit, shared by all
 * of them (the program's sys_arg_map): for each, per syscall number, where the syscall has
 * it and how it is typed (LBRSNAP_SYSARG_*, 0 where it has none).
 */
struct arg_filter_names {
	char name[LBRSNAP_FILTER_NAMES][LBRSNAP_FILTER_STR_LEN];
	__u8 map[LBRSNAP_FILTER_NAMES][LBRSNAP_NR_SYSCALLS];
	unsigned int nr;
};

struct syscall_table;

/*
 * Compiles expr for target t, whose string slots keep string_len characters (--string-len).
 * At sys_enter/sys_exit, argument names are looked up in the syscall table sys and added to
 * names. On error returns -EINVAL and writes one line into err: the column and token at
 * fault, what is wrong and, for an unknown name, the names t has (at a syscall tracepoint,
 * the closest argument names of any syscall).
 */
int arg_filter__compile(const char *expr, const struct attach_target *t,
			const struct syscall_table *sys, unsigned int string_len,
			struct arg_filter_names *names, struct arg_filter_prog *prog, char *err,
			size_t err_len);

#endif /* LBRSNAP_ARG_FILTER_H */
