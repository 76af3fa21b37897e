// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Streaming perf.data reader: header, attributes with their ids, feature payloads on demand,
 * and data records through a bounded window of the file (a record is at most 64 KiB,
 * header.size being a u16), so a multi-GB file is never held in memory. The window is
 * mapped (the records are read in place, not copied out first); where mapping fails, the
 * records are read into a buffer.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "util/print.h"
#include "perf/perf-data.h"
#include "perf/perf-data-reader.h"
#include "perf/perf-unzip.h"

#define READ_BUF_SIZE	(256 << 10)
/* A mapped window: the records starting in its first MAP_STEP bytes lie whole inside it */
#define MAP_STEP	(4U << 20)
#define MAP_LEN		(MAP_STEP + (64U << 10))

struct perf_reader {
	int fd;
	char *path;
	__u64 file_size;
	struct perf_file_header hdr;
	size_t attr_bytes;
	struct perf_file_attr *attrs;
	size_t nr_attrs;
	/* record stream */
	char *buf;
	size_t buf_len;		/* valid bytes in buf */
	size_t buf_pos;		/* next record in buf */
	__u64 buf_off;		/* file offset of buf[0] */
	__u64 rec_off;		/* file offset of the record returned last */
	/* the mapped window, when no_map is not set */
	bool no_map;
	void *map;
	__u64 map_off;		/* file offset of map[0] */
	size_t map_len;
	__u64 next_off;		/* file offset of the next record */
};

/* Whether [off, off + size) lies inside the file: checked before anything is sized from it. */
static bool in_file(const struct perf_reader *r, __u64 off, __u64 size)
{
	return off <= r->file_size && size <= r->file_size - off;
}

static int read_full(int fd, void *buf, size_t len, __u64 off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, (char *)buf + done, len - done, off + done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += n;
	}
	return 0;
}

static int read_attrs(struct perf_reader *r)
{
	const struct perf_file_header *h = &r->hdr;
	struct perf_file_section ids;
	size_t i, entry = h->attr_size;
	char *raw = NULL;
	int err;

	if (h->attr_size < 16 + PERF_ATTR_SIZE_VER0 || h->attr_size > 16 + PERF_ATTR_MAX_BYTES ||
	    h->attrs.size % h->attr_size || !in_file(r, h->attrs.offset, h->attrs.size)) {
		pr_warn("%s: bad attribute size %llu in the header\n", r->path,
			(unsigned long long)h->attr_size);
		return -EINVAL;
	}
	r->attr_bytes = entry - 16;
	r->nr_attrs = h->attrs.size / entry;
	if (!r->nr_attrs) {
		pr_warn("%s: no event attributes\n", r->path);
		return -EINVAL;
	}
	r->attrs = calloc(r->nr_attrs, sizeof(*r->attrs));
	raw = malloc(entry);
	if (!r->attrs || !raw) {
		err = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < r->nr_attrs; i++) {
		struct perf_file_attr *a = &r->attrs[i];

		err = read_full(r->fd, raw, entry, h->attrs.offset + i * entry);
		if (err)
			goto cleanup;
		memcpy(a->attr_raw, raw, r->attr_bytes);
		memcpy(&ids, raw + r->attr_bytes, sizeof(ids));
		if (ids.size % 8 || ids.size > (1 << 24) || !in_file(r, ids.offset, ids.size)) {
			err = -EINVAL;
			goto cleanup;
		}
		a->nr_ids = ids.size / 8;
		a->ids = malloc(ids.size ? ids.size : 8);
		if (!a->ids) {
			err = -ENOMEM;
			goto cleanup;
		}
		err = read_full(r->fd, a->ids, ids.size, ids.offset);
		if (err)
			goto cleanup;
	}
	err = 0;
cleanup:
	free(raw);
	if (err == -EINVAL || err == -EIO)
		pr_warn("%s: broken attribute section\n", r->path);
	return err;
}

