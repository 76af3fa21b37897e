// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * HEADER_TRACING_DATA for the "lbr" events: the tracing-data stream perf reads with
 * libtraceevent (trace_report()): "\x17\x08\x44tracing", version "0.6", endianness, long
 * size, page size, header_page, header_event, ftrace formats, per-system event formats,
 * kallsyms, printk formats, saved cmdlines. A recorded file's payload is kept as is with the
 * "lbr" system appended to its systems; the format IDs go above every ID it uses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perf-lbr/perf-tracing-data.h"
#include "perf-lbr/perf-lbr.h"
#include "lbrfile/ret-value.h"
#include "view/event-fields.h"
#include "view/record-fields.h"
#include "tracedat/tracedat-live.h"

/* buf_printf() formats: %% for each % of the print fmt */
#define PRINT_COUNTS	"branches=%%u stack=%%u trim_branches=%%u trim_stack=%%u seq=%%llu\", "
#define COUNT_ARGS	"REC->nr_branches, REC->nr_stack, REC->trim_branches, REC->trim_stack, " \
			"REC->seq"

struct buf {
	char *p;
	size_t len, cap;
	int err;
};

static void buf_put(struct buf *b, const void *data, size_t len)
{
	char *n;

	if (b->err)
		return;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2 + 4096;

		n = realloc(b->p, cap);
		if (!n) {
			b->err = -ENOMEM;
			return;
		}
		b->p = n;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void buf_u32(struct buf *b, __u32 v)
{
	buf_put(b, &v, 4);
}

static void buf_u64(struct buf *b, __u64 v)
{
	buf_put(b, &v, 8);
}

static void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->err = -ENOMEM;
		return;
	}
	buf_put(b, text, n);
	free(text);
}

/*
 * "__print_symbolic(REC->ret, {0x0, \"NULL\"}, {0xfffffffffffffffe, \"ERR_PTR(-ENOENT)\"})"
 * with NULL and each ERR_PTR() value the event's records hold: libtraceevent compares the
 * field with each number and prints the value as 0x%llx when none matches, which is
 * lbr_ret__format()'s text for any other pointer. The numbers are hex: libtraceevent never
 * matches a value written as "-2". Listing all 4095 IS_ERR() values instead would add
 * 160 KB per event.
 */
static void put_pointer_symbols(const struct perf_lbr *pl, size_t i, struct buf *b)
{
	char text[LBR_RET_LEN];
	int err;

	buf_printf(b, "__print_symbolic(REC->ret, {0x0, \"NULL\"}");
	for (err = 1; err <= LBR_MAX_ERRNO; err++) {
		if (!perf_lbr__has_errno(pl, i, err))
			continue;
		lbr_ret__format(LBRSNAP_RET_POINTER, -err, text, sizeof(text));
		buf_printf(b, ", {0x%llx, \"%s\"}", (unsigned long long)-err, text);
	}
	buf_printf(b, ")");
}

/*
 * One attach point's format: ret declared and printed as its return type says, so that
 * perf script shows what lbrsnap report shows (ret-value.h).
 */
static void put_format(const struct perf_lbr *pl, size_t i, const char *name, struct buf *b)
{
	enum lbrsnap_ret_kind kind = perf_lbr__ret_kind(pl, i);
	bool is_signed = kind == LBRSNAP_RET_SIGNED;
	struct buf f = { 0 };
	/* with arguments, the call comes first: "%s " of the call, then as without */
	const char *cf = perf_lbr__has_args(pl, i) ? "%s " : "";
	const char *ca = perf_lbr__has_args(pl, i) ? "__get_str(call), " : "";
	const struct lbr_event_schema *sc = &lbr_event_schemas[LBR_SCHEMA_PERF];
	char *fixed = NULL, *fields = NULL;

	buf_printf(&f, "name: %s\nID: %llu\n", name,
		   (unsigned long long)perf_lbr__attr(pl, i)->config);
	/* the fixed fields as the schema lays them out, then the arguments' */
	fixed = lbr_fields__format(sc->fields, sc->nr, is_signed);
	fields = event_fields__format(perf_lbr__fields(pl, i));
	if (!fixed || !fields) {
		b->err = -ENOMEM;
		goto cleanup;
	}
	buf_printf(&f, "format:\n%s%s\n", fixed, fields);
	switch (kind) {
	case LBRSNAP_RET_NONE:
		buf_printf(&f, "print fmt: \"%s" PRINT_COUNTS "%s" COUNT_ARGS "\n", cf, ca);
		break;
	case LBRSNAP_RET_SIGNED:
		buf_printf(&f, "print fmt: \"%sret=%%lld " PRINT_COUNTS "%sREC->ret, " COUNT_ARGS
			   "\n", cf, ca);
		break;
	case LBRSNAP_RET_UNSIGNED:
		buf_printf(&f, "print fmt: \"%sret=%%llu " PRINT_COUNTS "%sREC->ret, " COUNT_ARGS
			   "\n", cf, ca);
		break;
	case LBRSNAP_RET_BOOL:
		buf_printf(&f, "print fmt: \"%sret=%%s " PRINT_COUNTS
			   "%sREC->ret ? \"true\" : \"false\", " COUNT_ARGS "\n", cf, ca);
		break;
	case LBRSNAP_RET_POINTER:
		buf_printf(&f, "print fmt: \"%sret=%%s " PRINT_COUNTS "%s", cf, ca);
		put_pointer_symbols(pl, i, &f);
		buf_printf(&f, ", " COUNT_ARGS "\n");
		break;
	}
	if (f.err) {
		b->err = f.err;
	} else {
		buf_u64(b, f.len);
		buf_put(b, f.p, f.len);
	}
cleanup:
	free(fixed);
	free(fields);
	free(f.p);
}

