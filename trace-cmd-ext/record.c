// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace-cmd-lbr record: `trace-cmd record -C mono` and an lbrsnap capture at the same time,
 * merged into one trace.dat.
 *
 * The capture runs in this process through the capture engine, so it is attached before
 * trace-cmd starts; trace-cmd runs as a child with the user's options. When trace-cmd
 * exits, the capture is drained and both files are merged. Ctrl-C reaches trace-cmd
 * (same process group), which stops its command and writes its file as usual.
 */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "capture-engine.h"
#include "capture-opts.h"
#include "workload.h"
#include "lbrfile.h"
#include "trace-cmd-lbr.h"

static const char record_usage[] =
	"usage: trace-cmd-lbr record [trace-cmd record options] --lbr SPEC... [lbr options]\n"
	"                            [-o trace.dat] [-- command [args]]\n"
	"\n"
	"Runs `trace-cmd record -C mono` with the given options and an lbrsnap capture together\n"
	"and leaves one merged trace.dat. Options not listed here go to trace-cmd record.\n"
	"\n"
	"    --lbr SPEC            attach point, repeatable: fexit:FUNC, raw_tp:NAME, tp_btf:NAME\n"
	"    -o, --output FILE     merged output (default trace.dat)\n"
	"    --stack               capture kernel stacks as well as LBR\n"
	"    --errors[=null]       only errors: -4095..-1 for signed returns, ERR_PTR for\n"
	"                          pointers (=null: NULL too); never unsigned or bool ones\n"
	"    --ret VALUE           only this return value: -17, -EEXIST, true, false, NULL\n"
	"    --comm NAME           only tasks with this comm\n"
	"    --sample N            keep 1 of N matching invocations\n"
	"    --branch-filter F     LBR branch filter, perf syntax (default any,k)\n"
	"    --ringbuf SIZE        capture ring buffer, power of two, K/M suffix (default 8M)\n"
	"    --slots N             snapshot slots per attach point, a power of two (default:\n"
	"                          one per possible CPU)\n"
	"    --follow-max N        processes followed at once with --follow (default 16384)\n"
	"    --follow              capture only trace-cmd's process tree (the command)\n"
	"    --trace-cmd PATH      trace-cmd binary (default: trace-cmd from PATH)\n"
	"    --keep                keep the two input files next to the output\n";

struct record_args {
	const char **tc_argv;		/* trace-cmd record argv, NULL-terminated */
	int tc_argc;
	const char **events;
	size_t nr_events;
	struct capture_opts opts;
	const char *output;
	const char *trace_cmd;
	int out_slot;			/* tc_argv index of trace-cmd's -o value */
	bool keep;
};

static int take_value(int argc, char **argv, int *i, const char **val)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "trace-cmd-lbr record: %s needs a value\n", argv[*i]);
		return -EINVAL;
	}
	*val = argv[++*i];
	return 0;
}

/*
 * The capture options of lbrsnap record that trace-cmd record does not have. -e, -p, -t
 * and -v are trace-cmd's own, and --lbr names attach points here.
 */
static const struct option *capture_long_option(const char *arg)
{
	static const struct option capture_long[] = { CAPTURE_LONG_OPTIONS, { 0 } };
	static const char *const theirs[] = { "event", "pid", "tid", "verbose", "lbr" };
	const struct option *co;
	size_t k, len;

	if (strncmp(arg, "--", 2))
		return NULL;
	len = strcspn(arg + 2, "=");
	for (co = capture_long; co->name; co++) {
		if (strlen(co->name) != len || strncmp(arg + 2, co->name, len))
			continue;
		for (k = 0; k < sizeof(theirs) / sizeof(theirs[0]); k++) {
			if (!strcmp(co->name, theirs[k]))
				return NULL;
		}
		return co;
	}
	return NULL;
}

/*
 * "--NAME VALUE" or "--NAME=VALUE", as getopt_long takes them: returns 1 with *val set when
 * argv[*i] is that option, 0 when it is not, or -EINVAL when its value is missing.
 */
