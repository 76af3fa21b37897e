// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One RECORD section's payload (struct lbrsnap_event and the blocks its flags announce):
 * the reader checks every record with it, and the writer refuses what the reader would.
 */
#include <errno.h>
#include "lbrfile/lbrfile.h"

int lbr_record__parse(const void *data, size_t size, struct lbr_record *rec)
{
	const struct lbrsnap_event *ev = data;
	size_t off;

	if (size < sizeof(*ev))
		return -EINVAL;
	if (ev->nr_branches > LBRSNAP_MAX_BRANCHES || ev->nr_stack > LBRSNAP_MAX_STACK ||
	    ev->cpu >= LBRFILE_MAX_CPUS)
		return -EINVAL;
	off = lbrsnap_event_size(ev->nr_branches, ev->nr_stack);
	if (off > size)
		return -EINVAL;
	rec->ev = ev;
	rec->branches = (const void *)(ev + 1);
	rec->stack = (const void *)((const char *)(ev + 1) +
				    ev->nr_branches * LBRSNAP_BRANCH_SIZE);
	rec->args = NULL;
	rec->ustack = NULL;
	if (ev->flags & LBRSNAP_EV_HAS_ARGS) {
		const struct lbrsnap_args *a = (const void *)((const char *)data + off);

		if (size - off < sizeof(*a) || a->size > size - off || a->size % 8 ||
		    a->nr_args > LBRSNAP_MAX_ARGS || a->nr_strs > LBRSNAP_MAX_STRS ||
		    (a->nr_strs && a->str_size < lbrsnap_str_size(a->str_len)) ||
		    sizeof(*a) + a->nr_args * 8 + a->nr_strs * a->str_size > a->size)
			return -EINVAL;
		rec->args = a;
		off += a->size;
	}
	if (ev->flags & LBRSNAP_EV_HAS_USTACK) {
		const struct lbrsnap_ustack *u = (const void *)((const char *)data + off);

		/* the error and the entries exclude each other: a failed call copies nothing */
		if (size - off < sizeof(*u) || u->nr > LBRSNAP_MAX_USTACK ||
		    lbrsnap_ustack_size(u->nr) > size - off || u->err > 0 || (u->err && u->nr))
			return -EINVAL;
		rec->ustack = u;
		off += lbrsnap_ustack_size(u->nr);
	}
	rec->extra = NULL;
	if (ev->flags & LBRSNAP_EV_HAS_EXTRA) {
		const struct lbrsnap_extra *x = (const void *)((const char *)data + off);

		/* a newer program's block may hold more values than this reader knows */
		if (size - off < sizeof(*x) || lbrsnap_extra_size(x->nr) > size - off)
			return -EINVAL;
		rec->extra = x;
		off += lbrsnap_extra_size(x->nr);
	}
	rec->calls = NULL;
	if (ev->flags & LBRSNAP_EV_HAS_CALLS) {
		const struct lbrsnap_calls *cb = (const void *)((const char *)data + off);
		unsigned int i;

		/* a version this reader does not know is refused, not misread */
		if (size - off < sizeof(*cb) || cb->version < LBRSNAP_CALLS_VERSION_MIN ||
		    cb->version > LBRSNAP_CALLS_VERSION ||
		    lbrsnap_calls_size(cb->nr) > size - off ||
		    (cb->origin != LBRSNAP_CALLS_NO_ORIGIN && cb->origin >= cb->nr))
			return -EINVAL;
		for (i = 0; i < cb->nr; i++) {
			if (cb->call[i].depth >= LBRSNAP_CALLS_DEPTH)
				return -EINVAL;
		}
		rec->calls = cb;
	}
	return 0;
}

__u64 lbr_record__extra(const struct lbr_record *rec, enum lbrsnap_extra_idx i)
{
	return rec->extra && (unsigned int)i < rec->extra->nr ? rec->extra->v[i] : 0;
}

size_t lbr_record__size(const struct lbr_record *rec)
{
	return lbrsnap_event_size(rec->ev->nr_branches, rec->ev->nr_stack) +
	       (rec->args ? rec->args->size : 0) +
	       (rec->ustack ? lbrsnap_ustack_size(rec->ustack->nr) : 0) +
	       (rec->extra ? lbrsnap_extra_size(rec->extra->nr) : 0) +
	       (rec->calls ? lbrsnap_calls_size(rec->calls->nr) : 0);
}
