// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/json-writer.h"

void json_writer__init(struct json_writer *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static bool in_object(const struct json_writer *w)
{
	return w->depth && !w->in_array[w->depth - 1];
}

/*
 * What comes before a value: nothing after a key, a comma after an array's earlier element.
 * An object's member needs its key first; false (nothing written) when it has none.
 */
static bool value_begin(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return true;
	}
	if (in_object(w)) {
		w->err = -EINVAL;
		return false;
	}
	if (w->depth && w->has_member[w->depth - 1])
		fputc(',', w->out);
	if (w->depth)
		w->has_member[w->depth - 1] = true;
	return true;
}

/* A value that ends at the top level ends its line. */
static void value_end(struct json_writer *w)
{
	if (!w->depth)
		fputc('\n', w->out);
}

static void put_string(FILE *out, const char *s, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void begin(struct json_writer *w, bool array)
{
	if (w->depth >= JSON_WRITER_DEPTH) {
		w->err = -EINVAL;
		return;
	}
	if (!value_begin(w))
		return;
	fputc(array ? '[' : '{', w->out);
	w->in_array[w->depth] = array;
	w->has_member[w->depth] = false;
	w->depth++;
}

static void end(struct json_writer *w, bool array)
{
	if (!w->depth || w->in_array[w->depth - 1] != array || w->after_key) {
		w->err = -EINVAL;
		return;
	}
	fputc(array ? ']' : '}', w->out);
	w->depth--;
	value_end(w);
}

void json__begin_object(struct json_writer *w)
{
	begin(w, false);
}

void json__end_object(struct json_writer *w)
{
	end(w, false);
}

void json__begin_array(struct json_writer *w)
{
	begin(w, true);
}

void json__end_array(struct json_writer *w)
{
	end(w, true);
}

void json__key(struct json_writer *w, const char *key)
{
	if (!in_object(w) || w->after_key) {
		w->err = -EINVAL;
		return;
	}
	if (w->has_member[w->depth - 1])
		fputc(',', w->out);
	w->has_member[w->depth - 1] = true;
	put_string(w->out, key, strlen(key));
	fputc(':', w->out);
	w->after_key = true;
}

void json__raw(struct json_writer *w, const char *text)
{
	if (!value_begin(w))
		return;
	fputs(text, w->out);
	value_end(w);
}

void json__string_len(struct json_writer *w, const char *s, size_t len)
{
	if (!value_begin(w))
		return;
	put_string(w->out, s, len);
	value_end(w);
}

void json__string(struct json_writer *w, const char *s)
{
	if (s)
		json__string_len(w, s, strlen(s));
	else
		json__null(w);
}

void json__stringf(struct json_writer *w, const char *fmt, ...)
{
	char buf[128], *s = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		va_start(ap, fmt);
		n = vasprintf(&s, fmt, ap);
		va_end(ap);
	}
	if (n < 0) {
		w->err = -ENOMEM;
		return;
	}
	json__string_len(w, s, n);
	if (s != buf)
		free(s);
}

void json__u64(struct json_writer *w, __u64 v)
{
	if (!value_begin(w))
		return;
	fprintf(w->out, "%llu", (unsigned long long)v);
	value_end(w);
}

void json__s64(struct json_writer *w, __s64 v)
{
	if (!value_begin(w))
		return;
	fprintf(w->out, "%lld", (long long)v);
	value_end(w);
}

void json__double(struct json_writer *w, double v, int decimals)
{
	if (!value_begin(w))
		return;
	fprintf(w->out, "%.*f", decimals, v);
	value_end(w);
}

void json__bool(struct json_writer *w, bool v)
{
	json__raw(w, v ? "true" : "false");
}

void json__null(struct json_writer *w)
{
	json__raw(w, "null");
}
