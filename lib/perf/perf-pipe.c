// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Pipe-mode perf.data to a file and back (API in perf-pipe.h).
 *
 * Pipe to file: the HEADER_ATTR records become the attribute section, HEADER_FEATURE and
 * HEADER_TRACING_DATA the feature table, the HEADER_BUILD_ID records the BUILD_ID feature
 * (a file's build-id section is the same records back to back); every other record is data,
 * in its order. A HEADER_FEATURE without payload is the end-of-features marker perf writes.
 *
 * File to pipe: the same in reverse. Features without payload (BRANCH_STACK) have no pipe
 * form: perf synthesizes none of them in pipe mode either; nor have those of 64 KiB or more
 * (BPF_BTF, BPF_PROG_INFO of a busy machine), left out with a note.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/print.h"
#include "util/out-file.h"
#include "perf/perf-data.h"
#include "perf/perf-data-reader.h"
#include "perf/perf-data-writer.h"
#include "perf/perf-pipe.h"

#define REC_MAX		65536
#define OUT_BUF_SIZE	(1 << 20)

struct pipe_header {
	char magic[8];
	__u64 size;
};

bool perf_pipe__is_pipe_file(const char *path)
{
	struct pipe_header h;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, &h, sizeof(h));
	close(fd);
	return n == sizeof(h) && !memcmp(h.magic, PERF_FILE_MAGIC, 8) &&
	       h.size == PERF_PIPE_HEADER_SIZE;
}

/* 1 with len bytes read, 0 at a clean end of the stream (eof_ok only), or a negative errno */
static int read_exact(int fd, void *buf, size_t len, bool eof_ok)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return eof_ok && !done ? 0 : -EIO;
		done += n;
	}
	return 1;
}

/* A file-mode perf.data on the stream: copied as it is. */
static int copy_file(int fd, const struct pipe_header *h, const char *name, const char *path)
{
	struct out_file out = OUT_FILE_INIT;
	int err;

	err = out_file__open(&out, path) ?: write_all(out.fd, h, sizeof(*h)) ?:
	      copy_all(fd, out.fd) ?: out_file__commit(&out);
	if (err)
		pr_warn("%s: cannot copy the perf.data read: %s\n", name, strerror(-err));
	out_file__abort(&out);
	return err;
}

struct pipe_in {
	int fd;
	const char *name;
	const char *path;
	__u64 off;			/* stream offset of the record being read */
	struct perf_file_attr *attrs;
	size_t nr_attrs;
	size_t attr_bytes;
	struct perf_writer *w;		/* created at the first record after the attributes */
	char *build_ids;
	size_t build_ids_len;
};

static int bad(struct pipe_in *p, const char *why)
{
	pr_warn("%s: pipe-mode perf.data: %s at offset %#llx\n", p->name, why,
		(unsigned long long)p->off);
	return -EINVAL;
}

