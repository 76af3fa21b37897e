// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <string.h>
#include "view/record-view.h"
#include "symbols/trim.h"
#include "symbols/usyms.h"

enum lbrsnap_ret_kind lbr_record_view__ap_ret_kind(const struct lbr_attach_point *ap)
{
	return lbr_ret__record_kind(ap, ap->flags & LBRFILE_AP_HAS_RET ? LBRSNAP_EV_HAS_RET : 0);
}

static void view_ret(struct lbr_record_view *v)
{
	v->ret_kind = lbr_ret__record_kind(v->ap, v->ev->flags);
	v->ret = v->ret_kind ? v->ev->ret : 0;
	v->err = lbr_ret__errno(v->ret_kind, v->ret);
	v->errno_name = lbr_errno__name(v->err);
	v->ret_str[0] = 0;
	if (v->ret_kind)
		lbr_ret__format(v->ret_kind, v->ret, v->ret_str, sizeof(v->ret_str));
}

/*
 * The entries before the first zero one (trim.h): the record as shown holds only those,
 * for every output that reads v->ev and v->rec.
 */
static void view_zero(struct lbr_record_view *v)
{
	unsigned int nr = trim__valid_branches(v->rec->branches, v->ev->nr_branches);

	v->zero_branches = v->ev->nr_branches - nr;
	if (!v->zero_branches)
		return;
	v->ev_shown = *v->ev;
	v->ev_shown.nr_branches = nr;
	v->rec_shown = *v->rec;
	v->rec_shown.ev = &v->ev_shown;
	v->ev = &v->ev_shown;
	v->rec = &v->rec_shown;
}

/* The tracing path's entries counted, and split from the traced code's */
static void view_trim(struct lbr_record_view *v, const struct ksyms *ks, bool keep_all)
{
	const struct lbr_record *rec = v->rec;
	const struct lbrsnap_event *ev = v->ev;
	struct trim_rule r = { .how = TRIM_BY_NAME };

	if (ks)
		trim__rule(&r, ks, v->ap ? v->ap->kind : 0, v->target, rec->args);
	v->trim_branches = ks ? trim__branches(ks, &r, rec->branches, ev->nr_branches) : 0;
	v->trim_stack = ks ? trim__stack(ks, &r, rec->stack, ev->nr_stack) : 0;
	v->skip_branches = keep_all ? 0 : v->trim_branches;
	v->skip_stack = keep_all ? 0 : v->trim_stack;
	v->tracing_branches.p = rec->branches;
	v->tracing_branches.len = v->skip_branches * sizeof(*rec->branches);
	v->branches.p = rec->branches + v->skip_branches;
	v->branches.len = (ev->nr_branches - v->skip_branches) * sizeof(*rec->branches);
	v->tracing_stack.p = rec->stack;
	v->tracing_stack.len = v->skip_stack * sizeof(*rec->stack);
	v->stack.p = rec->stack + v->skip_stack;
	v->stack.len = (ev->nr_stack - v->skip_stack) * sizeof(*rec->stack);
}

/* The call trace and the names of its functions */
static void view_calls(struct lbr_record_view *v, const struct lbrfile *f)
{
	char key[32];

	v->calls = v->rec->calls;
	v->origin = v->calls && v->calls->origin != LBRSNAP_CALLS_NO_ORIGIN ? v->calls->origin : -1;
	/* version 1 blocks hold 0 there: their snapshot is the scope's */
	v->snap_at_origin = v->calls && v->origin >= 0 &&
			    (v->calls->flags & LBRSNAP_CALLS_SNAP_ORIGIN);
	v->call_names = NULL;
	/* the META lookup only for a record with calls: it is a walk of every META key */
	if (v->calls && f) {
		snprintf(key, sizeof(key), "calls.%u", v->ev->ap);
		v->call_names = lbrfile__meta(f, key);
	}
}

