// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * fexit_openat COUNT - attach fexit/do_sys_openat2, fail COUNT opens, print what BPF counted.
 *
 * Prints "failed_opens=N". Successful opens and a child's failed opens happen too, so a program
 * that ignored the return value or the tgid filter would report more than COUNT.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/vm/smoke/fexit_openat.skel.h"

#define MISSING_PATH "/nonexistent/lbrsnap-fexit-smoke"
#define CHILD_OPENS 5

static int open_missing(int count)
{
	int i, fd;

	for (i = 0; i < count; i++) {
		fd = open(MISSING_PATH, O_RDONLY);
		if (fd >= 0) {
			close(fd);
			return -EEXIST;
		}
	}
	return 0;
}

static int open_existing(int count)
{
	int i, fd;

	for (i = 0; i < count; i++) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	return 0;
}

/* Failed opens from another process: they must not be counted. */
static int child_open_missing(void)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(open_missing(CHILD_OPENS) ? 1 : 0);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

int main(int argc, char **argv)
{
	struct fexit_openat_bpf *skel = NULL;
	char *end;
	long count;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: fexit_openat COUNT\n");
		return 2;
	}
	errno = 0;
	count = strtol(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || count < 0 || count > 1000000) {
		fprintf(stderr, "fexit_openat: bad COUNT '%s'\n", argv[1]);
		return 2;
	}

	skel = fexit_openat_bpf__open();
	if (!skel) {
		err = -errno;
		fprintf(stderr, "fexit_openat: open skeleton: %s\n", strerror(-err));
		goto cleanup;
	}
	skel->rodata->target_tgid = getpid();
	err = fexit_openat_bpf__load(skel);
	if (err) {
		fprintf(stderr, "fexit_openat: load: %s\n", strerror(-err));
		goto cleanup;
	}
	err = fexit_openat_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "fexit_openat: attach fexit/do_sys_openat2: %s\n", strerror(-err));
		goto cleanup;
	}

	err = open_existing((int)count);
	if (!err)
		err = child_open_missing();
	if (!err)
		err = open_missing((int)count);
	if (err) {
		fprintf(stderr, "fexit_openat: opening test files: %s\n", strerror(-err));
		goto cleanup;
	}
	printf("failed_opens=%llu\n", (unsigned long long)skel->bss->failed_opens);

cleanup:
	fexit_openat_bpf__destroy(skel);
	return err ? 1 : 0;
}
