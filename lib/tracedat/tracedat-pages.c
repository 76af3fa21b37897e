// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Ring-buffer page encoder (layout of the kernel's struct buffer_data_page and
 * struct ring_buffer_event, as described by events/header_page and header_event).
 */
#include <errno.h>
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

struct tracedat_pages {
	int fd;
	unsigned int page_size;
	unsigned int used;		/* data bytes in the current page */
	long long missed;		/* missed-events mark of the current page */
	__u64 last_ts;
	long long written;
	unsigned char *page;
};

int tracedat_pages__new(int fd, unsigned int page_size, struct tracedat_pages **out)
{
	struct tracedat_pages *p;

	if (page_size < 256 || page_size & 7)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->page = calloc(1, page_size);
	if (!p->page) {
		free(p);
		return -ENOMEM;
	}
	p->fd = fd;
	p->page_size = page_size;
	*out = p;
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
	err = write_all(p->fd, p->page, p->page_size);
	if (err)
		return err;
	p->written += p->page_size;
	memset(p->page, 0, p->page_size);
	p->used = 0;
	p->missed = 0;
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

long long tracedat_pages__finish(struct tracedat_pages *p)
{
	int err = flush_page(p);

	return err ? err : p->written;
}

void tracedat_pages__free(struct tracedat_pages *p)
{
	if (!p)
		return;
	free(p->page);
	free(p);
}