const char *lbr_record_view__call_name(const struct lbr_record_view *v, unsigned int i,
				       char *buf, size_t len)
{
	unsigned int id = v->calls->call[i].func, k;
	const char *p = v->call_names;
	size_t n;

	/* raw_tp:sys_exit's scope is the syscall: named by its own name, as the record's */
	if (!id && v->syscall) {
		snprintf(buf, len, "%s", v->syscall);
		return buf;
	}
	for (k = 0; p && k < id; k++) {
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	if (!p || !*p || *p == ',') {
		snprintf(buf, len, "#%u", id);
		return buf;
	}
	n = strcspn(p, ",");
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

unsigned int lbr_record_view__origin_path(const struct lbr_record_view *v, unsigned int *idx,
					  unsigned int max)
{
	unsigned int n = 0, i, d, k;

	if (!v->calls || v->origin < 0)
		return 0;
	/* the enclosing call of call i is the last one before it that is one level up */
	d = v->calls->call[v->origin].depth;
	if (d >= max)
		return 0;
	n = d + 1;
	idx[d] = v->origin;
	for (i = v->origin; d > 0 && i-- > 0;) {
		if (v->calls->call[i].depth == d - 1)
			idx[--d] = i;
	}
	/* a lost entry leaves a level without its call: the path starts below it */
	if (d) {
		for (k = 0; k + d < n; k++)
			idx[k] = idx[k + d];
		n -= d;
	}
	return n;
}

int lbr_record_view__call_errno(const struct lbr_record_view *v, unsigned int i)
{
	const struct lbrsnap_call *c = &v->calls->call[i];

	/* a call's value is extended as its type says: an errno reads as the record's does */
	if (!(c->flags & LBRSNAP_CALL_HAS_RET))
		return 0;
	return lbr_ret__errno(c->ret_kind, c->ret);
}

const char *lbr_record_view__call_result(const struct lbr_record_view *v, unsigned int i,
					 char *buf, size_t len)
{
	const struct lbrsnap_call *c = &v->calls->call[i];
	char val[LBR_RET_LEN] = "";
	const char *err;

	if (!(c->flags & LBRSNAP_CALL_RETURNED)) {
		snprintf(buf, len, "(no return seen)");
		return buf;
	}
	if (c->flags & LBRSNAP_CALL_HAS_RET)
		lbr_ret__format(c->ret_kind, c->ret, val, sizeof(val));
	err = lbr_errno__name(lbr_record_view__call_errno(v, i));
	/* the errno's name unless the value names it already (ERR_PTR(-ENOENT)) */
	if (err && !strchr(val, '('))
		snprintf(buf, len, "%s (%s)", val[0] ? val : "(void)", err);
	else
		snprintf(buf, len, "%s", val[0] ? val : "(void)");
	return buf;
}

void lbr_record_view__init(struct lbr_record_view *v, const struct lbrfile *f,
			   const struct ksyms *ks, const struct lbr_record *rec, unsigned int flags)
{
	const struct lbrsnap_event *ev = rec->ev;
	bool keep_all = flags & LBR_VIEW_KEEP_ALL;

	v->rec = rec;
	v->ev = ev;
	v->ap = f ? lbrfile__attach(f, ev->ap) : NULL;
	v->attach = v->ap && v->ap->spec ? v->ap->spec : "?";
	v->target = v->ap ? v->ap->target : NULL;
	v->seq = ev->seq;
	v->cgroup = lbr_record__extra(rec, LBRSNAP_EXTRA_CGROUP);
	v->zero_branches = 0;
	view_ret(v);
	view_calls(v, f);
	if (flags & LBR_VIEW_RET_ONLY)
		return;
	view_zero(v);
	view_trim(v, ks, keep_all);
	v->call[0] = 0;
	v->has_args = f && lbr_args__view(f, v->ap, rec, &v->args);
	if (v->has_args)
		lbr_args__format_call(&v->args, v->call, sizeof(v->call));
	v->syscall = v->has_args && v->args.syscall_nr >= 0 ? v->args.call : NULL;
	v->lbr_stale = f && lbrfile__lbr_stale(f, ev->cpu, ev->time_ns);
	v->nr_user_frames = !rec->ustack ? 0 : keep_all || !f ? rec->ustack->nr :
			    usyms__stack_len(f, ev->pid, rec->ustack->ip, rec->ustack->nr);
}
