/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Checks of the parts of a trace.dat that libtracecmd uses without checking them: option
 * texts, the clock option, flyrecord CPU offsets and sizes, ring-buffer pages. On failure
 * the int functions return -EINVAL and write what is wrong into why.
 */
#ifndef LBRSNAP_TRACEDAT_CHECK_H
#define LBRSNAP_TRACEDAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* A string option: NUL-terminated within its size (libtracecmd strdup()s it). */
bool tracedat_check__text(const void *data, size_t size);
/* A TRACECLOCK text: a string whose "[clock]" word, if any, names a clock. */
bool tracedat_check__clock(const void *data, size_t size);
/*
 * A HOOK text, "[sys:]event,match[,pid]/[sys:]event,match[,flags]", split as libtracecmd
 * splits it: one it cannot split gives a NULL hook that it then dereferences.
 */
bool tracedat_check__hook(const void *data, size_t size);
/* One CPU's data: inside a file of file_size bytes; whole pages if pages (uncompressed). */
int tracedat_check__cpu(size_t file_size, __u64 offset, __u64 size, unsigned int page_size,
			bool pages, char *why, size_t len);
/* Uncompressed CPU data: each page's commit count and every event's length within it. */
int tracedat_check__pages(const unsigned char *data, size_t size, unsigned int page_size,
			  char *why, size_t len);
/* One of those pages, the index-th of its CPU's data (named so in why). */
int tracedat_check__page(const unsigned char *page, unsigned int page_size, size_t index,
			 char *why, size_t len);

/* A page's data events as kbuffer walks them, from the check's own walk */
struct tracedat_page_times {
	size_t nr;		/* data events up to the first earlier than the one before it */
	__u64 first_ns;		/* the first one's time and the last counted one's */
	__u64 last_ns;
	bool ordered;		/* no data event earlier than the one before it */
	bool known;		/* no absolute time stamp: the figures above are kbuffer's */
	bool missed;		/* events lost before the page, as kbuffer_missed_events() says */
};

/* Before a page's first event */
static inline void tracedat_page_times__init(struct tracedat_page_times *t)
{
	*t = (struct tracedat_page_times){ .ordered = true, .known = true };
}

/* One more data event at ts: counted while none has gone back in time */
static inline void tracedat_page_times__add(struct tracedat_page_times *t, __u64 ts)
{
	if (!t->ordered)
		return;
	if (t->nr && ts < t->last_ns) {
		t->ordered = false;
		return;
	}
	if (!t->nr++)
		t->first_ns = ts;
	t->last_ns = ts;
}

/* tracedat_check__page(), and the page's times in t */
int tracedat_check__page_times(const unsigned char *page, unsigned int page_size, size_t index,
			       struct tracedat_page_times *t, char *why, size_t len);

#endif /* LBRSNAP_TRACEDAT_CHECK_H */
