// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include "util/print.h"
#include "capture/workload.h"

char *workload__find_program(const char *name)
{
	const char *path = getenv("PATH") ?: "/usr/local/bin:/usr/bin:/bin";
	const char *p, *end;
	char *full;

	if (strchr(name, '/'))
		return access(name, X_OK) ? NULL : strdup(name);
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (asprintf(&full, "%.*s/%s", (int)(end - p), end == p ? "." : p, name) < 0)
			return NULL;
		if (!access(full, X_OK))
			return full;
		free(full);
	}
	errno = ENOENT;
	return NULL;
}

int workload__prepare(struct workload *wl, char *const argv[], const char *who)
{
	int go[2], ex[2], err;
	char *prog;

	prog = workload__find_program(argv[0]);
	if (!prog) {
		err = -errno;
		pr_warn("%s: cannot run '%s': %s\n", who, argv[0], strerror(-err));
		return err;
	}
	if (pipe2(go, O_CLOEXEC)) {
		err = -errno;
		goto cleanup;
	}
	if (pipe2(ex, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		goto cleanup;
	}
	wl->pid = fork();
	if (wl->pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(ex[0]);
		/* ignored or caught signals would survive exec and shield the command */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execv(prog, argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	err = wl->pid < 0 ? -errno : 0;
	close(go[0]);
	close(ex[1]);
	if (err) {
		wl->pid = 0;
		close(go[1]);
		close(ex[0]);
		goto cleanup;
	}
	wl->go_fd = go[1];
	wl->err_fd = ex[0];
cleanup:
	if (err)
		pr_warn("%s: cannot start '%s': %s\n", who, argv[0], strerror(-err));
	free(prog);
	return err;
}

int workload__start(struct workload *wl, const char *who)
{
	int e = 0, err = 0;
	ssize_t n;

	if (write(wl->go_fd, "g", 1) != 1)
		err = -errno;
	close(wl->go_fd);
	wl->go_fd = -1;
	/* EOF (exec closed the CLOEXEC pipe) or an errno from the child */
	n = read(wl->err_fd, &e, sizeof(e));
	close(wl->err_fd);
	wl->err_fd = -1;
	if (!err && n == sizeof(e))
		err = -e;
	if (err)
		pr_warn("%s: cannot run the command: %s\n", who, strerror(-err));
	return err;
}

int workload__wait(pid_t pid, int *status)
{
	int st, sig;

	for (;;) {
		if (waitpid(pid, &st, 0) != pid)
			return -errno;
		if (!WIFSTOPPED(st))
			break;
		/* traced (--user-stack): an event stop resumes plainly, a signal is delivered */
		sig = st >> 16 ? 0 : WSTOPSIG(st);
		ptrace(PTRACE_CONT, pid, 0, sig);
	}
	if (status)
		*status = st;
	return 0;
}

/* In a job-control stop (state T in /proc/PID/stat, after the parenthesised comm) */
static bool stopped(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'T';
}

int workload__end(pid_t pid, int sig, int *status)
{
	int st, deliver;

	/*
	 * Traced (--user-stack), it may sit in a group-stop that a signal from here would not
	 * end, for a tracee: leave it untraced first. PTRACE_INTERRUPT makes it report a stop
	 * (or its exit) whatever it was doing, and the detach then lets the signal act on it
	 * as on any process. Untraced, PTRACE_INTERRUPT fails and nothing changes.
	 */
	if (!ptrace(PTRACE_INTERRUPT, pid, 0, 0)) {
		for (;;) {
			if (waitpid(pid, &st, 0) != pid)
				return -errno;
			if (!WIFSTOPPED(st)) {
				if (status)
					*status = st;
				return 0;
			}
			deliver = st >> 16 ? 0 : WSTOPSIG(st);
			if (!ptrace(PTRACE_DETACH, pid, 0, deliver))
				break;
		}
	}
	/*
	 * A stopped process keeps sig pending: continue it, as a shell's kill does a stopped
	 * job. Looked at until it exits, since a stop just let through (SIGSTOP delivered by
	 * the detach) may take effect after the first look.
	 */
	kill(pid, sig);
	for (;;) {
		int ret = waitpid(pid, &st, WNOHANG);

		if (ret < 0)
			return -errno;
		if (ret == pid)
			break;
		if (stopped(pid))
			kill(pid, SIGCONT);
		usleep(10000);
	}
	if (status)
		*status = st;
	return 0;
}

void workload__cancel(struct workload *wl)
{
	if (wl->pid <= 0)
		return;
	if (wl->go_fd >= 0)
		close(wl->go_fd);
	if (wl->err_fd >= 0)
		close(wl->err_fd);
	wl->go_fd = wl->err_fd = -1;
	workload__wait(wl->pid, NULL);
	wl->pid = 0;
}
