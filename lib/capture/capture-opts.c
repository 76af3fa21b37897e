// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"
#include "capture/call-mech.h"
#include "capture/capture-opts.h"
#include "util/print.h"
#include "lbrfile/ret-value.h"

static int parse_u64(const char *who, const char *opt, const char *s, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v > max) {
		pr_warn("%s: bad value '%s' for %s\n", who, s, opt);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_size(const char *who, const char *s, __u64 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!errno && end != s && s[0] != '-') {
		if (*end == 'k' || *end == 'K')
			v <<= 10, end++;
		else if (*end == 'm' || *end == 'M')
			v <<= 20, end++;
		if (!*end && v >= 4096 && !(v & (v - 1)) && v <= (1ULL << 30)) {
			*out = v;
			return 0;
		}
	}
	pr_warn("%s: bad --ringbuf '%s': a power of two from 4K to 1G\n", who, s);
	return -EINVAL;
}

/* --max-size: bytes, with a K, M or G suffix; at least a page, so the header fits */
static int parse_max_size(const char *who, const char *s, __u64 *out)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10, end++;
	else if (*end == 'm' || *end == 'M')
		shift = 20, end++;
	else if (*end == 'g' || *end == 'G')
		shift = 30, end++;
	if (errno || end == s || *end || s[0] == '-' || v > (~0ULL >> 1) >> shift ||
	    (v << shift) < 4096) {
		pr_warn("%s: bad --max-size '%s': bytes from 4096 up, with an optional "
			"K, M or G suffix\n", who, s);
		return -EINVAL;
	}
	*out = v << shift;
	return 0;
}

