// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf.data writer. Layout as perf record writes it: header, id arrays, attribute entries,
 * data records, feature table and payloads. The attributes are laid out when the first
 * record arrives, records go through a write buffer, and close() writes the features right
 * after the data (perf finds the table at data.offset + data.size), then the header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/print.h"
#include "perf/perf-data.h"
#include "util/out-file.h"
#include "util/write-thread.h"
#include "perf/perf-data-writer.h"

#define WRITE_BUF_SIZE	(1 << 20)

struct feat_payload {
	void *data;
	size_t len;
};

struct perf_writer {
	struct out_file out;
	size_t attr_bytes;
	struct perf_file_attr *attrs;
	size_t nr_attrs;
	bool data_started;
	bool failed;		/* a write failed: said once, as "PATH: cannot write: why" */
	__u64 data_off;
	__u64 data_size;
	char *buf;
	size_t buf_len;
	struct write_thread *wt;	/* writes the data section's buffers; NULL: written here */
	struct perf_file_header hdr;
	struct feat_payload feats[PERF_FEAT_BITS];
};

int perf_writer__create(const char *path, size_t attr_bytes, struct perf_writer **out)
{
	struct perf_writer *w;
	int err;

	if (attr_bytes < PERF_ATTR_SIZE_VER0 || attr_bytes > PERF_ATTR_MAX_BYTES)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->out = (struct out_file)OUT_FILE_INIT;
	w->attr_bytes = attr_bytes;
	w->buf = malloc(WRITE_BUF_SIZE);
	if (!w->buf) {
		err = -ENOMEM;
		goto cleanup;
	}
	err = out_file__open(&w->out, path);
	if (err) {
		pr_warn("%s: cannot write: %s\n", path, strerror(-err));
		goto cleanup;
	}
	*out = w;
	return 0;
cleanup:
	perf_writer__abort(w);
	return err;
}

/* attr_raw[0..len) with newer fields than struct perf_event_attr, the rest zero */
static int add_attr(struct perf_writer *w, const void *raw, size_t len, const __u64 *ids,
		    size_t nr_ids)
{
	struct perf_file_attr *arr, *a;

	if (w->data_started)
		return -EBUSY;
	arr = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	w->attrs = arr;
	a = &arr[w->nr_attrs];
	memset(a->attr_raw, 0, sizeof(a->attr_raw));
	memcpy(a->attr_raw, raw, len < sizeof(a->attr_raw) ? len : sizeof(a->attr_raw));
	a->nr_ids = nr_ids;
	a->ids = malloc(nr_ids ? nr_ids * 8 : 8);
	if (!a->ids)
		return -ENOMEM;
	memcpy(a->ids, ids, nr_ids * 8);
	w->nr_attrs++;
	return 0;
}

int perf_writer__add_attr(struct perf_writer *w, const struct perf_event_attr *attr,
			  const __u64 *ids, size_t nr_ids)
{
	return add_attr(w, attr, sizeof(*attr), ids, nr_ids);
}

int perf_writer__add_file_attr(struct perf_writer *w, const struct perf_file_attr *fa)
{
	return add_attr(w, fa->attr_raw, sizeof(fa->attr_raw), fa->ids, fa->nr_ids);
}

/* Header placeholder, id arrays, then the attribute entries; data follows. */
static int write_attrs(struct perf_writer *w)
{
	size_t entry = w->attr_bytes + sizeof(struct perf_file_section), i;
	__u64 off = PERF_FILE_HEADER_SIZE;
	struct perf_file_section *ids;
	char *raw;
	int err;

	ids = calloc(w->nr_attrs ? w->nr_attrs : 1, sizeof(*ids));
	raw = calloc(1, entry > PERF_FILE_HEADER_SIZE ? entry : PERF_FILE_HEADER_SIZE);
	if (!ids || !raw) {
		err = -ENOMEM;
		goto cleanup;
	}
	/* a zero header until close(): an interrupted file is never taken for a valid one */
	err = write_all(w->out.fd, raw, PERF_FILE_HEADER_SIZE);
	for (i = 0; !err && i < w->nr_attrs; i++) {
		ids[i].offset = off;
		ids[i].size = w->attrs[i].nr_ids * 8;
		off += ids[i].size;
		err = write_all(w->out.fd, w->attrs[i].ids, ids[i].size);
	}
	w->hdr.attrs.offset = off;
	w->hdr.attrs.size = w->nr_attrs * entry;
	for (i = 0; !err && i < w->nr_attrs; i++) {
		struct perf_file_attr *a = &w->attrs[i];

		a->attr.size = w->attr_bytes;
		memcpy(raw, a->attr_raw, w->attr_bytes);
		memcpy(raw + w->attr_bytes, &ids[i], sizeof(ids[i]));
		err = write_all(w->out.fd, raw, entry);
	}
	w->data_off = w->hdr.attrs.offset + w->hdr.attrs.size;
	w->data_started = true;
cleanup:
	free(ids);
	free(raw);
	return err;
}