static int long_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *o = argv[*i];
	size_t len = strlen(name);

	if (strncmp(o, name, len))
		return 0;
	if (o[len] == '=') {
		*val = o + len + 1;
		return 1;
	}
	if (o[len])
		return 0;
	return take_value(argc, argv, i, val) ?: 1;
}

/* Our options are taken out; everything else, in order, is trace-cmd record's. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	const struct option *co;
	const char *v;
	int i, err = 0;

	a->tc_argv = calloc(argc + 8, sizeof(*a->tc_argv));
	a->events = calloc(argc, sizeof(*a->events));
	if (!a->tc_argv || !a->events)
		return -ENOMEM;
	a->output = "trace.dat";
	a->trace_cmd = getenv("TRACE_CMD") ?: "trace-cmd";
	a->tc_argv[a->tc_argc++] = a->trace_cmd;
	a->tc_argv[a->tc_argc++] = "record";
	for (i = 1; i < argc && !err; i++) {
		const char *o = argv[i];
		int m;

		if (!strcmp(o, "--")) {
			break;
		} else if ((m = long_value(argc, argv, &i, "--lbr", &v))) {
			err = m < 0 ? m : 0;
			if (!err)
				a->events[a->nr_events++] = v;
		} else if (!strcmp(o, "-o")) {
			err = take_value(argc, argv, &i, &a->output);
		} else if ((m = long_value(argc, argv, &i, "--output", &a->output))) {
			err = m < 0 ? m : 0;
		} else if (!strcmp(o, "-C")) {
			err = take_value(argc, argv, &i, &v);
			if (!err && strcmp(v, "mono")) {
				fprintf(stderr, "trace-cmd-lbr record: -C %s: lbrsnap time stamps are "
					"CLOCK_MONOTONIC, only -C mono can be merged\n", v);
				err = -EINVAL;
			}
		} else if ((co = capture_long_option(o))) {
			v = strchr(o, '=') ? strchr(o, '=') + 1 : NULL;
			if (v && co->has_arg == no_argument) {
				fprintf(stderr, "trace-cmd-lbr record: %s takes no value\n", o);
				err = -EINVAL;
			} else if (!v && co->has_arg == required_argument) {
				err = take_value(argc, argv, &i, &v);
			}
			if (!err && capture_opts__parse(&a->opts, co->val, v,
							"trace-cmd-lbr record") < 0)
				err = -EINVAL;
		} else if (!strcmp(o, "--follow")) {
			a->opts.follow = true;
		} else if ((m = long_value(argc, argv, &i, "--trace-cmd", &a->trace_cmd))) {
			err = m < 0 ? m : 0;
			a->tc_argv[0] = a->trace_cmd;
		} else if (!strcmp(o, "--keep")) {
			a->keep = true;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fputs(record_usage, stdout);
			return 1;
		} else {
			a->tc_argv[a->tc_argc++] = o;
		}
	}
	if (err)
		return err;
	if (!a->nr_events) {
		fprintf(stderr, "trace-cmd-lbr record: no --lbr SPEC given\n%s", record_usage);
		return -EINVAL;
	}
	a->opts.events = a->events;
	a->opts.nr_events = a->nr_events;
	a->tc_argv[a->tc_argc++] = "-C";
	a->tc_argv[a->tc_argc++] = "mono";
	a->tc_argv[a->tc_argc++] = "-o";
	/* the temporary file name goes here, then the command after "--" */
	a->out_slot = a->tc_argc++;
	if (i < argc) {
		a->tc_argv[a->tc_argc++] = "--";
		for (i++; i < argc; i++)
			a->tc_argv[a->tc_argc++] = argv[i];
	}
	return 0;
}

static int make_workdir(const char *output, char *dir, size_t len)
{
	char *copy = strdup(output);

	if (!copy)
		return -ENOMEM;
	snprintf(dir, len, "%s/.trace-cmd-lbr.XXXXXX", dirname(copy));
	free(copy);
	return mkdtemp(dir) ? 0 : -errno;
}

