// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Ring-buffer page encoder (layout of the kernel's struct buffer_data_page and
 * struct ring_buffer_event, as described by events/header_page and header_event).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/align.h"
#include "util/out-file.h"
#include "tracedat/tracedat-pages.h"

#define TYPE_LEN_MAX_DATA	28	/* type_len 1..28: payload of type_len * 4 bytes */
#define TYPE_TIME_EXTEND	30
#define DELTA_BITS		27
#define DELTA_MAX		((1ULL << DELTA_BITS) - 1)
#define COMMIT_MISSED		(1ULL << 31)
#define COMMIT_MISSED_STORED	(1ULL << 30)
/* finished pages are gathered and written together: one write per 256 KiB, not per page */
#define WRITE_BYTES		(256U << 10)

struct tracedat_pages {
	struct out_file *f;
	unsigned int page_size;
	unsigned int used;		/* data bytes in the current page */
	long long missed;		/* missed-events mark of the current page */
	__u64 last_ts;
	long long written;
	unsigned char *page;		/* the page being filled, inside out */
	unsigned char *out;		/* finished pages not yet written */
	size_t out_len, out_cap;
	bool no_copy_range;		/* this output's file system refused copy_file_range() */
};

int tracedat_pages__new(struct out_file *f, unsigned int page_size, struct tracedat_pages **out)
{
	struct tracedat_pages *p;

	if (page_size < 256 || page_size & 7)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->out_cap = page_size > WRITE_BYTES ? page_size : WRITE_BYTES / page_size * page_size;
	p->out = malloc(p->out_cap);
	if (!p->out) {
		free(p);
		return -ENOMEM;
	}
	p->f = f;
	p->page_size = page_size;
	p->page = p->out;
	memset(p->page, 0, page_size);
	*out = p;
	return 0;
}

static int write_out(struct tracedat_pages *p)
{
	int err = p->out_len ? write_all(p->f->fd, p->out, p->out_len) : 0;

	if (err)
		return err;
	out_file__write_behind(p->f);
	p->written += p->out_len;
	p->out_len = 0;
	return 0;
}

/* The next page to fill, zeroed, after the finished ones (written when there is no room). */
static int next_page(struct tracedat_pages *p)
{
	int err;

	p->out_len += p->page_size;
	if (p->out_len + p->page_size > p->out_cap) {
		err = write_out(p);
		if (err)
			return err;
	}
	p->page = p->out + p->out_len;
	memset(p->page, 0, p->page_size);
	return 0;
}

static void put32(unsigned char *dst, __u32 v)
{
	memcpy(dst, &v, 4);
}


/* Writes the current page (if it holds anything) and starts an empty one. */
static int flush_page(struct tracedat_pages *p)
{
	__u64 commit = p->used;
	int err;

	if (!p->used)
		return 0;
	if (p->missed) {
		commit |= COMMIT_MISSED;
		/* the kernel stores the count right after the data when it has room */
		if (p->missed > 0 && p->used + 8 <= p->page_size - TRACEDAT_PAGE_HEADER) {
			__u64 count = p->missed;

			memcpy(p->page + TRACEDAT_PAGE_HEADER + p->used, &count, 8);
			commit |= COMMIT_MISSED_STORED;
		}
	}
	memcpy(p->page + 8, &commit, 8);
	err = next_page(p);
	if (err)
		return err;
	p->used = 0;
	p->missed = 0;
	return 0;
}

int tracedat_pages__copy_page(struct tracedat_pages *p, const void *page, __u64 last_ts)
{
	int err;

	err = flush_page(p);
	if (err)
		return err;
	memcpy(p->page, page, p->page_size);
	p->last_ts = last_ts;
	return next_page(p);
}

