// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "view/record-view.h"
#include "lbrfile/lbr-kind.h"
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
 * How the record's tracing path is told from the traced code (trim.h): a kernel function's
 * range (for kprobe-multi each function is an attach point of its own), the function a
 * kernel watchpoint trapped in, the trap from user mode of user probes and watchpoints, the
 * name list for tracepoints.
 */
static void view_rule(const struct lbr_record_view *v, const struct ksyms *ks,
		      struct trim_rule *r)
{
	const struct lbr_attach_point *ap = v->ap;
	const struct lbrsnap_args *a = v->rec->args;
	const __u64 *val = a ? (const __u64 *)(a + 1) : NULL;

	if (!ap) {
		trim__rule_names(r, NULL);
	} else if (lbr_kind__is(ap->kind, LBR_KIND_KFUNC)) {
		trim__rule_func(r, ks, ap->target);
	} else if (lbr_kind__is_user(ap->kind)) {
		trim__rule_user(r);
	} else if (lbr_kind__is(ap->kind, LBR_KIND_WATCH) && a && a->nr_args >= 2) {
		/* the watched address, then (last) the instruction that trapped */
		if (trim__is_user_addr(val[0]))
			trim__rule_user(r);
		else
			trim__rule_addr(r, ks, val[a->nr_args - 1]);
	} else {
		trim__rule_names(r, v->target);
	}
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
	struct trim_rule r;

	trim__rule_names(&r, v->target);
	if (ks)
		view_rule(v, ks, &r);
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
