// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf.data writer, reader and the lbr event encoding, without perf: files written here are
 * read back field by field (tests/host/t-perf* check the same files with perf itself).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include "perf-lbr/perf-tracing-data.h"
#include "perf-lbr/perf-convert.h"
#include "perf-lbr/perf-merge.h"
#include "perf/perf-data.h"
#include "perf/perf-sample.h"
#include "perf/perf-data-reader.h"
#include "perf/perf-data-writer.h"
#include "perf-lbr/perf-lbr.h"
#include "unit.h"

static char dir[] = "/tmp/test-perf-data.XXXXXX";
static char path[256], cap_path[256];

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T vfs_read\n"
	"ffffffff81000200 T ksys_read\n"
	"ffffffff82000000 T _etext\n"
	"ffffffffa0001000 t bpf_prog_0123456789abcdef_x\t[bpf]\n";

static int suite_init(void)
{
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(cap_path, sizeof(cap_path), "%s/cap.data", dir);
	return 0;
}

static int suite_clean(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* A record of n u64s after the header, each value seed + i. */
static void *make_record(__u32 type, size_t n, __u64 seed)
{
	struct perf_event_header *h = calloc(1, sizeof(*h) + n * 8);
	__u64 *p = (void *)(h + 1);
	size_t i;

	h->type = type;
	h->size = sizeof(*h) + n * 8;
	for (i = 0; i < n; i++)
		p[i] = seed + i;
	return h;
}

static void test_roundtrip_stream(void)
{
	struct perf_event_attr attr = { .size = PERF_ATTR_WRITE_SIZE, .sample_type = 7 };
	const struct perf_event_header *h;
	__u64 ids[] = { 11, 12 }, feat[2] = { 5, 6 }, *v;
	struct perf_writer *w;
	struct perf_reader *r;
	size_t i, n = 0, len;
	void *d;

	CU_ASSERT_FATAL(perf_writer__create(path, PERF_ATTR_WRITE_SIZE, &w) == 0);
	CU_ASSERT(perf_writer__add_attr(w, &attr, ids, 2) == 0);
	CU_ASSERT(perf_writer__feature(w, PERF_FEAT_SAMPLE_TIME, feat, sizeof(feat)) == 0);
	CU_ASSERT(perf_writer__feature(w, PERF_FEAT_BRANCH_STACK, NULL, 0) == 0);
	/* about 3 MiB of records of varying sizes: several refills of the 1 MiB buffer */
	for (i = 0; i < 6000; i++) {
		void *rec = make_record(PERF_RECORD_SAMPLE, 1 + i % 127, i << 16);

		CU_ASSERT(perf_writer__write(w, rec) == 0);
		free(rec);
	}
	CU_ASSERT(perf_writer__add_attr(w, &attr, ids, 1) == -EBUSY);
	CU_ASSERT_FATAL(perf_writer__close(w) == 0);

	CU_ASSERT_FATAL(perf_reader__open(path, &r) == 0);
	CU_ASSERT(perf_reader__nr_attrs(r) == 1);
	CU_ASSERT(perf_reader__attr(r, 0)->attr.sample_type == 7);
	CU_ASSERT(perf_reader__attr(r, 0)->nr_ids == 2);
	CU_ASSERT(perf_reader__attr(r, 0)->ids[1] == 12);
	CU_ASSERT(perf_reader__header(r)->attr_size == PERF_ATTR_WRITE_SIZE + 16);
	while (perf_reader__next(r, &h) == 1) {
		v = (__u64 *)(h + 1);
		if (h->size != 8 + 8 * (1 + n % 127) || v[0] != n << 16 ||
		    v[(h->size - 16) / 8] != (n << 16) + (h->size - 16) / 8)
			break;
		n++;
	}
	CU_ASSERT(n == 6000);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_SAMPLE_TIME, &d, &len) == 0);
	CU_ASSERT(len == 16 && !memcmp(d, feat, 16));
	free(d);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_BRANCH_STACK, &d, &len) == 0);
	CU_ASSERT(len == 0);
	free(d);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_CLOCKID, &d, &len) == -ENOENT);
	perf_reader__rewind(r);
	CU_ASSERT(perf_reader__next(r, &h) == 1 && ((__u64 *)(h + 1))[0] == 0);
	perf_reader__close(r);
	CU_ASSERT(access(path, F_OK) == 0);
}

