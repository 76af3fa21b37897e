// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "perf/perf-unzip.h"

struct perf_unzip {
	ZSTD_DStream *ds;
	char *buf;		/* decompressed bytes not returned yet start at pos */
	size_t pos, len, cap;
};

int perf_unzip__new(struct perf_unzip **out)
{
	struct perf_unzip *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->ds = ZSTD_createDStream();
	if (!u->ds) {
		free(u);
		return -ENOMEM;
	}
	ZSTD_initDStream(u->ds);
	*out = u;
	return 0;
}

void perf_unzip__free(struct perf_unzip *u)
{
	if (!u)
		return;
	ZSTD_freeDStream(u->ds);
	free(u->buf);
	free(u);
}

void perf_unzip__reset(struct perf_unzip *u)
{
	ZSTD_initDStream(u->ds);
	u->pos = u->len = 0;
}

size_t perf_unzip__pending(const struct perf_unzip *u)
{
	return u->len - u->pos;
}

int perf_unzip__feed(struct perf_unzip *u, const struct perf_event_header *comp)
{
	ZSTD_inBuffer in = { .src = comp + 1, .size = comp->size - sizeof(*comp) };
	ZSTD_outBuffer o;
	size_t r, want;
	__u64 data_size;
	char *n;

	if (comp->type == PERF_RECORD_COMPRESSED2) {
		if (in.size < sizeof(data_size))
			return -EBADMSG;
		memcpy(&data_size, in.src, sizeof(data_size));
		if (data_size > in.size - sizeof(data_size))
			return -EBADMSG;
		in.src = (const char *)in.src + sizeof(data_size);
		in.size = data_size;
	}

	/* the incomplete record, if any, moves to the front */
	if (u->len > u->pos)
		memmove(u->buf, u->buf + u->pos, u->len - u->pos);
	u->len -= u->pos;
	u->pos = 0;
	while (in.pos < in.size) {
		want = u->len + ZSTD_DStreamOutSize();
		if (want > u->cap) {
			n = realloc(u->buf, want * 2);
			if (!n)
				return -ENOMEM;
			u->buf = n;
			u->cap = want * 2;
		}
		o = (ZSTD_outBuffer){ .dst = u->buf, .size = u->cap, .pos = u->len };
		r = ZSTD_decompressStream(u->ds, &o, &in);
		if (ZSTD_isError(r))
			return -EBADMSG;
		u->len = o.pos;
	}
	return 0;
}

int perf_unzip__next(struct perf_unzip *u, const struct perf_event_header **ev)
{
	size_t left = u->len - u->pos;
	const struct perf_event_header *h;

	/* nothing decompressed yet: buf may be NULL, and NULL + 0 is undefined */
	if (left < sizeof(*h))
		return 0;
	h = (const void *)(u->buf + u->pos);
	if (h->size < sizeof(*h) || h->size % 8)
		return -EBADMSG;
	if (left < h->size)
		return 0;
	u->pos += h->size;
	*ev = h;
	return 1;
}