static int flush_buf(struct perf_writer *w)
{
	int err;

	if (w->wt) {
		err = write_thread__hand_over(w->wt, (void **)&w->buf, w->buf_len);
	} else {
		err = write_all(w->out.fd, w->buf, w->buf_len);
		out_file__write_behind(&w->out);
	}
	w->buf_len = 0;
	return err;
}

/* An error of the output file itself (full disk, I/O), named once. */
static int write_failed(struct perf_writer *w, int err)
{
	if (!w->failed)
		pr_warn("%s: cannot write: %s\n", w->out.path, strerror(-err));
	w->failed = true;
	return err;
}

int perf_writer__write(struct perf_writer *w, const void *rec)
{
	const struct perf_event_header *h = rec;
	int err;

	if (h->size < sizeof(*h))
		return -EINVAL;
	if (!w->data_started) {
		err = write_attrs(w);
		if (err)
			return write_failed(w, err);
		/* the records are many: a thread writes them where it can start, else this one */
		write_thread__start(&w->out, WRITE_BUF_SIZE, &w->wt);
	}
	if (w->buf_len + h->size > WRITE_BUF_SIZE) {
		err = flush_buf(w);
		if (err)
			return write_failed(w, err);
	}
	memcpy(w->buf + w->buf_len, rec, h->size);
	w->buf_len += h->size;
	w->data_size += h->size;
	return 0;
}

int perf_writer__feature(struct perf_writer *w, int bit, const void *data, size_t len)
{
	struct feat_payload *f;
	void *copy;

	if (bit < 0 || bit >= PERF_FEAT_BITS)
		return -EINVAL;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	if (len)		/* an empty feature may come with no data at all */
		memcpy(copy, data, len);
	f = &w->feats[bit];
	free(f->data);
	f->data = copy;
	f->len = len;
	perf_feat__set(w->hdr.features, bit);
	return 0;
}

static int write_features(struct perf_writer *w)
{
	struct perf_file_section table[PERF_FEAT_BITS];
	__u64 off;
	int i, n = 0, err;

	for (i = 0; i < PERF_FEAT_BITS; i++)
		n += perf_feat__test(w->hdr.features, i);
	off = w->data_off + w->data_size + n * sizeof(table[0]);
	n = 0;
	for (i = 0; i < PERF_FEAT_BITS; i++) {
		if (!perf_feat__test(w->hdr.features, i))
			continue;
		table[n].offset = off;
		table[n].size = w->feats[i].len;
		off += w->feats[i].len;
		n++;
	}
	err = write_all(w->out.fd, table, n * sizeof(table[0]));
	for (i = 0; !err && i < PERF_FEAT_BITS; i++) {
		if (perf_feat__test(w->hdr.features, i))
			err = write_all(w->out.fd, w->feats[i].data, w->feats[i].len);
	}
	return err;
}

int perf_writer__close(struct perf_writer *w)
{
	int err = 0;

	if (!w->data_started)
		err = write_attrs(w);
	if (!err)
		err = flush_buf(w);
	/* the data section whole before the features after it and the header before it */
	err = write_thread__stop(w->wt) ?: err;
	w->wt = NULL;
	if (!err)
		err = write_features(w);
	if (!err) {
		memcpy(w->hdr.magic, PERF_FILE_MAGIC, 8);
		w->hdr.size = PERF_FILE_HEADER_SIZE;
		w->hdr.attr_size = w->attr_bytes + sizeof(struct perf_file_section);
		w->hdr.data.offset = w->data_off;
		w->hdr.data.size = w->data_size;
		if (lseek(w->out.fd, 0, SEEK_SET))
			err = -errno;
		else
			err = write_all(w->out.fd, &w->hdr, sizeof(w->hdr));
	}
	if (!err)
		err = out_file__commit(&w->out);
	if (err)
		write_failed(w, err);
	perf_writer__abort(w);
	return err;
}

void perf_writer__abort(struct perf_writer *w)
{
	size_t i;

	if (!w)
		return;
	write_thread__stop(w->wt);
	out_file__abort(&w->out);
	for (i = 0; i < w->nr_attrs; i++)
		free(w->attrs[i].ids);
	for (i = 0; i < PERF_FEAT_BITS; i++)
		free(w->feats[i].data);
	free(w->attrs);
	free(w->buf);
	free(w);
}