int perf_reader__open(const char *path, struct perf_reader **out)
{
	struct perf_reader *r;
	struct stat st;
	int err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->fd = -1;
	r->path = strdup(path);
	r->buf = malloc(READ_BUF_SIZE);
	if (!r->path || !r->buf) {
		err = -ENOMEM;
		goto cleanup;
	}
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		err = -errno;
		pr_warn("%s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	err = read_full(r->fd, &r->hdr, sizeof(r->hdr), 0);
	if (err || memcmp(r->hdr.magic, PERF_FILE_MAGIC, 8) ||
	    r->hdr.size != PERF_FILE_HEADER_SIZE) {
		pr_warn("%s: not a perf.data file (PERFILE2 header)\n", path);
		err = -EINVAL;
		goto cleanup;
	}
	if (!r->hdr.data.size) {
		pr_warn("%s: data size is 0: was 'perf record' properly terminated?\n",
			path);
		err = -EINVAL;
		goto cleanup;
	}
	if (fstat(r->fd, &st)) {
		err = -errno;
		pr_warn("%s: %s\n", path, strerror(errno));
		goto cleanup;
	}
	r->file_size = st.st_size;
	/*
	 * A file with holes is read, not mapped: a read fault in a hole of a tmpfs file
	 * allocates the page (read() gives zeros without), so a sparse file would fill its
	 * file system as it is merged
	 */
	r->no_map = (__u64)st.st_blocks * 512 < (__u64)st.st_size;
	if (!in_file(r, r->hdr.data.offset, r->hdr.data.size)) {
		pr_warn("%s: truncated: the data section ends after the end of the file\n",
			path);
		err = -EINVAL;
		goto cleanup;
	}
	err = read_attrs(r);
	if (err)
		goto cleanup;
	perf_reader__rewind(r);
	*out = r;
	return 0;
cleanup:
	perf_reader__close(r);
	return err;
}

void perf_reader__close(struct perf_reader *r)
{
	size_t i;

	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
	for (i = 0; r->attrs && i < r->nr_attrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	free(r->buf);
	free(r->path);
	free(r);
}

const struct perf_file_header *perf_reader__header(const struct perf_reader *r)
{
	return &r->hdr;
}

size_t perf_reader__nr_attrs(const struct perf_reader *r)
{
	return r->nr_attrs;
}

const struct perf_file_attr *perf_reader__attr(const struct perf_reader *r, size_t i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

size_t perf_reader__attr_bytes(const struct perf_reader *r)
{
	return r->attr_bytes;
}

int perf_reader__feature(struct perf_reader *r, int bit, void **data, size_t *len)
{
	struct perf_file_section sec;
	__u64 table = r->hdr.data.offset + r->hdr.data.size;
	int i, idx = 0, err;
	void *p;

	if (bit < 0 || bit >= PERF_FEAT_BITS || !perf_feat__test(r->hdr.features, bit))
		return -ENOENT;
	for (i = 0; i < bit; i++)
		idx += perf_feat__test(r->hdr.features, i);
	err = read_full(r->fd, &sec, sizeof(sec), table + idx * sizeof(sec));
	/* a cut file: say so, rather than strerror(EFBIG)'s "File too large" */
	if (!err && (sec.size > (1ULL << 31) || !in_file(r, sec.offset, sec.size))) {
		pr_warn("%s: truncated or damaged: header feature %d (%llu bytes at offset "
			"%llu) is not inside the file\n", r->path, bit,
			(unsigned long long)sec.size, (unsigned long long)sec.offset);
		return -EFBIG;
	}
	if (err) {
		pr_warn("%s: cannot read header feature %d: %s\n", r->path, bit,
			err == -EIO ? "truncated (the file ends in its table)" : strerror(-err));
		return err;
	}
	p = malloc(sec.size ? sec.size : 1);
	if (!p)
		return -ENOMEM;
	err = read_full(r->fd, p, sec.size, sec.offset);
	if (err) {
		pr_warn("%s: cannot read header feature %d: %s\n", r->path, bit,
			strerror(-err));
		free(p);
		return err;
	}
	*data = p;
	*len = sec.size;
	return 0;
}

void perf_reader__rewind(struct perf_reader *r)
{
	r->buf_len = 0;
	r->buf_pos = 0;
	r->buf_off = r->hdr.data.offset;
	r->rec_off = r->hdr.data.offset;
	r->next_off = r->hdr.data.offset;
}

__u64 perf_reader__offset(const struct perf_reader *r)
{
	return r->rec_off;
}

/* Moves the unread tail to the front and fills the buffer from the file. */
static int refill(struct perf_reader *r)
{
	__u64 end = r->hdr.data.offset + r->hdr.data.size;
	__u64 next = r->buf_off + r->buf_len;
	size_t keep = r->buf_len - r->buf_pos, want;
	int err;

	memmove(r->buf, r->buf + r->buf_pos, keep);
	r->buf_off += r->buf_pos;
	r->buf_pos = 0;
	r->buf_len = keep;
	want = READ_BUF_SIZE - keep;
	if (want > end - next)
		want = end - next;
	if (!want)
		return 0;
	err = read_full(r->fd, r->buf + keep, want, next);
	if (err)
		return err;
	r->buf_len += want;
	return 0;
}

/* The window mapped at the page of off; false when the file cannot be mapped */
static bool map_at(struct perf_reader *r, __u64 off)
{
	__u64 end = r->hdr.data.offset + r->hdr.data.size;
	size_t ps = sysconf(_SC_PAGESIZE);

	if (r->map)
		munmap(r->map, r->map_len);
	r->map_off = off / ps * ps;
	r->map_len = end - r->map_off < MAP_LEN ? end - r->map_off : MAP_LEN;
	r->map = mmap(NULL, r->map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, r->fd, r->map_off);
	if (r->map != MAP_FAILED)
		return true;
	r->map = NULL;
	return false;
}

/*
 * Whether a header says a record that fits the avail bytes left: records are u64-aligned (the
 * kernel pads them), but for perf's compressed ones
 */
static bool record_ok(const struct perf_event_header *h, __u64 avail)
{
	return avail >= sizeof(*h) && h->size >= sizeof(*h) && h->size <= avail &&
	       (!(h->size % 8) || h->type == PERF_RECORD_COMPRESSED);
}

static int broken(struct perf_reader *r)
{
	pr_warn("%s: broken record at offset %#llx\n", r->path, (unsigned long long)r->rec_off);
	return -EINVAL;
}

/* The next record in place in the mapped window (copied out only when not 8-byte aligned) */
static int next_mapped(struct perf_reader *r, const struct perf_event_header **ev)
{
	__u64 off = r->next_off, end = r->hdr.data.offset + r->hdr.data.size;
	const struct perf_event_header *h;
	struct perf_event_header hh;

	if (off >= end)
		return 0;
	if (!r->map || off < r->map_off || off - r->map_off >= MAP_STEP)
		if (!map_at(r, off))
			return -ENOMEM;
	r->rec_off = off;
	h = (const void *)((const char *)r->map + (off - r->map_off));
	/* the header copied out: it need not be aligned, and is read only if it is whole */
	memset(&hh, 0, sizeof(hh));
	memcpy(&hh, h, end - off < sizeof(hh) ? end - off : sizeof(hh));
	if (!record_ok(&hh, end - off))
		return broken(r);
	/* the window holds every record that starts in its first MAP_STEP bytes whole */
	if (off % 8) {
		memcpy(r->buf, h, hh.size);
		h = (const void *)r->buf;
	}
	r->next_off = off + hh.size;
	*ev = h;
	return 1;
}

int perf_reader__next(struct perf_reader *r, const struct perf_event_header **ev)
{
	const struct perf_event_header *h;
	int err;

	if (!r->no_map) {
		err = next_mapped(r, ev);
		if (err != -ENOMEM)
			return err;
		/* not mappable: read from where the records stopped */
		r->no_map = true;
		r->buf_off = r->next_off;
		r->buf_len = r->buf_pos = 0;
	}

	/*
	 * perf pads records to 8 bytes but not PERF_RECORD_COMPRESSED ones (perf record -z):
	 * refilling moves the rest to the start of the buffer, which aligns the next header.
	 */
	if (r->buf_pos % 8 || r->buf_len - r->buf_pos < sizeof(*h) ||
	    r->buf_len - r->buf_pos < ((struct perf_event_header *)
				       (r->buf + r->buf_pos))->size) {
		err = refill(r);
		if (err) {
			pr_warn("%s: cannot read the data section: %s\n", r->path,
				strerror(-err));
			return err;
		}
	}
	if (r->buf_pos == r->buf_len)
		return 0;
	h = (const struct perf_event_header *)(r->buf + r->buf_pos);
	r->rec_off = r->buf_off + r->buf_pos;
	if (!record_ok(h, r->buf_len - r->buf_pos))
		return broken(r);
	r->buf_pos += h->size;
	*ev = h;
	return 1;
}
