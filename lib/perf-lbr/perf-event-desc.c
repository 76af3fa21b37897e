// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * HEADER_EVENT_DESC: "u32 nr, u32 attr_size", then per event the attr, u32 nr_ids, the name
 * as a feature string and the ids. perf matches the entries to the attributes by index, so
 * the lbr events are appended after the recorded ones, in attribute order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/align.h"
#include "perf-lbr/perf-event-desc.h"
#include "perf-lbr/perf-lbr.h"


size_t perf_feat__string_size(const char *s)
{
	return 4 + ALIGN(strlen(s) + 1, 8);
}

size_t perf_feat__put_string(void *buf, const char *s)
{
	size_t len = ALIGN(strlen(s) + 1, 8);
	__u32 len32 = len;

	/* buf follows the recorded entries, which need not leave it 4-byte aligned */
	memcpy(buf, &len32, 4);
	memset((char *)buf + 4, 0, len);
	memcpy((char *)buf + 4, s, strlen(s));
	return 4 + len;
}

/* Checks the entries and or's add into each attr's sample_type; returns the length used. */
static int desc_fixup(char *d, size_t len, __u32 nr, __u32 attr_size, __u64 add)
{
	size_t pos = 8;
	__u32 i, nr_ids, slen;
	__u64 st;

	for (i = 0; i < nr; i++) {
		if (attr_size < 32 || pos + attr_size + 8 > len)
			return -EINVAL;
		memcpy(&st, d + pos + 24, 8);		/* perf_event_attr.sample_type */
		st |= add;
		memcpy(d + pos + 24, &st, 8);
		pos += attr_size;
		memcpy(&nr_ids, d + pos, 4);
		memcpy(&slen, d + pos + 4, 4);
		pos += 8;
		if (slen > len - pos || (__u64)nr_ids * 8 > len - pos - slen)
			return -EINVAL;
		pos += slen + nr_ids * 8;
	}
	return pos;
}

int perf_lbr__event_desc(const struct perf_lbr *pl, const void *orig, size_t orig_len,
			 __u64 add_sample_type, void **out, size_t *out_len)
{
	__u32 nr = 0, attr_size = PERF_ATTR_WRITE_SIZE;
	size_t i, len, pos;
	int used = 8;
	char *d;

	if (orig) {
		if (orig_len < 8)
			return -EINVAL;
		memcpy(&nr, orig, 4);
		memcpy(&attr_size, (const char *)orig + 4, 4);
		/* the output is sized from attr_size: bound it (and nr) by what the file holds */
		if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > 4096 ||
		    nr > (orig_len - 8) / (attr_size + 8))
			return -EINVAL;
	}
	len = orig ? orig_len : 8;
	for (i = 0; i < perf_lbr__nr_events(pl); i++)
		len += attr_size + 4 + perf_feat__string_size(perf_lbr__name(pl, i)) + 8;
	d = calloc(1, len);
	if (!d)
		return -ENOMEM;
	if (orig) {
		memcpy(d, orig, orig_len);
		used = desc_fixup(d, orig_len, nr, attr_size, add_sample_type);
		if (used < 0) {
			free(d);
			return used;
		}
	}
	pos = used;
	for (i = 0; i < perf_lbr__nr_events(pl); i++) {
		struct perf_event_attr a = *perf_lbr__attr(pl, i);
		__u64 id = perf_lbr__id(pl, i);
		__u32 one = 1;

		a.size = attr_size;
		memcpy(d + pos, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
		pos += attr_size;
		memcpy(d + pos, &one, 4);
		pos += 4;
		pos += perf_feat__put_string(d + pos, perf_lbr__name(pl, i));
		memcpy(d + pos, &id, 8);
		pos += 8;
	}
	nr += perf_lbr__nr_events(pl);
	memcpy(d, &nr, 4);
	memcpy(d + 4, &attr_size, 4);
	*out = d;
	*out_len = pos;
	return 0;
}
