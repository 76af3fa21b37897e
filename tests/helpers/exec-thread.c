// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * exec-thread GATE PROGRAM [ARG...]: a second thread fails close(-1) 5 times, then execs
 * PROGRAM. The exec makes it the process's only thread, with the leader's tid: the tid a
 * filter on the leader (-t) rejected before the exec matches after it. The leader prints
 * its tid, waits at GATE (gate.h) for a tracer, then sleeps until the exec ends it; it
 * makes no failing call of its own.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "gate.h"

static char **exec_argv;

static void *thread_main(void *arg)
{
	int i;

	(void)arg;
	prctl(PR_SET_NAME, "lbrt-exthr");
	for (i = 0; i < 5; i++)
		close(-1);
	execv(exec_argv[0], exec_argv);
	fprintf(stderr, "exec-thread: %s: %s\n", exec_argv[0], strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	pthread_t t;
	int err;

	if (argc < 3) {
		fprintf(stderr, "usage: exec-thread GATE PROGRAM [ARG...]\n");
		return 2;
	}
	exec_argv = argv + 2;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	if (gate__wait(argv[1]))
		return 1;
	err = pthread_create(&t, NULL, thread_main, NULL);
	if (err) {
		fprintf(stderr, "exec-thread: pthread_create: %s\n", strerror(err));
		return 1;
	}
	for (;;)
		pause();
}
