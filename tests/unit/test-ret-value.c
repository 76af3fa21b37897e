// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The return-value formatter every output uses (ret-value.c): each kind, values as the BPF
 * program stores them (already extended to 64 bits from the type's size), NULL, ERR_PTR
 * with a named and an unnamed errno, the ends of the 64-bit range.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "unit.h"
#include "lbrfile/lbrfile.h"
#include "lbrfile/ret-value.h"
#include "util/num-text.h"

/* lbr_ret__format() into a static buffer, checking its return against the text length */
static const char *fmt(enum lbrsnap_ret_kind kind, __s64 value)
{
	static char buf[LBR_RET_LEN];
	int n = lbr_ret__format(kind, value, buf, sizeof(buf));

	CU_ASSERT_EQUAL(n, (int)strlen(buf));
	CU_ASSERT(n < LBR_RET_LEN);
	return buf;
}

static void test_signed(void)
{
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, -17), "-17");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, -17), EEXIST);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, 0), "0");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, 0), 0);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, 42), "42");
	/* a 1-, 2- or 4-byte -1 arrives sign-extended */
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, -1), "-1");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, -1), EPERM);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, INT32_MIN), "-2147483648");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, INT64_MIN), "-9223372036854775808");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_SIGNED, INT64_MAX), "9223372036854775807");
	/* MAX_ERRNO is the last errno, one below is an ordinary number */
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, -4095), 4095);
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, -4096), 0);
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_SIGNED, INT64_MIN), 0);
}

static void test_unsigned(void)
{
	/* an unsigned int holding (u32)-17: zero-extended, never an errno */
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_UNSIGNED, 4294967279LL), "4294967279");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_UNSIGNED, 4294967279LL), 0);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_UNSIGNED, 255), "255");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_UNSIGNED, 65535), "65535");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_UNSIGNED, 0), "0");
	/* u64 max: all 64 bits set, which as a signed value would be -1 (EPERM) */
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_UNSIGNED, -1), "18446744073709551615");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_UNSIGNED, -1), 0);
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_UNSIGNED, -ENOENT), 0);
}

static void test_bool(void)
{
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_BOOL, 1), "true");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_BOOL, 0), "false");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_BOOL, 0), 0);
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_BOOL, 1), 0);
}

static void test_pointer(void)
{
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, 0), "NULL");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_POINTER, 0), 0);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, (__s64)0xffff888103a4c000ULL),
			       "0xffff888103a4c000");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_POINTER, (__s64)0xffff888103a4c000ULL), 0);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, 0x1000), "0x1000");
	/* IS_ERR(): a named errno, a kernel-internal one, an unnamed one, the last one */
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -ENOENT), "ERR_PTR(-ENOENT)");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_POINTER, -ENOENT), ENOENT);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -512), "ERR_PTR(-ERESTARTSYS)");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -516), "ERR_PTR(-ERESTART_RESTARTBLOCK)");
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -600), "ERR_PTR(-600)");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_POINTER, -600), 600);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -4095), "ERR_PTR(-4095)");
	/* the first address below the error range is a pointer */
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -4096), "0xfffffffffffff000");
	CU_ASSERT_EQUAL(lbr_ret__errno(LBRSNAP_RET_POINTER, -4096), 0);
	CU_ASSERT_STRING_EQUAL(fmt(LBRSNAP_RET_POINTER, -1), "ERR_PTR(-EPERM)");
}

static void test_truncation(void)
{
	char buf[8];

	/* snprintf() semantics: the full length back, a terminated prefix in buf */
	CU_ASSERT_EQUAL(lbr_ret__format(LBRSNAP_RET_POINTER, -ENOENT, buf, sizeof(buf)), 16);
	CU_ASSERT_STRING_EQUAL(buf, "ERR_PTR");
	CU_ASSERT_EQUAL(lbr_ret__format(LBRSNAP_RET_UNSIGNED, -1, buf, sizeof(buf)), 20);
	CU_ASSERT_STRING_EQUAL(buf, "1844674");
}

