// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What libtracecmd trusts in a trace.dat, checked before it opens the file: it reads the
 * clock option with strtok() and sscanf() (a clock of only '[' and ']' is a NULL pointer),
 * maps the flyrecord CPU data by their offsets and sizes (a CPU cut by truncation makes
 * tracecmd_open() fail, and its cleanup then dereferences NULL), and walks the pages with
 * kbuffer, which believes every commit count and event length word (a length word of 0
 * gives an event of 0xfffffffc bytes). A file that passes here opens and reads whole.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tracedat/tracedat-check.h"
#include "tracedat/tracedat-pages.h"

/* the ring buffer's event types (include/linux/ring_buffer.h) */
#define TYPE_LEN_DATA_MAX	28
#define TYPE_PADDING		29
#define TYPE_TIME_EXTEND	30
#define TYPE_TIME_STAMP		31
/* kbuffer reads the commit count through this mask; the bits above are flags */
#define COMMIT_MASK		((1U << 27) - 1)
#define MISSED_EVENTS		(1ULL << 31)	/* events were lost before this page */

bool tracedat_check__text(const void *data, size_t size)
{
	return size && memchr(data, '\0', size);
}

bool tracedat_check__clock(const void *data, size_t size)
{
	const char *p = data, *end;
	size_t n;

	if (!tracedat_check__text(data, size))
		return false;
	end = p + strlen(p);
	/* the first space-separated word opening with '[' names the clock */
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n && *p == '[')
			return strspn(p, "[]") < n;
		p += n;
	}
	return true;
}

/*
 * One half of a HOOK text, "[sys:]event,match[,rest]", taken with libtracecmd's strtok_r()
 * steps on copy (the text's copy): the start half's match ends at ',' or '/' and its rest
 * (a pid) at '/', the end half's match at ',' and its rest (flags) at the end of the text.
 */
static bool hook_half(const char *text, char *copy, bool start, char **save)
{
	char *tok;
	size_t at;

	tok = strtok_r(start ? copy : NULL, ":,", save);
	if (!tok)
		return false;
	/*
	 * libtracecmd looks at the character after the first token at the first token's
	 * length from the start of the text, and after the others at their own place
	 */
	at = (start ? 0 : tok - copy) + strlen(tok);
	if (text[at] == ':' && !strtok_r(NULL, ",", save))
		return false;
	tok = strtok_r(NULL, start ? ",/" : ",", save);
	if (!tok)
		return false;
	return text[tok - copy + strlen(tok)] != ',' || strtok_r(NULL, start ? "/" : "", save);
}

bool tracedat_check__hook(const void *data, size_t size)
{
	char *copy, *save = NULL;
	bool ok;

	if (!tracedat_check__text(data, size))
		return false;
	copy = strdup(data);
	if (!copy)
		return false;
	ok = hook_half(data, copy, true, &save) && hook_half(data, copy, false, &save);
	free(copy);
	return ok;
}

int tracedat_check__cpu(size_t file_size, __u64 offset, __u64 size, unsigned int page_size,
			bool pages, char *why, size_t len)
{
	if (!size)
		return 0;
	if (offset > file_size || size > file_size - offset) {
		snprintf(why, len, "CPU data at offset %llu of %llu bytes ends after the file "
			 "(%zu bytes): truncated", (unsigned long long)offset,
			 (unsigned long long)size, file_size);
		return -EINVAL;
	}
	/* uncompressed CPU data are whole pages, mapped by their offset */
	if (pages && (offset % page_size || size % page_size)) {
		snprintf(why, len, "CPU data at offset %llu of %llu bytes are not whole %u-byte "
			 "pages", (unsigned long long)offset, (unsigned long long)size,
			 page_size);
		return -EINVAL;
	}
	return 0;
}

static __u32 word(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * One page: its commit count, then each event's extent, within the page. With t, also the
 * times of its data events as kbuffer reads them: the page's stamp plus every event's delta
 * (padding's too: a discarded event keeps its delta), a time extend's high bits included.
 * kbuffer versions differ on an absolute time stamp: a page with one is not timed here.
 */
static int check_page(const unsigned char *page, unsigned int page_size,
		      struct tracedat_page_times *t, char *why, size_t len)
{
	__u64 commit, ts = 0;
	size_t size, i = 0, ext;
	__u32 w, type, l;

	memcpy(&commit, page + 8, 8);
	size = commit & COMMIT_MASK;
	if (size > page_size - TRACEDAT_PAGE_HEADER) {
		snprintf(why, len, "commit count %zu exceeds the page", size);
		return -EINVAL;
	}
	if (t) {
		tracedat_page_times__init(t);
		memcpy(&ts, page, 8);
		/* kbuffer says so at the page's first record only if that is an event */
		t->missed = (commit & MISSED_EVENTS) && size >= 4 &&
			    (word(page + TRACEDAT_PAGE_HEADER) & 31) <= TYPE_LEN_DATA_MAX;
	}
	page += TRACEDAT_PAGE_HEADER;
	while (i < size) {
		if (size - i < 4)
			goto cut;
		w = word(page + i);
		type = w & 31;
		ts += w >> 5;
		if (type >= 1 && type <= TYPE_LEN_DATA_MAX) {
			ext = 4 + (size_t)type * 4;
		} else if (type == TYPE_TIME_EXTEND || type == TYPE_TIME_STAMP) {
			ext = 8;
			/* an absolute stamp: the page's times are left to kbuffer */
			if (type == TYPE_TIME_STAMP) {
				if (t)
					t->known = false;
			} else if (ext <= size - i) {
				ts += (__u64)word(page + i + 4) << 27;
			}
		} else {
			/* padding and long events: a length word follows the header */
			if (size - i < 8)
				goto cut;
			l = word(page + i + 4);
			/* kbuffer ends the page at a padding that runs past the commit */
			if (type == TYPE_PADDING) {
				ext = 4 + (size_t)l;
				if (ext > size - i)
					return 0;
			} else {
				if (l <= 4) {
					snprintf(why, len, "event at byte %zu has length word %u",
						 i + TRACEDAT_PAGE_HEADER, l);
					return -EINVAL;
				}
				ext = 8 + (((size_t)l - 4 + 3) & ~(size_t)3);
			}
		}
		if (ext > size - i)
			goto cut;
		i += ext;
		if (t && type != TYPE_PADDING && type < TYPE_TIME_EXTEND)
			tracedat_page_times__add(t, ts);
	}
	return 0;
cut:
	snprintf(why, len, "event at byte %zu runs past the commit count %zu",
		 i + TRACEDAT_PAGE_HEADER, size);
	return -EINVAL;
}

int tracedat_check__page_times(const unsigned char *page, unsigned int page_size, size_t index,
			       struct tracedat_page_times *t, char *why, size_t len)
{
	char what[128];

	if (!check_page(page, page_size, t, what, sizeof(what)))
		return 0;
	snprintf(why, len, "page %zu of the CPU data: %s", index, what);
	return -EINVAL;
}

int tracedat_check__page(const unsigned char *page, unsigned int page_size, size_t index,
			 char *why, size_t len)
{
	return tracedat_check__page_times(page, page_size, index, NULL, why, len);
}

int tracedat_check__pages(const unsigned char *data, size_t size, unsigned int page_size,
			  char *why, size_t len)
{
	size_t off;

	for (off = 0; off + page_size <= size; off += page_size) {
		if (tracedat_check__page(data + off, page_size, off / page_size, why, len))
			return -EINVAL;
	}
	return 0;
}
