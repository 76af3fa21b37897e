/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Records with possibly stale branches: the ones a capture took on a CPU while LBR was off
 * there (the LBR_GAP sections of lbrsnap.data), tallied per CPU for the report's summary
 * and the closing warning of the record commands.
 */
#ifndef LBRSNAP_LBR_STALE_H
#define LBRSNAP_LBR_STALE_H

#include <stdio.h>
#include <linux/types.h>

struct lbrfile;

struct lbr_stale_cpu {
	__u32 cpu;
	__u32 nr_gaps;		/* intervals with LBR off */
	__u64 off_ns;		/* their total length: LBR was off for up to that long */
	__u64 records;		/* records of this CPU taken inside them */
};

struct lbr_stale {
	struct lbr_stale_cpu *cpus;	/* CPUs with a gap, ascending */
	size_t nr_cpus;
	__u64 records;			/* all CPUs' records inside gaps */
};

/* Tallies f's gaps and the records inside them; no CPUs when f has no gaps. */
int lbr_stale__tally(struct lbrfile *f, struct lbr_stale *out);
void lbr_stale__free(struct lbr_stale *s);
/* "1.500 ms", "2.000 s": a gap length for people */
const char *lbr_stale__duration(__u64 ns, char *buf, size_t len);
/*
 * Reads the capture at path back and, when LBR was off anywhere, writes one line to out:
 * "[ PREFIX: WARNING: LBR was off on cpu 1 for up to 200.000 ms (2 intervals), on cpu 3
 * ...; N records taken then may have stale branches ]". When the file cannot be read, the
 * line says that LBR was off and why the details are missing; returns that negative errno.
 */
int lbr_stale__warn(FILE *out, const char *prefix, const char *path);

#endif /* LBRSNAP_LBR_STALE_H */
