/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The capture options every recording command takes (lbrsnap record, lbrsnap perf record):
 * one spelling, one parser. A command puts CAPTURE_LONG_OPTIONS in its getopt_long table
 * and CAPTURE_SHORT_OPTIONS in its short option string, and hands every option it does not
 * handle itself to capture_opts__parse().
 */
#ifndef LBRSNAP_CAPTURE_OPTS_H
#define LBRSNAP_CAPTURE_OPTS_H

#include <getopt.h>
#include "capture-engine.h"

enum {
	CAPTURE_OPT_COMM = 0x1000, CAPTURE_OPT_ERRORS, CAPTURE_OPT_RET, CAPTURE_OPT_SAMPLE,
	CAPTURE_OPT_STACK, CAPTURE_OPT_LBR, CAPTURE_OPT_RINGBUF, CAPTURE_OPT_SLOTS,
	CAPTURE_OPT_FOLLOW_MAX, CAPTURE_OPT_NO_ARGS, CAPTURE_OPT_STRING_LEN,
	CAPTURE_OPT_FILTER, CAPTURE_OPT_USER_STACK, CAPTURE_OPT_MAX_SIZE,
};

#define CAPTURE_SHORT_OPTIONS "e:p:t:j:v"

#define CAPTURE_LONG_OPTIONS							\
	{ "event", required_argument, NULL, 'e' },				\
	{ "pid", required_argument, NULL, 'p' },				\
	{ "tid", required_argument, NULL, 't' },				\
	{ "comm", required_argument, NULL, CAPTURE_OPT_COMM },			\
	{ "errors", optional_argument, NULL, CAPTURE_OPT_ERRORS },		\
	{ "ret", required_argument, NULL, CAPTURE_OPT_RET },			\
	{ "sample", required_argument, NULL, CAPTURE_OPT_SAMPLE },		\
	{ "branch-filter", required_argument, NULL, 'j' },			\
	{ "stack", no_argument, NULL, CAPTURE_OPT_STACK },			\
	{ "user-stack", no_argument, NULL, CAPTURE_OPT_USER_STACK },		\
	{ "lbr", required_argument, NULL, CAPTURE_OPT_LBR },			\
	{ "ringbuf", required_argument, NULL, CAPTURE_OPT_RINGBUF },		\
	{ "slots", required_argument, NULL, CAPTURE_OPT_SLOTS },		\
	{ "follow-max", required_argument, NULL, CAPTURE_OPT_FOLLOW_MAX },	\
	{ "no-args", no_argument, NULL, CAPTURE_OPT_NO_ARGS },			\
	{ "filter", required_argument, NULL, CAPTURE_OPT_FILTER },		\
	{ "string-len", required_argument, NULL, CAPTURE_OPT_STRING_LEN },	\
	{ "max-size", required_argument, NULL, CAPTURE_OPT_MAX_SIZE },		\
	{ "verbose", no_argument, NULL, 'v' }

/* The --help lines of those options. */
#define CAPTURE_OPTIONS_HELP							\
"  -e, --event SPEC        attach point, repeatable: fexit:FUNC, raw_tp:NAME, tp_btf:NAME;\n" \
"                          globs allowed (fexit:tcp_*); default: " CAPTURE_DEFAULT_EVENT	\
" --errors\n"									\
"  -p, --pid PID           only this process\n"					\
"  -t, --tid TID           only this thread\n"					\
"      --comm NAME         only tasks with this comm\n"				\
"      --errors[=null]     only errors: -4095..-1 for signed returns, ERR_PTR for\n" \
"                          pointers (=null: NULL too); never unsigned or bool ones\n" \
"      --ret VALUE         only this return value, as its type reads: -17, -EEXIST,\n" \
"                          4294967295, true, false, NULL\n"			\
"      --sample N          keep 1 of N matching invocations\n"			\
"  -j, --branch-filter F   LBR branch filter, perf syntax (default any,k)\n"	\
"      --stack             capture kernel stacks as well as LBR\n"		\
"      --user-stack        capture the user call stack too, with the processes' maps\n" \
"      --lbr MODE          auto: enable LBR, else stacks (default); off: stacks only;\n" \
"                          external: snapshot, another tool (perf record -b) enables LBR\n" \
"      --ringbuf SIZE      ring buffer bytes, power of two, K/M suffix (default 8M)\n" \
"      --slots N           snapshot slots per attach point, a power of two (default:\n" \
"                          one per possible CPU, rounded up)\n"			\
"      --follow-max N      processes followed at once with a command (default 16384)\n" \
"      --filter EXPR       keep records of the -e before it where EXPR holds, e.g.\n" \
"                          'fd == 3 && ret == -EBADF', 'filename == \"/tmp/*\"'\n" \
"      --no-args           records without the arguments of the attach point\n"	\
"      --string-len N      characters kept of a string argument (default 64, max 1024)\n" \
"      --max-size SIZE     stop before the capture file would pass SIZE bytes (K, M, G\n" \
"                          suffixes; room kept for the kallsyms copy written at the end)\n" \
"  -v, --verbose           more messages (memory per attach point); -vv: libbpf logs\n"

/*
 * Applies one option returned by getopt_long. Returns 1 when it was a capture option, 0
 * when it is not one, -EINVAL for a bad value (the message, prefixed with who, is printed).
 * -e values are collected in an array that capture_opts__free() releases.
 */
int capture_opts__parse(struct capture_opts *o, int opt, const char *arg, const char *who);
/* Parses a --ret value: a number, -ENAME, true, false or NULL. Returns 0 or -EINVAL. */
int capture_opts__parse_ret(const char *arg, __s64 *ret);
/* Defaults that depend on the whole command line: no -e means failing syscalls. */
void capture_opts__finish(struct capture_opts *o);
void capture_opts__free(struct capture_opts *o);

#endif /* LBRSNAP_CAPTURE_OPTS_H */
