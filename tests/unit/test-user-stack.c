// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --user-stack in lbrsnap.data: the user stack block behind a record's argument block
 * (lbr_record__parse) and the MAPS section (lbr-proc.h), written and read back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lbrfile/lbrfile.h"
#include "unit.h"

/* header, 1 branch, 2 kernel frames, an argument block of 24 bytes, 3 user frames */
#define ARGS_SIZE	(sizeof(struct lbrsnap_args) + 8)
static __u64 rec_buf[256];

static size_t build(unsigned int nr_user, __s32 err)
{
	struct lbrsnap_event *ev = (void *)rec_buf;
	struct lbrsnap_args *a;
	struct lbrsnap_ustack *u;
	size_t off = lbrsnap_event_size(1, 2);
	unsigned int i;

	memset(rec_buf, 0, sizeof(rec_buf));
	ev->nr_branches = 1;
	ev->nr_stack = 2;
	ev->flags = LBRSNAP_EV_HAS_ARGS | LBRSNAP_EV_HAS_USTACK;
	a = (void *)((char *)rec_buf + off);
	a->nr_args = 1;
	a->size = ARGS_SIZE;
	off += ARGS_SIZE;
	u = (void *)((char *)rec_buf + off);
	u->nr = nr_user;
	u->err = err;
	for (i = 0; i < nr_user && i < LBRSNAP_MAX_USTACK; i++)
		u->ip[i] = 0x400000 + i;
	return off + lbrsnap_ustack_size(nr_user);
}

static void test_block(void)
{
	struct lbr_record rec;
	size_t size = build(3, 0);

	CU_ASSERT_EQUAL(size, sizeof(struct lbrsnap_event) + 24 + 16 + 24 + 8 + 24);
	CU_ASSERT_EQUAL(sizeof(struct lbrsnap_event), 72);
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec.ustack);
	CU_ASSERT_PTR_NOT_NULL(rec.args);
	CU_ASSERT_EQUAL(rec.ustack->nr, 3);
	CU_ASSERT_EQUAL(rec.ustack->err, 0);
	CU_ASSERT_EQUAL(rec.ustack->ip[0], 0x400000);
	CU_ASSERT_EQUAL(rec.ustack->ip[2], 0x400002);
	CU_ASSERT_EQUAL(lbr_record__size(&rec), size);
	/* without arguments the block follows the kernel stack */
	((struct lbrsnap_event *)rec_buf)->flags = LBRSNAP_EV_HAS_USTACK;
	memmove((char *)rec_buf + lbrsnap_event_size(1, 2),
		(char *)rec_buf + lbrsnap_event_size(1, 2) + ARGS_SIZE, lbrsnap_ustack_size(3));
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size - ARGS_SIZE, &rec), 0);
	CU_ASSERT_PTR_NULL(rec.args);
	CU_ASSERT_EQUAL(rec.ustack->nr, 3);
	CU_ASSERT_EQUAL(rec.ustack->ip[1], 0x400001);
	CU_ASSERT_EQUAL(lbr_record__size(&rec), size - ARGS_SIZE);
	/* an error and no frames */
	size = build(0, -14);
	CU_ASSERT_EQUAL_FATAL(lbr_record__parse(rec_buf, size, &rec), 0);
	CU_ASSERT_EQUAL(rec.ustack->err, -14);
	CU_ASSERT_EQUAL(rec.ustack->nr, 0);
	CU_ASSERT_EQUAL(lbr_record__size(&rec), size);
}

static void test_block_bad(void)
{
	struct lbr_record rec;
	size_t size;

	/* one frame short, and the block's header cut */
	size = build(3, 0);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size - 8, &rec), -EINVAL);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size - 24 - 4, &rec), -EINVAL);
	/* the flag with no block at all */
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size - 24 - 8, &rec), -EINVAL);
	/* more frames than a program takes */
	size = build(LBRSNAP_MAX_USTACK + 1, 0);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, sizeof(rec_buf), &rec), -EINVAL);
	/* an error with frames, and a positive error */
	size = build(2, -14);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
	size = build(0, 5);
	CU_ASSERT_EQUAL(lbr_record__parse(rec_buf, size, &rec), -EINVAL);
}

