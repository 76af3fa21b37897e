// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lbrfile/lbrfile.h"
#include "symbols/ksyms.h"
#include "tracedat-lbr/lbr-encoder.h"
#include "tracedat-lbr/tracedat-fgraph.h"
#include "tracedat-lbr/tracedat-formats.h"
#include "util/align.h"
#include "util/block-queue.h"
#include "util/thread.h"

/* Blocks in flight: encoding runs at most 1 MiB ahead of the copy, whatever the records */
#define LBR_ENCODER_BLOCK_BYTES	(256U << 10)
#define LBR_ENCODER_BLOCKS		4

/* Sends the encoder's block b, its first len bytes (none: given back); false once cancelled */
static bool send_block(struct lbr_encoder *enc, struct block *b, size_t len)
{
	b->len = len;
	if (len)
		return block_queue__send(enc->bq, b);
	block_queue__put(enc->bq, b);
	return true;
}

/* size more bytes for the record being encoded: a record never spans two blocks */
static void *room(struct lbr_encoder *enc, size_t size)
{
	struct block *b = enc->fill, *nb;
	size_t part = b ? b->len - enc->item_at : 0, want = part + size;

	if (b && size <= b->cap - b->len) {
		b->len += size;
		return b->data + b->len - size;
	}
	nb = block_queue__get(enc->bq, want > LBR_ENCODER_BLOCK_BYTES / 2 ? 2 * want :
				      LBR_ENCODER_BLOCK_BYTES);
	if (!nb)
		return NULL;
	if (part)
		memcpy(nb->data, b->data + enc->item_at, part);
	nb->len = want;
	enc->fill = nb;
	if (b && !send_block(enc, b, enc->item_at))
		return NULL;
	enc->item_at = 0;
	return nb->data + part;
}

static int put_event(struct lbr_encoder *enc, __u64 ts, const void *payload, unsigned int len)
{
	size_t size = sizeof(struct lbr_item_event) + ALIGN(len, 8);
	struct lbr_item_event *e = room(enc, size);

	if (!e)
		return -ENOMEM;
	/* the padding too: no byte of the block is left from an earlier record */
	memset((char *)e + size - 8, 0, 8);
	e->ts = ts + enc->ts_offset;
	e->len = len;
	e->pad = 0;
	memcpy(e + 1, payload, len);
	return 0;
}

static int emit(void *ctx, __u64 ts, const void *payload, unsigned int len)
{
	struct lbr_encoder *enc = ctx;

	enc->item_lbr++;
	return put_event(enc, ts, payload, len);
}

static int emit_call(void *ctx, __u64 ts, const void *payload, unsigned int len)
{
	struct lbr_encoder *enc = ctx;

	enc->item_calls++;
	return put_event(enc, ts, payload, len);
}

/* The kernel function of syscall name (x86-64's __x64_sys_NAME), 0 if kallsyms has none */
static __u64 syscall_addr(const struct ksyms *ks, const char *name)
{
	const struct ksym *sym;
	char fn[128];

	snprintf(fn, sizeof(fn), "__x64_sys_%s", name);
	sym = ks ? ksyms__by_name(ks, fn) : NULL;
	return sym ? sym->addr : 0;
}

