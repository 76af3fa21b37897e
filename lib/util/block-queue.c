// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "util/block-queue.h"

struct block_queue {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct block *head, *tail;	/* sent, not taken */
	struct block *spare;		/* given back, to fill again */
	unsigned int nr, max;
	bool closed, cancelled;
	int err;
};

int block_queue__new(unsigned int max_blocks, struct block_queue **out)
{
	struct block_queue *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -ENOMEM;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	q->max = max_blocks ? max_blocks : 1;
	*out = q;
	return 0;
}

static void blocks__free(struct block *b)
{
	struct block *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

void block_queue__free(struct block_queue *q)
{
	if (!q)
		return;
	blocks__free(q->head);
	blocks__free(q->spare);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

struct block *block_queue__get(struct block_queue *q, size_t size)
{
	struct block *b;

	pthread_mutex_lock(&q->lock);
	b = q->spare;
	if (b)
		q->spare = b->next;
	pthread_mutex_unlock(&q->lock);
	/* a record larger than the blocks so far: its block is made for it */
	if (b && b->cap < size) {
		free(b);
		b = NULL;
	}
	if (!b) {
		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->cap = size;
	}
	b->next = NULL;
	b->len = b->pos = 0;
	return b;
}

bool block_queue__send(struct block_queue *q, struct block *b)
{
	bool sent;

	pthread_mutex_lock(&q->lock);
	while (q->nr >= q->max && !q->cancelled)
		pthread_cond_wait(&q->cond, &q->lock);
	sent = !q->cancelled;
	if (sent) {
		b->next = NULL;
		if (q->tail)
			q->tail->next = b;
		else
			q->head = b;
		q->tail = b;
		q->nr++;
		pthread_cond_broadcast(&q->cond);
	} else {
		/* nobody takes it any more: freed with the queue */
		b->next = q->spare;
		q->spare = b;
	}
	pthread_mutex_unlock(&q->lock);
	return sent;
}

void block_queue__close(struct block_queue *q, int err)
{
	pthread_mutex_lock(&q->lock);
	q->closed = true;
	q->err = err;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

struct block *block_queue__take(struct block_queue *q, int *err)
{
	struct block *b;

	pthread_mutex_lock(&q->lock);
	while (!q->head && !q->closed)
		pthread_cond_wait(&q->cond, &q->lock);
	b = q->head;
	if (b) {
		q->head = b->next;
		if (!q->head)
			q->tail = NULL;
		q->nr--;
		pthread_cond_broadcast(&q->cond);
	}
	*err = q->err;
	pthread_mutex_unlock(&q->lock);
	return b;
}

void block_queue__put(struct block_queue *q, struct block *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&q->lock);
	b->next = q->spare;
	q->spare = b;
	pthread_mutex_unlock(&q->lock);
}

void block_queue__cancel(struct block_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->cancelled = true;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}