static void test_reader_rejects(void)
{
	struct perf_reader *r;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, "PERFILE1 not a perf file at all, but long enough for a header read "
			    "to get all of the 104 bytes it wants..........", 110) == 110);
	close(fd);
	CU_ASSERT(perf_reader__open(path, &r) == -EINVAL);
}

static void test_sample_layout(void)
{
	__u64 st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		   PERF_SAMPLE_CPU;

	CU_ASSERT(perf_sample__time_pos(st) == 24);
	CU_ASSERT(perf_sample__time_pos(PERF_SAMPLE_IP) == -1);
	CU_ASSERT(perf_sample__id_trailer_size(st) == 32);	/* TID, TIME, CPU, IDENTIFIER */
	CU_ASSERT(perf_sample__trailer_time_pos(st) == 24);
	CU_ASSERT(perf_sample__trailer_time_pos(PERF_SAMPLE_TIME) == 8);
}

/* A capture with one fexit and one raw_tp attach point and two records. */
static void write_capture(void)
{
	__u64 buf[(sizeof(struct lbrsnap_event) + 2 * 24 + 2 * 8) / 8 + 1] = { 0 };
	struct lbrsnap_event *ev = (void *)buf;
	struct lbrsnap_branch *br = (void *)(ev + 1);
	struct lbr_attach_point ap = { .id = 0, .kind = LBRSNAP_KIND_FEXIT,
				       .flags = LBRFILE_AP_HAS_RET, .spec = "fexit:vfs_read",
				       .target = "vfs_read", .ret_kind = LBRSNAP_RET_SIGNED,
				       .ret_size = 8, .ret_type = "ssize_t" };
	struct lbrfile_writer *w;

	CU_ASSERT_FATAL(lbrfile_writer__create(cap_path, &w) == 0);
	CU_ASSERT(lbrfile_writer__meta(w, "time_ref", "%s", "1000 2000") == 0);
	CU_ASSERT(lbrfile_writer__meta(w, "branch_filter", "%s", "any_call,u") == 0);
	CU_ASSERT(lbrfile_writer__attach(w, &ap) == 0);
	ap.id = 1;
	ap.kind = LBRSNAP_KIND_RAW_TP;
	ap.flags = 0;
	ap.ret_kind = LBRSNAP_RET_NONE;
	ap.ret_size = 0;
	ap.ret_type = "";
	ap.spec = "raw_tp:sys_exit";
	ap.target = "sys_exit";
	CU_ASSERT(lbrfile_writer__attach(w, &ap) == 0);
	ev->time_ns = 5000;
	ev->ret = -2;
	ev->tid = ev->pid = 42;
	ev->flags = LBRSNAP_EV_HAS_RET;
	ev->nr_branches = 2;
	strcpy(ev->comm, "cat");
	br[0] = (struct lbrsnap_branch){ 0xffffffffa0001010, 0xffffffff81000120, 0x4000a2 };
	br[1] = (struct lbrsnap_branch){ 0xffffffff81000210, 0xffffffff81000100, 0x4000a2 };
	CU_ASSERT(lbrfile_writer__record(w, buf, lbrsnap_event_size(2, 0)) == 0);
	memset(buf, 0, sizeof(buf));
	ev->time_ns = 4000;
	ev->ap = 1;
	ev->tid = ev->pid = 43;
	ev->nr_stack = 2;
	strcpy(ev->comm, "sh");
	((__u64 *)(ev + 1))[0] = 0xffffffff81000210;
	((__u64 *)(ev + 1))[1] = 0xffffffff81000110;
	CU_ASSERT(lbrfile_writer__record(w, buf, lbrsnap_event_size(0, 2)) == 0);
	CU_ASSERT(lbrfile_writer__loss(w, 0, LBRSNAP_LOSS_RINGBUF, 9) == 0);
	CU_ASSERT(lbrfile_writer__kallsyms(w, kallsyms, sizeof(kallsyms) - 1) == 0);
	CU_ASSERT_FATAL(lbrfile_writer__close(w) == 0);
}

static bool has(const void *d, size_t len, const char *s)
{
	return memmem(d, len, s, strlen(s)) != NULL;
}

