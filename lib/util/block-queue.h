/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Blocks of bytes from one producer thread to one consumer, in order, with a bound on the
 * blocks in flight: a merge encodes the capture's records on a second CPU while it copies
 * the recording on the first, in memory that does not grow with the records. Blocks go
 * back to the producer once read (block_queue__put()), to be filled again.
 */
#ifndef LBRSNAP_BLOCK_QUEUE_H
#define LBRSNAP_BLOCK_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

struct block {
	struct block *next;
	size_t cap;			/* bytes data holds */
	size_t len;			/* bytes written */
	size_t pos;			/* bytes read */
	unsigned char data[];
};

struct block_queue;

/* At most max_blocks filled and not yet taken; 0 or -ENOMEM. */
int block_queue__new(unsigned int max_blocks, struct block_queue **out);
void block_queue__free(struct block_queue *q);

/*
 * Producer: an empty block of at least size bytes (one given back, or a new one); NULL when
 * out of memory. Sending waits while max_blocks are in flight; false once the consumer has
 * cancelled. Either way the block is the queue's then (kept for freeing when cancelled).
 */
struct block *block_queue__get(struct block_queue *q, size_t size);
bool block_queue__send(struct block_queue *q, struct block *b);
/* Producer: no more blocks, err (0 or a negative errno) for the consumer to see. */
void block_queue__close(struct block_queue *q, int err);

/*
 * Consumer: the next block, waited for; NULL once the producer closed with none left, with
 * *err its error. A block read is given back by block_queue__put().
 */
struct block *block_queue__take(struct block_queue *q, int *err);
void block_queue__put(struct block_queue *q, struct block *b);
/* Consumer: nothing more is taken; a producer waiting to send is let go. */
void block_queue__cancel(struct block_queue *q);

#endif /* LBRSNAP_BLOCK_QUEUE_H */