static void test_kind_names(void)
{
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(LBRSNAP_RET_NONE), "none");
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(LBRSNAP_RET_SIGNED), "signed");
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(LBRSNAP_RET_UNSIGNED), "unsigned");
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(LBRSNAP_RET_BOOL), "bool");
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(LBRSNAP_RET_POINTER), "pointer");
	CU_ASSERT_STRING_EQUAL(lbr_ret__kind_name(77), "none");
}

static void test_record_kind(void)
{
	struct lbr_attach_point ap = { .ret_kind = LBRSNAP_RET_POINTER, .ret_size = 8 };

	CU_ASSERT_EQUAL(lbr_ret__record_kind(&ap, LBRSNAP_EV_HAS_RET), LBRSNAP_RET_POINTER);
	/* no value in the record: nothing to format, whatever the type */
	CU_ASSERT_EQUAL(lbr_ret__record_kind(&ap, LBRSNAP_EV_CLOBBERED), LBRSNAP_RET_NONE);
	/* a value without a type (no attach point, or none recorded) reads as a long */
	CU_ASSERT_EQUAL(lbr_ret__record_kind(NULL, LBRSNAP_EV_HAS_RET), LBRSNAP_RET_SIGNED);
	ap.ret_kind = LBRSNAP_RET_NONE;
	CU_ASSERT_EQUAL(lbr_ret__record_kind(&ap, LBRSNAP_EV_HAS_RET), LBRSNAP_RET_SIGNED);
	ap.ret_kind = LBRSNAP_RET_BOOL;
	CU_ASSERT_EQUAL(lbr_ret__record_kind(&ap, LBRSNAP_EV_HAS_RET), LBRSNAP_RET_BOOL);
}

static void test_errno_names(void)
{
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(EEXIST), "EEXIST");
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(EHWPOISON), "EHWPOISON");
	CU_ASSERT_STRING_EQUAL(lbr_errno__name(531), "ENOGRACE");
	CU_ASSERT_PTR_NULL(lbr_errno__name(EHWPOISON + 1));
	CU_ASSERT_PTR_NULL(lbr_errno__name(532));
	CU_ASSERT_PTR_NULL(lbr_errno__name(-2));
}

/*
 * num-text.h puts what snprintf() puts, for every buffer length: the same return, the same
 * bytes up to and with the NUL, nothing written past them
 */
static void test_num_text(void)
{
	static const long long vals[] = {
		0, 1, -1, 7, 8, 9, 10, -9, 255, 4096, -4095, 0644, 01777, INT32_MIN, INT32_MAX,
		0xffffffffLL, INT64_MIN, INT64_MAX, 1234567890123456789LL,
	};
	char want[64], got[64];
	size_t i, len;
	int f, w, g;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		for (f = 0; f < 5; f++) {
			for (len = 0; len <= 32; len++) {
				unsigned long long u = vals[i];

				memset(want, 'Z', sizeof(want));
				memset(got, 'Z', sizeof(got));
				switch (f) {
				case 0:
					w = snprintf(want, len, "%lld", vals[i]);
					g = num_text__s64(got, len, vals[i]);
					break;
				case 1:
					w = snprintf(want, len, "%llu", u);
					g = num_text__u64(got, len, u);
					break;
				case 2:
					w = snprintf(want, len, "0x%llx", u);
					g = num_text__hex(got, len, u);
					break;
				case 3:
					w = snprintf(want, len, "%#llo", u);
					g = num_text__oct(got, len, u);
					break;
				default:
					w = snprintf(want, len, "%.*s", 5, "abcdefgh");
					g = num_text__put(got, len, "abcdefgh", 5);
					break;
				}
				CU_ASSERT_EQUAL(g, w);
				CU_ASSERT(!memcmp(want, got, sizeof(want)));
			}
		}
	}
}

static CU_TestInfo ret_tests[] = {
	{ "signed", test_signed },
	{ "unsigned", test_unsigned },
	{ "bool", test_bool },
	{ "pointer", test_pointer },
	{ "truncation", test_truncation },
	{ "kind_names", test_kind_names },
	{ "record_kind", test_record_kind },
	{ "errno_names", test_errno_names },
	{ "num_text", test_num_text },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "ret_value", NULL, NULL, NULL, NULL, ret_tests },
	CU_SUITE_INFO_NULL,
};
