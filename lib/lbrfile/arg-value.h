/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A record's arguments as their types say: the one place that decides how an argument
 * reads, so report, JSON, perf.data and trace.dat print the same thing.
 *
 *	integers	-100, 4294967295; flags and masks 0x80241; modes 0755
 *	enums		HRTIMER_MODE_REL (by name where BTF has one, else the number)
 *	pointers	0xffff888103a4c000, NULL
 *	strings		"/nonexistent/x", "a long path"... (truncated at --string-len)
 *	syscalls	openat(dfd=-100, filename="/nonexistent/x", flags=0x0, mode=0)
 *	unavailable	execve(filename=unavailable, ...) at sys_exit of a successful exec
 */
#ifndef LBRSNAP_ARG_VALUE_H
#define LBRSNAP_ARG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include "lbrfile/lbrfile.h"

/* One argument of one record. */
struct lbr_arg {
	const char *name;	/* "arg0".."arg5" where the type has no name */
	const char *type;	/* C spelling, "" if unknown */
	__u8 kind;		/* enum lbrsnap_ret_kind, LBRSNAP_ARG_STRING */
	char base;		/* 'd' decimal, 'x' flags and masks, 'o' modes */
	__s64 value;		/* extended as its type says; a string's pointer */
	const char *str;	/* a string's text, NULL when it could not be read */
	size_t str_len;
	bool truncated;		/* longer than the capture's --string-len */
	const char *enums;	/* an enum's "NAME=VALUE,...": the value printed by name */
	bool unavailable;	/* not recorded (LBRSNAP_ARGS_UNAVAILABLE): printed so, no value */
};

/* A record's view: what it is about, and its arguments' types. */
struct lbr_args {
	const struct lbrsnap_args *a;	/* the record's block */
	const struct lbr_arg_desc *desc;	/* nr types: the attach point's, or the syscall's */
	__u32 nr;
	const char *call;		/* the function, tracepoint or syscall name */
	const struct lbr_syscall *sc;	/* sys_enter/sys_exit: the syscall, if known */
	__s32 syscall_nr;		/* -1 when not a syscall record */
	char nr_name[24];		/* "syscall_NR" for a number without a name */
};

/*
 * Fills view for rec of attach point ap in file f; returns false when the record has no
 * arguments to show (--no-args, older files, no attach point).
 */
bool lbr_args__view(const struct lbrfile *f, const struct lbr_attach_point *ap,
		    const struct lbr_record *rec, struct lbr_args *view);
/*
 * A syscall record's syscall as lbr_args__view() names it (view.call: "openat", or
 * "syscall_NR" in buf for a number without a name), read from the arguments block alone;
 * NULL for a record that is no syscall's or has no arguments.
 */
const char *lbr_args__syscall(const struct lbrfile *f, const struct lbr_attach_point *ap,
			      const struct lbr_record *rec, char *buf, size_t len);
/* Argument i (< view->nr) of the record. */
void lbr_args__get(const struct lbr_args *view, __u32 i, struct lbr_arg *arg);
/* Works out once what lbr_args__get() reads of argument i's name and type (lbrfile.h) */
void lbr_arg_desc__prepare(struct lbr_arg_desc *d, __u32 i, bool syscall);
/* True for the C spellings of strings: "char *", "const char *" (not "char **") */
bool lbr_arg__type_is_string(const char *type);
/*
 * How a syscall argument of tracefs type type is kept: LBRSNAP_ARG_STRING for char *, a
 * pointer, or an integer kind and size ("int": signed, 4; "umode_t": unsigned, 2; const and
 * __user ignored). Returns false for a type the table lacks, kept as an 8-byte unsigned.
 */
bool lbr_arg__sys_type(const char *type, __u8 *kind, __u8 *size);
/* A file descriptor by its name: fd, dfd, epfd, pidfd, oldfd, fd_in, ... */
bool lbr_arg__is_fd(const char *name);
/* kind, or signed for a 4-byte unsigned descriptor (close(-1) reads fd=-1, not 4294967295) */
__u8 lbr_arg__fd_kind(const char *name, __u8 kind, __u8 size);
/* How an integer argument reads: 'o' for modes, 'x' for flags, masks and prot, else 'd' */
char lbr_arg__base(const char *name, const char *type);
/* An argument's value as text (strings quoted, escaped); returns what snprintf() returns. */
int lbr_arg__format(const struct lbr_arg *arg, char *buf, size_t len);
/* "name=value, name=value": the arguments of a record; returns the length written. */
size_t lbr_args__format(const struct lbr_args *view, char *buf, size_t len);
/*
 * The call as C reads it, "openat(dfd=-100, filename=\"/x\", flags=0x0, mode=0)": what
 * report, perf script and trace-cmd report print. Text past len is cut.
 */
size_t lbr_args__format_call(const struct lbr_args *view, char *buf, size_t len);

/* Room for a call with the default --string-len; longer ones are cut */
#define LBR_CALL_LEN 4096

#endif /* LBRSNAP_ARG_VALUE_H */
