// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat version 6 writer. Offsets that are only known later (CPU tables, BUFFER
 * options) are written as zeros and patched with pwrite() by tracedat_writer__close().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/out-file.h"
#include "tracedat/tracedat-writer.h"

struct cpu_slot {
	__u64 offset;
	__u64 size;
	bool reserved;		/* written by another: tracedat_writer__reserve_cpu() */
};

struct buffer_state {
	bool started;
	off_t table_pos;	/* where the CPU table of this buffer is */
	off_t option_pos;	/* where the offset in its BUFFER option is (instances) */
	off_t section;		/* where its "flyrecord" is */
	struct cpu_slot *cpus;
};

struct tracedat_writer {
	struct out_file out;
	off_t pos;
	const struct tracedat_meta *m;
	int cur_buffer;
	int cur_cpu;
	off_t cpu_start;
	__u64 cpu_before;	/* the CPU's first bytes, someone else's (begin_cpu_after()) */
	struct tracedat_pages *pages;
	struct buffer_state *bufs;
	/* the metadata's many small pieces, written together (pos counts them already) */
	unsigned char *buf;
	size_t buf_len;
};

#define WRITE_BUF	(64U << 10)

/* ---- metadata helpers ---- */

int tracedat_blob__set(struct tracedat_blob *b, const void *data, size_t len)
{
	char *d = malloc(len + 1);

	if (!d)
		return -ENOMEM;
	memcpy(d, data, len);
	d[len] = 0;
	if (!b->borrowed)
		free(b->data);
	b->data = d;
	b->len = len;
	b->borrowed = false;
	return 0;
}

void tracedat_blob__borrow(struct tracedat_blob *b, const void *data, size_t len)
{
	if (!b->borrowed)
		free(b->data);
	b->data = (char *)data;
	b->len = len;
	b->borrowed = true;
}

int tracedat_blob__append(struct tracedat_blob *b, const void *data, size_t len)
{
	char *d;

	if (b->borrowed && tracedat_blob__set(b, b->data, b->len))
		return -ENOMEM;
	d = realloc(b->data, b->len + len + 1);

	if (!d)
		return -ENOMEM;
	memcpy(d + b->len, data, len);
	b->len += len;
	d[b->len] = 0;
	b->data = d;
	return 0;
}

int tracedat_meta__add_option(struct tracedat_meta *m, __u16 id, const void *data, __u32 size)
{
	struct tracedat_option *o;
	void *d = malloc(size ? size : 1);

	if (!d)
		return -ENOMEM;
	o = realloc(m->options, (m->nr_options + 1) * sizeof(*o));
	if (!o) {
		free(d);
		return -ENOMEM;
	}
	memcpy(d, data, size);
	m->options = o;
	o[m->nr_options++] = (struct tracedat_option){ .id = id, .size = size, .data = d };
	return 0;
}

int tracedat_meta__add_str_option(struct tracedat_meta *m, __u16 id, const char *s)
{
	return tracedat_meta__add_option(m, id, s, strlen(s) + 1);
}

int tracedat_meta__add_buffer(struct tracedat_meta *m, const char *name, const char *clock)
{
	struct tracedat_buffer *b = realloc(m->buffers, (m->nr_buffers + 1) * sizeof(*b));

	if (!b)
		return -ENOMEM;
	m->buffers = b;
	b += m->nr_buffers;
	b->name = strdup(name);
	b->clock = strdup(clock ? clock : "");
	if (!b->name || !b->clock) {
		free(b->name);
		free(b->clock);
		return -ENOMEM;
	}
	m->nr_buffers++;
	return 0;
}

struct tracedat_system *tracedat_meta__find_system(struct tracedat_meta *m, const char *name)
{
	int i;

	for (i = 0; i < m->nr_systems; i++) {
		if (!strcmp(m->systems[i].name, name))
			return &m->systems[i];
	}
	return NULL;
}

