// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * watch-load - writes and reads a global variable an exact number of times, for the
 * hardware watchpoint (mem:) tests.
 *
 *   watch-load [--writes N] [--reads M] [--fork] [--gate FIFO]
 *
 * lbrsnap_watched (an int in .data, so the kernel never clears it at exec) is written with
 * 1, 2, ..., N, then read M times. --fork: a child does the same after the parent has
 * finished, so a watch inherited by children sees 2N writes from two pids. --gate FIFO:
 * block opening FIFO for reading first, so a tracer can attach to the running process. The
 * binary is static and not position independent: `nm` gives the variable's address.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "gate.h"

volatile int lbrsnap_watched = -1;
volatile long lbrsnap_watch_sink;

static void __attribute__((noinline)) lbrsnap_watch_writes(long n, long m)
{
	long i;

	for (i = 1; i <= n; i++)
		lbrsnap_watched = i;
	for (i = 0; i < m; i++)
		lbrsnap_watch_sink += lbrsnap_watched;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "writes", required_argument, NULL, 'w' },
		{ "reads", required_argument, NULL, 'r' },
		{ "fork", no_argument, NULL, 'f' },
		{ "gate", required_argument, NULL, 'g' },
		{}
	};
	long writes = 10, reads = 0;
	const char *gate = NULL;
	int c, fork_child = 0;
	pid_t pid;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			writes = atol(optarg);
			break;
		case 'r':
			reads = atol(optarg);
			break;
		case 'f':
			fork_child = 1;
			break;
		case 'g':
			gate = optarg;
			break;
		default:
			fprintf(stderr, "usage: watch-load [--writes N] [--reads M] [--fork] "
				"[--gate FIFO]\n");
			return 2;
		}
	}
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (gate__wait(gate))
		return 1;
	lbrsnap_watch_writes(writes, reads);
	if (!fork_child)
		return 0;
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		lbrsnap_watch_writes(writes, reads);
		_exit(0);
	}
	return waitpid(pid, NULL, 0) == pid ? 0 : 1;
}
