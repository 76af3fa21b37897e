// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include "util/print.h"
#include "lbrfile/lbrfile.h"
#include "capture/record-session.h"
#include "capture/workload.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = 1;
}

static void print_open(const struct record_session_opts *o, const struct capture *c)
{
	const char *refused;
	size_t i, n;

	if (!capture__has_lbr(c) && o->capture.lbr_mode == CAPTURE_LBR_AUTO)
		pr_warn("%s: LBR is not available here: %s; capturing %s call stacks "
			"instead\n", o->who, capture__lbr_why(c),
			capture__user_stack_auto(c) ? "kernel and user" : "kernel");
	n = capture__kprobe_refused(c, &refused);
	if (n)
		pr_warn("%s: %zu function%s of kprobe/kretprobe globs left out: this "
			"kernel has no kprobe-multi links and its kprobes refuse %s (e.g. %s)\n",
			o->who, n, n == 1 ? "" : "s", n == 1 ? "it" : "them", refused);
	n = capture__kprobe_ambiguous(c, &refused);
	if (n)
		pr_warn("%s: %zu function%s of kprobe/kretprobe globs left out: kallsyms holds "
			"%s name twice, and the kernel would probe the first instance, not "
			"necessarily the one BTF types (e.g. %s)\n", o->who, n, n == 1 ? "" : "s",
			n == 1 ? "its" : "each", refused);
	if (!o->capture.verbose)
		return;
	for (i = 0; i < capture__nr_attach(c); i++) {
		size_t owner = capture__attach_owner(c, i);

		if (owner != i)
			pr_info("%s: attached %s (shares the program and snapshot memory "
				"of %s)\n", o->who, capture__attach_spec(c, i),
				capture__attach_spec(c, owner));
		else
			pr_info("%s: attached %s (%llu bytes of snapshot memory: %u "
				"slots)\n", o->who, capture__attach_spec(c, i),
				(unsigned long long)capture__attach_bytes(c), capture__slots(c));
	}
	pr_info("%s: %zu attach points, %llu bytes in total (the slot pools of the "
		"loaded objects, and the ring buffer)\n", o->who, capture__nr_attach(c),
		(unsigned long long)capture__total_bytes(c));
}

int record_session__run(const struct record_session_opts *o, struct record_session_result *res)
{
	struct sigaction stop = { .sa_handler = on_stop }, ign = { .sa_handler = SIG_IGN };
	struct sigaction old_int, old_term;
	struct capture_run run = { .stop = &stop_requested };
	struct capture_opts copts = o->capture;
	struct workload wl = WORKLOAD_INIT;
	struct lbrfile_writer *w = NULL;
	struct capture *c = NULL;
	char err[1024];
	int ret;

	memset(res, 0, sizeof(*res));
	stop_requested = 0;
	copts.follow = o->follow && o->argv;
	copts.workload = o->argv != NULL;
	copts.who = o->who;
	if (o->argv) {
		ret = workload__prepare(&wl, o->argv, o->who);
		if (ret)
			return ret;
	}
	ret = capture__open(&copts, &c, err, sizeof(err));
	if (ret) {
		pr_warn("%s: %s\n", o->who, err);
		goto cleanup;
	}
	print_open(o, c);
	ret = lbrfile_writer__create(o->output, &w);
	if (ret) {
		pr_warn("%s: cannot create '%s': %s\n", o->who, o->output,
			strerror(-ret));
		goto cleanup;
	}
	ret = capture__write_header(c, w);
	if (ret) {
		pr_warn("%s: cannot write '%s': %s\n", o->who, o->output, strerror(-ret));
		goto cleanup;
	}
	sigaction(SIGINT, o->command_records ? &ign : &stop, &old_int);
	sigaction(SIGTERM, &stop, &old_term);
	run.forward_stop = o->command_records;
	run.duration_s = o->duration_s;
	if (wl.pid > 0) {
		pid_t target = o->follow_pid ?: wl.pid;

		ret = copts.follow ? capture__follow(c, target) : 0;
		if (ret) {
			pr_warn("%s: cannot follow pid %d: %s\n", o->who, target,
				strerror(-ret));
			goto cleanup_signals;
		}
		/* only a child's exit stop is serviced here: another's maps are read as it runs */
		ret = target == wl.pid ? capture__trace_exit(c, wl.pid) : 0;
		if (ret) {
			pr_warn("%s: cannot trace the command (pid %d) to read its maps at "
				"its exit: %s\n", o->who, wl.pid, strerror(-ret));
			goto cleanup_signals;
		}
		ret = capture__watch(c, target, err, sizeof(err));
		if (ret) {
			pr_warn("%s: %s\n", o->who, err);
			goto cleanup_signals;
		}
		ret = workload__start(&wl, o->who);
		if (ret) {
			workload__wait(wl.pid, NULL);
			wl.pid = 0;
			goto cleanup_signals;
		}
		run.child = wl.pid;
	}
	ret = capture__run(c, w, &run);
	if (run.exited) {
		wl.pid = 0;
		res->exited = true;
		res->status = run.status;
	}
	if (ret) {
		pr_warn("%s: writing '%s': %s\n", o->who, o->output, strerror(-ret));
		goto cleanup_signals;
	}
	ret = capture__finish(c, w, &res->stats);
	if (ret) {
		pr_warn("%s: cannot finish '%s': %s\n", o->who, o->output,
			strerror(-ret));
		goto cleanup_signals;
	}
	if (res->stats.kallsyms_err == -ENOSPC || res->stats.kallsyms_err == -EDQUOT ||
	    res->stats.kallsyms_err == -EFBIG)
		pr_warn("%s: '%s': no room for the kallsyms copy (%s): the records are "
			"written without it (name them with `lbrsnap report --kallsyms FILE`)\n",
			o->who, o->output, strerror(-res->stats.kallsyms_err));
	else if (res->stats.kallsyms_err)
		pr_warn("%s: /proc/kallsyms: %s: '%s' keeps no kernel symbols (name them "
			"with `lbrsnap report --kallsyms FILE`, FILE a copy where they show)\n",
			o->who, res->stats.kallsyms_err == -ENODATA ?
			"no symbol has an address (hidden by kernel.kptr_restrict)" :
			strerror(-res->stats.kallsyms_err), o->output);
	ret = lbrfile_writer__close(w);
	w = NULL;
	if (ret)
		pr_warn("%s: cannot write '%s': %s\n", o->who, o->output, strerror(-ret));
cleanup_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
cleanup:
	lbrfile_writer__abort(w);
	capture__close(c);
	if (wl.pid > 0 && wl.go_fd >= 0) {
		workload__cancel(&wl);
	} else if (wl.pid > 0) {
		/* stopped before the command ended: end it, as perf record does */
		res->ended = !workload__end(wl.pid, o->command_records ? SIGINT : SIGTERM,
					   &res->status);
	}
	return ret;
}

int record_session__exit_status(const struct record_session_result *res, const char *who,
				FILE *out)
{
	int sig;

	if (res->ended) {
		fprintf(out, "[ %s: the capture stopped first: the command was ended (%s) ]\n",
			who, WIFSIGNALED(res->status) ? strsignal(WTERMSIG(res->status)) :
			"it exited");
		return 0;
	}
	if (!res->exited)
		return 0;
	if (WIFEXITED(res->status))
		return WEXITSTATUS(res->status);
	sig = WTERMSIG(res->status);
	fprintf(out, "[ %s: the command was killed by signal %d (%s)%s ]\n", who, sig,
		strsignal(sig), WCOREDUMP(res->status) ? ", core dumped" : "");
	return 128 + sig;
}