/* The events of one record (none: the CPU's end) into the encoder's block, as one item */
static int put_item(struct lbr_encoder *enc, const struct lbr_record *rec, unsigned int cpu)
{
	const struct event_fields *ef;
	struct lbr_item *it;
	__u64 frame0, *f0 = NULL;
	__u32 ap;
	int n = 0;

	enc->item_at = enc->fill ? enc->fill->len : 0;
	enc->item_lbr = enc->item_calls = 0;
	if (!room(enc, sizeof(*it)))
		return -ENOMEM;
	if (rec) {
		ap = rec->ev->ap;
		ef = ap < enc->nr_fields ? &enc->fields[ap] : NULL;
		lbr_record_view__init(&enc->view, enc->cap, enc->ks, rec, 0);
		/* the calls first: the scope's lbr events at its end go after its exit */
		if (enc->view.calls && enc->has_calls && ap < enc->nr_fields) {
			/* a raw_tp:sys_exit scope's own frame is its record's syscall */
			if (enc->view.syscall && enc->nr_call_addrs[ap]) {
				frame0 = syscall_addr(enc->ks, enc->view.syscall);
				f0 = &frame0;
			}
			n = tracedat_fgraph__encode(enc->fg, &enc->view, enc->call_addrs[ap],
						    enc->nr_call_addrs[ap], f0, emit_call, enc);
		}
		if (n >= 0)
			n = tracedat_lbr__encode(enc->cap, &enc->view, ef, enc->us, emit, enc);
		if (n >= 0 && enc->view.calls && enc->has_calls)
			n = tracedat_fgraph__encode_calls(&enc->view, emit, enc);
		if (n < 0)
			return n;
	}
	/* the header last: the record's bytes may have moved to a new block */
	it = (void *)(enc->fill->data + enc->item_at);
	memset(it, 0, sizeof(*it));
	it->first_ns = rec ? lbr_record__first_ns(rec) + enc->ts_offset : ~0ULL;
	it->cpu = cpu;
	it->len = enc->fill->len - enc->item_at - sizeof(*it);
	it->nr_lbr = enc->item_lbr;
	it->nr_calls = enc->item_calls;
	it->end = !rec;
	return 0;
}

/* Encodes the capture's records, CPU by CPU as write_data() takes them, and sends them */
static void *encoder_main(void *arg)
{
	struct lbr_encoder *enc = arg;
	struct lbrfile_cursor *it;
	struct lbr_record rec;
	unsigned int cpu;
	int err = 0;

	if (!enc->ks && enc->ks_len) {
		err = enc->ks_err = ksyms__parse_borrowed(enc->ks_text, enc->ks_len, &enc->own_ks);
		enc->ks = enc->own_ks;
	}
	for (cpu = 0; cpu < enc->nr_cpus && !err; cpu++) {
		if (!enc->cpu_nr[cpu])
			continue;
		err = lbrfile_cursor__new(enc->cap, cpu, &it);
		if (err)
			break;
		while (!(err = lbrfile_cursor__next(it, &rec))) {
			err = put_item(enc, &rec, cpu);
			if (err)
				break;
		}
		if (err == -ENOENT)
			err = put_item(enc, NULL, cpu);
		lbrfile_cursor__free(it);
	}
	if (enc->fill && !send_block(enc, enc->fill, err ? 0 : enc->fill->len))
		err = err ?: -ECANCELED;
	enc->fill = NULL;
	block_queue__close(enc->bq, err);
	return NULL;
}

int lbr_encoder__start(struct lbr_encoder *enc)
{
	int err;

	err = block_queue__new(LBR_ENCODER_BLOCKS, &enc->bq);
	if (err)
		return err;
	err = thread__start_quiet(&enc->thread, encoder_main, enc);
	enc->started = !err;
	return err;
}

/* The encoder stopped, wherever it was, and its blocks freed */
void lbr_encoder__stop(struct lbr_encoder *enc)
{
	if (enc->started) {
		block_queue__cancel(enc->bq);
		pthread_join(enc->thread, NULL);
		enc->started = false;
	}
	free(enc->read);
	enc->read = NULL;
	if (enc->own_ks) {
		ksyms__free(enc->own_ks);
		enc->own_ks = enc->ks = NULL;
	}
	block_queue__free(enc->bq);
	enc->bq = NULL;
}

int lbr_encoder__next(struct lbr_encoder *enc, unsigned int cpu, const struct lbr_item **it)
{
	struct block *b = enc->read;
	int err;

	while (!b || b->pos == b->len) {
		block_queue__put(enc->bq, b);
		enc->read = b = block_queue__take(enc->bq, &err);
		/* closed before the CPU's end: only after an error */
		if (!b)
			return err ?: -EPIPE;
	}
	*it = (const void *)(b->data + b->pos);
	b->pos += sizeof(**it) + (*it)->len;
	return (*it)->cpu == cpu ? 0 : -EPROTO;
}
