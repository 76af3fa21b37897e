// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * block-queue: blocks arrive whole and in order across threads, no more than the bound are
 * in flight, blocks given back are filled again, the producer's error reaches the consumer
 * after the blocks sent before it, and a cancel lets a producer stuck on a full queue go.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "util/block-queue.h"

#define NR_BLOCKS	2000
#define MAX_FLIGHT	3

struct producer {
	struct block_queue *q;
	unsigned int nr;		/* blocks to send */
	int err;			/* closed with */
	unsigned int sent;
	bool cancelled;
};

/* Block i holds i + 1 bytes, each i % 251: its order and its length are checked */
static void *produce(void *arg)
{
	struct producer *p = arg;
	struct block *b;
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		b = block_queue__get(p->q, i % 7 ? 64 : 4096);
		if (!b)
			break;
		memset(b->data, i % 251, i % 64 + 1);
		b->len = i % 64 + 1;
		if (!block_queue__send(p->q, b)) {
			p->cancelled = true;
			break;
		}
		__atomic_add_fetch(&p->sent, 1, __ATOMIC_RELEASE);
	}
	block_queue__close(p->q, p->err);
	return NULL;
}

static void test_order(void)
{
	struct producer p = { .nr = NR_BLOCKS, .err = -EIO };
	unsigned int i = 0, n, bad = 0;
	struct block *b;
	pthread_t t;
	int err = 0;

	CU_ASSERT_EQUAL_FATAL(block_queue__new(MAX_FLIGHT, &p.q), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, produce, &p), 0);
	while ((b = block_queue__take(p.q, &err))) {
		n = i % 64 + 1;
		if (b->len != n || b->pos || b->data[0] != i % 251 || b->data[n - 1] != i % 251)
			bad++;
		block_queue__put(p.q, b);
		i++;
	}
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(i, NR_BLOCKS);
	CU_ASSERT_EQUAL(bad, 0);
	/* the error once every block sent before it was taken */
	CU_ASSERT_EQUAL(err, -EIO);
	CU_ASSERT_FALSE(p.cancelled);
	block_queue__free(p.q);
}

static unsigned int sent(struct producer *p)
{
	return __atomic_load_n(&p->sent, __ATOMIC_ACQUIRE);
}

static void test_bound(void)
{
	struct producer p = { .nr = 50 };
	struct block *b;
	pthread_t t;
	int err, i;

	CU_ASSERT_EQUAL_FATAL(block_queue__new(MAX_FLIGHT, &p.q), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, produce, &p), 0);
	/* nothing taken: the producer stops at the bound, and stays there */
	for (i = 0; i < 200 && sent(&p) < MAX_FLIGHT; i++)
		usleep(1000);
	usleep(20000);
	CU_ASSERT_EQUAL(sent(&p), MAX_FLIGHT);
	/* one taken and given back: one more sent, into the block given back */
	b = block_queue__take(p.q, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	block_queue__put(p.q, b);
	for (i = 0; i < 200 && sent(&p) < MAX_FLIGHT + 1; i++)
		usleep(1000);
	usleep(20000);
	CU_ASSERT_EQUAL(sent(&p), MAX_FLIGHT + 1);
	/* cancelled: the producer waiting to send is let go */
	block_queue__cancel(p.q);
	pthread_join(t, NULL);
	CU_ASSERT_TRUE(p.cancelled);
	CU_ASSERT_EQUAL(sent(&p), MAX_FLIGHT + 1);
	block_queue__free(p.q);
}

static void test_reuse(void)
{
	struct block_queue *q;
	struct block *a, *b;
	int err;

	CU_ASSERT_EQUAL_FATAL(block_queue__new(1, &q), 0);
	a = block_queue__get(q, 256);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	a->len = 10;
	CU_ASSERT_TRUE(block_queue__send(q, a));
	CU_ASSERT_PTR_EQUAL(block_queue__take(q, &err), a);
	a->pos = 10;
	block_queue__put(q, a);
	/* given back: the same block, emptied */
	b = block_queue__get(q, 100);
	CU_ASSERT_PTR_EQUAL(b, a);
	CU_ASSERT_EQUAL(b->len, 0);
	CU_ASSERT_EQUAL(b->pos, 0);
	CU_ASSERT_EQUAL(b->cap, 256);
	block_queue__put(q, b);
	/* too small for what is asked: a new one of that size */
	b = block_queue__get(q, 1000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->cap, 1000);
	block_queue__put(q, b);
	block_queue__close(q, 0);
	CU_ASSERT_PTR_NULL(block_queue__take(q, &err));
	CU_ASSERT_EQUAL(err, 0);
	block_queue__free(q);
}

static CU_TestInfo block_queue_tests[] = {
	{ "order", test_order },
	{ "bound", test_bound },
	{ "reuse", test_reuse },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "block_queue", NULL, NULL, NULL, NULL, block_queue_tests },
	CU_SUITE_INFO_NULL,
};
