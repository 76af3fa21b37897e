// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syscall-load: makes an exact, known number of failing and succeeding syscalls.
 *
 *   syscall-load [--comm NAME] [--fail N] [--ok M] [--open-missing K] [--threads T]
 *                [--gate FIFO]
 *
 * After renaming itself to NAME (prctl, which succeeds and is seen as one more successful
 * syscall exit), each of T threads makes N close(-1) calls (-EBADF), M getppid() calls and
 * K openat() calls of a path that does not exist (-ENOENT from do_sys_openat2()).
 * With --gate it first blocks opening FIFO for reading, so a tracer can attach to its pid
 * before the counted syscalls start. It prints "pid=<pid>" and "ppid=<ppid>" first.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static long nr_fail, nr_ok, nr_missing;

static void *load(void *arg)
{
	long i;

	/* raw syscalls: libc must not skip or cache any of them */
	for (i = 0; i < nr_fail; i++)
		syscall(SYS_close, -1);
	for (i = 0; i < nr_ok; i++)
		syscall(SYS_getppid);
	for (i = 0; i < nr_missing; i++)
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/lbrsnap-test", O_RDONLY);
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "comm", required_argument, NULL, 'c' },
		{ "fail", required_argument, NULL, 'f' },
		{ "ok", required_argument, NULL, 'o' },
		{ "open-missing", required_argument, NULL, 'm' },
		{ "threads", required_argument, NULL, 't' },
		{ "gate", required_argument, NULL, 'g' },
		{ 0 }
	};
	const char *comm = NULL, *gate = NULL;
	pthread_t th[64];
	long threads = 1, i;
	int opt, fd;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': comm = optarg; break;
		case 'f': nr_fail = atol(optarg); break;
		case 'o': nr_ok = atol(optarg); break;
		case 'm': nr_missing = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 'g': gate = optarg; break;
		default:
			fprintf(stderr, "usage: syscall-load [--comm NAME] [--fail N] [--ok M] "
				"[--open-missing K] [--threads T] [--gate FIFO]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > 64)
		return 2;
	printf("pid=%d\nppid=%d\n", getpid(), getppid());
	fflush(stdout);
	if (gate) {
		fd = open(gate, O_RDONLY);
		if (fd < 0) {
			perror(gate);
			return 1;
		}
		close(fd);
	}
	if (comm)
		prctl(PR_SET_NAME, comm);
	if (threads == 1) {
		load(NULL);
		return 0;
	}
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, load, NULL);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	return 0;
}
