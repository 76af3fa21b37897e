// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * kprobe_multi__missed_at(): where struct bpf_link_info holds the kprobe `missed` counters,
 * found in a kernel's BTF through its anonymous unions: a BTF laid out as Linux 6.7's UAPI,
 * one as 6.1's (no such fields: nothing to read), and the running kernel's own when it has
 * them.
 */
#include <stdbool.h>
#include <bpf/btf.h>
#include "unit.h"
#include "capture/kprobe-multi.h"

/* struct bpf_link_info as 6.7+ lay it out (with_missed), or 6.1's union without them */
static struct btf *link_info_btf(bool with_missed)
{
	struct btf *btf = btf__new_empty();
	int u32, u64, kp, pe_u, pe, km, u, s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(btf);
	u32 = btf__add_int(btf, "__u32", 4, 0);
	u64 = btf__add_int(btf, "__u64", 8, 0);
	kp = btf__add_struct(btf, "", 40);
	btf__add_field(btf, "func_name", u64, 0, 0);
	btf__add_field(btf, "name_len", u32, 64, 0);
	btf__add_field(btf, "offset", u32, 96, 0);
	btf__add_field(btf, "addr", u64, 128, 0);
	if (with_missed)
		btf__add_field(btf, "missed", u64, 192, 0);
	pe_u = btf__add_union(btf, "", 40);
	btf__add_field(btf, "kprobe", kp, 0, 0);
	pe = btf__add_struct(btf, "", 48);
	btf__add_field(btf, "type", u32, 0, 0);
	btf__add_field(btf, "", pe_u, 64, 0);
	km = btf__add_struct(btf, "", 24);
	btf__add_field(btf, "addrs", u64, 0, 0);
	btf__add_field(btf, "count", u32, 64, 0);
	btf__add_field(btf, "flags", u32, 96, 0);
	if (with_missed)
		btf__add_field(btf, "missed", u64, 128, 0);
	u = btf__add_union(btf, "", 48);
	btf__add_field(btf, "kprobe_multi", km, 0, 0);
	btf__add_field(btf, "perf_event", pe, 0, 0);
	s = btf__add_struct(btf, "bpf_link_info", 64);
	btf__add_field(btf, "type", u32, 0, 0);
	btf__add_field(btf, "id", u32, 32, 0);
	btf__add_field(btf, "prog_id", u32, 64, 0);
	btf__add_field(btf, "", u, 128, 0);
	CU_ASSERT_FATAL(s > 0);
	return btf;
}

static void test_uapi_67(void)
{
	struct btf *btf = link_info_btf(true);
	struct kprobe_missed_at at;

	kprobe_multi__missed_at(btf, &at);
	CU_ASSERT_EQUAL(at.multi, 32);
	CU_ASSERT_EQUAL(at.perf, 48);
	CU_ASSERT_EQUAL(at.perf_type, 16);
	btf__free(btf);
}

static void test_no_missed(void)
{
	struct btf *btf = link_info_btf(false);
	struct kprobe_missed_at at;

	kprobe_multi__missed_at(btf, &at);
	CU_ASSERT_EQUAL(at.multi, 0);
	CU_ASSERT_EQUAL(at.perf, 0);
	CU_ASSERT_EQUAL(at.perf_type, 16);
	btf__free(btf);
	/* no BTF at all: nothing to read */
	kprobe_multi__missed_at(NULL, &at);
	CU_ASSERT_EQUAL(at.multi + at.perf + at.perf_type, 0);
}

/* The UAPI layout is stable: a kernel that has the fields has them at these offsets */
static void test_running_kernel(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	struct kprobe_missed_at at;

	if (!btf)
		return;
	kprobe_multi__missed_at(btf, &at);
	if (at.multi)
		CU_ASSERT_EQUAL(at.multi, 32);
	if (at.perf)
		CU_ASSERT_EQUAL(at.perf, 48);
	btf__free(btf);
}

static CU_TestInfo tests[] = {
	{ "missed offsets of Linux 6.7's struct bpf_link_info", test_uapi_67 },
	{ "no missed fields (6.1): none read", test_no_missed },
	{ "the running kernel's, where it has them", test_running_kernel },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "kprobe-missed", NULL, NULL, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};
