// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * json-writer: exact bytes for escaping, nesting and commas, read back with json-c where the
 * text must be valid JSON, and the calls out of order refused without a byte written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "unit.h"
#include "util/json-writer.h"

static char *buf;
static size_t buf_len;
static FILE *mem;
static struct json_writer w;

static void open_writer(void)
{
	buf = NULL;
	buf_len = 0;
	mem = open_memstream(&buf, &buf_len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	json_writer__init(&w, mem);
}

/* What the writer wrote; the caller frees it. */
static char *close_writer(void)
{
	fclose(mem);
	return buf;
}

static void test_escaping(void)
{
	static const char raw[] = "q\"\\/\b\f\r\t\x7f\x80\n";
	json_object *o;
	char *out;

	open_writer();
	json__string_len(&w, raw, sizeof(raw) - 1);
	out = close_writer();
	CU_ASSERT_STRING_EQUAL(out, "\"q\\\"\\\\/\\u0008\\u000c\\u000d\\t\\u007f\\u0080\\n\"\n");
	o = json_tokener_parse(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_STRING_EQUAL(json_object_get_string(o), "q\"\\/\b\f\r\t\x7f\xc2\x80\n");
	json_object_put(o);
	free(out);
}

/* every control character, the NUL inside a string included, and a key that needs escaping */
static void test_control_characters(void)
{
	char raw[32], want[32 * 6 + 16], *out;
	json_object *o, *v;
	size_t i, n = 0;

	for (i = 0; i < 32; i++) {
		raw[i] = i;
		if (i == '\n')
			n += sprintf(want + n, "\\n");
		else if (i == '\t')
			n += sprintf(want + n, "\\t");
		else
			n += sprintf(want + n, "\\u%04zx", i);
	}
	open_writer();
	json__begin_object(&w);
	json__key(&w, "a\"b");
	json__string_len(&w, raw, sizeof(raw));
	json__end_object(&w);
	out = close_writer();
	CU_ASSERT_EQUAL(w.err, 0);
	CU_ASSERT_NSTRING_EQUAL(out, "{\"a\\\"b\":\"", 9);
	CU_ASSERT_NSTRING_EQUAL(out + 9, want, n);
	CU_ASSERT_STRING_EQUAL(out + 9 + n, "\"}\n");
	o = json_tokener_parse(out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_FATAL(json_object_object_get_ex(o, "a\"b", &v));
	CU_ASSERT_EQUAL(json_object_get_string_len(v), 32);
	CU_ASSERT(!memcmp(json_object_get_string(v), raw, sizeof(raw)));
	json_object_put(o);
	free(out);
}

static void test_nesting_and_commas(void)
{
	char *out;

	open_writer();
	json__begin_object(&w);
	json__field_string(&w, "time_ns", "12");
	json__field_u64(&w, "cpu", 18446744073709551615ull);
	json__key(&w, "list");
	json__begin_array(&w);
	json__begin_object(&w);
	json__key(&w, "from");
	json__stringf(&w, "0x%llx", 0xffffffff81000000ull);
	json__field_bool(&w, "trimmed", true);
	json__end_object(&w);
	json__begin_object(&w);
	json__end_object(&w);
	json__begin_array(&w);
	json__end_array(&w);
	json__s64(&w, -9223372036854775807ll - 1);
	json__null(&w);
	json__double(&w, 100.0 / 3, 2);
	json__raw(&w, "false");
	json__end_array(&w);
	json__key(&w, "empty");
	json__begin_object(&w);
	json__end_object(&w);
	json__field_s64(&w, "err", -2);
	json__field_string(&w, "none", NULL);
	json__end_object(&w);
	/* top-level values are JSON Lines */
	json__begin_array(&w);
	json__end_array(&w);
	json__u64(&w, 7);
	out = close_writer();
	CU_ASSERT_EQUAL(w.err, 0);
	CU_ASSERT_EQUAL(w.depth, 0);
	CU_ASSERT_STRING_EQUAL(out,
		"{\"time_ns\":\"12\",\"cpu\":18446744073709551615,\"list\":["
		"{\"from\":\"0xffffffff81000000\",\"trimmed\":true},{},[],"
		"-9223372036854775808,null,33.33,false],\"empty\":{},\"err\":-2,\"none\":null}\n"
		"[]\n7\n");
	free(out);
}

/* a formatted string longer than the writer's own buffer */
static void test_long_stringf(void)
{
	char long_s[1000], *out;

	memset(long_s, 'x', sizeof(long_s) - 1);
	long_s[sizeof(long_s) - 1] = 0;
	open_writer();
	json__stringf(&w, "<%s>", long_s);
	out = close_writer();
	CU_ASSERT_EQUAL(strlen(out), sizeof(long_s) - 1 + 5);
	CU_ASSERT_NSTRING_EQUAL(out, "\"<xxx", 5);
	CU_ASSERT_STRING_EQUAL(out + strlen(out) - 3, ">\"\n");
	free(out);
}

/* a value without its key, a key in an array, a mismatched end: refused, nothing written */
static void test_misuse(void)
{
	char *out;
	int i;

	open_writer();
	json__begin_object(&w);
	json__u64(&w, 1);
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__end_array(&w);
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__key(&w, "a");
	json__key(&w, "b");
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__end_object(&w);
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__begin_array(&w);
	json__key(&w, "c");
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__end_array(&w);
	json__end_object(&w);
	json__end_object(&w);
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	json__key(&w, "top");
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	w.err = 0;
	for (i = 0; i <= JSON_WRITER_DEPTH; i++)
		json__begin_array(&w);
	CU_ASSERT_EQUAL(w.err, -EINVAL);
	CU_ASSERT_EQUAL(w.depth, JSON_WRITER_DEPTH);
	out = close_writer();
	CU_ASSERT_NSTRING_EQUAL(out, "{\"a\":[]}\n[[[", 12);
	CU_ASSERT_EQUAL(strlen(out), 9 + JSON_WRITER_DEPTH);
	free(out);
}

static CU_TestInfo json_writer_tests[] = {
	{ "escaping", test_escaping },
	{ "control_characters", test_control_characters },
	{ "nesting_and_commas", test_nesting_and_commas },
	{ "long_stringf", test_long_stringf },
	{ "misuse", test_misuse },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "json_writer", NULL, NULL, NULL, NULL, json_writer_tests },
	CU_SUITE_INFO_NULL,
};