/*
 * lbr:call's format: the call's fields (record-fields.h), printed as one line of lbrsnap
 * report's tree says it, with the record's seq to join them
 */
static void put_call_format(const struct perf_lbr *pl, size_t i, const char *name,
			    struct buf *b)
{
	const struct lbr_event_schema *sc = &lbr_event_schemas[LBR_SCHEMA_PERF_CALL];
	struct buf f = { 0 };
	char *fixed;

	fixed = lbr_fields__format(sc->fields, sc->nr, true);
	if (!fixed) {
		b->err = -ENOMEM;
		return;
	}
	buf_printf(&f, "name: %s\nID: %llu\nformat:\n%s\n", name,
		   (unsigned long long)perf_lbr__attr(pl, i)->config, fixed);
	buf_printf(&f, "print fmt: \"func=%%s depth=%%u duration_ns=%%llu ret=%%s origin=%%u "
		   "seq=%%llu\", __get_str(func), REC->depth, REC->duration_ns, "
		   "__get_str(result), REC->origin, REC->seq\n");
	if (f.err) {
		b->err = f.err;
	} else {
		buf_u64(b, f.len);
		buf_put(b, f.p, f.len);
	}
	free(fixed);
	free(f.p);
}

/* An event's attach point spec: its name after "lbr:". */
static const char *event_spec(const void *pl, size_t i)
{
	return strchr(perf_lbr__name(pl, i), ':') + 1;
}

static void put_lbr_system(const struct perf_lbr *pl, struct buf *b)
{
	char name[256];
	size_t i;

	buf_put(b, PERF_LBR_SYSTEM, sizeof(PERF_LBR_SYSTEM));
	for (i = 0; perf_lbr__is_tracepoint(pl, i); i++)
		;
	buf_u32(b, i);
	for (i = 0; perf_lbr__is_tracepoint(pl, i); i++) {
		event_fields__unique_name(event_spec, pl, i, name, sizeof(name));
		if (perf_lbr__is_call_event(pl, i))
			put_call_format(pl, i, name, b);
		else
			put_format(pl, i, name, b);
	}
}

/* Walks a tracing-data payload; offsets of the systems count and of the end of the systems. */
struct td_layout {
	size_t systems_pos;
	size_t systems_end;
	size_t end;		/* after the saved cmdlines: what follows is padding */
	__u32 max_id;
};

static int td_need(size_t pos, size_t want, size_t len)
{
	return want > len || pos > len - want ? -EINVAL : 0;
}

/*
 * A block "size (width bytes: 4 or 8), then size bytes" at *pos: sets *text to its bytes and
 * *size to their count, and *pos past it. -EINVAL when it runs past len.
 */
static int td_block(const char *d, size_t len, size_t *pos, unsigned int width,
		    const char **text, __u64 *size)
{
	__u32 size32;

	if (td_need(*pos, width, len))
		return -EINVAL;
	if (width == 4) {
		memcpy(&size32, d + *pos, 4);
		*size = size32;
	} else {
		memcpy(size, d + *pos, 8);
	}
	*pos += width;
	if (td_need(*pos, *size, len))
		return -EINVAL;
	*text = d + *pos;
	*pos += *size;
	return 0;
}

static void td_scan_ids(const char *text, size_t len, __u32 *max_id)
{
	const char *p = text, *end = text + len, *d;
	unsigned long id;

	while (p < end && (p = memmem(p, end - p, "ID: ", 4))) {
		if (p == text || p[-1] == '\n') {
			/* the text is not NUL-terminated: no strtoul(), digits up to end only */
			for (id = 0, d = p + 4; d < end && *d >= '0' && *d <= '9' &&
			     id < (1UL << 31); d++)
				id = id * 10 + (*d - '0');
			if (id > *max_id && id < (1UL << 31))
				*max_id = id;
		}
		p += 4;
	}
}

/* "u32 count" then count times "u64 size, text": event format files; notes their IDs. */
static int td_files(const char *d, size_t len, size_t *pos, __u32 *max_id)
{
	const char *text;
	__u64 size;
	__u32 n, i;

	if (td_need(*pos, 4, len))
		return -EINVAL;
	memcpy(&n, d + *pos, 4);
	*pos += 4;
	for (i = 0; i < n; i++) {
		if (td_block(d, len, pos, 8, &text, &size))
			return -EINVAL;
		td_scan_ids(text, size, max_id);
	}
	return 0;
}

