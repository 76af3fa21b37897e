/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An attach point's arguments as typed fields of a tracefs-style event format, the one
 * layout perf.data (perf-tracing-data.c) and trace.dat (tracedat-formats.c) both describe,
 * so that perf's Python scripts get an int where the kernel has an int and a str where it
 * has a string, and `trace-cmd report -F 'dfd == -100'` selects on the value itself:
 *
 *	int dfd			integers in their own width and sign; enums as integers
 *	unsigned long name	pointers (and a string whose text could not be read)
 *	__data_loc char[] filename	strings, as read, up to --string-len
 *
 * Names are the arguments' own; one that is already a field of the event (ret, flags,
 * call, ...) or has no name in BTF becomes "arg_NAME" / "argN". A syscall attach point
 * (sys_enter/sys_exit) has arguments that change from record to record, so its fields are
 * the syscall's: "int syscall_nr", "__data_loc char[] syscall", and the six registers as
 * "unsigned long args[6]", as raw_syscalls has them.
 */
#ifndef LBRSNAP_EVENT_FIELDS_H
#define LBRSNAP_EVENT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include "lbrfile/arg-value.h"

#define EVENT_FIELDS_MAX	(LBRSNAP_MAX_ARGS + 3)

/*
 * Every name the lbr event formats already use (lbr_fields_reserved, record-fields.h):
 * arguments so named get "arg_" first.
 */

struct event_field {
	char name[72];
	char type[32];		/* "int", "unsigned long", "__data_loc char[]", ... */
	unsigned int offset;
	unsigned int size;	/* in the payload: a __data_loc word is 4 */
	bool is_signed;
	int src;		/* argument index, or one of EVENT_FIELD_SYSCALL_* */
	__u8 kind;		/* enum lbrsnap_ret_kind, LBRSNAP_ARG_STRING */
	char base;		/* 'd', 'x' flags and masks, 'o' modes (as report prints them) */
	const char *enums;	/* an enum's "NAME=VALUE,...", else "" */
};

enum {
	EVENT_FIELD_SYSCALL_NR = -1,
	EVENT_FIELD_SYSCALL = -2,
	EVENT_FIELD_SYSCALL_ARGS = -3,
};

struct event_fields {
	unsigned int nr;
	unsigned int end;	/* offset after the last field: where the payload's tail starts */
	struct event_field f[EVENT_FIELDS_MAX];
};

/*
 * A format name is a C identifier: "fexit:do_sys_openat2" -> "fexit__do_sys_openat2"; a user
 * probe's names its file by base name (at most EVENT_FIELDS_BASE_MAX characters, the end
 * kept): "uprobe:/usr/bin/prog:f" -> "uprobe__prog__f".
 */
#define EVENT_FIELDS_BASE_MAX 32
void event_fields__name(const char *spec, char *out, size_t size);
/* The spec of attach point i of a set, for event_fields__unique_name(). */
typedef const char *(*event_fields_spec_fn)(const void *ctx, size_t i);
/*
 * event_fields__name() of spec i, unique among specs 0..i: where an earlier one has the same
 * name (two files of one base name), "_<i>" is appended.
 */
void event_fields__unique_name(event_fields_spec_fn spec_at, const void *ctx, size_t i,
			       char *out, size_t size);
/*
 * The fields of attach point ap's arguments, laid out from offset on (8-aligned values,
 * 4-byte __data_loc words). ap without arguments gives none; end is then offset.
 */
void event_fields__init(struct event_fields *ef, const struct lbr_attach_point *ap,
			unsigned int offset);
/* The "\tfield:...;\toffset:...;\tsize:...;\tsigned:...;\n" lines; malloc()ed, NULL if no memory. */
char *event_fields__format(const struct event_fields *ef);
/*
 * The print fmt's two halves for the fields alone, "dfd=%d mode=%#o filename=\"%s\"" and
 * "REC->dfd, REC->mode, __get_str(filename)": what report prints for each value; malloc()ed.
 */
int event_fields__print(const struct event_fields *ef, char **fmt, char **args);
/*
 * Writes a record's values into payload at the fields' offsets; string texts go to the tail
 * at *tail (advanced), no further than room bytes from the payload's start. view may be NULL
 * (a record without arguments: zeros and empty strings).
 */
void event_fields__encode(const struct event_fields *ef, const struct lbr_args *view,
			  unsigned char *payload, unsigned int *tail, unsigned int room);

#endif /* LBRSNAP_EVENT_FIELDS_H */
