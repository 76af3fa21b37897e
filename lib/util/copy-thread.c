// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include "util/copy-thread.h"
#include "util/out-file.h"
#include "util/thread.h"

/* Copied between two looks at a cancel and two starts of writeback */
#define COPY_STEP	(8U << 20)

struct copy_range_job {
	int in_fd;
	off_t in_off, out_off;
	size_t len;
};

struct copy_thread {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int out_fd;
	bool behind;
	bool refused;		/* copy_file_range(2) refused: read and written (the thread's) */
	/* under lock */
	struct copy_range_job *jobs;
	size_t nr, cap, next;	/* posted, room, the next to copy */
	bool done;		/* no more will be posted */
	bool cancel;
	int err;
};

/* One range, COPY_STEP at a time; -ECANCELED once cancelled */
static int copy_job(struct copy_thread *t, const struct copy_range_job *j)
{
	size_t done, step;
	bool cancel;
	int err;

	for (done = 0; done < j->len; done += step) {
		pthread_mutex_lock(&t->lock);
		cancel = t->cancel;
		pthread_mutex_unlock(&t->lock);
		if (cancel)
			return -ECANCELED;
		step = j->len - done < COPY_STEP ? j->len - done : COPY_STEP;
		err = copy_range(j->in_fd, j->in_off + done, t->out_fd, j->out_off + done, step,
				 &t->refused);
		if (err)
			return err;
		/* an optimisation only: where it is refused, the output's fsync() does it all */
		if (t->behind &&
		    sync_file_range(t->out_fd, j->out_off + done, step, SYNC_FILE_RANGE_WRITE))
			t->behind = false;
	}
	return 0;
}

static void *copy_thread__main(void *arg)
{
	struct copy_thread *t = arg;
	struct copy_range_job j;
	int err = 0;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (t->next == t->nr && !t->done && !t->cancel)
			pthread_cond_wait(&t->cond, &t->lock);
		if (t->next == t->nr || t->cancel)
			break;
		j = t->jobs[t->next++];
		pthread_mutex_unlock(&t->lock);
		err = copy_job(t, &j);
		pthread_mutex_lock(&t->lock);
		if (err) {
			t->err = err;
			break;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

int copy_thread__start(int out_fd, bool behind, struct copy_thread **out)
{
	struct copy_thread *t = calloc(1, sizeof(*t));
	int err;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->out_fd = out_fd;
	t->behind = behind;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	err = thread__start_quiet(&t->thread, copy_thread__main, t);
	if (err) {
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
		free(t);
		return err;
	}
	*out = t;
	return 0;
}

int copy_thread__post(struct copy_thread *t, int in_fd, off_t in_off, off_t out_off,
		      size_t len)
{
	struct copy_range_job *jobs;
	size_t cap;
	int err;

	if (!len)
		return 0;
	pthread_mutex_lock(&t->lock);
	err = t->err;
	if (!err && t->nr == t->cap) {
		cap = t->cap ? 2 * t->cap : 16;
		jobs = realloc(t->jobs, cap * sizeof(*jobs));
		if (jobs) {
			t->jobs = jobs;
			t->cap = cap;
		} else {
			err = -ENOMEM;
		}
	}
	if (!err) {
		t->jobs[t->nr++] = (struct copy_range_job){
			.in_fd = in_fd, .in_off = in_off, .out_off = out_off, .len = len };
		pthread_cond_signal(&t->cond);
	}
	pthread_mutex_unlock(&t->lock);
	return err;
}

/* Ends the thread, once it has copied all (done) or as soon as it can (cancel) */
static int stop(struct copy_thread *t, bool cancel)
{
	int err;

	pthread_mutex_lock(&t->lock);
	t->done = true;
	t->cancel = cancel;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	err = t->err;
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t->jobs);
	free(t);
	return err;
}

int copy_thread__finish(struct copy_thread *t)
{
	return t ? stop(t, false) : 0;
}

void copy_thread__cancel(struct copy_thread *t)
{
	if (t)
		stop(t, true);
}
