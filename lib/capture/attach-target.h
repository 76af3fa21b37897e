/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An attach point as the recorder holds it once its spec is parsed and typed: what the kind
 * table, the BTF typing and each kind's attach code share, without the parser (attach-spec.h).
 */
#ifndef LBRSNAP_ATTACH_TARGET_H
#define LBRSNAP_ATTACH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include "capture.h"

/* An argument as BTF types it: how the program extends it, how readers print it. */
struct attach_arg {
	char *name;		/* "" where BTF has no name */
	char *type;		/* C spelling ("const char *"), "" for a syscall's raw registers */
	char *enums;		/* an enum's "NAME=VALUE,..." from BTF, or "" */
	__u8 kind;		/* enum lbrsnap_ret_kind, or LBRSNAP_ARG_STRING */
	__u8 size;		/* bytes of the type */
};

struct attach_target {
	char *spec;		/* canonical "kind:name" */
	char *name;		/* function or tracepoint */
	enum lbrsnap_kind kind;
	bool has_ret;		/* fexit or kretprobe on a non-void function, or sys_exit */
	bool ret_is_arg1;	/* raw_tp/tp_btf sys_exit: args[1] is the return value */
	enum lbrsnap_ret_kind ret_kind;	/* how the return value is extended and printed */
	__u8 ret_size;		/* bytes of the return type */
	char *ret_type;		/* its C spelling from BTF ("int", "struct file *"), or NULL */
	size_t spec_idx;	/* the user's spec it came from (the first, if several) */
	__u32 sys;		/* LBRSNAP_AP_SYS_ENTER or _EXIT: a syscall tracepoint */
	__u32 nr_args;		/* arguments the program captures */
	struct attach_arg args[LBRSNAP_MAX_ARGS];
	/* mem: the breakpoint (mem-spec.h) */
	__u64 mem_addr;
	__u8 mem_len;
	__u8 mem_access;	/* HW_BREAKPOINT_* bits */
	bool mem_user;		/* a user address: watched in the followed processes */
	/* uprobe, uretprobe, usdt: the file and what in it (uprobe-spec.h) */
	char *upath;
	char *ufunc;		/* uprobe, uretprobe */
	__u64 uoff;		/* uprobe: bytes into ufunc */
	__u64 uaddr;		/* uprobe, uretprobe: ufunc's symbol value, its DWARF found by it */
	bool ret_in_memory;	/* uprobe: ufunc returns a struct in memory, its address in rdi */
	char *usdt_provider;
	char *usdt_name;
};

struct attach_set {
	struct attach_target *v;
	size_t nr;
};

#endif /* LBRSNAP_ATTACH_TARGET_H */
