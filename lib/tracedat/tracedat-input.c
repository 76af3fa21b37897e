// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat metadata reader. The file is mapped read-only; a cursor walks either the
 * mapping (version 6, uncompressed v7 sections) or a decompressed copy of one section.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include "tracedat/tracedat-check.h"
#include "tracedat/tracedat-input.h"

#define SEC_FL_COMPRESS	1
/* The kernel's CONFIG_NR_CPUS limit: per-CPU tables are sized from the count. */
#define MAX_CPUS	8192

struct cursor {
	const unsigned char *p;
	size_t len;
	size_t off;
	bool bad;
};

struct input {
	const unsigned char *map;
	size_t size;
	const char *path;
	char compression[32];
	char *err;
	size_t errlen;
	/* v7 section offsets from the options */
	__u64 sec[TRACEDAT_OPT_CMDLINES + 1];
	char *top_clock;
	long long ts_offset;
	/* v6: a TRACECLOCK option makes libtracecmd read the clock text after the CPU table */
	bool clock_option;
	/* v6 instances: where each one's CPU table is */
	__u64 *inst;
	int nr_inst;
	struct tracedat_cpu_table *cpus;	/* where the pages are, when asked */
};

static int fail(struct input *in, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(in->err, in->errlen, "%s: ", in->path);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < in->errlen)
		vsnprintf(in->err + n, in->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const void *take(struct cursor *c, size_t n)
{
	const void *r;

	if (c->bad || c->off > c->len || n > c->len - c->off) {
		c->bad = true;
		return NULL;
	}
	r = c->p + c->off;
	c->off += n;
	return r;
}

static __u64 get_n(struct cursor *c, size_t n)
{
	const void *p = take(c, n);
	__u64 v = 0;

	if (p)
		memcpy(&v, p, n);
	return v;
}

static const char *get_str(struct cursor *c)
{
	const char *s = (const char *)c->p + c->off;
	size_t max = c->bad || c->off >= c->len ? 0 : c->len - c->off;
	size_t n = max ? strnlen(s, max) : 0;

	if (n == max) {
		c->bad = true;
		return NULL;
	}
	c->off += n + 1;
	return s;
}

/* Bytes left under the cursor: a count of items of at least min bytes each must fit. */
static bool count_fits(const struct cursor *c, __u64 n, size_t min)
{
	return !c->bad && c->off <= c->len && n <= (c->len - c->off) / min;
}

static int get_blob(struct cursor *c, size_t size_bytes, struct tracedat_blob *b)
{
	__u64 len = get_n(c, size_bytes);
	const void *d = take(c, len);

	if (!d)
		return -EINVAL;
	return tracedat_blob__set(b, d, len);
}

static int read_header_info(struct cursor *c, struct tracedat_meta *m)
{
	const char *s = get_str(c);

	if (!s || strcmp(s, "header_page") || get_blob(c, 8, &m->header_page))
		return -EINVAL;
	s = get_str(c);
	if (!s || strcmp(s, "header_event") || get_blob(c, 8, &m->header_event))
		return -EINVAL;
	return 0;
}

static int read_ftrace(struct cursor *c, struct tracedat_meta *m)
{
	__u32 n = get_n(c, 4);
	__u32 i;

	if (!count_fits(c, n, 8))
		return -EINVAL;
	m->ftrace = calloc(n ? n : 1, sizeof(*m->ftrace));
	if (!m->ftrace)
		return -ENOMEM;
	for (i = 0; i < n; i++, m->nr_ftrace++) {
		if (get_blob(c, 8, &m->ftrace[i]))
			return -EINVAL;
	}
	return 0;
}

static int read_systems(struct cursor *c, struct tracedat_meta *m)
{
	__u32 nsys = get_n(c, 4);
	struct tracedat_system *sys;
	__u32 i, j, n;

	/* a system is at least a name terminator and a count */
	if (!count_fits(c, nsys, 5))
		return -EINVAL;
	m->systems = calloc(nsys ? nsys : 1, sizeof(*m->systems));
	if (!m->systems)
		return -ENOMEM;
	for (i = 0; i < nsys; i++) {
		const char *name = get_str(c);

		n = get_n(c, 4);
		if (!name || !count_fits(c, n, 8))
			return -EINVAL;
		sys = &m->systems[m->nr_systems++];
		sys->name = strdup(name);
		sys->formats = calloc(n ? n : 1, sizeof(*sys->formats));
		if (!sys->name || !sys->formats)
			return -ENOMEM;
		for (j = 0; j < n; j++, sys->nr++) {
			if (get_blob(c, 8, &sys->formats[j]))
				return -EINVAL;
		}
	}
	return 0;
}

/* "local global [mono] ..." -> "mono" */
static char *selected_clock(const char *text, size_t len)
{
	const char *b = memchr(text, '[', len);
	const char *e;

	if (!b)
		return NULL;
	e = memchr(b, ']', len - (b - text));
	return e ? strndup(b + 1, e - b - 1) : NULL;
}

static bool option_kept(__u16 id)
{
	switch (id) {
	case TRACEDAT_OPT_CPUSTAT:
	case TRACEDAT_OPT_TRACECLOCK:
	case TRACEDAT_OPT_UNAME:
	case TRACEDAT_OPT_HOOK:
	case TRACEDAT_OPT_VERSION:
	case TRACEDAT_OPT_PROCMAPS:
	case TRACEDAT_OPT_TRACEID:
		return true;
	default:
		return false;
	}
}

static bool option_is_text(__u16 id)
{
	switch (id) {
	case TRACEDAT_OPT_DATE:
	case TRACEDAT_OPT_CPUSTAT:
	case TRACEDAT_OPT_TRACECLOCK:
	case TRACEDAT_OPT_UNAME:
	case TRACEDAT_OPT_HOOK:
	case TRACEDAT_OPT_OFFSET:
	case TRACEDAT_OPT_VERSION:
		return true;
	default:
		return false;
	}
}

static int decompress(struct input *in, const unsigned char *src, size_t clen, void *dst,
		      size_t ulen);

/*
 * Compressed CPU data: a chunk count, then per chunk its compressed and uncompressed sizes
 * and its bytes; each chunk decompresses to pages, checked as uncompressed ones are. The
 * size trace-cmd 3.1 states for them is 4 bytes short (libtracecmd reads the chunks whole):
 * they are bounded by the file.
 */
static int check_chunks(struct input *in, __u64 off, __u64 size, unsigned int page_size,
			char *why, size_t len)
{
	struct cursor c = { .p = in->map + off, .len = in->size - off };
	__u32 count = get_n(&c, 4), i, clen, ulen;
	const void *z;
	void *buf;
	int err;

	if (!count_fits(&c, count, 8)) {
		snprintf(why, len, "compressed CPU data with %u chunks in %llu bytes", count,
			 (unsigned long long)size);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		clen = get_n(&c, 4);
		ulen = get_n(&c, 4);
		z = take(&c, clen);
		if (!z || ulen > (1U << 30)) {
			snprintf(why, len, "compressed chunk %u of the CPU data is cut or too "
				 "large", i);
			return -EINVAL;
		}
		buf = malloc(ulen ? ulen : 1);
		if (!buf)
			return -ENOMEM;
		err = decompress(in, z, clen, buf, ulen);
		if (err)
			snprintf(why, len, "compressed chunk %u does not decompress", i);
		else
			err = tracedat_check__pages(buf, ulen, page_size, why, len);
		free(buf);
		if (err)
			return err;
	}
	return 0;
}

static int add_cpu_data(struct tracedat_cpu_table *t, const char *buffer, unsigned int cpu,
			__u64 off, __u64 size, bool compressed)
{
	struct tracedat_cpu_data *n;

	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		n = realloc(t->v, t->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->v = n;
	}
	n = &t->v[t->nr];
	*n = (struct tracedat_cpu_data){ .buffer = strdup(buffer), .cpu = cpu, .offset = off,
					 .size = size, .compressed = compressed };
	if (!n->buffer)
		return -ENOMEM;
	t->nr++;
	return 0;
}

/* One CPU's data against the file, and its pages (decompressed if they are compressed). */
static int check_cpu(struct input *in, const char *buffer, unsigned int cpu, __u64 off,
		     __u64 size, unsigned int page_size, bool compressed)
{
	bool pages = !compressed;
	char why[192];
	int err;

	err = tracedat_check__cpu(in->size, off, size, page_size, pages, why, sizeof(why));
	if (!err && in->cpus)
		err = add_cpu_data(in->cpus, buffer, cpu, off, size, compressed);
	/* the caller checks them as it copies them: the file is read once */
	if (!err && pages && in->cpus && in->cpus->pages_later)
		return 0;
	if (!err && size)
		err = pages ? tracedat_check__pages(in->map + off, size, page_size, why,
						    sizeof(why)) :
		      check_chunks(in, off, size, page_size, why, sizeof(why));
	/* read once: the checked pages leave this process's memory (RSS flat in the file size) */
	if (size && off < in->size) {
		size_t ps = sysconf(_SC_PAGESIZE), start = off & ~(ps - 1);
		size_t end = size < in->size - off ? off + size : in->size;

		madvise((void *)(in->map + start), end - start, MADV_DONTNEED);
	}
	if (err == -ENOMEM)
		return err;
	if (err)
		return fail(in, "buffer '%s' CPU %u: %s", buffer, cpu, why);
	return 0;
}

/*
 * v7 BUFFER option after its name and clock: page size, CPU count, then per CPU its number,
 * offset and size; at the buffer's offset a section header.
 */
static int check_v7_buffer(struct input *in, struct cursor *o, const char *name, __u64 at,
			   unsigned int *nr_cpus)
{
	unsigned int page_size, nr, i, cpu;
	__u64 off, size;
	unsigned char *seen;
	__u16 flags;
	bool compressed;

	*nr_cpus = 0;
	if (o->len - o->off < 8)
		return 0;
	page_size = get_n(o, 4);
	nr = get_n(o, 4);
	if (at > in->size || in->size - at < 16)
		return fail(in, "buffer '%s': its data section at offset %llu is outside the file",
			    name, (unsigned long long)at);
	/* the section header's flags say whether its CPU data are compressed */
	memcpy(&flags, in->map + at + 2, 2);
	compressed = flags & SEC_FL_COMPRESS;
	if (!count_fits(o, nr, 20) || nr > MAX_CPUS || page_size < 256 || page_size & 7)
		return fail(in, "buffer '%s': bad CPU table (%u CPUs, %u-byte pages)", name, nr,
			    page_size);
	seen = calloc(MAX_CPUS, 1);
	if (!seen)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		cpu = get_n(o, 4);
		off = get_n(o, 8);
		size = get_n(o, 8);
		if (cpu >= MAX_CPUS || seen[cpu]++) {
			free(seen);
			return fail(in, "buffer '%s': CPU %u is out of range or given twice", name,
				    cpu);
		}
		if (check_cpu(in, name, cpu, off, size, page_size, compressed)) {
			free(seen);
			return -EINVAL;
		}
	}
	free(seen);
	*nr_cpus = nr;
	return 0;
}

