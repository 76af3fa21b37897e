/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Text and JSON Lines rendering of a capture (lbrsnap report). Every function writes to the
 * FILE * in struct report, so tests can render into memory.
 */
#ifndef LBRSNAP_REPORT_H
#define LBRSNAP_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "report/group.h"
#include "lbrfile/lbrfile.h"
#include "view/record-view.h"
#include "symbols/ksyms.h"
#include "symbols/symbolize.h"
#include "symbols/usyms.h"

struct report {
	FILE *out;
	struct lbrfile *file;
	const struct ksyms *ks;		/* may be NULL: addresses stay hex */
	struct symbolizer *sym;		/* may be NULL: symbols from ks only */
	struct usyms *usyms;		/* user symbols, loaded as needed (user-frames.h) */
	bool keep_all;			/* show tracing-path entries instead of hiding them */
	bool json;			/* one JSON object per line instead of text */
	bool group;			/* groups of identical paths instead of records */
	bool top_groups;		/* text: largest groups first past REPORT_TOP_MIN records */
	/* filled while rendering */
	struct lbr_record_view view;	/* of the record being rendered */
	__u64 nr_records;
	__u64 nr_with_stack;
	__u64 nr_with_branches;
	__u64 nr_groups;
	int lbr_errs[8];		/* bpf_get_branch_snapshot() errors said (once each) */
	unsigned int nr_lbr_errs;
};

/* records past which the text report starts with its largest groups (top_groups) */
#define REPORT_TOP_MIN	20
/* groups that start it */
#define REPORT_TOP_NR	5

/* Renders one record. */
int report__record(struct report *r, const struct lbr_record *rec);
/* Renders the loss summary and the LBR status line (JSON: one summary object). */
int report__summary(struct report *r);
/*
 * Counts the capture's records into t by path (report.c: attach point, return value, the
 * trimmed branches and stack by symbol+offset, not by address), largest group first.
 */
int report__group(struct report *r, struct group_table *t);
/*
 * Renders every record in time order (r->group: every group, largest first), then the
 * summary.
 */
int report__run(struct report *r);

/* Frees what rendering loaded (user symbols); report__run() does it itself. */
void report__release(struct report *r);

#endif /* LBRSNAP_REPORT_H */
