// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf-count FILE: reads a perf.data (file or pipe mode, compressed or not) to its end with
 * lbrsnap's reader and prints what perf counts of it:
 *
 *   records R samples S branches B
 *
 * R the data records (those inside compressed records counted, as perf's --stats does, with
 * the compressed ones themselves), S the samples, B the branch entries of every sample's
 * branch stack (as `perf script -F brstack` prints them). Each sample is walked field by
 * field from its attribute's sample_type, so a sample laid out otherwise than its attribute
 * says is an error. Exit status 1 with a message naming the offset for anything broken.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf/perf-data.h"
#include "perf/perf-data-reader.h"
#include "perf/perf-pipe.h"
#include "perf/perf-unzip.h"

static const struct perf_event_attr *attr_of(struct perf_reader *r, __u64 id)
{
	size_t i, j;

	if (perf_reader__nr_attrs(r) == 1)
		return &perf_reader__attr(r, 0)->attr;
	for (i = 0; i < perf_reader__nr_attrs(r); i++) {
		const struct perf_file_attr *fa = perf_reader__attr(r, i);

		for (j = 0; j < fa->nr_ids; j++) {
			if (fa->ids[j] == id)
				return &fa->attr;
		}
	}
	return NULL;
}

/* The sample's id: IDENTIFIER first, else ID after IP, TID, TIME and ADDR. */
static __u64 sample_id(const struct perf_event_attr *a0, const __u64 *p, size_t n)
{
	__u64 st = a0->sample_type;
	size_t pos;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return n ? p[0] : 0;
	pos = __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					 PERF_SAMPLE_ADDR));
	return (st & PERF_SAMPLE_ID) && pos < n ? p[pos] : 0;
}

/* Branch entries of one sample, or -1 if its fields do not fit its size. */
static long sample_branches(struct perf_reader *r, const struct perf_event_header *h)
{
	const __u64 *p = (const void *)(h + 1), *end = (const void *)((const char *)h + h->size);
	const struct perf_event_attr *a = attr_of(r, sample_id(&perf_reader__attr(r, 0)->attr, p,
							       end - p));
	__u64 st, rf, nr, k;
	__u32 raw;

	if (!a)
		return -1;
	st = a->sample_type;
	rf = a->read_format;
	k = __builtin_popcountll(st & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
					PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
					PERF_SAMPLE_PERIOD));
	if (k > (__u64)(end - p))
		return -1;
	p += k;
	if (st & PERF_SAMPLE_READ) {
		k = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
		if (rf & PERF_FORMAT_GROUP) {
			if (p >= end)
				return -1;
			nr = *p++;
			k = nr > (__u64)(end - p) ? (__u64)(end - p) + 1 : nr * k;
		}
		k += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		     !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
		if (k > (__u64)(end - p))
			return -1;
		p += k;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (p >= end || *p >= (__u64)(end - p))
			return -1;
		p += 1 + *p;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (p >= end)
			return -1;
		memcpy(&raw, p, 4);
		/* u32 size, then size bytes, the two ending on a u64 boundary */
		if ((4 + (__u64)raw) % 8 || (4 + (__u64)raw) / 8 > (__u64)(end - p))
			return -1;
		p += (4 + raw) / 8;
	}
	if (!(st & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (p >= end)
		return -1;
	nr = *p++;
	if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		p++;
	if (p > end || nr > (__u64)(end - p) / 3)
		return -1;
	return nr;
}

int main(int argc, char **argv)
{
	const struct perf_event_header *h, *in;
	unsigned long long records = 0, samples = 0, branches = 0;
	struct perf_unzip *unzip = NULL;
	char tmp[PATH_MAX] = "";
	const char *path;
	struct perf_reader *r;
	long n = 0;
	int ret, fd;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-count FILE\n");
		return 2;
	}
	path = argv[1];
	if (perf_pipe__is_pipe_file(path)) {
		snprintf(tmp, sizeof(tmp), "%s/perf-count.XXXXXX", getenv("TMPDIR") ?: "/tmp");
		fd = mkstemp(tmp);
		if (fd >= 0)
			close(fd);
		fd = fd < 0 ? -1 : open(path, O_RDONLY);
		if (fd < 0 || perf_pipe__to_file(fd, path, tmp)) {
			unlink(tmp);
			return 1;
		}
		close(fd);
		path = tmp;
	}
	ret = perf_reader__open(path, &r);
	if (tmp[0])
		unlink(tmp);
	if (ret)
		return 1;
	while ((ret = perf_reader__next(r, &in)) > 0) {
		records++;
		if (in->type == PERF_RECORD_COMPRESSED || in->type == PERF_RECORD_COMPRESSED2) {
			if ((!unzip && perf_unzip__new(&unzip)) || perf_unzip__feed(unzip, in)) {
				ret = -EBADMSG;
				break;
			}
			while ((ret = perf_unzip__next(unzip, &h)) > 0) {
				records++;
				if (h->type != PERF_RECORD_SAMPLE)
					continue;
				samples++;
				n = sample_branches(r, h);
				if (n < 0)
					break;
				branches += n;
			}
			if (ret < 0 || n < 0) {
				ret = -EBADMSG;
				break;
			}
			continue;
		}
		if (in->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		n = sample_branches(r, in);
		if (n < 0) {
			fprintf(stderr, "%s: sample at %#llx does not fit its attribute's layout\n",
				argv[1], (unsigned long long)perf_reader__offset(r));
			ret = -EINVAL;
			break;
		}
		branches += n;
	}
	if (!ret && unzip && perf_unzip__pending(unzip))
		ret = -EBADMSG;
	if (ret == -EBADMSG)
		fprintf(stderr, "%s: compressed records at %#llx do not decompress into records\n",
			argv[1], (unsigned long long)perf_reader__offset(r));
	perf_reader__close(r);
	perf_unzip__free(unzip);
	if (ret)
		return 1;
	printf("records %llu samples %llu branches %llu\n", records, samples, branches);
	return 0;
}