static int add_v6_instance(struct input *in, __u64 at)
{
	__u64 *n;

	/* an instance's own options may name instances: a bound ends such a loop */
	if (in->nr_inst >= 4096)
		return fail(in, "more than 4096 buffer instances");
	n = realloc(in->inst, (in->nr_inst + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	in->inst = n;
	in->inst[in->nr_inst++] = at;
	return 0;
}

/* One option list (v6: ends with a bare 0; v7: ends with DONE holding the next offset). */
static int read_options(struct input *in, struct cursor *c, struct tracedat_meta *m, int version,
			__u64 *next)
{
	struct cursor o;
	const char *name, *clock;
	__u16 id;
	__u32 size;
	int err;

	*next = 0;
	for (;;) {
		id = get_n(c, 2);
		if (c->bad)
			return fail(in, "truncated option list");
		if (version == 6 && id == TRACEDAT_OPT_DONE)
			return 0;
		size = get_n(c, 4);
		o = (struct cursor){ .p = take(c, size), .len = size };
		if (c->bad)
			return fail(in, "truncated option %u", id);
		if (id == TRACEDAT_OPT_DONE) {
			*next = get_n(&o, 8);
			return 0;
		}
		if (id >= TRACEDAT_OPT_HEADER_INFO && id <= TRACEDAT_OPT_CMDLINES) {
			in->sec[id] = get_n(&o, 8);
			continue;
		}
		/* libtracecmd takes these texts as C strings */
		if (option_is_text(id) && !tracedat_check__text(o.p, size))
			return fail(in, "option %u is not a NUL-terminated text", id);
		if (id == TRACEDAT_OPT_HOOK && !tracedat_check__hook(o.p, size))
			return fail(in, "the HOOK option '%s' is not a hook libtracecmd reads",
				    (const char *)o.p);
		if (id == TRACEDAT_OPT_TRACECLOCK) {
			int n = strnlen((const void *)o.p, size);

			if (!tracedat_check__clock(o.p, size))
				return fail(in, "the TRACECLOCK option names no clock: '%.*s'", n,
					    (const char *)o.p);
			in->clock_option = true;
		}
		if (id == TRACEDAT_OPT_BUFFER) {
			__u64 at = get_n(&o, 8);
			unsigned int nr_buf_cpus = 0;

			name = get_str(&o);
			/* v6 buffers share the top clock; v7 ones name their own */
			clock = version == 7 ? get_str(&o) : NULL;
			if (o.bad || !name)
				return fail(in, "bad BUFFER option");
			err = version == 7 ? check_v7_buffer(in, &o, name, at, &nr_buf_cpus) :
			      add_v6_instance(in, at);
			if (err)
				return err;
			if (version == 7 && !*name) {
				free(in->top_clock);
				in->top_clock = strdup(clock ? clock : "");
				continue;
			}
			err = tracedat_meta__add_buffer(m, name, clock ? clock : "");
			if (err)
				return err;
			if (nr_buf_cpus > m->nr_cpus)
				m->nr_cpus = nr_buf_cpus;
			continue;
		}
		if (id == TRACEDAT_OPT_CPUCOUNT && size >= 4) {
			m->nr_cpus = get_n(&o, 4);
			if (m->nr_cpus > MAX_CPUS)
				return fail(in, "CPU count %u is out of range", m->nr_cpus);
			continue;
		}
		/* as libtracecmd reads them: ASCII numbers, DATE in microseconds */
		if ((id == TRACEDAT_OPT_DATE || id == TRACEDAT_OPT_OFFSET) && size) {
			char num[32];

			snprintf(num, sizeof(num), "%.*s", (int)size, (const char *)o.p);
			in->ts_offset += strtoll(num, NULL, 0) * (id == TRACEDAT_OPT_DATE ? 1000 : 1);
		}
		if ((id == TRACEDAT_OPT_TSC2NSEC || id == TRACEDAT_OPT_TIME_SHIFT) && in->cpus)
			in->cpus->converted = true;
		if (id == TRACEDAT_OPT_TRACECLOCK && !in->top_clock)
			in->top_clock = selected_clock((const char *)o.p, size);
		if (option_kept(id)) {
			err = tracedat_meta__add_option(m, id, o.p, size);
			if (err)
				return err;
		}
	}
}

static int decompress(struct input *in, const unsigned char *src, size_t clen, void *dst,
		      size_t ulen)
{
	uLongf zlen = ulen;
	size_t r;

	if (!strcmp(in->compression, "zstd")) {
		r = ZSTD_decompress(dst, ulen, src, clen);
		if (ZSTD_isError(r) || r != ulen)
			return fail(in, "zstd section does not decompress");
		return 0;
	}
	if (!strcmp(in->compression, "zlib")) {
		if (uncompress(dst, &zlen, src, clen) != Z_OK || zlen != ulen)
			return fail(in, "zlib section does not decompress");
		return 0;
	}
	return fail(in, "unsupported compression '%s'", in->compression);
}

/*
 * Opens the v7 section at off: checks its id and gives a cursor over its (decompressed)
 * body. *buf receives the allocation to free, if any.
 */
static int open_section(struct input *in, __u64 off, __u16 want, struct cursor *c, void **buf)
{
	struct cursor h = { .p = in->map, .len = in->size, .off = off };
	__u16 id = get_n(&h, 2);
	__u16 flags = get_n(&h, 2);
	__u32 clen, ulen;
	__u64 size;
	const void *body;

	get_n(&h, 4);	/* description string id */
	size = get_n(&h, 8);
	body = take(&h, size);
	if (h.bad || id != want)
		return fail(in, "section %u at offset %llu is damaged", want,
			    (unsigned long long)off);
	*buf = NULL;
	*c = (struct cursor){ .p = body, .len = size };
	if (!(flags & SEC_FL_COMPRESS))
		return 0;
	clen = get_n(c, 4);
	ulen = get_n(c, 4);
	body = take(c, clen);
	if (!body || ulen > (1U << 30))
		return fail(in, "compressed section %u is damaged", want);
	*buf = malloc(ulen ? ulen : 1);
	if (!*buf)
		return -ENOMEM;
	if (decompress(in, body, clen, *buf, ulen)) {
		free(*buf);
		*buf = NULL;
		return -EINVAL;
	}
	*c = (struct cursor){ .p = *buf, .len = ulen };
	return 0;
}

/* v6 flyrecord: offset and size of each CPU's data */
static int check_v6_cpus(struct input *in, struct cursor *c, const char *buffer,
			 unsigned int nr_cpus, unsigned int page_size)
{
	__u64 off, size;
	unsigned int cpu;

	if (!count_fits(c, nr_cpus, 16))
		return fail(in, "buffer '%s': truncated in its table of %u CPUs", buffer, nr_cpus);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		off = get_n(c, 8);
		size = get_n(c, 8);
		if (check_cpu(in, buffer, cpu, off, size, page_size, false))
			return -EINVAL;
	}
	return 0;
}

/* v6 instances: at each one's offset, maybe options, then "flyrecord" and its CPU table */
static int check_v6_instances(struct input *in, struct tracedat_meta *m)
{
	struct tracedat_meta opts;
	struct cursor c;
	const void *tag;
	__u64 next;
	int i, err = 0;

	for (i = 0; i < in->nr_inst && !err; i++) {
		const char *name = i < m->nr_buffers ? m->buffers[i].name : "?";

		c = (struct cursor){ .p = in->map, .len = in->size, .off = in->inst[i] };
		if (in->inst[i] > in->size)
			c.bad = true;
		tag = take(&c, 10);
		opts = (struct tracedat_meta){ .nr_cpus = m->nr_cpus };
		if (tag && !memcmp(tag, "options", 7)) {
			/* libtracecmd reads the instance's options again: they are checked alike */
			err = read_options(in, &c, &opts, 6, &next);
			tag = take(&c, 10);
		}
		if (!err && (!tag || memcmp(tag, "flyrecord", 9)))
			err = fail(in, "buffer '%s': no CPU data at offset %llu", name,
				   (unsigned long long)in->inst[i]);
		if (!err)
			err = check_v6_cpus(in, &c, name, opts.nr_cpus, m->page_size);
		tracedat_meta__free(&opts);
	}
	return err;
}

static int read_kallsyms(struct cursor *c, struct tracedat_meta *m);

static int read_v6(struct input *in, struct cursor *c, struct tracedat_meta *m)
{
	const void *tag;
	__u64 next;
	int err;

	if (read_header_info(c, m) || read_ftrace(c, m) || read_systems(c, m) ||
	    read_kallsyms(c, m) || get_blob(c, 4, &m->printk) ||
	    get_blob(c, 8, &m->cmdlines))
		return fail(in, "truncated or damaged headers");
	m->nr_cpus = get_n(c, 4);
	if (m->nr_cpus > MAX_CPUS)
		return fail(in, "CPU count %u is out of range", m->nr_cpus);
	tag = take(c, 10);
	if (!tag)
		return fail(in, "truncated after the CPU count");
	if (!memcmp(tag, "options", 7)) {
		err = read_options(in, c, m, 6, &next);
		if (err)
			return err;
		tag = take(c, 10);
	}
	if (!tag || memcmp(tag, "flyrecord", 9))
		return fail(in, "not a flyrecord file (latency traces are not supported)");
	err = check_v6_cpus(in, c, "", m->nr_cpus, m->page_size);
	if (err)
		return err;
	if (in->clock_option) {
		/* libtracecmd reads it as a string of the size before it */
		__u64 size = get_n(c, 8);
		const char *text = take(c, size);
		char *copy = text ? strndup(text, size) : NULL;

		if (!text)
			return fail(in, "truncated in the trace clock after the CPU data");
		if (!copy)
			return -ENOMEM;
		err = tracedat_check__clock(copy, strlen(copy) + 1) ? 0 :
		      fail(in, "the trace clock after the CPU data names no clock: '%s'", copy);
		free(copy);
		if (err)
			return err;
	}
	return check_v6_instances(in, m);
}

typedef int (*section_fn)(struct cursor *c, struct tracedat_meta *m);

/* The caller's kallsyms, set before the read, stays: the file's is only stepped over */
static int read_kallsyms(struct cursor *c, struct tracedat_meta *m)
{
	if (m->kallsyms.len)
		return take(c, get_n(c, 4)) ? 0 : -EINVAL;
	return get_blob(c, 4, &m->kallsyms);
}

static int read_printk(struct cursor *c, struct tracedat_meta *m)
{
	return get_blob(c, 4, &m->printk);
}

static int read_cmdlines(struct cursor *c, struct tracedat_meta *m)
{
	return get_blob(c, 8, &m->cmdlines);
}

static int read_v7(struct input *in, struct cursor *c, struct tracedat_meta *m)
{
	static const section_fn fns[] = {
		[TRACEDAT_OPT_HEADER_INFO] = read_header_info,
		[TRACEDAT_OPT_FTRACE_EVENTS] = read_ftrace,
		[TRACEDAT_OPT_EVENT_FORMATS] = read_systems,
		[TRACEDAT_OPT_KALLSYMS] = read_kallsyms,
		[TRACEDAT_OPT_PRINTK] = read_printk,
		[TRACEDAT_OPT_CMDLINES] = read_cmdlines,
	};
	const char *comp = get_str(c);
	const char *comp_version = get_str(c);
	__u64 next = get_n(c, 8);
	struct cursor s;
	void *buf;
	int loops = 0;
	int err;
	int id;

	if (!comp || !comp_version || c->bad)
		return fail(in, "truncated header");
	snprintf(in->compression, sizeof(in->compression), "%s", comp);
	while (next) {
		if (++loops > 4096)
			return fail(in, "option sections loop");
		err = open_section(in, next, TRACEDAT_OPT_DONE, &s, &buf);
		if (err)
			return err;
		err = read_options(in, &s, m, 7, &next);
		free(buf);
		if (err)
			return err;
	}
	for (id = TRACEDAT_OPT_HEADER_INFO; id <= TRACEDAT_OPT_CMDLINES; id++) {
		if (!in->sec[id]) {
			/* printk formats and cmdlines may be absent; the rest must be there */
			if (id == TRACEDAT_OPT_PRINTK || id == TRACEDAT_OPT_CMDLINES)
				continue;
			return fail(in, "missing metadata section %d", id);
		}
		err = open_section(in, in->sec[id], id, &s, &buf);
		if (err)
			return err;
		err = fns[id](&s, m);
		free(buf);
		if (err)
			return fail(in, "damaged metadata section %d", id);
	}
	return 0;
}

/* The top buffer goes first in m->buffers; options add instances after it. */
static int put_top_buffer_first(struct tracedat_meta *m, const char *clock)
{
	struct tracedat_buffer top;
	int err = tracedat_meta__add_buffer(m, "", clock);

	if (err)
		return err;
	top = m->buffers[m->nr_buffers - 1];
	memmove(m->buffers + 1, m->buffers, (m->nr_buffers - 1) * sizeof(*m->buffers));
	m->buffers[0] = top;
	return 0;
}

void tracedat_cpu_table__free(struct tracedat_cpu_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].buffer);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct tracedat_cpu_data *tracedat_cpu_table__find(const struct tracedat_cpu_table *t,
							 const char *buffer, unsigned int cpu)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (t->v[i].cpu == cpu && !strcmp(t->v[i].buffer, buffer))
			return &t->v[i];
	}
	return NULL;
}

