// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * syscall-load: makes an exact, known number of failing and succeeding syscalls.
 *
 *   syscall-load [--comm NAME] [--fail N] [--ok M] [--open-missing K] [--threads T]
 *                [--gate FIFO] [--seconds S] [--fork C [--hold]] [--rename NAME2]
 *
 * After renaming itself to NAME (prctl, which succeeds and is seen as one more successful
 * syscall exit), each of T threads makes N close(-1) calls (-EBADF), M getppid() calls and
 * K openat() calls of a path that does not exist (-ENOENT from do_sys_openat2()).
 * With --gate it first blocks opening FIFO for reading, so a tracer can attach to its pid
 * before the counted syscalls start. It prints "pid=<pid>" and "ppid=<ppid>" first.
 *
 * --seconds S repeats that pattern in every thread until S seconds have passed (a load of
 * unknown length that outlasts a capture; the clock is read through the vDSO, no syscall).
 *
 * --fork C: the process makes no counted syscalls itself; it forks C children, one at a
 * time, each making the pattern above and exiting, and prints "child=<pid>" for each in
 * fork order. Every child is reaped before the next fork, so at most one is alive. With
 * --hold every child first blocks on a pipe until all C are forked, so C + 1 processes are
 * alive at once; the parent then reaps exactly C children (no failing wait()).
 *
 * --rename NAME2: once the pattern is done, the process renames itself to NAME2 (prctl) and
 * makes it again, in its main thread alone (threads come and go with their own stacks: the
 * same task makes both halves).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "gate.h"

static long nr_fail, nr_ok, nr_missing, threads = 1;
static double seconds;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *load(void *arg)
{
	double end = now_s() + seconds;
	long i;

	do {
		/* raw syscalls: libc must not skip or cache any of them */
		for (i = 0; i < nr_fail; i++)
			syscall(SYS_close, -1);
		for (i = 0; i < nr_ok; i++)
			syscall(SYS_getppid);
		for (i = 0; i < nr_missing; i++)
			/* mode too: the kernel reads its register whatever the flags say */
			syscall(SYS_openat, AT_FDCWD, "/nonexistent/lbrsnap-test", O_RDONLY, 0);
	} while (seconds > 0 && now_s() < end);
	return NULL;
}

static int load_threads(void)
{
	pthread_t th[64];
	long i;

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

/* The children of --fork; with hold they all wait for the pipe's write end to close. */
static int fork_children(long nr, bool hold)
{
	int hold_fd[2] = { -1, -1 };
	pid_t pid;
	char c;
	long i;

	if (hold && pipe(hold_fd)) {
		perror("pipe");
		return 1;
	}
	for (i = 0; i < nr; i++) {
		pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			if (hold) {
				close(hold_fd[1]);
				/* end of file once the parent has forked them all */
				if (read(hold_fd[0], &c, 1) != 0)
					_exit(1);
			}
			load_threads();
			_exit(0);
		}
		printf("child=%d\n", pid);
		fflush(stdout);
		if (!hold && waitpid(pid, NULL, 0) != pid)
			return 1;
	}
	if (!hold)
		return 0;
	close(hold_fd[1]);
	for (i = 0; i < nr; i++) {
		if (wait(NULL) < 0)
			return 1;
	}
	return 0;
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
		{ "seconds", required_argument, NULL, 's' },
		{ "fork", required_argument, NULL, 'F' },
		{ "hold", no_argument, NULL, 'H' },
		{ "rename", required_argument, NULL, 'r' },
		{ 0 }
	};
	const char *comm = NULL, *gate = NULL, *rename = NULL;
	long children = 0;
	bool hold = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': comm = optarg; break;
		case 'f': nr_fail = atol(optarg); break;
		case 'o': nr_ok = atol(optarg); break;
		case 'm': nr_missing = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 'g': gate = optarg; break;
		case 's': seconds = atof(optarg); break;
		case 'F': children = atol(optarg); break;
		case 'H': hold = true; break;
		case 'r': rename = optarg; break;
		default:
			fprintf(stderr, "usage: syscall-load [--comm NAME] [--fail N] [--ok M] "
				"[--open-missing K] [--threads T] [--gate FIFO] [--seconds S] "
				"[--fork C [--hold]] [--rename NAME2]\n");
			return 2;
		}
	}
	if (threads < 1 || threads > 64 || children < 0 || seconds < 0 ||
	    (rename && (children || threads != 1)))
		return 2;
	printf("pid=%d\nppid=%d\n", getpid(), getppid());
	fflush(stdout);
	if (gate__wait(gate))
		return 1;
	if (comm)
		prctl(PR_SET_NAME, comm);
	if (children)
		return fork_children(children, hold);
	load_threads();
	if (!rename)
		return 0;
	if (prctl(PR_SET_NAME, rename))
		return 1;
	return load_threads();
}