int tracedat_meta__add_system(struct tracedat_meta *m, const char *name, int nr,
			      const char *const *formats)
{
	struct tracedat_system *s = tracedat_meta__find_system(m, name);
	struct tracedat_blob *f;
	int err;
	int i;

	if (!s) {
		s = realloc(m->systems, (m->nr_systems + 1) * sizeof(*s));
		if (!s)
			return -ENOMEM;
		m->systems = s;
		s += m->nr_systems;
		memset(s, 0, sizeof(*s));
		s->name = strdup(name);
		if (!s->name)
			return -ENOMEM;
		m->nr_systems++;
	}
	f = realloc(s->formats, (s->nr + nr) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	s->formats = f;
	for (i = 0; i < nr; i++) {
		memset(&f[s->nr], 0, sizeof(*f));
		err = tracedat_blob__set(&f[s->nr], formats[i], strlen(formats[i]));
		if (err)
			return err;
		s->nr++;
	}
	return 0;
}

static void blob_free(struct tracedat_blob *b)
{
	if (!b->borrowed)
		free(b->data);
	b->data = NULL;
	b->len = 0;
	b->borrowed = false;
}

void tracedat_meta__free(struct tracedat_meta *m)
{
	int i, j;

	blob_free(&m->header_page);
	blob_free(&m->header_event);
	for (i = 0; i < m->nr_ftrace; i++)
		blob_free(&m->ftrace[i]);
	free(m->ftrace);
	for (i = 0; i < m->nr_systems; i++) {
		for (j = 0; j < m->systems[i].nr; j++)
			blob_free(&m->systems[i].formats[j]);
		free(m->systems[i].formats);
		free(m->systems[i].name);
	}
	free(m->systems);
	blob_free(&m->kallsyms);
	blob_free(&m->printk);
	blob_free(&m->cmdlines);
	for (i = 0; i < m->nr_options; i++)
		free(m->options[i].data);
	free(m->options);
	for (i = 0; i < m->nr_buffers; i++) {
		free(m->buffers[i].name);
		free(m->buffers[i].clock);
	}
	free(m->buffers);
	memset(m, 0, sizeof(*m));
}

/* ---- low-level output ---- */

static int flush_buf(struct tracedat_writer *w)
{
	int err = w->buf_len ? write_all(w->out.fd, w->buf, w->buf_len) : 0;

	w->buf_len = 0;
	out_file__write_behind(&w->out);
	return err;
}

static int out(struct tracedat_writer *w, const void *buf, size_t len)
{
	int err = 0;

	if (w->buf_len + len > WRITE_BUF)
		err = flush_buf(w);
	if (!err && len >= WRITE_BUF) {
		err = write_all(w->out.fd, buf, len);
		out_file__write_behind(&w->out);
	} else if (!err && len) {
		/* an empty blob's data may be NULL */
		memcpy(w->buf + w->buf_len, buf, len);
		w->buf_len += len;
	}
	if (!err)
		w->pos += len;
	return err;
}

static int out_u16(struct tracedat_writer *w, __u16 v)
{
	return out(w, &v, 2);
}

static int out_u32(struct tracedat_writer *w, __u32 v)
{
	return out(w, &v, 4);
}

static int out_u64(struct tracedat_writer *w, __u64 v)
{
	return out(w, &v, 8);
}

static int out_str(struct tracedat_writer *w, const char *s)
{
	return out(w, s, strlen(s) + 1);
}

static int out_blob8(struct tracedat_writer *w, const struct tracedat_blob *b)
{
	return out_u64(w, b->len) ?: out(w, b->data, b->len);
}

static int out_blob4(struct tracedat_writer *w, const struct tracedat_blob *b)
{
	return out_u32(w, b->len) ?: out(w, b->data, b->len);
}

static int patch_u64(struct tracedat_writer *w, off_t pos, __u64 v)
{
	int err = flush_buf(w);

	if (err)
		return err;
	return pwrite(w->out.fd, &v, 8, pos) == 8 ? 0 : -EIO;
}

static int pad_to_page(struct tracedat_writer *w)
{
	static const char zero[4096];
	size_t n;
	int err;

	while (w->pos % w->m->page_size) {
		n = w->m->page_size - w->pos % w->m->page_size;
		err = out(w, zero, n < sizeof(zero) ? n : sizeof(zero));
		if (err)
			return err;
	}
	return 0;
}

/* ---- file sections ---- */

static int write_head(struct tracedat_writer *w)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g',
				      '6', 0, 0 /* little endian */, 8 /* long size */ };
	const struct tracedat_meta *m = w->m;
	int err;
	int i, j;

	err = out(w, magic, sizeof(magic)) ?: out_u32(w, m->page_size) ?:
	      out_str(w, "header_page") ?: out_blob8(w, &m->header_page) ?:
	      out_str(w, "header_event") ?: out_blob8(w, &m->header_event) ?:
	      out_u32(w, m->nr_ftrace);
	for (i = 0; !err && i < m->nr_ftrace; i++)
		err = out_blob8(w, &m->ftrace[i]);
	if (!err)
		err = out_u32(w, m->nr_systems);
	for (i = 0; !err && i < m->nr_systems; i++) {
		err = out_str(w, m->systems[i].name) ?: out_u32(w, m->systems[i].nr);
		for (j = 0; !err && j < m->systems[i].nr; j++)
			err = out_blob8(w, &m->systems[i].formats[j]);
	}
	return err ?: out_blob4(w, &m->kallsyms) ?: out_blob4(w, &m->printk) ?:
	       out_blob8(w, &m->cmdlines) ?: out_u32(w, m->nr_cpus);
}