int tracedat_input__check_pages(const char *path, const struct tracedat_cpu_table *t,
				unsigned int page_size, char *err, size_t errlen)
{
	struct input in = { .path = path, .err = err, .errlen = errlen };
	const struct tracedat_cpu_data *d;
	struct stat st;
	size_t i;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	in.size = st.st_size;
	in.map = in.size ? mmap(NULL, in.size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	close(fd);
	if (in.map == MAP_FAILED)
		return fail(&in, "cannot map: %s", strerror(errno));
	for (i = 0; !ret && i < t->nr; i++) {
		d = &t->v[i];
		if (!d->compressed && d->size)
			ret = check_cpu(&in, d->buffer, d->cpu, d->offset, d->size, page_size,
					false);
	}
	munmap((void *)in.map, in.size);
	return ret;
}

int tracedat_input__read_meta(const char *path, struct tracedat_meta *m,
			      struct tracedat_input_info *info, char *err, size_t errlen)
{
	return tracedat_input__read_layout(path, m, info, NULL, err, errlen);
}

int tracedat_input__read_layout(const char *path, struct tracedat_meta *m,
				struct tracedat_input_info *info, struct tracedat_cpu_table *cpus,
				char *err, size_t errlen)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
					       'g' };
	struct input in = { .path = path, .err = err, .errlen = errlen, .cpus = cpus };
	struct cursor c;
	const char *ver;
	struct stat st;
	int ret;
	int fd;
	int i;

	snprintf(in.compression, sizeof(in.compression), "none");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) || st.st_size < 32) {
		close(fd);
		return fail(&in, "too short for a trace.dat file");
	}
	in.size = st.st_size;
	in.map = mmap(NULL, in.size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (in.map == MAP_FAILED)
		return fail(&in, "cannot map: %s", strerror(errno));
	c = (struct cursor){ .p = in.map, .len = in.size };
	if (memcmp(take(&c, sizeof(magic)), magic, sizeof(magic))) {
		ret = fail(&in, "not a trace.dat file (bad magic)");
		goto cleanup;
	}
	ver = get_str(&c);
	if (!ver || (strcmp(ver, "6") && strcmp(ver, "7"))) {
		ret = fail(&in, "unsupported trace.dat version '%s'", ver ? ver : "?");
		goto cleanup;
	}
	if (get_n(&c, 1) != 0 || get_n(&c, 1) != 8) {
		ret = fail(&in, "only little-endian 64-bit files are supported");
		goto cleanup;
	}
	m->page_size = get_n(&c, 4);
	if (m->page_size < 256 || m->page_size & 7) {
		ret = fail(&in, "bad page size %u", m->page_size);
		goto cleanup;
	}
	info->version = *ver - '0';
	ret = info->version == 6 ? read_v6(&in, &c, m) : read_v7(&in, &c, m);
	if (ret)
		goto cleanup;
	snprintf(info->compression, sizeof(info->compression), "%s", in.compression);
	info->ts_offset = in.ts_offset;
	ret = put_top_buffer_first(m, in.top_clock ? in.top_clock : "local");
	/* v6 instances use the top buffer's clock */
	for (i = 1; !ret && i < m->nr_buffers; i++) {
		if (!*m->buffers[i].clock) {
			free(m->buffers[i].clock);
			m->buffers[i].clock = strdup(m->buffers[0].clock);
			if (!m->buffers[i].clock)
				ret = -ENOMEM;
		}
	}
	if (!ret && (!m->nr_cpus || m->nr_cpus > MAX_CPUS))
		ret = fail(&in, "no CPU count");
cleanup:
	if (ret && cpus)
		tracedat_cpu_table__free(cpus);
	free(in.top_clock);
	free(in.inst);
	munmap((void *)in.map, in.size);
	return ret;
}

unsigned char *tracedat_cpu_data__get(const struct tracedat_cpu_data *d, int fd, bool sparse,
				      __u64 off, size_t n, unsigned char *rbuf, void **map,
				      size_t *map_len)
{
	size_t sys_ps = sysconf(_SC_PAGESIZE), skew = (d->offset + off) % sys_ps;
	ssize_t got;

	*map = MAP_FAILED;
	if (!(d->offset % 8) && !sparse) {
		*map_len = n + skew;
		*map = mmap(NULL, *map_len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
			    d->offset + off - skew);
		if (*map != MAP_FAILED)
			return (unsigned char *)*map + skew;
	}
	got = pread(fd, rbuf, n, d->offset + off);
	/* tracedat_input__read_layout() checked the pages lie inside the file */
	if (got >= 0 && (size_t)got != n)
		errno = EIO;
	return (size_t)got == n ? rbuf : NULL;
}