static int add_event(struct capture_opts *o, const char *spec)
{
	const char **ev = realloc((void *)o->events, (o->nr_events + 1) * sizeof(*ev));
	char **fl;

	if (!ev)
		return -ENOMEM;
	o->events = ev;
	fl = realloc((void *)o->filters, (o->nr_events + 1) * sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	o->filters = (const char *const *)fl;
	fl[o->nr_events] = NULL;
	ev[o->nr_events++] = spec;
	return 0;
}

/* --filter applies to the -e before it; given twice, both must hold */
static int add_filter(struct capture_opts *o, const char *expr, const char *who)
{
	char **fl = (char **)o->filters, *joined;

	if (!o->nr_events) {
		pr_warn("%s: --filter '%s' comes after the attach point it filters\n",
			who, expr);
		return -EINVAL;
	}
	if (fl[o->nr_events - 1]) {
		if (asprintf(&joined, "(%s) && (%s)", fl[o->nr_events - 1], expr) < 0)
			return -ENOMEM;
		free(fl[o->nr_events - 1]);
	} else {
		joined = strdup(expr);
		if (!joined)
			return -ENOMEM;
	}
	fl[o->nr_events - 1] = joined;
	return 0;
}

int capture_opts__parse_ret(const char *arg, __s64 *ret)
{
	char *end;
	int e;

	if (!strcmp(arg, "true") || !strcmp(arg, "false") || !strcmp(arg, "NULL")) {
		*ret = arg[0] == 't';
		return 0;
	}
	if (arg[0] == '-' && arg[1] == 'E') {
		e = lbr_errno__from_name(arg + 1);
		if (!e)
			return -EINVAL;
		*ret = -e;
		return 0;
	}
	errno = 0;
	*ret = strtoll(arg, &end, 0);
	if (errno == ERANGE && arg[0] != '-') {
		/* unsigned 64-bit values and addresses above LLONG_MAX */
		errno = 0;
		*ret = (__s64)strtoull(arg, &end, 0);
	}
	if (errno || end == arg || *end)
		return -EINVAL;
	return 0;
}

int capture_opts__parse_lbr_mode(const char *arg, enum capture_lbr_mode *mode)
{
	if (!strcmp(arg, "auto"))
		*mode = CAPTURE_LBR_AUTO;
	else if (!strcmp(arg, "off"))
		*mode = CAPTURE_LBR_OFF;
	else if (!strcmp(arg, "external"))
		*mode = CAPTURE_LBR_EXTERNAL;
	else
		return -EINVAL;
	return 0;
}

static int opt_event(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	return add_event(obj, arg);
}

static int opt_task(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;
	char name[16];
	__u64 v;

	snprintf(name, sizeof(name), "--%s", row->long_name);
	if (parse_u64(who, name, arg, INT_MAX, &v))
		return -EINVAL;
	if (!v) {
		pr_warn("%s: bad value '0' for %s\n", who, name);
		return -EINVAL;
	}
	if (row->short_name == 'p')
		o->pid = v;
	else
		o->tid = v;
	return 0;
}

static int opt_comm(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;

	if (!*arg || strlen(arg) >= LBRSNAP_COMM_LEN) {
		pr_warn("%s: bad --comm '%s': 1 to 15 characters\n", who, arg);
		return -EINVAL;
	}
	o->comm = arg;
	return 0;
}

static int opt_errors(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;

	if (!arg) {
		o->errors = LBRSNAP_ERR_ERRNO;
	} else if (!strcmp(arg, "null")) {
		o->errors = LBRSNAP_ERR_ERRNO | LBRSNAP_ERR_NULL;
	} else {
		pr_warn("%s: bad --errors='%s': only --errors=null (NULL pointers too) takes a "
			"value\n", who, arg);
		return -EINVAL;
	}
	return 0;
}

static int opt_ret(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;

	if (capture_opts__parse_ret(arg, &o->ret)) {
		pr_warn("%s: bad --ret '%s': a number, -ENAME, true, false or NULL\n", who, arg);
		return -EINVAL;
	}
	o->ret_on = true;
	return 0;
}

/* --sample, --follow-max, --string-len: a count from 1 to a maximum */
static int opt_count(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;
	const char *name = row->long_name;
	__u64 max = !strcmp(name, "sample") ? UINT_MAX :
		    !strcmp(name, "follow-max") ? 1 << 24 : LBRSNAP_MAX_STRING_LEN;
	char opt[16];
	__u64 v;

	snprintf(opt, sizeof(opt), "--%s", name);
	if (parse_u64(who, opt, arg, max, &v))
		return -EINVAL;
	if (!v) {
		pr_warn("%s: %s needs N >= 1\n", who, opt);
		return -EINVAL;
	}
	if (!strcmp(name, "sample"))
		o->sample = v;
	else if (!strcmp(name, "follow-max"))
		o->follow_max = v;
	else
		o->string_len = v;
	return 0;
}

static int opt_lbr(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;

	if (capture_opts__parse_lbr_mode(arg, &o->lbr_mode)) {
		pr_warn("%s: bad --lbr '%s': auto, off or external\n", who, arg);
		return -EINVAL;
	}
	return 0;
}

static int opt_ringbuf(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	return parse_size(who, arg, &((struct capture_opts *)obj)->ringbuf_bytes);
}

static int opt_max_size(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	return parse_max_size(who, arg, &((struct capture_opts *)obj)->max_size);
}

static int opt_slots(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;
	__u64 v;

	if (parse_u64(who, "--slots", arg, LBRSNAP_MAX_SLOTS, &v))
		return -EINVAL;
	if (!v || (v & (v - 1))) {
		pr_warn("%s: bad --slots '%s': a power of two from 1 to %d\n", who, arg,
			LBRSNAP_MAX_SLOTS);
		return -EINVAL;
	}
	o->slots = v;
	return 0;
}

static int opt_filter(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	return add_filter(obj, arg, who) ? -EINVAL : 0;
}

/* --calls: after the -e of an attach point whose kind has a scope (attach-kind.h) */
static int opt_calls(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;
	enum lbrsnap_kind kind = 0;
	const char *name;
	char kinds[256];

	attach_kinds__scopes(kinds, sizeof(kinds));
	if (o->calls) {
		pr_warn("%s: --calls given twice: one scope per capture\n", who);
		return -EINVAL;
	}
	if (!o->nr_events || attach_spec__parse(o->events[o->nr_events - 1], &kind, &name) ||
	    !attach_kind__get(kind) || !attach_kind__get(kind)->scope ||
	    (kind == LBRSNAP_KIND_RAW_TP && strcmp(name, "sys_exit"))) {
		pr_warn("%s: --calls '%s' comes after an -e whose attach point has a scope: %s\n",
			who, arg, kinds);
		return -EINVAL;
	}
	if (!*arg) {
		pr_warn("%s: --calls needs function names\n", who);
		return -EINVAL;
	}
	o->calls = arg;
	o->calls_event = o->nr_events - 1;
	return 0;
}

/* --calls-via MECH: a row of call-mech.c's table, by its key */
static int opt_calls_via(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct capture_opts *o = obj;
	char keys[128];

	if (!call_mech__known(arg)) {
		pr_warn("%s: bad --calls-via '%s': one of %s\n", who, arg,
			call_mech__keys(keys, sizeof(keys)));
		return -EINVAL;
	}
	o->calls_via = arg;
	return 0;
}

static const char *calls_via_help(void)
{
	static char text[256];
	char keys[128];

	if (!text[0])
		snprintf(text, sizeof(text), "with --calls over kernel functions: probe them "
			 "through MECH, one of %s (default: the first of these the kernel takes)",
			 call_mech__keys(keys, sizeof(keys)));
	return text;
}

/* --longer DURATION: a number with ns, us, ms or s (default s) */
static int opt_longer(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
	};
	struct capture_opts *o = obj;
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	for (i = 0; !errno && end != arg && v >= 0 && i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit) && v * units[i].ns < 1.8e19) {
			o->longer_ns = v * units[i].ns;
			return 0;
		}
	}
	pr_warn("%s: bad --longer '%s': a duration such as 10s, 2.5ms, 300us, 100ns\n", who, arg);
	return -EINVAL;
}

