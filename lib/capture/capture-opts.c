// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture-opts.h"
#include "ret-value.h"

static int parse_u64(const char *who, const char *opt, const char *s, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v > max) {
		fprintf(stderr, "%s: bad value '%s' for %s\n", who, s, opt);
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
	fprintf(stderr, "%s: bad --ringbuf '%s': a power of two from 4K to 1G\n", who, s);
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
		fprintf(stderr, "%s: bad --max-size '%s': bytes from 4096 up, with an optional "
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
		fprintf(stderr, "%s: --filter '%s' comes after the attach point it filters\n",
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

int capture_opts__parse(struct capture_opts *o, int opt, const char *arg, const char *who)
{
	__u64 v;

	switch (opt) {
	case 'e':
		return add_event(o, arg) ?: 1;
	case 'p':
	case 't':
		if (parse_u64(who, opt == 'p' ? "--pid" : "--tid", arg, INT_MAX, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "%s: bad value '0' for %s\n", who,
				opt == 'p' ? "--pid" : "--tid");
			return -EINVAL;
		}
		if (opt == 'p')
			o->pid = v;
		else
			o->tid = v;
		return 1;
	case CAPTURE_OPT_COMM:
		if (!*arg || strlen(arg) >= LBRSNAP_COMM_LEN) {
			fprintf(stderr, "%s: bad --comm '%s': 1 to 15 characters\n", who, arg);
			return -EINVAL;
		}
		o->comm = arg;
		return 1;
	case CAPTURE_OPT_ERRORS:
		if (!arg) {
			o->errors = LBRSNAP_ERR_ERRNO;
		} else if (!strcmp(arg, "null")) {
			o->errors = LBRSNAP_ERR_ERRNO | LBRSNAP_ERR_NULL;
		} else {
			fprintf(stderr, "%s: bad --errors='%s': only --errors=null (NULL pointers "
				"too) takes a value\n", who, arg);
			return -EINVAL;
		}
		return 1;
	case CAPTURE_OPT_RET:
		if (capture_opts__parse_ret(arg, &o->ret)) {
			fprintf(stderr, "%s: bad --ret '%s': a number, -ENAME, true, false or "
				"NULL\n", who, arg);
			return -EINVAL;
		}
		o->ret_on = true;
		return 1;
	case CAPTURE_OPT_SAMPLE:
		if (parse_u64(who, "--sample", arg, UINT_MAX, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "%s: --sample needs N >= 1\n", who);
			return -EINVAL;
		}
		o->sample = v;
		return 1;
	case 'j':
		o->branch_filter = arg;
		return 1;
	case CAPTURE_OPT_STACK:
		o->stack = true;
		return 1;
	case CAPTURE_OPT_USER_STACK:
		o->user_stack = true;
		return 1;
	case CAPTURE_OPT_LBR:
		if (!strcmp(arg, "auto")) {
			o->lbr_mode = CAPTURE_LBR_AUTO;
		} else if (!strcmp(arg, "off")) {
			o->lbr_mode = CAPTURE_LBR_OFF;
		} else if (!strcmp(arg, "external")) {
			o->lbr_mode = CAPTURE_LBR_EXTERNAL;
		} else {
			fprintf(stderr, "%s: bad --lbr '%s': auto, off or external\n", who, arg);
			return -EINVAL;
		}
		return 1;
	case CAPTURE_OPT_RINGBUF:
		return parse_size(who, arg, &o->ringbuf_bytes) ?: 1;
	case CAPTURE_OPT_MAX_SIZE:
		return parse_max_size(who, arg, &o->max_size) ?: 1;
	case CAPTURE_OPT_SLOTS:
		if (parse_u64(who, "--slots", arg, LBRSNAP_MAX_SLOTS, &v))
			return -EINVAL;
		if (!v || (v & (v - 1))) {
			fprintf(stderr, "%s: bad --slots '%s': a power of two from 1 to %d\n",
				who, arg, LBRSNAP_MAX_SLOTS);
			return -EINVAL;
		}
		o->slots = v;
		return 1;
	case CAPTURE_OPT_FOLLOW_MAX:
		if (parse_u64(who, "--follow-max", arg, 1 << 24, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "%s: --follow-max needs N >= 1\n", who);
			return -EINVAL;
		}
		o->follow_max = v;
		return 1;
	case CAPTURE_OPT_FILTER:
		return add_filter(o, arg, who) ? -EINVAL : 1;
	case CAPTURE_OPT_NO_ARGS:
		o->no_args = true;
		return 1;
	case CAPTURE_OPT_STRING_LEN:
		if (parse_u64(who, "--string-len", arg, LBRSNAP_MAX_STRING_LEN, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "%s: --string-len needs N >= 1\n", who);
			return -EINVAL;
		}
		o->string_len = v;
		return 1;
	case 'v':
		o->verbose++;
		return 1;
	default:
		return 0;
	}
}

void capture_opts__finish(struct capture_opts *o)
{
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