/* The __data_loc word at off of a RAW payload: its bytes, and their count in *len. */
static const void *raw_loc(const char *raw, unsigned int off, unsigned int *len)
{
	__u32 loc = *(const __u32 *)(raw + off);

	*len = loc >> 16;
	return raw + (loc & 0xffff);
}

/*
 * The fexit sample: IDENTIFIER, IP (the target), TID, TIME, CPU, PERIOD, RAW, BRANCH_STACK.
 * Its newest branch is the BPF program's: the tracing path, in RAW unless keep_all.
 */
static void check_fexit_sample(const __u64 *p, bool keep_all)
{
	const char *raw = (const char *)(p + 6) + 4;
	__u32 raw_size = *(const __u32 *)(p + 6);
	const __u64 *br = (const __u64 *)(raw + raw_size);
	const __u64 *tracing;
	const char *ret;
	unsigned int len;
	__s64 ret_val;
	__u64 tr[3];

	CU_ASSERT(p[1] == 0xffffffff81000100 && p[3] == 5000 && p[5] == 1);
	CU_ASSERT((4 + raw_size) % 8 == 0);
	memcpy(&ret_val, raw + 8, 8);	/* RAW starts 4 bytes into a u64: unaligned */
	CU_ASSERT(ret_val == -2);
	CU_ASSERT(*(const __u16 *)(raw + 36) == 2);		/* nr_branches: all captured */
	CU_ASSERT(*(const __u16 *)(raw + 40) == 1);		/* trim_branches */
	CU_ASSERT(*(const __u8 *)(raw + 56) == LBRSNAP_RET_SIGNED);
	ret = raw_loc(raw, 52, &len);
	CU_ASSERT(len == 3 && !strcmp(ret, "-2"));
	tracing = raw_loc(raw, 44, &len);
	raw_loc(raw, 48, &len);
	CU_ASSERT(len == 0);					/* no stack */
	if (keep_all) {
		raw_loc(raw, 44, &len);
		CU_ASSERT(len == 0);
		CU_ASSERT(br[0] == 2 && br[1] == 0xffffffffa0001010 && br[4] == 0xffffffff81000210);
		return;
	}
	raw_loc(raw, 44, &len);
	CU_ASSERT_FATAL(len == 24);
	memcpy(tr, tracing, sizeof(tr));	/* RAW's arrays are not 8-byte aligned */
	CU_ASSERT(tr[0] == 0xffffffffa0001010 && tr[2] == 0x4000a2);
	CU_ASSERT(br[0] == 1 && br[1] == 0xffffffff81000210 && br[2] == 0xffffffff81000100);
}