static const char paths[] = "/usr/bin/prog\0/usr/lib/libc.so.6\0";

static void maps_init(struct lbrfile_proc *p, struct lbrfile_map *m, __u32 pid)
{
	memset(p, 0, sizeof(*p));
	memset(m, 0, 2 * sizeof(*m));
	p->pid = pid;
	p->nr_maps = 2;
	strcpy(p->comm, "prog");
	m[0] = (struct lbrfile_map) { .start = 0x1000, .end = 0x3000, .pgoff = 0x1000, .ino = 7,
				      .prot = 5, .path_off = 0, .build_id_size = 2,
				      .build_id = { 0xab, 0xcd } };
	m[1] = (struct lbrfile_map) { .start = 0x7000, .end = 0x9000, .path_off = 14, .prot = 5 };
}

static size_t maps_build(char *buf, const struct lbrfile_proc *p, const struct lbrfile_map *m,
			 const char *text, size_t len)
{
	memcpy(buf, p, sizeof(*p));
	memcpy(buf + sizeof(*p), m, p->nr_maps * sizeof(*m));
	memcpy(buf + sizeof(*p) + p->nr_maps * sizeof(*m), text, len);
	return sizeof(*p) + p->nr_maps * sizeof(*m) + len;
}

static void test_maps_parse(void)
{
	struct lbrfile_proc p;
	struct lbrfile_map m[2];
	struct lbr_proc v;
	char buf[1024];
	size_t size;

	CU_ASSERT_EQUAL(sizeof(struct lbrfile_proc), 40);
	CU_ASSERT_EQUAL(sizeof(struct lbrfile_map), 72);
	maps_init(&p, m, 42);
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL_FATAL(lbr_proc__parse(buf, size, &v), 0);
	CU_ASSERT_EQUAL(v.pid, 42);
	CU_ASSERT_STRING_EQUAL(v.comm, "prog");
	CU_ASSERT_EQUAL(v.nr_maps, 2);
	CU_ASSERT_STRING_EQUAL(lbr_proc__path(&v, 0), "/usr/bin/prog");
	CU_ASSERT_STRING_EQUAL(lbr_proc__path(&v, 1), "/usr/lib/libc.so.6");
	CU_ASSERT_PTR_NULL(lbr_proc__path(&v, 2));
	CU_ASSERT_PTR_EQUAL(lbr_proc__find(&v, 0x1000), &v.maps[0]);
	CU_ASSERT_PTR_EQUAL(lbr_proc__find(&v, 0x2fff), &v.maps[0]);
	CU_ASSERT_PTR_NULL(lbr_proc__find(&v, 0x3000));
	CU_ASSERT_PTR_EQUAL(lbr_proc__find(&v, 0x8000), &v.maps[1]);
	CU_ASSERT_PTR_NULL(lbr_proc__find(&v, 0x9000));
	/* cut: in the header, in the maps, the last path's NUL */
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, sizeof(p) - 1, &v), -EINVAL);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, sizeof(p) + sizeof(m) - 8, &v), -EINVAL);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size - 1, &v), -EINVAL);
	/* a path past the text */
	m[1].path_off = sizeof(paths) - 1;
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size, &v), -EINVAL);
	/* overlapping maps, an empty one, a build id too long */
	maps_init(&p, m, 42);
	m[1].start = 0x2000;
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size, &v), -EINVAL);
	maps_init(&p, m, 42);
	m[1].end = m[1].start;
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size, &v), -EINVAL);
	maps_init(&p, m, 42);
	m[0].build_id_size = 21;
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size, &v), -EINVAL);
	/* gone: no maps allowed */
	maps_init(&p, m, 42);
	p.flags = LBRFILE_PROC_GONE;
	size = maps_build(buf, &p, m, paths, sizeof(paths) - 1);
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, size, &v), -EINVAL);
	p.nr_maps = 0;
	memcpy(buf, &p, sizeof(p));
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, sizeof(p), &v), 0);
	CU_ASSERT_EQUAL(v.flags, LBRFILE_PROC_GONE);
	/* more maps than the bytes hold */
	maps_init(&p, m, 42);
	p.nr_maps = 1000;
	memcpy(buf, &p, sizeof(p));
	CU_ASSERT_EQUAL(lbr_proc__parse(buf, 200, &v), -EINVAL);
}

