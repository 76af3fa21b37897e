// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "report.h"
#include "ret-value.h"
#include "user-frames.h"

#define USYM_LEN 4352	/* a name, an offset and a path */

void user_frames__lookup(struct report *r, __u32 pid, __u64 addr, bool ret_addr,
			 struct usym_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	if (!r->file || (!r->usyms && usyms__new(&r->usyms)))
		return;
	usyms__lookup_pid(r->usyms, r->file, pid, addr, ret_addr, loc);
}

void user_frames__text(struct report *r, const struct lbr_record *rec)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	char buf[USYM_LEN];
	struct usym_loc loc;
	unsigned int i, j, shown;

	if (!u)
		return;
	if (u->err) {
		fprintf(r->out, "    [no user stack: bpf_get_stack() failed: %d (%s)]\n", u->err,
			lbr_errno__name(-u->err) ?: "?");
		return;
	}
	if (!u->nr)
		return;
	fputs("    user stack, innermost first:\n", r->out);
	if (r->file && lbrfile__proc_gone(r->file, rec->ev->pid))
		fputs("      [the process exited before its maps were read: addresses only]\n",
		      r->out);
	shown = usyms__stack_len(r->file, rec->ev->pid, u->ip, u->nr);
	for (i = 0; i < shown; i = j) {
		for (j = i + 1; j < shown && u->ip[j] == u->ip[i]; j++)
			;
		/* the innermost entry is where the task entered the kernel, not a return */
		user_frames__lookup(r, rec->ev->pid, u->ip[i], i > 0, &loc);
		fprintf(r->out, "      %s\n", usym__format(&loc, u->ip[i], buf, sizeof(buf)));
		if (j - i > 1)
			fprintf(r->out, "      [%u repeated frames]\n", j - i - 1);
	}
	if (shown < u->nr)
		fprintf(r->out, "      [stack cut: 0x%llx is in no executable mapping, code "
			"without frame pointers; %u entr%s left out]\n",
			(unsigned long long)u->ip[shown], u->nr - shown,
			u->nr - shown == 1 ? "y" : "ies");
	else if (u->nr >= LBRSNAP_MAX_USTACK)
		fprintf(r->out, "      [stack cut: %u entries are captured at most]\n",
			LBRSNAP_MAX_USTACK);
}

static void json_str_or_null(FILE *out, const char *s)
{
	if (s)
		report__json_str(out, s, strlen(s));
	else
		fputs("null", out);
}

void user_frames__json(struct report *r, const struct lbr_record *rec)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	struct usym_loc loc;
	unsigned int i, shown;

	if (!u)
		return;
	shown = usyms__stack_len(r->file, rec->ev->pid, u->ip, u->nr);
	fputs(",\"user_stack\":[", r->out);
	for (i = 0; i < shown; i++) {
		user_frames__lookup(r, rec->ev->pid, u->ip[i], i > 0, &loc);
		fprintf(r->out, "%s{\"addr\":\"0x%llx\",\"sym\":", i ? "," : "",
			(unsigned long long)u->ip[i]);
		json_str_or_null(r->out, loc.name);
		fprintf(r->out, ",\"off\":\"0x%llx\",\"path\":", (unsigned long long)loc.off);
		json_str_or_null(r->out, loc.path);
		fputc('}', r->out);
	}
	fprintf(r->out, "],\"user_stack_err\":%d,\"user_stack_cut\":%u", u->err, u->nr - shown);
}

void user_frames__release(struct report *r)
{
	usyms__free(r->usyms);
	r->usyms = NULL;
}

void user_frames__count(const struct lbrfile *f, __u64 *procs, __u64 *gone)
{
	struct lbr_proc p;
	__u32 last = 0;
	size_t i;

	*procs = *gone = 0;
	/* sections come by pid: count each pid once */
	for (i = 0; f && i < lbrfile__nr_procs(f); i++) {
		if (lbrfile__proc(f, i, &p) || (i && p.pid == last))
			continue;
		last = p.pid;
		(*procs)++;
		*gone += lbrfile__proc_gone(f, p.pid);
	}
}