static void test_convert_records(void)
{
	const struct perf_event_header *h;
	const struct perf_file_attr *a;
	struct perf_reader *r;
	int types[16], n = 0;
	const __u64 *p;
	size_t len;
	void *d;

	write_capture();
	CU_ASSERT_FATAL(perf_convert(cap_path, path, NULL, false) == 0);
	CU_ASSERT_FATAL(perf_reader__open(path, &r) == 0);
	CU_ASSERT_FATAL(perf_reader__nr_attrs(r) == 3);	/* two attach points, the sideband */
	a = perf_reader__attr(r, 0);
	CU_ASSERT(a->attr.type == PERF_TYPE_TRACEPOINT && a->attr.use_clockid && a->attr.clockid == 1);
	CU_ASSERT(a->attr.sample_type & PERF_SAMPLE_BRANCH_STACK);
	CU_ASSERT(!(a->attr.sample_type & PERF_SAMPLE_CALLCHAIN));
	/* the capture's -j, from its META */
	CU_ASSERT(a->attr.branch_sample_type ==
		  (PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER));
	CU_ASSERT(perf_reader__attr(r, 1)->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	CU_ASSERT(perf_reader__attr(r, 2)->attr.type == PERF_TYPE_SOFTWARE);
	while (n < 16 && perf_reader__next(r, &h) == 1) {
		types[n++] = h->type;
		p = (const __u64 *)(h + 1);
		if (h->type == PERF_RECORD_MMAP && n == 1) {
			CU_ASSERT(p[1] == 0xffffffff81000000 && p[3] == 0xffffffff81000000);
			CU_ASSERT(!strcmp((const char *)(p + 4), "[kernel.kallsyms]_text"));
		}
		if (h->type == PERF_RECORD_SAMPLE && p[0] == a->ids[0])
			check_fexit_sample(p, false);
		if (h->type == PERF_RECORD_SAMPLE && p[0] != a->ids[0]) {
			/* ... CALLCHAIN: nr, PERF_CONTEXT_KERNEL, the stack */
			CU_ASSERT(p[1] == 0xffffffff81000210 && p[3] == 4000);
			CU_ASSERT(p[6] == 3 && p[7] == PERF_CONTEXT_KERNEL && p[9] == 0xffffffff81000110);
		}
	}
	/* kernel map, BPF module map + KSYMBOL, then COMM+SAMPLE in time order, LOST */
	CU_ASSERT(n == 8);
	CU_ASSERT(types[0] == PERF_RECORD_MMAP && types[1] == PERF_RECORD_MMAP);
	CU_ASSERT(types[2] == PERF_RECORD_KSYMBOL && types[3] == PERF_RECORD_COMM);
	CU_ASSERT(types[4] == PERF_RECORD_SAMPLE && types[7] == PERF_RECORD_LOST);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_CLOCK_DATA, &d, &len) == 0);
	CU_ASSERT(len == 24 && ((__u64 *)d)[1] == 2000 && ((__u64 *)d)[2] == 1000);
	free(d);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_EVENT_DESC, &d, &len) == 0);
	CU_ASSERT(len > 8 && *(__u32 *)d == 3 && memmem(d, len, "lbr:fexit:vfs_read", 18));
	free(d);
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_TRACING_DATA, &d, &len) == 0);
	CU_ASSERT(memmem(d, len, "name: raw_tp__sys_exit\nID: 2\n", 29) != NULL);
	/* ret typed as a signed 64-bit value and printed as one */
	CU_ASSERT(has(d, len, "\tfield:long long ret;\toffset:8;\tsize:8;\tsigned:1;\n"));
	CU_ASSERT(has(d, len, "print fmt: \"ret=%lld branches=%u stack=%u trim_branches=%u "
		      "trim_stack=%u seq=%llu\", REC->ret, REC->nr_branches,"));
	free(d);
	perf_reader__close(r);

	/* --keep-all: the samples hold every entry, RAW none */
	CU_ASSERT_FATAL(perf_convert(cap_path, path, NULL, true) == 0);
	CU_ASSERT_FATAL(perf_reader__open(path, &r) == 0);
	n = 0;
	while (perf_reader__next(r, &h) == 1) {
		p = (const __u64 *)(h + 1);
		if (h->type == PERF_RECORD_SAMPLE && p[0] == perf_reader__attr(r, 0)->ids[0]) {
			check_fexit_sample(p, true);
			n++;
		}
	}
	CU_ASSERT(n == 1);
	perf_reader__close(r);
}

/* A META branch_filter that is not a -j list is named, and nothing is written. */
static void test_convert_bad_branch_filter(void)
{
	struct lbr_attach_point ap = { .id = 0, .kind = LBRSNAP_KIND_RAW_TP,
				       .spec = "raw_tp:sys_exit", .target = "sys_exit" };
	char bad[300], out[300];
	struct lbrfile_writer *w;

	snprintf(bad, sizeof(bad), "%s/bad-filter.data", dir);
	snprintf(out, sizeof(out), "%s/bad-filter.perf", dir);
	CU_ASSERT_FATAL(lbrfile_writer__create(bad, &w) == 0);
	CU_ASSERT(lbrfile_writer__meta(w, "branch_filter", "%s", "any,bogus") == 0);
	CU_ASSERT(lbrfile_writer__attach(w, &ap) == 0);
	CU_ASSERT(lbrfile_writer__kallsyms(w, kallsyms, sizeof(kallsyms) - 1) == 0);
	CU_ASSERT_FATAL(lbrfile_writer__close(w) == 0);
	CU_ASSERT(perf_convert(bad, out, NULL, false) == -EINVAL);
	CU_ASSERT(access(out, F_OK) != 0);
}