/* "NAME\0" then "u64 size, text": header_page and header_event. */
static int td_header(const char *d, size_t len, size_t *pos, const char *name)
{
	size_t nlen = strlen(name) + 1;
	const char *text;
	__u64 size;

	if (td_need(*pos, nlen, len) || memcmp(d + *pos, name, nlen))
		return -EINVAL;
	*pos += nlen;
	return td_block(d, len, pos, 8, &text, &size);
}

/*
 * The end of the kallsyms, printk formats and (version 0.6) saved cmdlines that follow the
 * systems at pos: a file's tracing data may carry padding after them (a pipe-mode record's,
 * kept by perf_pipe__to_file()), which must not land inside the data lbr events lengthen
 * (perf reads a pipe's tracing data to its end and wants only alignment after it). len when
 * they do not parse.
 */
static size_t td_tail_end(const char *d, size_t len, size_t pos, bool has_cmdlines)
{
	const char *text;
	__u64 size;

	/* kallsyms and printk formats: a u32 size each; the cmdlines: a u64 */
	if (td_block(d, len, &pos, 4, &text, &size) || td_block(d, len, &pos, 4, &text, &size) ||
	    (has_cmdlines && td_block(d, len, &pos, 8, &text, &size)))
		return len;
	return pos;
}

static int td_parse(const char *d, size_t len, struct td_layout *l)
{
	size_t pos, slen;
	bool has_cmdlines;
	__u32 i, nsys;

	memset(l, 0, sizeof(*l));
	if (len < 10 || memcmp(d, "\x17\x08\x44tracing", 10))
		return -EINVAL;
	pos = 10;
	slen = strnlen(d + pos, len - pos);
	if (pos + slen >= len)
		return -EINVAL;
	has_cmdlines = strcmp(d + pos, "0.6") >= 0;
	pos += slen + 1;
	if (td_need(pos, 6, len) || d[pos] != 0)	/* little endian only */
		return -EINVAL;
	pos += 6;					/* endian, long size, page size */
	if (td_header(d, len, &pos, "header_page") || td_header(d, len, &pos, "header_event") ||
	    td_files(d, len, &pos, &l->max_id) || td_need(pos, 4, len))
		return -EINVAL;
	l->systems_pos = pos;
	memcpy(&nsys, d + pos, 4);
	pos += 4;
	for (i = 0; i < nsys; i++) {
		slen = strnlen(d + pos, len - pos);
		if (pos + slen >= len)
			return -EINVAL;
		if (!strcmp(d + pos, PERF_LBR_SYSTEM))
			return -EEXIST;
		pos += slen + 1;
		if (td_files(d, len, &pos, &l->max_id))
			return -EINVAL;
	}
	l->systems_end = pos;
	l->end = td_tail_end(d, len, pos, has_cmdlines);
	return 0;
}

int perf_tracing_data__max_id(const void *data, size_t len, __u32 *max_id)
{
	struct td_layout l;
	int err = td_parse(data, len, &l);

	if (err)
		return err;
	*max_id = l.max_id;
	return 0;
}

int perf_lbr__tracing_data(const struct perf_lbr *pl, const void *orig, size_t orig_len,
			   void **out, size_t *out_len)
{
	struct buf b = { 0 };
	struct td_layout l;
	__u32 nsys;
	int err;

	if (orig) {
		err = td_parse(orig, orig_len, &l);
		if (err)
			return err;
		memcpy(&nsys, (const char *)orig + l.systems_pos, 4);
		buf_put(&b, orig, l.systems_pos);
		buf_u32(&b, nsys + 1);
		buf_put(&b, (const char *)orig + l.systems_pos + 4, l.systems_end - l.systems_pos - 4);
		put_lbr_system(pl, &b);
		buf_put(&b, (const char *)orig + l.systems_end, l.end - l.systems_end);
	} else {
		buf_put(&b, "\x17\x08\x44tracing" "0.6", 14);	/* with the version's NUL */
		buf_put(&b, "\0\x08", 2);			/* little endian, 8-byte long */
		buf_u32(&b, 4096);
		buf_put(&b, "header_page", 12);
		buf_u64(&b, strlen(tracedat_header_page_x86_64));
		buf_put(&b, tracedat_header_page_x86_64, strlen(tracedat_header_page_x86_64));
		buf_put(&b, "header_event", 13);
		buf_u64(&b, 0);			/* perf skips it: no ring-buffer pages here */
		buf_u32(&b, 0);			/* ftrace formats */
		buf_u32(&b, 1);			/* systems */
		put_lbr_system(pl, &b);
		buf_u32(&b, 0);			/* kallsyms: perf resolves through its maps */
		buf_u32(&b, 0);			/* printk formats */
		buf_u64(&b, 0);			/* saved cmdlines: COMM records name tasks */
	}
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*out_len = b.len;
	return 0;
}