static bool has_clock_option(const struct tracedat_meta *m)
{
	int i;

	for (i = 0; i < m->nr_options; i++) {
		if (m->options[i].id == TRACEDAT_OPT_TRACECLOCK)
			return true;
	}
	return false;
}

static int write_options(struct tracedat_writer *w)
{
	const struct tracedat_meta *m = w->m;
	const char *name;
	int err;
	int i;

	err = out(w, "options  ", 10);
	for (i = 0; !err && i < m->nr_options; i++) {
		err = out_u16(w, m->options[i].id) ?: out_u32(w, m->options[i].size) ?:
		      out(w, m->options[i].data, m->options[i].size);
	}
	for (i = 1; !err && i < m->nr_buffers; i++) {
		name = m->buffers[i].name;
		err = out_u16(w, TRACEDAT_OPT_BUFFER) ?: out_u32(w, 8 + strlen(name) + 1);
		w->bufs[i].option_pos = w->pos;
		err = err ?: out_u64(w, 0) ?: out_str(w, name);
	}
	/* version 6 ends the list with a bare zero id, without a size */
	return err ?: out_u16(w, TRACEDAT_OPT_DONE);
}

/* "flyrecord", a CPU table to be patched, and the "[clock]" that readers expect after it */
static int start_buffer(struct tracedat_writer *w, int b)
{
	const struct tracedat_meta *m = w->m;
	char clock[80];
	int err;
	unsigned int i;

	w->bufs[b].started = true;
	w->bufs[b].section = w->pos;
	err = out(w, "flyrecord", 10);
	w->bufs[b].table_pos = w->pos;
	for (i = 0; !err && i < m->nr_cpus; i++)
		err = out_u64(w, 0) ?: out_u64(w, 0);
	if (err || !has_clock_option(m))
		return err;
	snprintf(clock, sizeof(clock), "[%s]", m->buffers[b].clock);
	return out_u64(w, strlen(clock)) ?: out(w, clock, strlen(clock));
}

int tracedat_writer__create(const char *path, const struct tracedat_meta *m,
			    struct tracedat_writer **outp)
{
	struct tracedat_writer *w;
	int err = -ENOMEM;
	int i;

	if (m->nr_buffers < 1 || !m->nr_cpus || !m->page_size)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->out = (struct out_file)OUT_FILE_INIT;
	w->m = m;
	w->cur_cpu = -1;
	w->bufs = calloc(m->nr_buffers, sizeof(*w->bufs));
	w->buf = malloc(WRITE_BUF);
	if (!w->bufs || !w->buf)
		goto cleanup;
	for (i = 0; i < m->nr_buffers; i++) {
		w->bufs[i].cpus = calloc(m->nr_cpus, sizeof(struct cpu_slot));
		if (!w->bufs[i].cpus)
			goto cleanup;
	}
	err = out_file__open(&w->out, path);
	if (err)
		goto cleanup;
	err = write_head(w) ?: write_options(w) ?: start_buffer(w, 0);
	if (err)
		goto cleanup;
	*outp = w;
	return 0;
cleanup:
	tracedat_writer__abort(w);
	return err;
}

/*
 * size bytes of CPU data at a page's start, left for someone else to write: *offset, where
 * they start; what the writer writes next goes after them (a hole until they are written)
 */
static int leave_room(struct tracedat_writer *w, __u64 size, off_t *offset)
{
	int err = pad_to_page(w) ?: flush_buf(w);

	if (err)
		return err;
	if (size && lseek(w->out.fd, w->pos + size, SEEK_SET) < 0)
		return -errno;
	*offset = w->pos;
	w->pos += size;
	return 0;
}