/* -e's help: the kinds, one line each, from their table */
static const char *event_help(void)
{
	static char text[2048];

	if (!text[0])
		snprintf(text, sizeof(text), "attach point, repeatable, one of:\n%sglobs allowed "
			 "in kernel names (fexit:tcp_*); default: " CAPTURE_DEFAULT_EVENT
			 " --errors", attach_kinds__help());
	return text;
}


const struct opt_row capture_opts__rows[] = {
	{ .type = OPT_CALLBACK, .short_name = 'e', .long_name = "event",
	  .arg = OPT_ARG_REQUIRED, .argname = "SPEC", .cb = opt_event, .help_fn = event_help },
	OPT_ROW_CALLBACK('p', "pid", "PID", opt_task, "only this process"),
	OPT_ROW_CALLBACK('t', "tid", "TID", opt_task, "only this thread"),
	OPT_ROW_CALLBACK(0, "comm", "NAME", opt_comm, "only tasks with this comm"),
	{ .type = OPT_CALLBACK, .long_name = "errors", .arg = OPT_ARG_OPTIONAL,
	  .argname = "null", .cb = opt_errors,
	  .help = "only errors: -4095..-1 for signed returns, ERR_PTR for pointers (=null: "
		  "NULL too); never unsigned or bool ones" },
	OPT_ROW_CALLBACK(0, "ret", "VALUE", opt_ret, "only this return value, as its type reads: "
		    "-17, -EEXIST, 4294967295, true, false, NULL"),
	OPT_ROW_CALLBACK(0, "sample", "N", opt_count, "keep 1 of N matching invocations"),
	OPT_ROW_STRING('j', "branch-filter", "F", struct capture_opts, branch_filter,
		       "LBR branch filter, perf syntax (default any,k)"),
	OPT_ROW_BOOL(0, "stack", struct capture_opts, stack,
		     "capture kernel stacks as well as LBR"),
	OPT_ROW_BOOL(0, "user-stack", struct capture_opts, user_stack,
		     "capture the user call stack too, with the processes' maps"),
	OPT_ROW_CALLBACK(0, "lbr", "MODE", opt_lbr, "auto: enable LBR, else stacks (default); off: "
		    "stacks only; external: snapshot, another tool (perf record -b) enables LBR"),
	OPT_ROW_CALLBACK(0, "ringbuf", "SIZE", opt_ringbuf, "ring buffer bytes, power of two, K/M "
		    "suffix (default 8M)"),
	OPT_ROW_CALLBACK(0, "slots", "N", opt_slots, "snapshot slots per attach point, a power of "
		    "two (default: one per possible CPU, rounded up)"),
	OPT_ROW_CALLBACK(0, "follow-max", "N", opt_count, "processes followed at once with a command "
		    "(default 16384)"),
	OPT_ROW_CALLBACK(0, "filter", "EXPR", opt_filter, "keep records of the --event before it "
		    "where EXPR holds, e.g. 'fd == 3 && ret == -EBADF', 'filename == \"/tmp/*\"'"),
	OPT_ROW_CALLBACK(0, "calls", "SPEC", opt_calls, "the call trace of the -e before it (a "
		    "scope: uretprobe:PATH:F, F's entry to its return) over these functions of "
		    "PATH, globs and lists as -e takes them ('mid,*_leaf'); names the error's "
		    "origin"),
	OPT_ROW_CALLBACK(0, "longer", "DURATION", opt_longer, "with --calls: only scopes that "
		    "took longer (10s, 2ms, 300us)"),
	{ .type = OPT_CALLBACK, .long_name = "calls-via", .arg = OPT_ARG_REQUIRED,
	  .argname = "MECH", .cb = opt_calls_via, .help_fn = calls_via_help },
	OPT_ROW_BOOL(0, "no-args", struct capture_opts, no_args,
		     "records without the arguments of the attach point"),
	OPT_ROW_CALLBACK(0, "string-len", "N", opt_count, "characters kept of a string argument "
		    "(default 64, max 1024)"),
	OPT_ROW_CALLBACK(0, "max-size", "SIZE", opt_max_size, "stop before the capture file would "
		    "pass SIZE bytes (K, M, G suffixes; room kept for the kallsyms copy written at "
		    "the end)"),
	OPT_ROW_INCR('v', "verbose", struct capture_opts, verbose,
		     "more messages (memory per attach point); -vv: libbpf logs"),
	OPT_ROW_END
};

void capture_opts__finish(struct capture_opts *o)
{
	/* --longer without a scope is refused by capture__open(): it has no duration */
	/* the documented default: failing syscalls */
	if (!o->nr_events && !o->ret_on)
		o->errors = LBRSNAP_ERR_ERRNO;
}

void capture_opts__free(struct capture_opts *o)
{
	size_t i;

	for (i = 0; o->filters && i < o->nr_events; i++)
		free((void *)o->filters[i]);
	free((void *)o->filters);
	o->filters = NULL;
	free((void *)o->events);
	o->events = NULL;
	o->nr_events = 0;
}
