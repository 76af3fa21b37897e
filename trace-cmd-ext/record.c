// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace-cmd-lbr record: `trace-cmd record -C mono` and an lbrsnap capture at the same time,
 * merged into one trace.dat.
 *
 * The capture runs in this process through the record session (lib/capture/record-session.c),
 * so it is attached before trace-cmd starts; trace-cmd runs as a child with the user's
 * options. When trace-cmd exits, the capture is stopped, drained and counted, and both files
 * are merged. Ctrl-C reaches trace-cmd (same process group), which stops its command and
 * writes its file as usual; SIGTERM is passed on to it.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "capture/capture-opts.h"
#include "report/lbr-stale.h"
#include "util/parse-options.h"
#include "capture/record-session.h"
#include "record.h"
#include "trace-cmd-lbr.h"

struct record_args {
	const char **tc_argv;		/* trace-cmd record argv, NULL-terminated */
	int tc_argc;
	struct capture_opts opts;
	const char *output;
	const char *trace_cmd;
	int out_slot;			/* tc_argv index of trace-cmd's -o value */
	bool keep;
	bool follow;			/* --follow: only trace-cmd's process tree */
};

/*
 * --lbr is the capture mode, as in lbrsnap record; here it named attach points before
 * --event did, and still does with a note when its value is no mode
 */
static int opt_old_lbr(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct record_args *a = obj;
	enum capture_lbr_mode mode;

	if (!capture_opts__parse_lbr_mode(arg, &mode)) {
		a->opts.lbr_mode = mode;
		return 0;
	}
	fprintf(stderr, "%s: --lbr SPEC is now --event SPEC (--lbr is the capture mode: auto, "
		"off or external)\n", who);
	return opt_row__apply(opt_rows__find(capture_opts__rows, "event"), arg, &a->opts, who);
}

static const struct opt_row record_rows[] = {
	OPT_ROW_STRING('o', "output", "FILE", struct record_args, output,
		       "merged output (default trace.dat)"),
	OPT_ROW_BOOL(0, "follow", struct record_args, follow,
		     "capture only trace-cmd's process tree (the command)"),
	OPT_ROW_STRING(0, "trace-cmd", "PATH", struct record_args, trace_cmd,
		       "trace-cmd binary (default: $TRACE_CMD, else trace-cmd from PATH)"),
	OPT_ROW_BOOL(0, "keep", struct record_args, keep,
		     "keep the two input files next to the output"),
	{ .type = OPT_CALLBACK, .long_name = "lbr", .arg = OPT_ARG_REQUIRED, .argname = "MODE",
	  .cb = opt_old_lbr, .flags = OPT_HIDDEN },
	OPT_ROW_END
};

/*
 * The pass-through rule: trace-cmd record takes every short option (-e, -p, -t, -v are its
 * own), so the capture options are spelled long here; what is not ours goes to trace-cmd.
 */
#define TRACE_CMD_SHORTS "eptjv"

static void record_cmd(struct record_args *a, struct opt_set *sets, struct opt_cmd *cmd)
{
	sets[0] = (struct opt_set){ record_rows, a };
	sets[1] = (struct opt_set){ capture_opts__rows, &a->opts, TRACE_CMD_SHORTS };
	sets[2] = (struct opt_set){ 0 };
	*cmd = (struct opt_cmd){
		.who = "trace-cmd-lbr record",
		.usage = "usage: trace-cmd-lbr record [trace-cmd record options] --event SPEC...\n"
			 "                            [lbr options] [-o trace.dat] [-- command [args]]",
		.intro = "Runs `trace-cmd record -C mono` with the given options and an lbrsnap "
			 "capture together and leaves one merged trace.dat. Options not listed here "
			 "go to trace-cmd record; the capture options are spelled long (-e, -p, -t, "
			 "-j, -v are trace-cmd's).",
		.sets = sets,
	};
}