/* Written by the writer, read back: newest section of a pid first, gone pids, counts */
static void test_maps_file(void)
{
	char path[] = "/tmp/lbrsnap-unit-maps-XXXXXX";
	struct lbrfile_writer *w = NULL;
	struct lbr_attach_point ap = { .id = 0, .kind = LBRSNAP_KIND_RAW_TP,
				       .spec = "raw_tp:sys_exit", .target = "sys_exit",
				       .ret_type = "" };
	const struct lbrfile_map *found;
	struct lbrfile_proc p, gone = { .pid = 9, .flags = LBRFILE_PROC_GONE };
	struct lbrfile_map m[2];
	struct lbrfile *f = NULL;
	struct lbr_proc v;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__create(path, &w), 0);
	CU_ASSERT_EQUAL(lbrfile_writer__attach(w, &ap), 0);
	maps_init(&p, m, 42);
	CU_ASSERT_EQUAL(lbrfile_writer__proc(w, &p, m, paths, sizeof(paths) - 1), 0);
	CU_ASSERT_EQUAL(lbrfile_writer__proc(w, &gone, NULL, NULL, 0), 0);
	/* read again at the exit: the prog's map moved, a library was loaded */
	m[0].start = 0x10000;
	m[0].end = 0x12000;
	m[1].start = 0x20000;
	m[1].end = 0x21000;
	CU_ASSERT_EQUAL(lbrfile_writer__proc(w, &p, m, paths, sizeof(paths) - 1), 0);
	/* what readers would refuse is not written */
	m[1].start = 0x11000;
	CU_ASSERT_EQUAL(lbrfile_writer__proc(w, &p, m, paths, sizeof(paths) - 1), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(lbrfile_writer__close(w), 0);

	CU_ASSERT_EQUAL_FATAL(lbrfile__open(path, &f), 0);
	CU_ASSERT_EQUAL(lbrfile__nr_procs(f), 3);
	/* by pid: 9 (gone) first, then 42's two in file order */
	CU_ASSERT_EQUAL(lbrfile__proc(f, 0, &v), 0);
	CU_ASSERT_EQUAL(v.pid, 9);
	CU_ASSERT_EQUAL(lbrfile__proc(f, 2, &v), 0);
	CU_ASSERT_EQUAL(v.maps[0].start, 0x10000);
	CU_ASSERT_EQUAL(lbrfile__proc(f, 3, &v), -ENOENT);
	found = lbrfile__user_map(f, 42, 0x10010, &v);
	CU_ASSERT_PTR_NOT_NULL(found);
	CU_ASSERT_EQUAL(found ? found->pgoff : 0, 0x1000);
	CU_ASSERT_STRING_EQUAL(found ? lbr_proc__path(&v, found - v.maps) : "", "/usr/bin/prog");
	/* only in the older section */
	found = lbrfile__user_map(f, 42, 0x7500, &v);
	CU_ASSERT_PTR_NOT_NULL(found);
	CU_ASSERT_STRING_EQUAL(found ? lbr_proc__path(&v, found - v.maps) : "",
			       "/usr/lib/libc.so.6");
	CU_ASSERT_PTR_NULL(lbrfile__user_map(f, 42, 0x5000, &v));
	CU_ASSERT_PTR_NULL(lbrfile__user_map(f, 43, 0x10010, &v));
	CU_ASSERT_PTR_NULL(lbrfile__user_map(f, 9, 0x10010, &v));
	CU_ASSERT_TRUE(lbrfile__proc_gone(f, 9));
	CU_ASSERT_FALSE(lbrfile__proc_gone(f, 42));
	CU_ASSERT_FALSE(lbrfile__proc_gone(f, 43));
	lbrfile__close(f);
	unlink(path);
}

static CU_TestInfo tests[] = {
	{ "block", test_block },
	{ "block_bad", test_block_bad },
	{ "maps_parse", test_maps_parse },
	{ "maps_file", test_maps_file },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "user_stack", NULL, NULL, NULL, NULL, tests },
	CU_SUITE_INFO_NULL,
};
