/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * JSON output without hand-typed punctuation: the writer puts the commas, the colons and the
 * quotes, and escapes every key and string, so no format text holds a JSON key. Values at
 * the top level are JSON Lines: each ends with a newline.
 *
 * Strings carry arbitrary bytes (a comm is whatever its task set): bytes outside printable
 * ASCII become \u00XX, each byte read as a Latin-1 code point, which keeps the output valid
 * UTF-8 and loses nothing; the quote and the backslash are escaped, and newline and tab
 * spelled \n and \t.
 */
#ifndef LBRSNAP_JSON_WRITER_H
#define LBRSNAP_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

/* objects and arrays nested deeper are a misuse (err) */
#define JSON_WRITER_DEPTH	32

struct json_writer {
	FILE *out;
	unsigned int depth;
	bool in_array[JSON_WRITER_DEPTH];	/* per level: an array, not an object */
	bool has_member[JSON_WRITER_DEPTH];	/* per level: the next member needs a comma */
	bool after_key;				/* a key waits for its value */
	/* -EINVAL: a call out of order, refused without a byte written; -ENOMEM */
	int err;
};

void json_writer__init(struct json_writer *w, FILE *out);

void json__begin_object(struct json_writer *w);
void json__end_object(struct json_writer *w);
void json__begin_array(struct json_writer *w);
void json__end_array(struct json_writer *w);

/* A member's name, inside an object: the next value is its value. */
void json__key(struct json_writer *w, const char *key);

/* s up to its NUL; NULL is null. */
void json__string(struct json_writer *w, const char *s);
/* len bytes of s, any byte value (NULs too). */
void json__string_len(struct json_writer *w, const char *s, size_t len);
/* A string from a printf format, escaped as any string ("0x%llx": an address). */
void json__stringf(struct json_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void json__u64(struct json_writer *w, __u64 v);
void json__s64(struct json_writer *w, __s64 v);
/* v with decimals digits after the point ("%.2f") */
void json__double(struct json_writer *w, double v, int decimals);
void json__bool(struct json_writer *w, bool v);
void json__null(struct json_writer *w);
/* A number or literal the caller has formatted already (a typed return value's text). */
void json__raw(struct json_writer *w, const char *text);

/* key and value in one call */
static inline void json__field_string(struct json_writer *w, const char *key, const char *s)
{
	json__key(w, key);
	json__string(w, s);
}

static inline void json__field_u64(struct json_writer *w, const char *key, __u64 v)
{
	json__key(w, key);
	json__u64(w, v);
}

static inline void json__field_s64(struct json_writer *w, const char *key, __s64 v)
{
	json__key(w, key);
	json__s64(w, v);
}

static inline void json__field_bool(struct json_writer *w, const char *key, bool v)
{
	json__key(w, key);
	json__bool(w, v);
}

#endif /* LBRSNAP_JSON_WRITER_H */
