// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench-run [-o FILE] -- CMD [ARGS]: run CMD and write
 * "wall_ns=N cpu_ns=N maxrss_kb=N status=N" (to FILE, or stderr) when it ends.
 *
 * wall_ns runs from just before fork to the reap, so it includes fork and exec (well under a
 * millisecond). cpu_ns (user plus system time) and maxrss_kb (peak resident set) come from
 * wait4's rusage: CMD and the descendants CMD waited for. SIGINT and SIGTERM are passed on to
 * CMD, so a recorder run under bench-run is stopped the way a user stops it. The exit status
 * is CMD's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

static volatile pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long tv_ns(const struct timeval *tv)
{
	return tv->tv_sec * 1000000000ULL + tv->tv_usec * 1000ULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = forward };
	sigset_t stops, old;
	unsigned long long t0, t1;
	const char *out = NULL;
	struct rusage ru;
	FILE *fp = stderr;
	int status, argi = 1;
	pid_t pid;

	if (argi + 1 < argc && !strcmp(argv[argi], "-o")) {
		out = argv[argi + 1];
		argi += 2;
	}
	if (argi < argc && !strcmp(argv[argi], "--"))
		argi++;
	if (argi >= argc) {
		fprintf(stderr, "usage: bench-run [-o FILE] -- CMD [ARGS]\n");
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* held until the child's pid is known, so an early stop request is passed on too */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &old);
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("bench-run: fork");
		return 1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "bench-run: cannot run '%s': %s\n", argv[argi], strerror(errno));
		_exit(127);
	}
	child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("bench-run: wait4");
			return 1;
		}
	}
	t1 = now_ns();
	if (out && !(fp = fopen(out, "w"))) {
		fprintf(stderr, "bench-run: cannot create '%s': %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(fp, "wall_ns=%llu cpu_ns=%llu maxrss_kb=%ld status=%d\n", t1 - t0,
		tv_ns(&ru.ru_utime) + tv_ns(&ru.ru_stime), ru.ru_maxrss,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (out)
		fclose(fp);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
