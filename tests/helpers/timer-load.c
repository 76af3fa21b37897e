// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A command taking a signal every millisecond: a 1 ms interval timer (SIGALRM, caught)
 * while it counts to N signals, then it exits 0. Traced (--user-stack), each signal is a
 * ptrace stop that the tracer must service before the command runs on.
 *
 *	timer-load N		N signals (about N ms when serviced at once); prints the
 *				milliseconds they took
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	ticks++;
}

int main(int argc, char **argv)
{
	struct itimerval it = { .it_interval = { 0, 1000 }, .it_value = { 0, 1000 } };
	struct sigaction sa = { .sa_handler = on_alarm };
	long n = argc > 1 ? atol(argv[1]) : 0;
	struct timespec t0, t1;

	if (n <= 0) {
		fprintf(stderr, "usage: timer-load N (signals, one a millisecond)\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sigaction(SIGALRM, &sa, NULL);
	if (setitimer(ITIMER_REAL, &it, NULL)) {
		perror("timer-load: setitimer");
		return 1;
	}
	while (ticks < n)
		pause();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%ld\n", (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000);
	return 0;
}
