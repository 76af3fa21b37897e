/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A user function's return and parameter types from DWARF (libdw): the file's own debug
 * info, else the separate one /usr/lib/debug/.build-id/ keeps for its build id. Types are
 * classified as BTF types are for kernel functions (enum lbrsnap_ret_kind, or
 * LBRSNAP_ARG_STRING for char pointer arguments: a returned char * is a pointer), so user
 * values extend and print the same way.
 */
#ifndef LBRSNAP_DWARF_TYPES_H
#define LBRSNAP_DWARF_TYPES_H

#include <stdbool.h>
#include <linux/types.h>
#include "capture.h"

struct dwarf_value {
	char *name;		/* parameter name, "" for the return value or where unnamed */
	char *type;		/* C spelling: "int", "const char *", "enum color" */
	char *enums;		/* an enum's "NAME=VALUE,...", else "" */
	__u8 kind;		/* enum lbrsnap_ret_kind, LBRSNAP_ARG_STRING; NONE: not read */
	__u8 size;
};

struct dwarf_func {
	bool has_ret;		/* the function returns a value (not void) */
	bool ret_in_memory;	/* ... a struct in memory: its address is a hidden first argument */
	struct dwarf_value ret;
	__u32 nr_args;		/* the leading parameters held in argument registers (after rdi
				 * where ret_in_memory) */
	struct dwarf_value args[LBRSNAP_MAX_ARGS];
};

/*
 * Types function func of the ELF file at path: the DWARF function whose code starts at addr
 * (its symbol's value), or with addr 0 the first one named func. Returns 0, -ENODATA when
 * the file has no DWARF, -ENOENT when its DWARF does not define it, -EOPNOTSUPP when the
 * compiler changed its calling convention (DW_CC_nocall: registers say nothing), -ENOMEM.
 */
int dwarf_types__func(const char *path, const char *func, __u64 addr, struct dwarf_func *f);
void dwarf_func__free(struct dwarf_func *f);

#endif /* LBRSNAP_DWARF_TYPES_H */
