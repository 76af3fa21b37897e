/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A record's call tree (--calls) for the KernelShark window, from the ftrace funcgraph
 * events trace-cmd-lbr writes for it. Apart from lbr-field.c: it calls libtraceevent
 * functions (event and function lookup) that perf does not export to plugin_lbr.so.
 */
#ifndef LBRSNAP_LBR_CALLS_H
#define LBRSNAP_LBR_CALLS_H

#include <traceevent/event-parse.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The call tree from its task's funcgraph_entry / funcgraph_exit records recs[] in file
 * order: one line per call, "    name  12.345 us", two more spaces per depth, "(no exit)"
 * for a call that never returned, "  <- origin" after the origin (origin: its index in entry
 * order, -1 none). Names from tep's kallsyms. malloc()ed text, NULL without memory.
 */
char *lbr_calls__tree(struct tep_handle *tep, struct tep_record **recs, int nr, int origin);

#ifdef __cplusplus
}
#endif

#endif /* LBRSNAP_LBR_CALLS_H */
