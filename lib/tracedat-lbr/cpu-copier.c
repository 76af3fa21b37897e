// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <traceevent/kbuffer.h>
#include "tracedat-lbr/cpu-copier.h"
#include "tracedat-lbr/tracedat-merge.h"
#include "tracedat/tracedat-check.h"
#include "tracedat/tracedat-input.h"
#include "util/copy-thread.h"
#include "util/thread.h"

static int span_add(struct cpu_copy *c, __u64 in_off, __u64 len)
{
	struct page_span *s = c->nr_spans ? &c->spans[c->nr_spans - 1] : NULL;
	size_t cap;

	if (s && s->in_off + s->len == in_off) {
		s->len += len;
		return 0;
	}
	if (c->nr_spans == c->cap_spans) {
		cap = c->cap_spans ? 2 * c->cap_spans : 16;
		s = realloc(c->spans, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		c->spans = s;
		c->cap_spans = cap;
	}
	c->spans[c->nr_spans++] = (struct page_span){ .in_off = in_off, .len = len };
	return 0;
}

/* One page's check and times; a damaged page is the thread's error, named as the merge does */
static int page_times(struct cpu_copier *cc, const struct cpu_copy *c, struct kbuffer *kb,
		      unsigned char *page, size_t index, struct tracedat_page_times *t)
{
	char why[192];

	if (tracedat_check__page_times(page, cc->page_size, index, t, why, sizeof(why))) {
		cc->damaged = true;
		snprintf(cc->why, sizeof(cc->why), "%s: buffer '' CPU %u: %s", cc->input,
			 c->d->cpu, why);
		return -EINVAL;
	}
	/* an absolute time stamp: kbuffer says, as the merge's copy asks it */
	if (!t->known)
		tracedat_page_times__kbuffer(kb, page, t);
	return 0;
}

/*
 * A page goes out as it is when its events' times are in order and none is after the CPU's
 * first capture record (the merge's whole-page copy), not at all without events; else the
 * pages from this one on are the merge's (false)
 */
static bool size_page(struct cpu_copy *c, const struct tracedat_page_times *t, __u64 in_off,
		      unsigned int page_size, int *err)
{
	if (!t->nr)
		return true;
	if (!t->ordered || t->last_ns > c->limit_ns)
		return false;
	if (!c->nr_events || t->first_ns < c->first_ns)
		c->first_ns = t->first_ns;
	if (!c->nr_events || t->last_ns > c->last_ns)
		c->last_ns = t->last_ns;
	c->nr_events += t->nr;
	c->nr_missed += t->missed;
	c->size += page_size;
	*err = span_add(c, in_off, page_size);
	return !*err;
}

static int size_cpu(struct cpu_copier *cc, struct cpu_copy *c, struct kbuffer *kb,
		    unsigned char *rbuf)
{
	const struct tracedat_cpu_data *d = c->d;
	size_t ps = cc->page_size, chunk = TRACEDAT_READ_BYTES / ps * ps ?: ps, n, i, map_len = 0;
	struct tracedat_page_times t;
	unsigned char *pages;
	bool more = true;
	void *map;
	__u64 off;
	int err = 0;

	for (off = 0; off < d->size && more; off += n) {
		if (__atomic_load_n(&cc->stop, __ATOMIC_RELAXED))
			return -ECANCELED;
		n = d->size - off < chunk ? d->size - off : chunk;
		pages = tracedat_cpu_data__get(d, cc->in_fd, cc->in_sparse, off, n, rbuf, &map,
					       &map_len);
		if (!pages)
			return -errno;
		for (i = 0; i < n && more; i += ps) {
			err = page_times(cc, c, kb, pages + i, (off + i) / ps, &t);
			more = !err && size_page(c, &t, d->offset + off + i, ps, &err);
			if (more)
				c->done_at = off + i + ps;
		}
		if (map != MAP_FAILED)
			munmap(map, map_len);
	}
	c->all = c->done_at == d->size;
	return err;
}

static void *copier_main(void *arg)
{
	struct cpu_copier *cc = arg;
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned char *rbuf = malloc(TRACEDAT_READ_BYTES);
	size_t i;
	int err = kb && rbuf ? 0 : -ENOMEM;

	for (i = 0; i < cc->nr_cpus && !err; i++)
		err = cc->cpus[i].d ? size_cpu(cc, &cc->cpus[i], kb, rbuf) : 0;
	if (kb)
		kbuffer_free(kb);
	free(rbuf);
	cc->err = err;
	return NULL;
}

int cpu_copier__size(struct cpu_copier *cc)
{
	int err;

	if (cc->started)
		return -EBUSY;
	err = thread__start_quiet(&cc->thread, copier_main, cc);
	cc->started = !err;
	return err;
}

int cpu_copier__wait(struct cpu_copier *cc)
{
	if (cc->started) {
		pthread_join(cc->thread, NULL);
		cc->started = false;
	}
	return cc->err;
}

int cpu_copier__copy(struct cpu_copier *cc, int out_fd, bool behind)
{
	return cc->copy ? -EBUSY : copy_thread__start(out_fd, behind, &cc->copy);
}

int cpu_copier__post(struct cpu_copier *cc, const struct cpu_copy *c, __u64 out_off)
{
	size_t s;
	int err = 0;

	for (s = 0; s < c->nr_spans && !err; s++) {
		err = copy_thread__post(cc->copy, cc->in_fd, c->spans[s].in_off, out_off,
					c->spans[s].len);
		out_off += c->spans[s].len;
	}
	return err;
}

int cpu_copier__finish(struct cpu_copier *cc)
{
	int err = copy_thread__finish(cc->copy);

	cc->copy = NULL;
	return err;
}

void cpu_copier__free(struct cpu_copier *cc)
{
	size_t i;

	__atomic_store_n(&cc->stop, true, __ATOMIC_RELAXED);
	cpu_copier__wait(cc);
	copy_thread__cancel(cc->copy);
	cc->copy = NULL;
	for (i = 0; i < cc->nr_cpus; i++) {
		free(cc->cpus[i].spans);
		cc->cpus[i].spans = NULL;
		cc->cpus[i].nr_spans = cc->cpus[i].cap_spans = 0;
	}
}
