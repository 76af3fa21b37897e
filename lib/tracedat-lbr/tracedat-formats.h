/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The "lbr" event system that lbrsnap adds to trace.dat files: format texts and payloads.
 *
 *   lbr:branch_snapshot  one per record: attach point, return value (ret_str as
 *                        lbr_ret__format() writes it), entries (u64[] of from, to, flags
 *                        triples, [0] most recent)
 *   lbr:branch           one per branch entry, printed with %pS so that trace-cmd and
 *                        KernelShark show symbols without a plugin
 *   lbr:stack            the kernel call stack of a record, innermost first; ips_hex holds
 *                        the same addresses in hex, for trace-cmd report without the plugin
 *   lbr:user_stack       its user call stack (--user-stack), innermost first: the addresses,
 *                        and "frames", their names from the capture's maps and the files'
 *                        ELF symbols, resolved when the event is written ("c+0x22
 *                        (prog) <- b+0x9 (prog)"), since trace-cmd knows no user symbols
 *   lbr:<attach point>   one per record with arguments, before its branch_snapshot: the
 *                        arguments as typed fields (event-fields.h), named after the
 *                        attach point as in perf.data ("fexit__do_mkdirat"), so that
 *                        `trace-cmd report -F` and KernelShark filter on their values
 *
 * Like lbrsnap report, they leave out the tracing path's entries (trim.h): entries, the
 * branch events and ips start after them; trim_branches and trim_stack count them and
 * tracing_entries / tracing_ips keep their addresses. Every event of a record but branch
 * names its attach point (attach) and its seq. The fields are declared in record-fields.h.
 *
 * IDs sit above every kernel event ID and below 32768 (KernelShark keeps them in an int16).
 */
#ifndef LBRSNAP_TRACEDAT_FORMATS_H
#define LBRSNAP_TRACEDAT_FORMATS_H

#include <stddef.h>
#include <linux/types.h>
#include "symbols/ksyms.h"
#include "lbrfile/lbrfile.h"
#include "symbols/usyms.h"
#include "view/event-fields.h"
#include "view/record-view.h"

#define TRACEDAT_LBR_SYSTEM	"lbr"

enum tracedat_lbr_id {
	TRACEDAT_ID_SNAPSHOT = 30000,
	TRACEDAT_ID_BRANCH = 30001,
	TRACEDAT_ID_STACK = 30002,
	TRACEDAT_ID_USER_STACK = 30003,
	TRACEDAT_ID_ARGS = 30004,	/* + the attach point's index, up to TRACEDAT_ID_MAX */
	TRACEDAT_ID_MAX = 32767,
};

#define TRACEDAT_NR_FORMATS	4

/* Format text of the i-th lbr event (0 <= i < TRACEDAT_NR_FORMATS). */
const char *tracedat_format(int i);
/* Parses every format with libtraceevent and checks its fields; 0 or -EINVAL. */
int tracedat_formats__check(void);
/*
 * The format of attach point ap's argument event, named name (event_fields__unique_name()),
 * whose fields ef describes (laid out from offset 8 on); malloc()ed, NULL when it has none,
 * or no ID left below TRACEDAT_ID_MAX, or no memory (*err then -ENOMEM).
 */
char *tracedat_format__args(const struct lbr_attach_point *ap, const char *name,
			    const struct event_fields *ef, int *err);
/* The event ID of attach point index ap's argument event, 0 when above TRACEDAT_ID_MAX */
__u32 tracedat_format__args_id(__u32 ap);

/* Receives one encoded event payload (common fields included). */
typedef int (*tracedat_emit_fn)(void *ctx, __u64 ts, const void *payload, unsigned int len);

/*
 * Encodes one capture record, by its view v (record-view.h), as lbr events in this order:
 * its arguments (when ef, its attach point's argument fields, has any), branch_snapshot,
 * one branch per entry shown (most recent first), stack (only when the record has one),
 * user_stack (only when it has one; us names its frames, NULL: addresses only). f (may be
 * NULL) is the capture, whose maps name user frames. Returns the number of events or
 * -errno.
 */
int tracedat_lbr__encode(const struct lbrfile *f, const struct lbr_record_view *v,
			 const struct event_fields *ef, struct usyms *us, tracedat_emit_fn fn,
			 void *ctx);

#endif /* LBRSNAP_TRACEDAT_FORMATS_H */