static int add_attr(struct pipe_in *p, const struct perf_event_header *h)
{
	const struct perf_event_attr *a = (const void *)(h + 1);
	size_t size, body = h->size - sizeof(*h);
	struct perf_file_attr *n, *fa;

	if (p->w)
		return bad(p, "an event attribute after the data began");
	if (body < PERF_ATTR_SIZE_VER0)
		return bad(p, "a short attribute record");
	size = a->size ? a->size : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PERF_ATTR_MAX_BYTES || size > body ||
	    (body - size) % 8)
		return bad(p, "a bad attribute size");
	n = realloc(p->attrs, (p->nr_attrs + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->attrs = n;
	fa = &n[p->nr_attrs];
	memset(fa, 0, sizeof(*fa));
	memcpy(fa->attr_raw, a, size);
	fa->nr_ids = (body - size) / 8;
	fa->ids = malloc(fa->nr_ids ? fa->nr_ids * 8 : 8);
	if (!fa->ids)
		return -ENOMEM;
	memcpy(fa->ids, (const char *)a + size, fa->nr_ids * 8);
	p->nr_attrs++;
	if (size > p->attr_bytes)
		p->attr_bytes = size;
	return 0;
}

static int start_file(struct pipe_in *p)
{
	size_t i;
	int err;

	if (!p->nr_attrs) {
		pr_warn("%s: pipe-mode perf.data without event attributes\n", p->name);
		return -EINVAL;
	}
	err = perf_writer__create(p->path, p->attr_bytes, &p->w);
	for (i = 0; !err && i < p->nr_attrs; i++)
		err = perf_writer__add_file_attr(p->w, &p->attrs[i]);
	return err;
}

/* Tracing data read at a time: memory grows with the bytes the stream holds, not its claim */
#define TRACING_DATA_STEP	(1U << 20)

/*
 * HEADER_TRACING_DATA: {header, u32 size, u32 pad}, then size bytes after the record. A
 * damaged size (up to 4 GiB) must not be allocated before the stream shows it has them.
 */
static int tracing_data(struct pipe_in *p, const struct perf_event_header *h)
{
	size_t size, got, step, cap = 0;
	char *d = NULL, *n;
	__u32 claimed;
	int err = 1;

	if (h->size < sizeof(*h) + 8)
		return bad(p, "a short tracing data record");
	memcpy(&claimed, h + 1, sizeof(claimed));
	size = claimed;
	for (got = 0; err == 1 && got < size; got += step) {
		step = size - got < TRACING_DATA_STEP ? size - got : TRACING_DATA_STEP;
		if (got + step > cap) {
			cap = 2 * cap > got + step ? 2 * cap : got + step;
			n = realloc(d, cap);
			if (!n) {
				free(d);
				return -ENOMEM;
			}
			d = n;
		}
		err = read_exact(p->fd, d + got, step, false);
	}
	if (err == 1)
		err = perf_writer__feature(p->w, PERF_FEAT_TRACING_DATA, d, size);
	else
		err = bad(p, "truncated tracing data");
	free(d);
	return err;
}

static int build_id(struct pipe_in *p, const struct perf_event_header *h)
{
	char *n = realloc(p->build_ids, p->build_ids_len + h->size);

	if (!n)
		return -ENOMEM;
	p->build_ids = n;
	memcpy(n + p->build_ids_len, h, h->size);
	/* the file's section has the records with their header type unset */
	((struct perf_event_header *)(n + p->build_ids_len))->type = 0;
	p->build_ids_len += h->size;
	return 0;
}

static int feature(struct pipe_in *p, const struct perf_event_header *h)
{
	__u64 bit;

	if (h->size < sizeof(*h) + 8)
		return bad(p, "a short feature record");
	memcpy(&bit, h + 1, sizeof(bit));
	if (h->size == sizeof(*h) + 8)
		return 0;	/* the end-of-features marker */
	if (bit >= PERF_FEAT_BITS)
		return bad(p, "a feature number out of range");
	return perf_writer__feature(p->w, bit, (const char *)(h + 1) + 8,
				    h->size - sizeof(*h) - 8);
}

static int one_record(struct pipe_in *p, const struct perf_event_header *h)
{
	int err;

	if (h->type == PERF_RECORD_HEADER_ATTR)
		return add_attr(p, h);
	if (!p->w) {
		err = start_file(p);
		if (err)
			return err;
	}
	switch (h->type) {
	case PERF_RECORD_HEADER_EVENT_TYPE:
		return 0;	/* obsolete: perf reads the names from elsewhere */
	case PERF_RECORD_HEADER_TRACING_DATA:
		return tracing_data(p, h);
	case PERF_RECORD_HEADER_BUILD_ID:
		return build_id(p, h);
	case PERF_RECORD_HEADER_FEATURE:
		return feature(p, h);
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE:
		pr_warn("%s: AUX area data cannot be merged\n", p->name);
		return -ENOTSUP;
	default:
		return perf_writer__write(p->w, h);
	}
}

int perf_pipe__to_file(int fd, const char *name, const char *path)
{
	struct pipe_in p = { .fd = fd, .name = name, .path = path };
	struct perf_event_header *h;
	struct pipe_header ph;
	char *buf;
	size_t i;
	int ret;

	ret = read_exact(fd, &ph, sizeof(ph), false);
	if (ret != 1 || memcmp(ph.magic, PERF_FILE_MAGIC, 8) ||
	    (ph.size != PERF_PIPE_HEADER_SIZE && ph.size != PERF_FILE_HEADER_SIZE)) {
		pr_warn("%s: not a perf.data stream (PERFILE2 header)\n", name);
		return -EINVAL;
	}
	if (ph.size == PERF_FILE_HEADER_SIZE)
		return copy_file(fd, &ph, name, path);
	buf = malloc(REC_MAX);
	if (!buf)
		return -ENOMEM;
	h = (void *)buf;
	p.off = sizeof(ph);
	for (;;) {
		ret = read_exact(fd, h, sizeof(*h), true);
		if (ret == -EIO)
			ret = bad(&p, "a truncated record");
		if (ret <= 0)
			break;
		if (h->size < sizeof(*h)) {
			ret = bad(&p, "a record shorter than its header");
			break;
		}
		ret = read_exact(fd, h + 1, h->size - sizeof(*h), false);
		if (ret != 1) {
			ret = bad(&p, "a truncated record");
			break;
		}
		ret = one_record(&p, h);
		if (ret)
			break;
		p.off += h->size;
	}
	if (ret < 0 && ret != -EINVAL && ret != -ENOTSUP && ret != -EIO)
		pr_warn("%s: cannot read the pipe-mode perf.data: %s\n", name,
			strerror(-ret));
	if (!ret && !p.w)
		ret = start_file(&p);
	if (!ret && p.build_ids_len)
		ret = perf_writer__feature(p.w, PERF_FEAT_BUILD_ID, p.build_ids, p.build_ids_len);
	if (!ret) {
		ret = perf_writer__close(p.w);
		p.w = NULL;
	}
	perf_writer__abort(p.w);
	for (i = 0; i < p.nr_attrs; i++)
		free(p.attrs[i].ids);
	free(p.attrs);
	free(p.build_ids);
	free(buf);
	return ret;
}

struct pipe_out {
	int fd;
	char *buf;
	size_t len;
	int err;
};

static void out_put(struct pipe_out *o, const void *d, size_t len)
{
	if (o->err)
		return;
	if (o->len + len > OUT_BUF_SIZE) {
		o->err = write_all(o->fd, o->buf, o->len);
		o->len = 0;
	}
	if (len > OUT_BUF_SIZE) {
		if (!o->err)
			o->err = write_all(o->fd, d, len);
		return;
	}
	memcpy(o->buf + o->len, d, len);
	o->len += len;
}

static void out_header(struct pipe_out *o, __u32 type, size_t size)
{
	struct perf_event_header h = { .type = type, .size = size };

	out_put(o, &h, sizeof(h));
}

static int put_attrs(struct perf_reader *r, struct pipe_out *o, const char *name)
{
	size_t bytes = perf_reader__attr_bytes(r), i, size;

	for (i = 0; i < perf_reader__nr_attrs(r); i++) {
		struct perf_file_attr fa = *perf_reader__attr(r, i);

		size = sizeof(struct perf_event_header) + bytes + fa.nr_ids * 8;
		if (size >= REC_MAX) {
			pr_warn("%s: event %zu has too many ids (%zu) for a pipe-mode "
				"record\n", name, i, fa.nr_ids);
			return -E2BIG;
		}
		fa.attr.size = bytes;
		out_header(o, PERF_RECORD_HEADER_ATTR, size);
		out_put(o, fa.attr_raw, bytes);
		out_put(o, fa.ids, fa.nr_ids * 8);
	}
	return 0;
}

static int put_feature(struct pipe_out *o, int bit, const char *d, size_t len,
		       const char *name)
{
	static const char zero[8];
	const struct perf_event_header *h;
	__u64 id = bit;
	__u32 tsize[2] = { (len + 7) / 8 * 8, 0 };
	size_t off, size;

	switch (bit) {
	case PERF_FEAT_TRACING_DATA:
		out_header(o, PERF_RECORD_HEADER_TRACING_DATA, sizeof(*h) + sizeof(tsize));
		out_put(o, tsize, sizeof(tsize));
		out_put(o, d, len);
		out_put(o, zero, tsize[0] - len);
		return 0;
	case PERF_FEAT_BUILD_ID:
		for (off = 0; off + sizeof(*h) <= len; off += h->size) {
			h = (const void *)(d + off);
			if (h->size < sizeof(*h) || h->size > len - off)
				break;
			out_header(o, PERF_RECORD_HEADER_BUILD_ID, h->size);
			out_put(o, h + 1, h->size - sizeof(*h));
		}
		return 0;
	}
	if (!len)
		return 0;
	size = (sizeof(*h) + sizeof(id) + len + 7) / 8 * 8;
	if (size >= REC_MAX) {
		/* perf 6.1 writes such a record with its size cut to 16 bits: a broken stream */
		pr_info("%s: note: header feature %d (%zu bytes) does not fit a pipe-mode "
			"record and is left out\n", name, bit, len);
		return 0;
	}
	out_header(o, PERF_RECORD_HEADER_FEATURE, size);
	out_put(o, &id, sizeof(id));
	out_put(o, d, len);
	out_put(o, zero, size - sizeof(*h) - sizeof(id) - len);
	return 0;
}

/*
 * perf names the events of a pipe from PERF_RECORD_EVENT_UPDATE records, not from the
 * EVENT_DESC feature: one name record per described event, after its first id.
 */
static void put_names(struct pipe_out *o, const char *d, size_t len)
{
	static const char zero[8];
	__u32 nr, attr_size, nr_ids, slen;
	__u64 u[2] = { PERF_EVENT_UPDATE_NAME };
	size_t off = 8, size, n;

	if (len < 8)
		return;
	memcpy(&nr, d, 4);
	memcpy(&attr_size, d + 4, 4);
	for (; nr; nr--) {
		if (len - off < (size_t)attr_size + 8)
			return;
		off += attr_size;
		memcpy(&nr_ids, d + off, 4);
		memcpy(&slen, d + off + 4, 4);
		off += 8;
		if (slen > len - off || (__u64)nr_ids * 8 > len - off - slen)
			return;
		n = strnlen(d + off, slen);
		size = (sizeof(struct perf_event_header) + sizeof(u) + n + 1 + 7) / 8 * 8;
		if (nr_ids && size < REC_MAX) {
			memcpy(&u[1], d + off + slen, 8);
			out_header(o, PERF_RECORD_EVENT_UPDATE, size);
			out_put(o, u, sizeof(u));
			out_put(o, d + off, n);
			out_put(o, zero, size - sizeof(struct perf_event_header) - sizeof(u) - n);
		}
		off += slen + (size_t)nr_ids * 8;
	}
}

int perf_pipe__from_file(const char *path, int fd, const char *name)
{
	struct pipe_header ph = { .magic = PERF_FILE_MAGIC, .size = PERF_PIPE_HEADER_SIZE };
	struct pipe_out o = { .fd = fd };
	const struct perf_event_header *h;
	struct perf_reader *r;
	size_t len;
	void *d;
	int bit, ret;

	ret = perf_reader__open(path, &r);
	if (ret)
		return ret;
	o.buf = malloc(OUT_BUF_SIZE);
	if (!o.buf) {
		ret = -ENOMEM;
		goto cleanup;
	}
	out_put(&o, &ph, sizeof(ph));
	ret = put_attrs(r, &o, name);
	for (bit = 0; !ret && bit < PERF_FEAT_BITS; bit++) {
		if (!perf_feat__test(perf_reader__header(r)->features, bit))
			continue;
		ret = perf_reader__feature(r, bit, &d, &len);
		if (ret)
			break;
		ret = put_feature(&o, bit, d, len, name);
		if (bit == PERF_FEAT_EVENT_DESC)
			put_names(&o, d, len);
		free(d);
	}
	if (!ret) {
		while (!o.err && (ret = perf_reader__next(r, &h)) > 0)
			out_put(&o, h, h->size);
		if (ret > 0)
			ret = 0;
	}
	if (!ret && !o.err && o.len)
		o.err = write_all(fd, o.buf, o.len);
	if (!ret && o.err) {
		ret = o.err;
		pr_warn("%s: cannot write: %s\n", name, strerror(-ret));
	}
cleanup:
	free(o.buf);
	perf_reader__close(r);
	return ret;
}
