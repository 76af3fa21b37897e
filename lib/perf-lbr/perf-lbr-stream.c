// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "perf-lbr/perf-lbr-stream.h"
#include "perf/perf-data.h"
#include "util/align.h"
#include "util/block-queue.h"
#include "util/thread.h"

/* Blocks in flight: encoding runs at most 1 MiB ahead of the writing, whatever the records */
#define STREAM_BLOCK_BYTES	(256U << 10)
#define STREAM_BLOCKS		4

/* One record in a block: its time, then the record (header.size bytes, 8-byte aligned) */
struct stream_item {
	__u64 time;
};

struct perf_lbr_stream {
	struct perf_lbr *pl;
	perf_lbr_known_fn known;
	perf_lbr_emit_fn fn;
	void *ctx;
	struct block_queue *q;
	pthread_t thread;
	bool started;
	bool drained;			/* the thread closed the queue and all was taken */
	struct block *fill;		/* the thread's */
	struct block *read;		/* being written out */
};

/* The thread's emit: the record appended to its block, sent when the next does not fit */
static int stream__append(const struct perf_event_header *rec, __u64 time, void *ctx)
{
	struct perf_lbr_stream *s = ctx;
	size_t size = sizeof(struct stream_item) + ALIGN((size_t)rec->size, 8);
	struct stream_item *it;
	struct block *b = s->fill;

	if (b && size > b->cap - b->len) {
		s->fill = NULL;
		if (!block_queue__send(s->q, b))
			return -ECANCELED;
		b = NULL;
	}
	if (!b) {
		/* a record is at most 64 KiB (header.size is a u16): any block holds one */
		b = s->fill = block_queue__get(s->q, STREAM_BLOCK_BYTES);
		if (!b)
			return -ENOMEM;
	}
	it = (void *)(b->data + b->len);
	it->time = time;
	memcpy(it + 1, rec, rec->size);
	/* the padding too: no byte of the block is left from an earlier record */
	memset((char *)(it + 1) + rec->size, 0, size - sizeof(*it) - rec->size);
	b->len += size;
	return 0;
}

static void *stream__main(void *arg)
{
	struct perf_lbr_stream *s = arg;
	int err = perf_lbr__emit_until(s->pl, ~0ULL);

	if (s->fill && err)
		block_queue__put(s->q, s->fill);
	else if (s->fill && !block_queue__send(s->q, s->fill))
		err = -ECANCELED;
	s->fill = NULL;
	block_queue__close(s->q, err);
	return NULL;
}

int perf_lbr_stream__start(struct perf_lbr *pl, bool kernel_mmap, perf_lbr_known_fn known,
			   perf_lbr_emit_fn fn, void *ctx, struct perf_lbr_stream **out)
{
	struct perf_lbr_stream *s;
	int err;

	*out = NULL;
	err = perf_lbr__emit_begin(pl, kernel_mmap, known, fn, ctx);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->pl = pl;
	s->known = known;
	s->fn = fn;
	s->ctx = ctx;
	err = block_queue__new(STREAM_BLOCKS, &s->q);
	if (err)
		goto cleanup;
	/* every COMM goes into the blocks: whether it is written is decided as it is */
	perf_lbr__set_emit(pl, NULL, stream__append, s);
	err = thread__start_quiet(&s->thread, stream__main, s);
	if (err)
		goto cleanup;
	s->started = true;
	*out = s;
	return 0;
cleanup:
	perf_lbr__set_emit(pl, known, fn, ctx);
	perf_lbr_stream__free(s);
	return err;
}

/* A COMM perf_lbr wrote for a thread the recording named before it: left out */
static bool stream__known_comm(struct perf_lbr_stream *s, const struct perf_event_header *h)
{
	return h->type == PERF_RECORD_COMM && s->known && h->size >= sizeof(*h) + 8 &&
	       s->known(((const __u32 *)(h + 1))[1], s->ctx);
}

int perf_lbr_stream__until(struct perf_lbr_stream *s, __u64 limit)
{
	const struct perf_event_header *h;
	const struct stream_item *it;
	struct block *b;
	int err;

	for (;;) {
		b = s->read;
		if (!b || b->pos == b->len) {
			if (s->drained)
				return 0;
			block_queue__put(s->q, b);
			s->read = b = block_queue__take(s->q, &err);
			if (!b) {
				s->drained = true;
				return err;
			}
			continue;
		}
		it = (const void *)(b->data + b->pos);
		if (it->time > limit)
			return 0;
		h = (const void *)(it + 1);
		b->pos += sizeof(*it) + ALIGN((size_t)h->size, 8);
		if (stream__known_comm(s, h))
			continue;
		err = s->fn(h, it->time, s->ctx);
		if (err)
			return err;
	}
}

int perf_lbr_stream__end(struct perf_lbr_stream *s)
{
	int err = perf_lbr_stream__until(s, ~0ULL);

	if (err)
		return err;
	pthread_join(s->thread, NULL);
	s->started = false;
	/* the thread took every record: what is left is the losses, written from here */
	perf_lbr__set_emit(s->pl, s->known, s->fn, s->ctx);
	return perf_lbr__emit_end(s->pl);
}

void perf_lbr_stream__free(struct perf_lbr_stream *s)
{
	if (!s)
		return;
	if (s->started) {
		block_queue__cancel(s->q);
		pthread_join(s->thread, NULL);
	}
	free(s->read);
	free(s->fill);
	block_queue__free(s->q);
	free(s);
}