/* A recording's tracing data with a "sched" system whose event has ID 300. */
static void test_tracing_data_splice(void)
{
	struct perf_lbr_opts o = { .first_id = 100, .first_tp_id = 1 };
	struct lbrfile *cap;
	struct perf_lbr *pl;
	void *own, *merged, *again;
	size_t own_len, merged_len, again_len;
	char *sched;
	__u32 max;

	CU_ASSERT_FATAL(lbrfile__open(cap_path, &cap) == 0);
	CU_ASSERT_FATAL(perf_lbr__new(cap, cap_path, &o, &pl) == 0);
	CU_ASSERT_FATAL(perf_lbr__tracing_data(pl, NULL, 0, &own, &own_len) == 0);
	CU_ASSERT(perf_tracing_data__max_id(own, own_len, &max) == -EEXIST);
	/* rename the system: now it reads as a recording's "sched" system with ID 300 */
	sched = memmem(own, own_len, "lbr\0", 4);
	CU_ASSERT_FATAL(sched != NULL);
	memcpy(sched, "xyz", 3);
	memcpy(memmem(own, own_len, "ID: 2\n", 6), "ID: 9\n", 6);
	CU_ASSERT(perf_tracing_data__max_id(own, own_len, &max) == 0 && max == 9);
	CU_ASSERT(perf_lbr__tracing_data(pl, own, own_len, &merged, &merged_len) == 0);
	CU_ASSERT(merged_len > own_len);
	CU_ASSERT(memmem(merged, merged_len, "xyz\0", 4) && memmem(merged, merged_len, "lbr\0", 4));
	/* systems count went from 1 to 2; merging twice is refused */
	CU_ASSERT(perf_lbr__tracing_data(pl, merged, merged_len, &again, &again_len) == -EEXIST);
	CU_ASSERT(perf_tracing_data__max_id("garbage", 7, &max) == -EINVAL);
	free(own);
	free(merged);
	perf_lbr__free(pl);
	lbrfile__close(cap);
}

/* perf_merge refuses a recording with perf's default clock and leaves no output. */
static void test_merge_refuses_default_clock(void)
{
	struct perf_event_attr attr = { .size = PERF_ATTR_WRITE_SIZE, .sample_type =
					PERF_SAMPLE_IP | PERF_SAMPLE_TIME };
	__u64 id = 1, rec[2] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct perf_writer *w;
	char out[300];

	h->type = PERF_RECORD_SAMPLE;
	h->size = 16;
	CU_ASSERT_FATAL(perf_writer__create(path, PERF_ATTR_WRITE_SIZE, &w) == 0);
	CU_ASSERT(perf_writer__add_attr(w, &attr, &id, 1) == 0);
	CU_ASSERT(perf_writer__write(w, rec) == 0);
	CU_ASSERT_FATAL(perf_writer__close(w) == 0);
	snprintf(out, sizeof(out), "%s/merged.data", dir);
	CU_ASSERT(perf_merge(path, cap_path, out, NULL, false, NULL) == -EINVAL);
	CU_ASSERT(access(out, F_OK) != 0);
}

/*
 * A recording as newer perf writes it: 144-byte attributes (config3, config4 after perf
 * 6.1's 128 bytes), records inside PERF_RECORD_COMPRESSED2 (one zstd stream cut across two
 * records, the second starting inside a record), a PERF_RECORD_CALLCHAIN_DEFERRED and a
 * record type no perf knows yet. Its records in file order, decompressed, go to want[].
 */
#define NEW_ID		7
#define NEW_ATTR_BYTES	144
#define NEW_SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME)

static size_t put_rec(__u64 *buf, __u32 type, __u16 misc, const __u64 *body, size_t n)
{
	struct perf_event_header *h = (void *)buf;

	h->type = type;
	h->misc = misc;
	h->size = 8 + n * 8;
	if (n)
		memcpy(buf + 1, body, n * 8);
	return 1 + n;
}