/* begin_cpu(), the CPU's first before bytes left for someone else to write */
static int begin(struct tracedat_writer *w, int buffer, unsigned int cpu, __u64 before,
		 struct tracedat_pages **pages)
{
	int err;
	int b;

	if (w->pages || buffer < w->cur_buffer || buffer >= w->m->nr_buffers ||
	    cpu >= w->m->nr_cpus || (buffer == w->cur_buffer && (int)cpu <= w->cur_cpu) ||
	    w->bufs[buffer].cpus[cpu].reserved || before % w->m->page_size)
		return -EINVAL;
	for (b = w->cur_buffer + 1; b <= buffer; b++) {
		err = start_buffer(w, b);
		if (err)
			return err;
	}
	if (buffer != w->cur_buffer)
		w->cur_cpu = -1;
	w->cur_buffer = buffer;
	/* the pages are written straight to the file, after what is buffered */
	err = leave_room(w, before, &w->cpu_start) ?:
	      tracedat_pages__new(&w->out, w->m->page_size, &w->pages);
	if (err)
		return err;
	w->cur_cpu = cpu;
	w->cpu_before = before;
	*pages = w->pages;
	return 0;
}

int tracedat_writer__begin_cpu(struct tracedat_writer *w, int buffer, unsigned int cpu,
			       struct tracedat_pages **pages)
{
	return begin(w, buffer, cpu, 0, pages);
}

int tracedat_writer__begin_cpu_after(struct tracedat_writer *w, unsigned int cpu, __u64 size,
				     __u64 *offset, struct tracedat_pages **pages)
{
	int err = begin(w, 0, cpu, size, pages);

	*offset = w->cpu_start;
	return err;
}

int tracedat_writer__reserve_cpu(struct tracedat_writer *w, unsigned int cpu, __u64 size,
				 __u64 *offset)
{
	struct cpu_slot *slot;
	off_t start;
	int err;

	if (w->pages || w->cur_buffer || w->cur_cpu >= 0 || cpu >= w->m->nr_cpus ||
	    w->bufs[0].cpus[cpu].reserved || size % w->m->page_size)
		return -EINVAL;
	err = leave_room(w, size, &start);
	if (err)
		return err;
	slot = &w->bufs[0].cpus[cpu];
	slot->reserved = true;
	slot->offset = size ? start : 0;
	slot->size = size;
	*offset = start;
	return 0;
}

int tracedat_writer__fd(const struct tracedat_writer *w, bool *behind)
{
	*behind = out_file__behind(&w->out);
	return w->out.fd;
}

int tracedat_writer__end_cpu(struct tracedat_writer *w)
{
	struct cpu_slot *slot;
	long long size;

	if (!w->pages)
		return -EINVAL;
	size = tracedat_pages__finish(w->pages);
	tracedat_pages__free(w->pages);
	w->pages = NULL;
	if (size < 0)
		return size;
	w->pos += size;
	size += w->cpu_before;
	slot = &w->bufs[w->cur_buffer].cpus[w->cur_cpu];
	slot->offset = size ? w->cpu_start : 0;
	slot->size = size;
	return 0;
}

int tracedat_writer__close(struct tracedat_writer *w)
{
	const struct tracedat_meta *m = w->m;
	struct buffer_state *bs;
	int err = 0;
	int b;
	unsigned int c;

	if (w->pages)
		err = tracedat_writer__end_cpu(w);
	for (b = 0; !err && b < m->nr_buffers; b++) {
		if (!w->bufs[b].started)
			err = start_buffer(w, b);
	}
	for (b = 0; !err && b < m->nr_buffers; b++) {
		bs = &w->bufs[b];
		if (b)
			err = patch_u64(w, bs->option_pos, bs->section);
		for (c = 0; !err && c < m->nr_cpus; c++) {
			err = patch_u64(w, bs->table_pos + c * 16, bs->cpus[c].offset) ?:
			      patch_u64(w, bs->table_pos + c * 16 + 8, bs->cpus[c].size);
		}
	}
	if (!err)
		err = flush_buf(w);
	if (!err)
		err = out_file__commit(&w->out);
	tracedat_writer__abort(w);
	return err;
}

void tracedat_writer__abort(struct tracedat_writer *w)
{
	int b;

	if (!w)
		return;
	tracedat_pages__free(w->pages);
	out_file__abort(&w->out);
	for (b = 0; w->bufs && b < w->m->nr_buffers; b++)
		free(w->bufs[b].cpus);
	free(w->bufs);
	free(w->buf);
	free(w);
}
