// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <string.h>
#include "util/json-writer.h"
#include "lbrfile/lbrfile.h"
#include "lbrfile/ret-value.h"
#include "report/user-frames.h"

#define USYM_LEN 4352	/* a name, an offset and a path */

void user_frames__lookup(struct usyms **usyms, const struct lbrfile *f, __u32 pid, __u64 addr,
			 bool ret_addr, struct usym_loc *loc)
{
	memset(loc, 0, sizeof(*loc));
	if (!f || (!*usyms && usyms__new(usyms)))
		return;
	usyms__lookup_pid(*usyms, f, pid, addr, ret_addr, loc);
}

void user_frames__text(FILE *out, struct usyms **usyms, const struct lbrfile *f,
		       const struct lbr_record *rec)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	char buf[USYM_LEN];
	struct usym_loc loc;
	unsigned int i, j, shown;

	if (!u)
		return;
	if (u->err) {
		fprintf(out, "    [no user stack: bpf_get_stack() failed: %d (%s)]\n", u->err,
			lbr_errno__name(-u->err) ?: "?");
		return;
	}
	if (!u->nr)
		return;
	fputs("    user stack, innermost first:\n", out);
	if (f && lbrfile__proc_gone(f, rec->ev->pid))
		fputs("      [the process exited before its maps were read: addresses only]\n",
		      out);
	shown = usyms__stack_len(f, rec->ev->pid, u->ip, u->nr);
	for (i = 0; i < shown; i = j) {
		for (j = i + 1; j < shown && u->ip[j] == u->ip[i]; j++)
			;
		/* the innermost entry is where the task entered the kernel, not a return */
		user_frames__lookup(usyms, f, rec->ev->pid, u->ip[i], i > 0, &loc);
		fprintf(out, "      %s\n", usym__format(&loc, u->ip[i], buf, sizeof(buf)));
		if (j - i > 1)
			fprintf(out, "      [%u repeated frames]\n", j - i - 1);
	}
	if (shown < u->nr)
		fprintf(out, "      [stack cut: 0x%llx is in no executable mapping, code "
			"without frame pointers; %u entr%s left out]\n",
			(unsigned long long)u->ip[shown], u->nr - shown,
			u->nr - shown == 1 ? "y" : "ies");
	else if (u->nr >= LBRSNAP_MAX_USTACK)
		fprintf(out, "      [stack cut: %u entries are captured at most]\n",
			LBRSNAP_MAX_USTACK);
}

void user_frames__json(struct json_writer *w, struct usyms **usyms, const struct lbrfile *f,
		       const struct lbr_record *rec)
{
	const struct lbrsnap_ustack *u = rec->ustack;
	struct usym_loc loc;
	unsigned int i, shown;

	if (!u)
		return;
	shown = usyms__stack_len(f, rec->ev->pid, u->ip, u->nr);
	json__key(w, "user_stack");
	json__begin_array(w);
	for (i = 0; i < shown; i++) {
		user_frames__lookup(usyms, f, rec->ev->pid, u->ip[i], i > 0, &loc);
		json__begin_object(w);
		json__key(w, "addr");
		json__stringf(w, "0x%llx", (unsigned long long)u->ip[i]);
		json__field_string(w, "sym", loc.name);
		json__key(w, "off");
		json__stringf(w, "0x%llx", (unsigned long long)loc.off);
		json__field_string(w, "path", loc.path);
		json__end_object(w);
	}
	json__end_array(w);
	json__field_s64(w, "user_stack_err", u->err);
	json__field_u64(w, "user_stack_cut", u->nr - shown);
}

void user_frames__release(struct usyms **usyms)
{
	usyms__free(*usyms);
	*usyms = NULL;
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
