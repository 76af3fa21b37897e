// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap perf record (perf lbr perf record): one command that runs `perf record -k mono`
 * next to an lbrsnap capture and leaves one merged perf.data.
 *
 * The capture attaches first (capture__open() returns once every program is attached), so
 * perf's workload never runs untraced; then perf record runs as a child with the user's
 * --perf-args and the command. When perf exits the capture is drained and finished, and the
 * two files are merged (perf-merge.c). Ctrl-C reaches perf through the terminal's process
 * group; perf ends its recording and we finish after it.
 *
 * The capture follows the command, not perf: perf forks its workload itself and says its pid
 * nowhere we could read in time, so the command is forked here and held (struct held_cmd),
 * the capture follows it, and perf records it with -p PID, its events disabled (-D -1) until
 * "enable" arrives on its --control descriptor; the command execs once perf acks, so that
 * neither misses its first instruction, and perf ends when it exits, as with a workload.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>
#include <sys/wait.h>
#include "builtin-perf-record.h"
#include "capture/capture-opts.h"
#include "capture/workload.h"
#include "report/lbr-stale.h"
#include "util/out-file.h"
#include "util/parse-options.h"
#include "perf-lbr/perf-merge.h"
#include "capture/record-session.h"

/* The command, forked and held until perf has its events enabled on it (see above) */
struct held_cmd {
	pid_t pid;
	int ctl[2];		/* perf reads "enable" from ctl[0] */
	int ack[2];		/* perf writes "ack" into ack[1]; the command reads ack[0] */
	char pid_arg[16];
	char ctl_arg[48];
};