static size_t write_newer_recording(const char *file, __u64 *want, size_t *nr_want)
{
	__u8 raw[PERF_ATTR_MAX_BYTES] = { 0 };
	struct perf_event_attr *attr = (void *)raw;
	struct perf_file_attr fa = { .nr_ids = 1 };
	__u64 id = NEW_ID, plain[64], packed[256], rec[64];
	__u64 comm[] = { 42ULL << 32 | 42, 0x746163, 42ULL << 32 | 42, 3000, NEW_ID };
	__u64 s1[] = { NEW_ID, 0xffffffff81000100, 42ULL << 32 | 42, 4500 };
	__u64 deferred[] = { 2, 0xfffffffffffffe00, 0x401000, 42ULL << 32 | 42, 4600, NEW_ID };
	__u64 unknown[] = { 0x1122334455667788, 0x99 };
	__u64 s2[] = { NEW_ID, 0xffffffff81000200, 42ULL << 32 | 42, 6000 };
	struct perf_writer *w;
	size_t n = 0, plain_len, packed_len, cut;
	char feat = 1;

	attr->size = NEW_ATTR_BYTES;
	attr->type = PERF_TYPE_SOFTWARE;
	attr->sample_type = NEW_SAMPLE_TYPE;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = 1;
	memset(raw + 128, 0xc3, 8);	/* config3 */
	memset(raw + 136, 0xc4, 8);	/* config4 */
	memcpy(fa.attr_raw, raw, sizeof(raw));
	fa.ids = &id;
	CU_ASSERT_FATAL(perf_writer__create(file, NEW_ATTR_BYTES, &w) == 0);
	CU_ASSERT(perf_writer__add_file_attr(w, &fa) == 0);
	/* COMM, then the first sample and the deferred callchain compressed */
	n += put_rec(want + n, PERF_RECORD_COMM, 0, comm, 5);
	CU_ASSERT(perf_writer__write(w, want) == 0);
	plain_len = put_rec(plain, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, s1, 4);
	plain_len += put_rec(plain + plain_len, PERF_RECORD_CALLCHAIN_DEFERRED, 0, deferred, 6);
	memcpy(want + n, plain, plain_len * 8);
	n += plain_len;
	packed_len = ZSTD_compress(packed, sizeof(packed), plain, plain_len * 8, 1);
	CU_ASSERT_FATAL(!ZSTD_isError(packed_len) && packed_len > 8);
	for (cut = 0; cut < packed_len;) {
		size_t len = cut ? packed_len - cut : packed_len / 2;
		struct perf_event_header *h = (void *)rec;

		h->type = PERF_RECORD_COMPRESSED2;
		h->misc = 0;
		h->size = 16 + (len + 7) / 8 * 8;
		rec[1] = len;
		memset((char *)(rec + 2) + len, 0, h->size - 16 - len);
		memcpy(rec + 2, (char *)packed + cut, len);
		CU_ASSERT(perf_writer__write(w, rec) == 0);
		cut += len;
	}
	n += put_rec(want + n, 99, 0, unknown, 2);
	n += put_rec(want + n, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, s2, 4);
	n += put_rec(want + n, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0);
	for (size_t off = plain_len + 6; off < n; off += ((struct perf_event_header *)
							  (want + off))->size / 8)
		CU_ASSERT(perf_writer__write(w, want + off) == 0);
	CU_ASSERT(perf_writer__feature(w, PERF_FEAT_COMPRESSED, &feat, 1) == 0);
	CU_ASSERT_FATAL(perf_writer__close(w) == 0);
	*nr_want = n;
	return n;
}

/*
 * tests/fuzz/make-seeds keeps the hand-built recording as a seed of the perf.data readers:
 * with $LBRSNAP_UNIT_SEEDS set, it is copied to its perf-data/ and inject/ corpora.
 */
static void keep_seed(const char *file, const char *name)
{
	static const char *const corpora[] = { "perf-data", "inject" };
	const char *seeds = getenv("LBRSNAP_UNIT_SEEDS");
	char buf[4096], to[PATH_MAX];
	size_t i, n;
	FILE *in, *out;

	for (i = 0; seeds && i < sizeof(corpora) / sizeof(corpora[0]); i++) {
		snprintf(to, sizeof(to), "%s/%s/%s", seeds, corpora[i], name);
		in = fopen(file, "rb");
		out = fopen(to, "wb");
		CU_ASSERT_FATAL(in && out);
		while ((n = fread(buf, 1, sizeof(buf), in)))
			CU_ASSERT(fwrite(buf, 1, n, out) == n);
		fclose(in);
		CU_ASSERT(fclose(out) == 0);
	}
}

