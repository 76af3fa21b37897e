/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Attach point specs: "fexit:FUNC", "kprobe:FUNC", "kretprobe:FUNC", "raw_tp:NAME",
 * "tp_btf:NAME", globs allowed in the name. Names are resolved against the running kernel's
 * BTF: functions are BTF FUNCs (fexit types their arguments and return values, a kprobe the
 * arguments, a kretprobe the return value; each function a glob matches is a target), raw
 * tracepoints are the "btf_trace_<name>" typedefs every tracepoint has (types from
 * btf-types.h; what each kind is and how it attaches, attach-kind.h). Hardware
 * watchpoints, "mem:...", are resolved by mem-spec.h; user functions and USDT probes,
 * "uprobe:", "uretprobe:" and "usdt:", by uprobe-spec.h against the file's ELF and DWARF.
 */
#ifndef LBRSNAP_ATTACH_SPEC_H
#define LBRSNAP_ATTACH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include "capture.h"

struct btf;

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
	char *usdt_provider;
	char *usdt_name;
};

struct attach_set {
	struct attach_target *v;
	size_t nr;
};

/*
 * Expands the user's specs into targets, with their arguments typed when with_args. On error
 * returns a negative errno and writes a message naming the bad spec (with the closest
 * existing names, or why a function cannot be attached) into err: -EBADMSG for a spec that
 * does not parse or names nothing that exists, -EOPNOTSUPP for what cannot be attached here.
 */
int attach_set__expand(struct attach_set *set, const char *const *specs, size_t nr_specs,
		       const struct btf *btf, bool with_args, char *err, size_t err_len);
void attach_set__free(struct attach_set *set);

/*
 * Parses "kind:name" (kinds in lbrfile/lbr-kind.h); returns 0, or -EINVAL for an unknown
 * kind or an empty name.
 */
int attach_spec__parse(const char *spec, enum lbrsnap_kind *kind, const char **name);

#endif /* LBRSNAP_ATTACH_SPEC_H */
