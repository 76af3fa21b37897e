// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * out_file__write_behind(): a file renamed into place at commit gets its writeback started
 * every 8 MiB written, up to the writer's position; a spooled output (a character device)
 * never; and what was written arrives whole either way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "unit.h"
#include "util/out-file.h"

#define MIB	(1 << 20)

static char tmpdir[] = "/tmp/lbrsnap-out-file.XXXXXX";

static int suite_init(void)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int suite_clean(void)
{
	return unit_tmpdir__remove(tmpdir);
}

/* Writes n MiB, the i-th filled with byte i, and f->behind after each into behind[]. */
static void write_mib(struct out_file *f, int n, off_t *behind)
{
	char *buf = malloc(MIB);
	int i;

	CU_ASSERT_FATAL(buf != NULL);
	for (i = 0; i < n; i++) {
		memset(buf, i, MIB);
		CU_ASSERT_EQUAL_FATAL(write_all(f->fd, buf, MIB), 0);
		out_file__write_behind(f);
		behind[i] = f->behind;
	}
	free(buf);
}

static void test_renamed_file(void)
{
	struct out_file f = OUT_FILE_INIT;
	char path[64], buf[16];
	off_t behind[20];
	struct stat st;
	int i, fd;

	snprintf(path, sizeof(path), "%s/out", tmpdir);
	CU_ASSERT_EQUAL_FATAL(out_file__open(&f, path), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f.tmp);
	CU_ASSERT_EQUAL(f.behind, 0);
	write_mib(&f, 20, behind);
	/* nothing below 8 MiB, then the position reached at each 8 MiB step */
	for (i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(behind[i], (off_t)((i + 1) / 8 * 8) * MIB);
	CU_ASSERT_EQUAL_FATAL(out_file__commit(&f), 0);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 20 * MIB);
	fd = open(path, O_RDONLY);
	CU_ASSERT_FATAL(fd >= 0);
	for (i = 0; i < 20; i++) {
		CU_ASSERT_EQUAL(pread(fd, buf, sizeof(buf), (off_t)i * MIB + MIB - 16), 16);
		CU_ASSERT_EQUAL(buf[0], i);
		CU_ASSERT_EQUAL(buf[15], i);
	}
	close(fd);
}

/* /dev/null takes a seeking writer through a spool, copied out at commit: never synced */
static void test_spool(void)
{
	struct out_file f = OUT_FILE_INIT;
	off_t behind[9];
	int i;

	CU_ASSERT_EQUAL_FATAL(out_file__open(&f, "/dev/null"), 0);
	CU_ASSERT_PTR_NULL(f.tmp);
	write_mib(&f, 9, behind);
	for (i = 0; i < 9; i++)
		CU_ASSERT_EQUAL(behind[i], 0);
	CU_ASSERT_EQUAL(out_file__commit(&f), 0);
}

static CU_TestInfo out_file_tests[] = {
	{ "write_behind_renamed_file", test_renamed_file },
	{ "write_behind_spool", test_spool },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "out_file", suite_init, suite_clean, NULL, NULL, out_file_tests },
	CU_SUITE_INFO_NULL,
};