/* The newer recording merges: attrs byte for byte, every record decompressed, in order. */
static void test_merge_newer_records(void)
{
	const struct perf_event_header *h;
	struct perf_merge_stats st;
	struct perf_reader *r;
	__u64 want[64];
	size_t nr_want, pos = 0, lbr = 0;
	char rec[300], out[300];
	void *d;
	size_t len;

	snprintf(rec, sizeof(rec), "%s/newer.data", dir);
	snprintf(out, sizeof(out), "%s/newer-merged.data", dir);
	write_newer_recording(rec, want, &nr_want);
	keep_seed(rec, "newer.data");
	write_capture();
	CU_ASSERT_FATAL(perf_merge(rec, cap_path, out, NULL, false, &st) == 0);
	CU_ASSERT(st.rec_samples == 2 && st.lbr_samples == 2);
	CU_ASSERT_FATAL(perf_reader__open(out, &r) == 0);
	CU_ASSERT(perf_reader__attr_bytes(r) == NEW_ATTR_BYTES);
	CU_ASSERT(perf_reader__attr(r, 0)->attr.size == NEW_ATTR_BYTES);
	CU_ASSERT(perf_reader__attr(r, 0)->attr.sample_type == NEW_SAMPLE_TYPE);
	CU_ASSERT(perf_reader__attr(r, 0)->attr_raw[128] == 0xc3 &&
		  perf_reader__attr(r, 0)->attr_raw[143] == 0xc4);
	/* the recorded records, decompressed, in their order; the lbr ones between them */
	while (perf_reader__next(r, &h) == 1) {
		CU_ASSERT(h->type != PERF_RECORD_COMPRESSED2);
		if (pos < nr_want && !memcmp(h, want + pos, h->size))
			pos += h->size / 8;
		else
			lbr += h->type == PERF_RECORD_SAMPLE;
	}
	CU_ASSERT(pos == nr_want);
	CU_ASSERT(lbr == 2);
	/* the compression feature goes with the compressed records */
	CU_ASSERT(perf_reader__feature(r, PERF_FEAT_COMPRESSED, &d, &len) == -ENOENT);
	perf_reader__close(r);
}

/* A COMPRESSED2 record whose data size passes its end is bad data, not a crash. */
static void test_merge_bad_compressed2(void)
{
	struct perf_event_attr attr = { .size = PERF_ATTR_WRITE_SIZE, .sample_type =
					PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME,
					.use_clockid = 1, .clockid = 1 };
	__u64 id = 1, rec[4] = { 0 };
	struct perf_event_header *h = (void *)rec;
	struct perf_writer *w;
	char out[300];

	h->type = PERF_RECORD_COMPRESSED2;
	h->size = 32;
	rec[1] = 17;		/* 16 bytes follow */
	CU_ASSERT_FATAL(perf_writer__create(path, PERF_ATTR_WRITE_SIZE, &w) == 0);
	CU_ASSERT(perf_writer__add_attr(w, &attr, &id, 1) == 0);
	CU_ASSERT(perf_writer__write(w, rec) == 0);
	CU_ASSERT_FATAL(perf_writer__close(w) == 0);
	snprintf(out, sizeof(out), "%s/bad-merged.data", dir);
	write_capture();
	CU_ASSERT(perf_merge(path, cap_path, out, NULL, false, NULL) == -EBADMSG);
	CU_ASSERT(access(out, F_OK) != 0);
}

static CU_TestInfo perf_data_tests[] = {
	{ "merge_newer_records", test_merge_newer_records },
	{ "merge_bad_compressed2", test_merge_bad_compressed2 },
	{ "writer_reader_stream", test_roundtrip_stream },
	{ "reader_rejects_bad_magic", test_reader_rejects },
	{ "sample_layout", test_sample_layout },
	{ "convert_records", test_convert_records },
	{ "convert_bad_branch_filter", test_convert_bad_branch_filter },
	{ "tracing_data_splice", test_tracing_data_splice },
	{ "merge_refuses_default_clock", test_merge_refuses_default_clock },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "perf-data", suite_init, suite_clean, NULL, NULL, perf_data_tests },
	CU_SUITE_INFO_NULL,
};
