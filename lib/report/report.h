/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Text and JSON Lines rendering of a capture (lbrsnap report). Every function writes to the
 * FILE * in struct report, so tests can render into memory.
 */
#ifndef LBRSNAP_REPORT_H
#define LBRSNAP_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "lbrfile.h"
#include "ksyms.h"
#include "symbolize.h"

struct report {
	FILE *out;
	struct lbrfile *file;
	const struct ksyms *ks;		/* may be NULL: addresses stay hex */
	struct symbolizer *sym;		/* may be NULL: symbols from ks only */
	bool keep_all;			/* show tracing-path entries instead of hiding them */
	bool json;			/* one JSON object per line instead of text */
	/* filled while rendering */
	__u64 nr_records;
	__u64 nr_with_stack;
	__u64 nr_with_branches;
};

/* Renders one record. */
int report__record(struct report *r, const struct lbr_record *rec);
/* Renders the loss summary and the LBR status line (JSON: one summary object). */
int report__summary(struct report *r);
/* Renders every record in time order, then the summary. */
int report__run(struct report *r);

/* Writes s (len bytes, any byte value) as a JSON string literal, quotes included. */
void report__json_str(FILE *out, const char *s, size_t len);

#endif /* LBRSNAP_REPORT_H */