#define HELD_CMD_INIT { .pid = -1, .ctl = { -1, -1 }, .ack = { -1, -1 } }

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* In the child: waits for perf's "ack", then runs the command; perf gone first: exit 127 */
static void held_cmd__child(struct held_cmd *h, const char *prog, char **cmd)
{
	char buf[4];
	ssize_t n;
	size_t got = 0;

	close(h->ctl[0]);
	close(h->ctl[1]);
	close(h->ack[1]);
	while (got < 4) {
		n = read(h->ack[0], buf + got, 4 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(127);
		got += n;
	}
	close(h->ack[0]);
	execv(prog, cmd);
	fprintf(stderr, "lbrsnap perf record: cannot run '%s': %s\n", cmd[0], strerror(errno));
	_exit(127);
}

/*
 * Forks the command, held; the PATH search is done here, so that its failed execve() calls
 * are not its first traced syscalls and a missing command is said before anything runs
 */
static int held_cmd__fork(struct held_cmd *h, char **cmd)
{
	char *prog = workload__find_program(cmd[0]);
	int err;

	if (!prog) {
		fprintf(stderr, "lbrsnap perf record: cannot run '%s': %s\n", cmd[0],
			strerror(errno));
		return -ENOENT;
	}
	/* perf inherits ctl[0] and ack[1]; the ends kept here close on its exec */
	if (pipe(h->ctl) || pipe(h->ack) || fcntl(h->ctl[1], F_SETFD, FD_CLOEXEC) ||
	    fcntl(h->ack[0], F_SETFD, FD_CLOEXEC))
		goto fail;
	/* waiting in the pipe for perf to read once it listens */
	if (write(h->ctl[1], "enable\n", 7) != 7)
		goto fail;
	h->pid = fork();
	if (h->pid < 0)
		goto fail;
	if (!h->pid)
		held_cmd__child(h, prog, cmd);
	free(prog);
	close_fd(&h->ack[0]);
	snprintf(h->pid_arg, sizeof(h->pid_arg), "%d", h->pid);
	snprintf(h->ctl_arg, sizeof(h->ctl_arg), "fd:%d,%d", h->ctl[0], h->ack[1]);
	return 0;
fail:
	err = -errno;
	fprintf(stderr, "lbrsnap perf record: cannot start '%s': %s\n", cmd[0], strerror(-err));
	free(prog);
	return err;
}

/* After perf: the command's wait status; still running (perf stopped first): ended */
static int held_cmd__finish(struct held_cmd *h, int *status)
{
	pid_t ret = -1;

	close_fd(&h->ctl[0]);
	close_fd(&h->ctl[1]);
	close_fd(&h->ack[1]);		/* a command still waiting for the ack exits */
	if (h->pid <= 0)
		return -1;
	do
		ret = waitpid(h->pid, status, WNOHANG);
	while (ret < 0 && errno == EINTR);
	if (!ret) {
		kill(h->pid, SIGTERM);
		do
			ret = waitpid(h->pid, status, 0);
		while (ret < 0 && errno == EINTR);
	}
	h->pid = -1;
	return ret > 0 ? 0 : -1;
}

/*
 * Whether perf's own arguments choose its targets (-a, -C, -p, -t, -u): then it runs the
 * command itself as given, and the capture follows perf and its children as before
 */
static bool perf_args_target(const wordexp_t *we)
{
	static const char *const longs[] = { "--all-cpus", "--cpu", "--pid", "--tid", "--uid" };
	size_t i, k;

	for (i = 0; i < we->we_wordc; i++) {
		const char *w = we->we_wordv[i];

		for (k = 0; k < sizeof(longs) / sizeof(longs[0]); k++) {
			if (!strncmp(w, longs[k], strlen(longs[k])))
				return true;
		}
		if (w[0] != '-' || !w[1] || w[1] == '-')
			continue;
		/* -C0, -p 12; -a alone or in a bundle of options without a value (-ag) */
		if (strchr("Cptu", w[1]) ||
		    (strchr(w, 'a') && strspn(w + 1, "aBdginNPqRsTvW") == strlen(w + 1)))
			return true;
	}
	return false;
}

/*
 * perf record -k mono ARGS -o rec [-- cmd...], as an argv for the record session; with h,
 * perf record -k mono ARGS -o rec -p PID -D -1 --control fd:CTL,ACK for the held command.
 */
static char **perf_argv(const char *perf, const char *rec, char **cmd, int nr_cmd,
			const wordexp_t *we, const struct held_cmd *h)
{
	char **argv;
	int i, n = 0;

	argv = calloc(we->we_wordc + nr_cmd + 14, sizeof(*argv));
	if (!argv)
		return NULL;
	argv[n++] = (char *)perf;
	argv[n++] = "record";
	argv[n++] = "-k";
	argv[n++] = "mono";
	for (i = 0; i < (int)we->we_wordc; i++)
		argv[n++] = we->we_wordv[i];
	argv[n++] = "-o";
	argv[n++] = (char *)rec;
	if (h) {
		argv[n++] = "-p";
		argv[n++] = (char *)h->pid_arg;
		argv[n++] = "-D";
		argv[n++] = "-1";
		argv[n++] = "--control";
		argv[n++] = (char *)h->ctl_arg;
		return argv;
	}
	if (nr_cmd)
		argv[n++] = "--";
	for (i = 0; i < nr_cmd; i++)
		argv[n++] = cmd[i];
	return argv;
}

/* Where the steps of an output that is no regular file go: ${TMPDIR:-/tmp}, this run's own. */
static char *temp_dir(void)
{
	char *dir;

	if (asprintf(&dir, "%s/lbrsnap-perf-record.XXXXXX", tmp_dir()) < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "lbrsnap perf record: %s: %s\n", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

struct record_args {
	struct capture_opts opts;
	const char *perf_args;
	const char *output;
	const char *perf;
	bool keep;
	bool all;
	bool follow;			/* the capture follows the command and its children */
};

static const struct opt_row perf_record_rows[] = {
	OPT_ROW_STRING(0, "perf-args", "ARGS", struct record_args, perf_args,
		       "arguments for perf record, shell-quoted (e.g. '-e sched:* -a')"),
	OPT_ROW_STRING('o', "output", "FILE", struct record_args, output,
		       "merged perf.data (default perf.data)"),
	OPT_ROW_BOOL('a', "all-cpus", struct record_args, all,
		     "capture system-wide even with a command (default: perf record and its "
		     "command, with their children)"),
	OPT_ROW_BOOL(0, "keep", struct record_args, keep,
		     "keep the intermediate OUTPUT.rec and OUTPUT.lbrsnap.data"),
	OPT_ROW_STRING(0, "perf", "PATH", struct record_args, perf,
		       "perf binary (default: perf from PATH)"),
	OPT_ROW_END
};

/* Returns the index of the command (argc: none), or OPT_PARSE_HELP / OPT_PARSE_USAGE. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	const struct opt_set sets[] = {
		{ perf_record_rows, a },
		{ capture_opts__rows, &a->opts },
		{ 0 }
	};
	const struct opt_cmd cmd = {
		.who = "lbrsnap perf record",
		.usage = "usage: lbrsnap perf record [-e SPEC]... [--perf-args ARGS] [-o FILE]\n"
			 "                          [-- command [args]]",
		.intro = "Runs `perf record -k mono ARGS [-- command]` while capturing LBR "
			 "snapshots (or kernel stacks) and writes one perf.data with both; see "
			 "lbrsnap-perf(1).",
		.sets = sets,
		.stop_at_nonopt = 1,
	};
	int i = opt_rows__parse(&cmd, argc, argv);

	if (i < 0)
		return i;
	capture_opts__finish(&a->opts);

	/* with a command, the capture follows it and its children as perf does */
	a->follow = i < argc && !a->all && !a->opts.pid;
	return i;
}

int perf_record_main(int argc, char **argv)
{
	struct record_args a = { .output = "perf.data", .perf = "perf" };
	struct held_cmd held = HELD_CMD_INIT;
	int cmd_status = 0;
	bool hold, cmd_done = false;
	struct record_session_opts so = { .command_records = true,
					  .who = "lbrsnap perf record" };
	char *rec = NULL, *cap = NULL, *ksyms = NULL, **pargv = NULL, *dir = NULL;
	struct record_session_result res;
	wordexp_t we = { 0 };
	int ret, perf_rc, cmd_at;

	cmd_at = parse_args(argc, argv, &a);
	if (cmd_at < 0) {
		ret = opt_rows__exit(cmd_at);
		goto cleanup;
	}
	ret = 1;
	if (out_file__is_stream(a.output)) {
		/* nothing is created beside a device, FIFO or socket: the steps go elsewhere */
		dir = temp_dir();
		if (!dir || asprintf(&rec, "%s/perf.data.rec", dir) < 0 ||
		    asprintf(&cap, "%s/perf.data.lbrsnap.data", dir) < 0)
			goto cleanup;
		fprintf(stderr, "lbrsnap perf record: %s is not a regular file: no kallsyms copy "
			"is saved beside it\n", a.output);
	} else if (asprintf(&rec, "%s.rec", a.output) < 0 ||
		   asprintf(&cap, "%s.lbrsnap.data", a.output) < 0 ||
		   asprintf(&ksyms, "%s.kallsyms", a.output) < 0) {
		goto cleanup;
	}
	if (a.perf_args && wordexp(a.perf_args, &we, WRDE_NOCMD | WRDE_UNDEF)) {
		fprintf(stderr, "lbrsnap perf record: cannot split --perf-args '%s'\n",
			a.perf_args);
		a.perf_args = NULL;	/* nothing to free */
		goto cleanup;
	}
	hold = a.follow && !perf_args_target(&we);
	ret = hold ? held_cmd__fork(&held, argv + cmd_at) : 0;
	if (ret) {
		/* as a shell says of a command it cannot find */
		ret = ret == -ENOENT ? 127 : 1;
		goto cleanup;
	}
	ret = 1;
	pargv = perf_argv(a.perf, rec, argv + cmd_at, argc - cmd_at, &we, hold ? &held : NULL);
	if (!pargv)
		goto cleanup;
	unlink(rec);	/* its existence afterwards says perf record worked */
	so.capture = a.opts;
	so.output = cap;
	so.argv = pargv;
	so.follow = a.follow;
	so.follow_pid = hold ? held.pid : 0;
	ret = record_session__run(&so, &res);
	/* perf record -p returns its own status: the command's is ours, as perf's would be */
	cmd_done = hold && !held_cmd__finish(&held, &cmd_status);
	if (ret) {
		/* perf's recording is whole whatever became of the capture: it stays */
		if (!access(rec, R_OK)) {
			fprintf(stderr, "lbrsnap perf record: the capture failed; perf record's "
				"recording is kept in %s\n", rec);
			unlink(cap);
			a.keep = true;
		}
		/* a bad spec or --filter is the command line's error, found before any load */
		ret = ret == -EBADMSG ? 2 : 1;
		goto cleanup;
	}
	ret = 1;
	perf_rc = !res.exited ? 1 : WIFEXITED(res.status) ? WEXITSTATUS(res.status) :
		  128 + WTERMSIG(res.status);
	/* perf record exits with its command's status: its file tells whether it worked */
	if (access(rec, R_OK)) {
		fprintf(stderr, "lbrsnap perf record: perf record failed (exit status %d); "
			"capture kept in %s\n", perf_rc, cap);
		a.keep = true;
		goto cleanup;
	}
	ret = perf_merge(rec, cap, a.output, ksyms, false, NULL);
	if (ret < 0) {
		a.keep = true;
		ret = 1;
		goto cleanup;
	}
	if (ret || !ksyms)
		fprintf(stderr, "lbrsnap perf record: wrote %s (without its kallsyms copy)\n",
			a.output);
	else
		fprintf(stderr, "lbrsnap perf record: wrote %s and %s\n", a.output, ksyms);
	capture_stats__print(&res.stats, "lbrsnap perf record", stderr);
	if (res.stats.lbr_gaps)
		lbr_stale__warn(stderr, "lbrsnap perf record", cap);
	ret = !cmd_done ? perf_rc : WIFEXITED(cmd_status) ? WEXITSTATUS(cmd_status) :
	      128 + WTERMSIG(cmd_status);
cleanup:
	held_cmd__finish(&held, &(int){ 0 });
	if (!a.keep && rec && cap) {
		unlink(rec);
		unlink(cap);
	}
	if (dir)
		rmdir(dir);	/* unless something kept is in it */
	free(dir);
	if (a.perf_args)
		wordfree(&we);
	free(pargv);
	free(rec);
	free(cap);
	free(ksyms);
	capture_opts__free(&a.opts);
	return ret;
}
