/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A command held before exec: forked first, released once the capture is attached, so its
 * very first syscall is already traced (what perf record does with its workload).
 */
#ifndef LBRSNAP_WORKLOAD_H
#define LBRSNAP_WORKLOAD_H

#include <sys/types.h>

struct workload {
	pid_t pid;		/* 0: none */
	int go_fd;		/* a byte here lets the child exec; EOF makes it exit */
	int err_fd;		/* the child writes its exec errno here */
};

#define WORKLOAD_INIT { .pid = 0, .go_fd = -1, .err_fd = -1 }

/*
 * Forks the holder of argv. The PATH search happens here, in the parent, so that failed
 * execve() calls of the search are not the command's first traced syscalls, and a missing
 * command is reported before anything is attached. The child gets SIGINT and SIGTERM back
 * at their defaults. "who" prefixes error messages. Returns 0 or -errno.
 */
int workload__prepare(struct workload *wl, char *const argv[], const char *who);
/* name as execvp() finds it in PATH (as given when it holds a '/'), malloc'ed; NULL: errno */
char *workload__find_program(const char *name);
/* Lets the child exec; returns 0, or -errno when exec failed (reported with who). */
int workload__start(struct workload *wl, const char *who);
/* The child exits without running the command; waits for it. */
void workload__cancel(struct workload *wl);
/*
 * Waits for the command to exit, into *status (may be NULL). Stops it reports because it is
 * traced (capture__trace_exit()) are resumed, its signals delivered. 0 or -errno.
 */
int workload__wait(pid_t pid, int *status);
/*
 * Ends the command before it exited: sends sig, untraced first if it is traced, and waits
 * for it into *status (may be NULL). A stopped command ends too, as without tracing.
 */
int workload__end(pid_t pid, int sig, int *status);

#endif /* LBRSNAP_WORKLOAD_H */
