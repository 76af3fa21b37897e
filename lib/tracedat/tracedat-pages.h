/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Encoder for ftrace ring-buffer pages, the per-CPU data of a trace.dat file.
 *
 * No library writes these pages (libtraceevent's kbuffer only reads them), so lbrsnap
 * encodes them itself: a 16-byte page header (u64 timestamp, u64 commit), then events
 * with a 32-bit header (5-bit type_len, 27-bit time delta). Deltas that do not fit in 27
 * bits get a TIME_EXTEND event first. Records must come in non-decreasing time order.
 */
#ifndef LBRSNAP_TRACEDAT_PAGES_H
#define LBRSNAP_TRACEDAT_PAGES_H

#include <stddef.h>
#include <linux/types.h>

#define TRACEDAT_PAGE_HEADER	16
/* Largest payload a single 4096-byte page can take (header word plus length word). */
#define TRACEDAT_MAX_PAYLOAD(page_size)	((page_size) - TRACEDAT_PAGE_HEADER - 8)

struct tracedat_pages;

struct out_file;

/* Full pages are written to f's file at its current position, writeback started behind them. */
int tracedat_pages__new(struct out_file *f, unsigned int page_size, struct tracedat_pages **out);
/*
 * Appends one event payload (len bytes, padded to 4) at ts. missed != 0 starts a new page
 * flagged with missed events before it: missed > 0 stores the count, missed < 0 marks an
 * unknown number.
 */
int tracedat_pages__add(struct tracedat_pages *p, __u64 ts, const void *data, unsigned int len,
			long long missed);
/*
 * The bytes of ring-buffer records the current page still has room for; 0 before its first
 * event (tracedat_pages__add_raw() continues one).
 */
unsigned int tracedat_pages__room(const struct tracedat_pages *p);
/*
 * Appends len bytes of records as the kernel wrote them (data events and TIME_EXTENDs, each
 * delta relative to the record before) after the event added last, which was the record
 * before them where they were read; last_ts is the time of the last one. They must fit
 * (tracedat_pages__room()): -ENOSPC, nothing appended, where they do not.
 */
int tracedat_pages__add_raw(struct tracedat_pages *p, const void *recs, unsigned int len,
			    __u64 last_ts);
/*
 * Appends a whole page of the input as it is (header time stamp, commit word, events), after
 * the current page; last_ts is its last event's time. The next event added starts a new page.
 */
int tracedat_pages__copy_page(struct tracedat_pages *p, const void *page, __u64 last_ts);
/*
 * Whole pages copied as they are (len a multiple of the page size, last_ts the last one's
 * last event): from in_fd at in_off with copy_file_range(2), no user buffer, where the
 * kernel can; else (in_fd < 0, or EXDEV, EINVAL, ENOSYS, EOPNOTSUPP) written from pages,
 * which hold the same bytes.
 */
int tracedat_pages__copy_run(struct tracedat_pages *p, const void *pages, size_t len,
			     int in_fd, __u64 in_off, __u64 last_ts);
/* Writes the last partial page; returns the number of bytes written in all, or -errno. */
long long tracedat_pages__finish(struct tracedat_pages *p);
void tracedat_pages__free(struct tracedat_pages *p);

#endif /* LBRSNAP_TRACEDAT_PAGES_H */
