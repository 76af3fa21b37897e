// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A user call stack with known frames: main -> a() -> b() -> c(), and c() makes a failing
 * syscall (fchdir(-1): -EBADF) N times. Built with frame pointers and kept out of line, so
 * the kernel's frame-pointer walk of the user stack finds c, b and a in that order; c()
 * issues the syscall itself, because libc's wrappers have no frame of their own and the
 * walk would skip their caller.
 *
 *	ustack-load N		in this process
 *	ustack-load N --fork	in a child that exits at once, while the parent waits for it
 *
 * --fork is for a command of lbrsnap record: the capture reading the records is this
 * process's parent, and it is stopped (SIGSTOP) from before the fork until the child is
 * reaped, so that the child's maps are certainly gone when its records are read. Without the
 * stop the capture's 100 ms poll may read them in the few microseconds between the child's
 * last call and its exit, as a loaded machine once did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

__attribute__((noinline)) long c(void)
{
	/* stack use: GCC sets up no frame in a leaf function that has none, whatever the flags */
	volatile long frame[2] = { 0 };
	long ret;

	asm volatile("syscall" : "=a"(ret) : "0"((long)SYS_fchdir), "D"(-1L)
		     : "rcx", "r11", "memory");
	return ret + frame[0];
}

__attribute__((noinline)) long b(void)
{
	long ret = c();

	asm volatile("" ::: "memory");	/* no tail call: b keeps its frame */
	return ret;
}

__attribute__((noinline)) long a(void)
{
	long ret = b();

	asm volatile("" ::: "memory");
	return ret;
}

static int run(long n)
{
	long i, bad = 0;

	for (i = 0; i < n; i++)
		bad += a() != -9;	/* -EBADF */
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	int status;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[2], "--fork")) {
		pid_t capture = getppid();
		sigset_t chld;

		/*
		 * The capture traces this process: a SIGCHLD taken here would stop it for a tracer
		 * that is stopped. Blocked, it waits, and waitpid() needs no signal.
		 */
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, NULL);
		/* the stop is pending before the child runs: the capture runs no code of its own */
		if (kill(capture, SIGSTOP))
			return 2;
		pid = fork();
		if (!pid)
			_exit(run(n));
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			status = 2 << 8;
		if (kill(capture, SIGCONT))
			return 2;
		return WEXITSTATUS(status);
	}
	return run(n);
}
