// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * copy-thread and copy_range(): ranges land where they are posted, whatever the order, the
 * output's own offset untouched (its writer goes on beside them); copy_file_range(2) and the
 * read-and-write path give the same bytes; a copy's error comes back from finish, and a
 * cancel ends the thread however much is posted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "util/copy-thread.h"
#include "util/out-file.h"

#define IN_SIZE		(3U << 20)

static char dir[64];
static unsigned char *want;

static int open_in(const char *name, int flags)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, flags | O_CLOEXEC, 0600);
}

static int suite_init(void)
{
	size_t i;
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/test-copy-thread.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	want = malloc(IN_SIZE);
	if (!want)
		return -1;
	for (i = 0; i < IN_SIZE; i++)
		want[i] = (i * 7 + i / 4096) % 251;
	fd = open_in("in", O_RDWR | O_CREAT);
	if (fd < 0 || write(fd, want, IN_SIZE) != IN_SIZE)
		return -1;
	close(fd);
	return 0;
}

static int suite_clean(void)
{
	char cmd[128];

	free(want);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* The output's bytes from 0 to len */
static unsigned char *read_out(int fd, size_t len)
{
	unsigned char *b = malloc(len);

	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_FATAL(pread(fd, b, len, 0) == (ssize_t)len);
	return b;
}

/*
 * The input's three MiB in three ranges posted out of order, an odd-sized one among them,
 * while this thread writes a header of its own at the output's offset
 */
static void test_ranges(void)
{
	int in = open_in("in", O_RDONLY), out = open_in("ranges", O_RDWR | O_CREAT | O_TRUNC);
	struct copy_thread *t;
	unsigned char head[100], *got;

	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	memset(head, 0xab, sizeof(head));
	CU_ASSERT_FATAL(lseek(out, 0, SEEK_SET) == 0);
	CU_ASSERT_EQUAL_FATAL(copy_thread__start(out, true, &t), 0);
	CU_ASSERT_EQUAL(copy_thread__post(t, in, 2U << 20, 100 + (2U << 20), 1U << 20), 0);
	CU_ASSERT_EQUAL(copy_thread__post(t, in, 0, 100, 12345), 0);
	CU_ASSERT_EQUAL(copy_thread__post(t, in, 12345, 100 + 12345, (2U << 20) - 12345), 0);
	CU_ASSERT_EQUAL(copy_thread__post(t, in, 0, 0, 0), 0);
	CU_ASSERT_EQUAL(write_all(out, head, sizeof(head)), 0);
	CU_ASSERT_EQUAL(copy_thread__finish(t), 0);
	/* the writer's offset is where its own write left it */
	CU_ASSERT_EQUAL(lseek(out, 0, SEEK_CUR), (off_t)sizeof(head));
	got = read_out(out, sizeof(head) + IN_SIZE);
	CU_ASSERT(memcmp(got, head, sizeof(head)) == 0);
	CU_ASSERT(memcmp(got + sizeof(head), want, IN_SIZE) == 0);
	free(got);
	close(in);
	close(out);
}

/* By hand (as where file systems refuse copy_file_range(2)): the same bytes, both offsets kept */
static void test_by_hand(void)
{
	int in = open_in("in", O_RDONLY), out = open_in("hand", O_RDWR | O_CREAT | O_TRUNC);
	bool refused = true;
	unsigned char *got;

	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	CU_ASSERT_EQUAL(copy_range(in, 4096, out, 8, IN_SIZE - 4096, &refused), 0);
	CU_ASSERT_EQUAL(lseek(in, 0, SEEK_CUR), 0);
	CU_ASSERT_EQUAL(lseek(out, 0, SEEK_CUR), 0);
	got = read_out(out, 8 + IN_SIZE - 4096);
	CU_ASSERT(memcmp(got + 8, want + 4096, IN_SIZE - 4096) == 0);
	free(got);
	/* past the input's end: -EIO, not a short copy taken for a whole one */
	refused = false;
	CU_ASSERT_EQUAL(copy_range(in, IN_SIZE - 10, out, 0, 20, &refused), -EIO);
	refused = true;
	CU_ASSERT_EQUAL(copy_range(in, IN_SIZE - 10, out, 0, 20, &refused), -EIO);
	close(in);
	close(out);
}

/* A copy that fails ends the thread with its error; posts after it say so */
static void test_error(void)
{
	int out = open_in("error", O_RDWR | O_CREAT | O_TRUNC);
	int in = open_in("in", O_WRONLY);	/* not open for reading */
	struct copy_thread *t;
	int err;

	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	CU_ASSERT_EQUAL_FATAL(copy_thread__start(out, false, &t), 0);
	CU_ASSERT_EQUAL(copy_thread__post(t, in, 0, 0, 4096), 0);
	usleep(100000);
	err = copy_thread__post(t, in, 0, 4096, 4096);
	CU_ASSERT(err == 0 || err == -EBADF);
	CU_ASSERT_EQUAL(copy_thread__finish(t), -EBADF);
	close(in);
	close(out);
}

/* A cancel ends the thread with ranges left; nothing is leaked (ASan) */
static void test_cancel(void)
{
	int in = open_in("in", O_RDONLY), out = open_in("cancel", O_RDWR | O_CREAT | O_TRUNC);
	struct copy_thread *t;
	int i;

	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	CU_ASSERT_EQUAL_FATAL(copy_thread__start(out, false, &t), 0);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(copy_thread__post(t, in, 0, (off_t)i * IN_SIZE, IN_SIZE), 0);
	copy_thread__cancel(t);
	copy_thread__cancel(NULL);
	CU_ASSERT_EQUAL(copy_thread__finish(NULL), 0);
	close(in);
	close(out);
}

static CU_TestInfo copy_thread_tests[] = {
	{ "ranges", test_ranges },
	{ "by_hand", test_by_hand },
	{ "error", test_error },
	{ "cancel", test_cancel },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo unit_suites[] = {
	{ "copy_thread", suite_init, suite_clean, NULL, NULL, copy_thread_tests },
	CU_SUITE_INFO_NULL,
};
