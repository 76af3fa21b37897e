// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include "util/out-file.h"
#include "util/thread.h"
#include "util/write-thread.h"

struct write_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct out_file *f;
	void *job;		/* handed over, being written until it is NULL again */
	size_t job_len;
	void *spare;		/* written, or never used: the next one to fill */
	bool quit;
	int err;
};

static void *write_thread__main(void *arg)
{
	struct write_thread *t = arg;
	void *buf;
	size_t len;
	int err;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (!t->job && !t->quit)
			pthread_cond_wait(&t->cond, &t->lock);
		if (!t->job)
			break;
		buf = t->job;
		len = t->job_len;
		pthread_mutex_unlock(&t->lock);
		/* after a failed write nothing more: the output is abandoned */
		err = t->err ? 0 : write_all(t->f->fd, buf, len);
		if (!err)
			out_file__write_behind(t->f);
		pthread_mutex_lock(&t->lock);
		t->err = t->err ?: err;
		t->spare = buf;
		t->job = NULL;
		pthread_cond_broadcast(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int write_thread__start(struct out_file *f, size_t size, struct write_thread **out)
{
	struct write_thread *t = calloc(1, sizeof(*t));
	int err = -ENOMEM;

	*out = NULL;
	if (!t)
		return err;
	t->f = f;
	t->spare = malloc(size);
	if (!t->spare)
		goto cleanup;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	/* a signal's deferral stays the writer's business */
	err = thread__start_quiet(&t->thread, write_thread__main, t);
	if (err) {
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
		goto cleanup;
	}
	*out = t;
	return 0;
cleanup:
	free(t->spare);
	free(t);
	return err;
}

int write_thread__hand_over(struct write_thread *t, void **buf, size_t len)
{
	int err;

	pthread_mutex_lock(&t->lock);
	while (t->job)
		pthread_cond_wait(&t->cond, &t->lock);
	err = t->err;
	if (!err && len) {
		/* the spare is taken under the lock: the thread puts *buf there once written */
		t->job = *buf;
		t->job_len = len;
		*buf = t->spare;
		t->spare = NULL;
		pthread_cond_broadcast(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return err;
}

int write_thread__stop(struct write_thread *t)
{
	int err;

	if (!t)
		return 0;
	pthread_mutex_lock(&t->lock);
	t->quit = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	/* the thread finishes the buffer it holds before it sees quit */
	pthread_join(t->thread, NULL);
	err = t->err;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t->spare);
	free(t);
	return err;
}
