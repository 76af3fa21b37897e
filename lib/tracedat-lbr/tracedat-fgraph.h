/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A record's call trace (--calls) as the kernel's own ftrace function-graph events, so that
 * `trace-cmd report` prints the tree as the function_graph tracer does and KernelShark
 * shows its rows:
 *
 *   funcgraph_entry  at a call's start_ns: func, depth
 *   funcgraph_exit   at its end_ns: func, depth, overrun 0, calltime (start_ns), rettime
 *                    (end_ns); none for a call whose exit never came
 *
 * The layout is the format text's, never a kernel version's: depth is an int on 6.1 and
 * 6.12, an unsigned int on 6.18, an unsigned long in 7.2's entry. `lbrsnap record --calls`
 * saves the running kernel's two formats in the capture's META (ftrace.funcgraph_entry,
 * ftrace.funcgraph_exit, newlines escaped); a capture without them gets the built-in 6.1
 * layout. A merge writes in the recording's own formats.
 *
 * func is an address the file's kallsyms names: a kernel function's from the capture's
 * kallsyms; a user function (uretprobe scopes) gets a synthetic one,
 * TRACEDAT_FGRAPH_USER_BASE + attach point * TRACEDAT_FGRAPH_USER_AP + id * 16, written into
 * the file's kallsyms as "ADDR t name\t[file]" lines, one end marker after each scope's
 * functions.
 */
#ifndef LBRSNAP_TRACEDAT_FGRAPH_H
#define LBRSNAP_TRACEDAT_FGRAPH_H

#include <stdbool.h>
#include <linux/types.h>
#include "lbrfile/lbrfile.h"
#include "symbols/ksyms.h"
#include "tracedat/tracedat-writer.h"
#include "tracedat-lbr/tracedat-formats.h"
#include "view/record-view.h"

#define TRACEDAT_FGRAPH_USER_BASE	0x0000100000000000ULL
#define TRACEDAT_FGRAPH_USER_AP		0x0000000100000000ULL
#define TRACEDAT_FGRAPH_END_MARK	"lbrsnap_calls_end"

/* META keys of the recording kernel's formats */
#define TRACEDAT_FGRAPH_META_ENTRY	"ftrace.funcgraph_entry"
#define TRACEDAT_FGRAPH_META_EXIT	"ftrace.funcgraph_exit"
/* ...or why the recording kernel's are not saved (converts write the built-in layout) */
#define TRACEDAT_FGRAPH_META_WHY	"ftrace.funcgraph_none"

struct tracedat_fgraph_field {
	int off;
	int size;		/* 0: the format has no such field */
};

struct tracedat_fgraph {
	int entry_id, exit_id;
	unsigned int entry_len, exit_len;	/* payload bytes, 8-aligned */
	struct tracedat_fgraph_field e_func, e_depth;
	struct tracedat_fgraph_field x_func, x_depth, x_overrun, x_calltime, x_rettime;
	char *entry_text, *exit_text;		/* the format texts */
	bool builtin;				/* the built-in 6.1 layout */
	char why[192];		/* why builtin, or why the formats were refused (-EINVAL) */
};

/*
 * lbr:calls, one per record with calls, after its other lbr events (same time): what the
 * funcgraph events cannot say. attach; nr calls; origin, the error's origin's index in
 * entry order (-1: none), its function (origin_func) and return value (origin_ret, as
 * lbr_ret__format() writes it); dropped calls; span_ns, the record's time minus its first
 * call's entry (where a viewer finds the tree on the record's CPU).
 */
#define TRACEDAT_ID_CALLS	29999
extern const char tracedat_fgraph_calls_format[];

/* Encodes the lbr:calls event of v (names: the capture's META calls.AP) */
int tracedat_fgraph__encode_calls(const struct lbr_record_view *v, tracedat_emit_fn fn,
				  void *ctx);

/* Linux 6.1's formats (the oldest kernel lbrsnap runs on): for captures without their own */
extern const char tracedat_fgraph_entry_6_1[];
extern const char tracedat_fgraph_exit_6_1[];

/*
 * Saves the running kernel's funcgraph_entry and funcgraph_exit formats (tracefs) in w's
 * META. Returns 0, -ENOENT when tracefs has none or none this encoder can write (why says
 * which, META TRACEDAT_FGRAPH_META_WHY keeps it: converts use the built-in 6.1 layout) or
 * -ENOMEM.
 */
int tracedat_fgraph__save_meta(struct lbrfile_writer *w, char *why, size_t why_len);

/* Parses the two format texts (copied into g); -EINVAL with g->why naming the bad part */
int tracedat_fgraph__parse(struct tracedat_fgraph *g, const char *entry, const char *exit);
/* The capture's saved formats, or the built-in 6.1 layout (g->builtin) */
int tracedat_fgraph__from_capture(struct tracedat_fgraph *g, const struct lbrfile *f);
void tracedat_fgraph__free(struct tracedat_fgraph *g);

/* Whether capture f was recorded with --calls (a META calls.AP list) */
bool tracedat_fgraph__capture_has_calls(const struct lbrfile *f);

/*
 * The address of each function of f's attach point ap (META calls.AP, by id) in *addrs
 * (malloc()ed, *nr of them): kernel ones from ks (0 when unknown), user ones synthetic.
 */
int tracedat_fgraph__addrs(const struct lbrfile *f, const struct ksyms *ks, __u32 ap,
			   __u64 **addrs, size_t *nr);
/* Appends the synthetic kallsyms lines of f's user scopes to ks */
int tracedat_fgraph__user_kallsyms(const struct lbrfile *f, struct tracedat_blob *ks);

/*
 * Encodes the calls of view v as funcgraph events, in tree order, their time stamps within
 * the record's (never past its time, never going back); addrs[id] gives a function's
 * address (nr_addrs of them), but frame 0's is *frame0 when frame0 is not NULL (a sys_exit
 * scope's frame is its record's syscall). Returns the number of events or -errno.
 */
int tracedat_fgraph__encode(const struct tracedat_fgraph *g, const struct lbr_record_view *v,
			    const __u64 *addrs, size_t nr_addrs, const __u64 *frame0,
			    tracedat_emit_fn fn, void *ctx);

#endif /* LBRSNAP_TRACEDAT_FGRAPH_H */