int lbr__record(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct lbrfile_writer *w = NULL;
	struct capture *c = NULL;
	struct capture_stats st;
	char dir[4096], rec[4200], cap[4200], err[512];
	struct sigaction sa = { .sa_handler = SIG_IGN }, old_int, old_term;
	struct workload wl = WORKLOAD_INIT;
	struct capture_run run = { 0 };
	int ret = 1, status, i;

	i = parse_args(argc, argv, &a);
	if (i) {
		free(a.tc_argv);
		free(a.events);
		return i > 0 ? 0 : 129;
	}
	if (make_workdir(a.output, dir, sizeof(dir))) {
		fprintf(stderr, "trace-cmd-lbr record: cannot create a directory next to %s: %s\n",
			a.output, strerror(errno));
		goto cleanup_args;
	}
	snprintf(rec, sizeof(rec), "%s/trace-cmd.dat", dir);
	snprintf(cap, sizeof(cap), "%s/lbrsnap.data", dir);
	if (capture__open(&a.opts, &c, err, sizeof(err))) {
		fprintf(stderr, "trace-cmd-lbr record: %s\n", err);
		goto cleanup;
	}
	if (!capture__has_lbr(c))
		fprintf(stderr, "trace-cmd-lbr record: LBR is not available here: %s; capturing "
			"kernel call stacks instead\n", capture__lbr_why(c));
	if (lbrfile_writer__create(cap, &w) || capture__write_header(c, w)) {
		fprintf(stderr, "trace-cmd-lbr record: cannot write %s\n", cap);
		goto cleanup;
	}
	/* trace-cmd gets Ctrl-C (same process group) and ends the recording; we wait for it */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	a.tc_argv[a.out_slot] = rec;
	/* held until followed, so trace-cmd's command is traced from its first syscall */
	if (workload__prepare(&wl, (char *const *)a.tc_argv, "trace-cmd-lbr record"))
		goto cleanup_signals;
	if (a.opts.follow && capture__follow(c, wl.pid)) {
		fprintf(stderr, "trace-cmd-lbr record: cannot follow trace-cmd\n");
		workload__cancel(&wl);
		goto cleanup_signals;
	}
	if (workload__start(&wl, "trace-cmd-lbr record")) {
		waitpid(wl.pid, NULL, 0);
		goto cleanup_signals;
	}
	run.child = wl.pid;
	i = capture__run(c, w, &run);
	if (i) {
		fprintf(stderr, "trace-cmd-lbr record: writing %s: %s\n", cap, strerror(-i));
		kill(wl.pid, SIGINT);
		waitpid(wl.pid, NULL, 0);
		goto cleanup_signals;
	}
	status = run.status;
	if (capture__finish(c, w, &st)) {
		fprintf(stderr, "trace-cmd-lbr record: cannot finish %s\n", cap);
		goto cleanup_signals;
	}
	i = lbrfile_writer__close(w);
	w = NULL;
	if (i) {
		fprintf(stderr, "trace-cmd-lbr record: cannot write %s: %s\n", cap, strerror(-i));
		goto cleanup_signals;
	}
	if (access(rec, R_OK)) {
		fprintf(stderr, "trace-cmd-lbr record: trace-cmd record wrote no file (%s %d)\n",
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		goto cleanup_signals;
	}
	/* trace-cmd may fail while cleaning up after a complete file; merging checks it */
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "trace-cmd-lbr record: trace-cmd record ended with %s %d; "
			"merging the file it wrote\n", WIFEXITED(status) ? "status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	capture_stats__print(&st, "trace-cmd-lbr record", stderr);
	ret = lbr__write(rec, cap, a.output, false);
cleanup_signals:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
cleanup:
	lbrfile_writer__abort(w);
	capture__close(c);
	if (a.keep) {
		fprintf(stderr, "trace-cmd-lbr record: inputs kept in %s\n", dir);
	} else {
		unlink(rec);
		unlink(cap);
		rmdir(dir);
	}
cleanup_args:
	free(a.tc_argv);
	free(a.events);
	return ret;
}
