/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Numbers and strings put into a bounded buffer exactly as snprintf() would put them
 * ("%lld", "%llu", "0x%llx", "%#llo", "%.*s"), without parsing a format: the merges write a
 * few of these for every record, and snprintf()'s format walk was most of a record's cost.
 */
#ifndef LBRSNAP_NUM_TEXT_H
#define LBRSNAP_NUM_TEXT_H

#include <stddef.h>
#include <string.h>

/* Room for the longest: 22 octal digits of a 64-bit number, a "0x" or "-", and a NUL */
#define NUM_TEXT_LEN 26

/* snprintf(buf, len, "%.*s", n, s): at most len - 1 bytes and a NUL; returns n */
static inline int num_text__put(char *buf, size_t len, const char *s, size_t n)
{
	if (len) {
		size_t w = n < len - 1 ? n : len - 1;

		memcpy(buf, s, w);
		buf[w] = 0;
	}
	return (int)n;
}

/* The digits of v in base (8, 10, 16: lower case) ending at end; returns the first */
static inline char *num_text__digits(char *end, unsigned long long v, unsigned int base)
{
	do {
		*--end = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	return end;
}

/* "%llu" */
static inline int num_text__u64(char *buf, size_t len, unsigned long long v)
{
	char t[NUM_TEXT_LEN], *p = num_text__digits(t + sizeof(t), v, 10);

	return num_text__put(buf, len, p, t + sizeof(t) - p);
}

/* "%lld" */
static inline int num_text__s64(char *buf, size_t len, long long v)
{
	char t[NUM_TEXT_LEN], *p;

	/* negated as unsigned: LLONG_MIN has no positive counterpart */
	p = num_text__digits(t + sizeof(t), v < 0 ? 0ULL - (unsigned long long)v :
			     (unsigned long long)v, 10);
	if (v < 0)
		*--p = '-';
	return num_text__put(buf, len, p, t + sizeof(t) - p);
}

/* "0x%llx" */
static inline int num_text__hex(char *buf, size_t len, unsigned long long v)
{
	char t[NUM_TEXT_LEN], *p = num_text__digits(t + sizeof(t), v, 16);

	*--p = 'x';
	*--p = '0';
	return num_text__put(buf, len, p, t + sizeof(t) - p);
}

/* "%#llo": a leading 0 unless the number is 0 */
static inline int num_text__oct(char *buf, size_t len, unsigned long long v)
{
	char t[NUM_TEXT_LEN], *p = num_text__digits(t + sizeof(t), v, 8);

	if (v)
		*--p = '0';
	return num_text__put(buf, len, p, t + sizeof(t) - p);
}

#endif /* LBRSNAP_NUM_TEXT_H */