/* Our options are taken out; everything else, in order, is trace-cmd record's. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	struct opt_set sets[3];
	struct opt_cmd cmd;
	const char *v;
	int i, m;

	record_cmd(a, sets, &cmd);
	a->tc_argv = calloc(argc + 8, sizeof(*a->tc_argv));
	if (!a->tc_argv)
		return -ENOMEM;
	a->output = "trace.dat";
	a->trace_cmd = getenv("TRACE_CMD") ?: "trace-cmd";
	a->tc_argc = 2;
	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--"))
			break;
		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			opt_rows__usage(&cmd, stdout);
			return OPT_PARSE_HELP;
		}
		if (!strcmp(o, "-C")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "trace-cmd-lbr record: -C needs a value\n");
				return OPT_PARSE_USAGE;
			}
			v = argv[++i];
			if (strcmp(v, "mono")) {
				fprintf(stderr, "trace-cmd-lbr record: -C %s: lbrsnap time stamps are "
					"CLOCK_MONOTONIC, only -C mono can be merged\n", v);
				return OPT_PARSE_USAGE;
			}
			continue;
		}
		m = opt_rows__take(&cmd, argc, argv, &i);
		if (m < 0)
			return m;
		if (!m)
			a->tc_argv[a->tc_argc++] = o;
	}
	if (!a->opts.nr_events) {
		fprintf(stderr, "trace-cmd-lbr record: no --event SPEC given\n");
		opt_rows__usage(&cmd, stderr);
		return OPT_PARSE_USAGE;
	}
	a->tc_argv[0] = a->trace_cmd;
	a->tc_argv[1] = "record";
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
	struct record_session_opts so = { .command_records = true,
					  .who = "trace-cmd-lbr record" };
	struct record_session_result res;
	char dir[4096], rec[4200], cap[4200];
	int ret = 1, i;

	i = parse_args(argc, argv, &a);
	if (i) {
		free(a.tc_argv);
		capture_opts__free(&a.opts);
		return i == -ENOMEM ? 1 : opt_rows__exit(i);
	}
	if (make_workdir(a.output, dir, sizeof(dir))) {
		fprintf(stderr, "trace-cmd-lbr record: cannot create a directory next to %s: %s\n",
			a.output, strerror(errno));
		goto cleanup_args;
	}
	snprintf(rec, sizeof(rec), "%s/trace-cmd.dat", dir);
	snprintf(cap, sizeof(cap), "%s/lbrsnap.data", dir);
	a.tc_argv[a.out_slot] = rec;
	so.capture = a.opts;
	so.output = cap;
	so.argv = (char *const *)a.tc_argv;
	so.follow = a.follow;
	i = record_session__run(&so, &res);
	if (i) {
		/* a bad --filter is a usage error, found before anything was attached */
		ret = i == -EBADMSG ? 2 : 1;
		goto cleanup;
	}
	if (access(rec, R_OK)) {
		fprintf(stderr, "trace-cmd-lbr record: trace-cmd record wrote no file (%s %d)\n",
			WIFEXITED(res.status) ? "exit status" : "signal",
			WIFEXITED(res.status) ? WEXITSTATUS(res.status) : WTERMSIG(res.status));
		goto cleanup;
	}
	/* trace-cmd may fail while cleaning up after a complete file; merging checks it */
	if (!WIFEXITED(res.status) || WEXITSTATUS(res.status))
		fprintf(stderr, "trace-cmd-lbr record: trace-cmd record ended with %s %d; "
			"merging the file it wrote\n", WIFEXITED(res.status) ? "status" : "signal",
			WIFEXITED(res.status) ? WEXITSTATUS(res.status) : WTERMSIG(res.status));
	capture_stats__print(&res.stats, "trace-cmd-lbr record", stderr);
	if (res.stats.lbr_gaps)
		lbr_stale__warn(stderr, "trace-cmd-lbr record", cap);
	ret = lbr__write(rec, cap, a.output, false);
cleanup:
	if (a.keep) {
		fprintf(stderr, "trace-cmd-lbr record: inputs kept in %s\n", dir);
	} else {
		unlink(rec);
		unlink(cap);
		rmdir(dir);
	}
cleanup_args:
	free(a.tc_argv);
	capture_opts__free(&a.opts);
	return ret;
}
