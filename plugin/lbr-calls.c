// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The call tree text of the KernelShark window (lbr-calls.h): entries open calls in order,
 * an exit closes the innermost open call of its function and gives its duration (rettime -
 * calltime, as trace-cmd prints it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbr-field.h"
#include "lbr-calls.h"

/* Calls a tree may hold: LBRSNAP_CALLS_DEPTH open at once, LBRSNAP_MAX_CALLS in all */
#define TREE_MAX	64

struct tree_call {
	unsigned long long func, depth, dur;
	int returned;
};

char *lbr_calls__tree(struct tep_handle *tep, struct tep_record **recs, int nr, int origin)
{
	struct tep_event *en = tep_find_event_by_name(tep, "ftrace", "funcgraph_entry");
	struct tep_event *ex = tep_find_event_by_name(tep, "ftrace", "funcgraph_exit");
	struct tree_call calls[TREE_MAX];
	int open[TREE_MAX], nr_open = 0, nr_calls = 0, i;
	unsigned long long func, t0, t1;
	size_t len = 0;
	char *out, line[400];
	const char *name;
	int n;

	if (!en || !ex)
		return strdup("");
	for (i = 0; i < nr; i++) {
		int type = tep_data_type(tep, recs[i]);

		if (type == en->id && nr_calls < TREE_MAX) {
			struct tree_call *c = &calls[nr_calls];

			memset(c, 0, sizeof(*c));
			lbr_field__val(en, recs[i], "func", &c->func);
			lbr_field__val(en, recs[i], "depth", &c->depth);
			if (nr_open < TREE_MAX)
				open[nr_open++] = nr_calls;
			nr_calls++;
		} else if (type == ex->id && nr_open &&
			   !lbr_field__val(ex, recs[i], "func", &func) &&
			   !lbr_field__val(ex, recs[i], "calltime", &t0) &&
			   !lbr_field__val(ex, recs[i], "rettime", &t1)) {
			/* the innermost open call of that function: an unreturned one stays open */
			int k = nr_open;

			while (k > 0 && calls[open[k - 1]].func != func)
				k--;
			if (!k)
				continue;
			calls[open[k - 1]].returned = 1;
			calls[open[k - 1]].dur = t1 >= t0 ? t1 - t0 : 0;
			nr_open = k - 1;
		}
	}
	out = malloc(1 + (size_t)nr_calls * sizeof(line));
	if (!out)
		return NULL;
	out[0] = 0;
	for (i = 0; i < nr_calls; i++) {
		const struct tree_call *c = &calls[i];
		char dur[64] = "(no exit)";
		char hex[32];

		name = tep_find_function(tep, c->func);
		if (!name) {
			snprintf(hex, sizeof(hex), "0x%llx", c->func);
			name = hex;
		}
		if (c->returned)
			snprintf(dur, sizeof(dur), "%llu.%03llu us", c->dur / 1000, c->dur % 1000);
		n = snprintf(line, sizeof(line), "    %*s%s  %s%s\n",
			     (int)(2 * (c->depth < 64 ? c->depth : 64)), "", name, dur,
			     i == origin ? "  <- origin" : "");
		if (n < 0)
			continue;
		if ((size_t)n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(out + len, line, n);
		len += n;
	}
	out[len] = 0;
	return out;
}
