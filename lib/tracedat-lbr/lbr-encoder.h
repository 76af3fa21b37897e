/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The capture's records encoded as trace.dat events on a second CPU, for a merge that
 * copies the recording on its own: a thread walks each CPU's records in time order (the CPUs
 * in the order the merge writes them), encodes their events (view, lbr and funcgraph
 * formats) and sends them in blocks (util/block-queue.h: 256 KiB, 4 in flight, so memory
 * does not grow with the records). The merge takes them back record by record, as items.
 */
#ifndef LBRSNAP_LBR_ENCODER_H
#define LBRSNAP_LBR_ENCODER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "view/record-view.h"

struct block;
struct block_queue;
struct event_fields;
struct ksyms;
struct lbrfile;
struct tracedat_fgraph;
struct usyms;

/*
 * One capture record's events as the encoder sends them, in a block: this header, then per
 * event an lbr_item_event and its payload, 8-byte aligned. An end item closes a CPU.
 */
struct lbr_item {
	__u64 first_ns;			/* its events' earliest time, shifted as they are */
	__u32 cpu;
	__u32 len;			/* bytes after the header */
	__u32 nr_lbr;			/* lbr events among them */
	__u32 nr_calls;			/* funcgraph entries and exits among them */
	__u32 end;			/* no record: the CPU's records are all sent */
	__u32 pad;
};

struct lbr_item_event {
	__u64 ts;
	__u32 len;
	__u32 pad;
};

struct lbr_encoder {
	/* what the merge set up: read by the thread, changed by no one while it runs */
	struct lbrfile *cap;
	struct ksyms *ks;		/* the capture's kallsyms: tells the tracing path */
	/*
	 * Without ks, their text: parsed by the thread before its first record, as the merge
	 * writes the headers and copies what goes before (ks then the thread's, freed by stop)
	 */
	const char *ks_text;
	size_t ks_len;
	struct usyms *us;		/* user frames' names (--user-stack captures) */
	const struct event_fields *fields;	/* per attach point: its argument event's */
	size_t nr_fields;
	bool has_calls;			/* --calls: funcgraph events, from fg and call_addrs */
	struct tracedat_fgraph *fg;
	__u64 **call_addrs;
	size_t *nr_call_addrs;
	long long ts_offset;		/* added to every event's time */
	const size_t *cpu_nr;		/* records per CPU: those with none are skipped */
	unsigned int nr_cpus;
	/* the thread's */
	struct ksyms *own_ks;		/* parsed from ks_text */
	int ks_err;			/* ks_text did not parse: the thread's error is this */
	struct lbr_record_view view;	/* of the record being encoded */
	struct block *fill;		/* being filled */
	size_t item_at;			/* in fill: the record being encoded */
	__u32 item_lbr, item_calls;	/* its events so far */
	/* both sides' */
	struct block_queue *bq;
	pthread_t thread;
	bool started;
	struct block *read;		/* being read by the merge */
};

/* The thread started on what enc holds: 0 or a negative errno */
int lbr_encoder__start(struct lbr_encoder *enc);
/*
 * The next item of cpu's records, waited for: a record's (*it)->end is 0, the CPU's end
 * item's 1. It stays valid until the next call. 0, or the thread's error (-EPROTO: not
 * cpu's; the merge asks for the CPUs with records, in order).
 */
int lbr_encoder__next(struct lbr_encoder *enc, unsigned int cpu, const struct lbr_item **it);
/* The thread stopped wherever it is (cancelled if need be), its blocks freed */
void lbr_encoder__stop(struct lbr_encoder *enc);

#endif /* LBRSNAP_LBR_ENCODER_H */