int tracedat_pages__copy_run(struct tracedat_pages *p, const void *pages, size_t len,
			     int in_fd, __u64 in_off, __u64 last_ts)
{
	loff_t off = in_off;
	size_t done;
	ssize_t n;
	int err;

	if (!len)
		return 0;
	/* the pages filled before go first, then the run straight to the file */
	err = flush_page(p) ?: write_out(p);
	if (err)
		return err;
	p->page = p->out;
	memset(p->page, 0, p->page_size);
	/* no_copy_range per output: another file of the same process may be elsewhere */
	n = in_fd >= 0 ? copy_range_kernel(in_fd, &off, p->f->fd, NULL, len, &p->no_copy_range) : 0;
	if (n < 0)
		return n;
	done = n;
	/* refused, or the input ended early: the rest is written from the bytes read */
	if (done < len) {
		err = write_all(p->f->fd, (const unsigned char *)pages + done, len - done);
		if (err)
			return err;
	}
	out_file__write_behind(p->f);
	p->written += len;
	p->last_ts = last_ts;
	return 0;
}

int tracedat_pages__add(struct tracedat_pages *p, __u64 ts, const void *data, unsigned int len,
			long long missed)
{
	/* in size_t: a length near 4 GiB (a damaged length word) must not wrap to a small one */
	size_t room = p->page_size - TRACEDAT_PAGE_HEADER;
	size_t plen = ALIGN((size_t)len, (size_t)4);
	size_t hlen = plen <= TYPE_LEN_MAX_DATA * 4 && plen ? 4 : 8;
	size_t need = hlen + plen;
	unsigned char *dst;
	__u64 delta = 0;
	__u32 word;
	int err;

	/* the stored missed count needs 8 bytes behind the data */
	if (!len || len > room || need + 8 > room)
		return -E2BIG;
	if (p->used && ts < p->last_ts)
		return -ERANGE;
	if (missed) {
		err = flush_page(p);
		if (err)
			return err;
	}
	if (p->used) {
		delta = ts - p->last_ts;
		if (p->used + need + (delta > DELTA_MAX ? 8 : 0) > room) {
			err = flush_page(p);
			if (err)
				return err;
		}
	}
	if (!p->used) {
		/* the page timestamp is the first event's time, which then has delta 0 */
		memcpy(p->page, &ts, 8);
		p->missed = missed;
		delta = 0;
	}
	dst = p->page + TRACEDAT_PAGE_HEADER + p->used;
	if (delta > DELTA_MAX) {
		put32(dst, TYPE_TIME_EXTEND | (__u32)(delta & DELTA_MAX) << 5);
		put32(dst + 4, (__u32)(delta >> DELTA_BITS));
		dst += 8;
		p->used += 8;
		delta = 0;
	}
	if (hlen == 4) {
		word = (__u32)plen / 4 | (__u32)delta << 5;
		put32(dst, word);
	} else {
		put32(dst, (__u32)delta << 5);
		put32(dst + 4, (__u32)plen + 4);
	}
	memcpy(dst + hlen, data, len);
	memset(dst + hlen + len, 0, plen - len);
	p->used += need;
	p->last_ts = ts;
	return 0;
}

unsigned int tracedat_pages__room(const struct tracedat_pages *p)
{
	return p->used ? p->page_size - TRACEDAT_PAGE_HEADER - p->used : 0;
}

int tracedat_pages__add_raw(struct tracedat_pages *p, const void *recs, unsigned int len,
			    __u64 last_ts)
{
	if (len % 4 || len > tracedat_pages__room(p))
		return -ENOSPC;
	if (last_ts < p->last_ts)
		return -ERANGE;
	memcpy(p->page + TRACEDAT_PAGE_HEADER + p->used, recs, len);
	p->used += len;
	p->last_ts = last_ts;
	return 0;
}

long long tracedat_pages__finish(struct tracedat_pages *p)
{
	int err = flush_page(p) ?: write_out(p);

	return err ? err : p->written;
}

void tracedat_pages__free(struct tracedat_pages *p)
{
	if (!p)
		return;
	free(p->out);
	free(p);
}
