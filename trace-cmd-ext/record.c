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
#include "capture-opts.h"
#include "lbr-stale.h"
#include "record-session.h"
#include "record.h"
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
	struct capture_opts opts;
	const char *output;
	const char *trace_cmd;
	int out_slot;			/* tc_argv index of trace-cmd's -o value */
	bool keep;
	bool follow;			/* --follow: only trace-cmd's process tree */
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
	if (!a->tc_argv)
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
				err = capture_opts__parse(&a->opts, 'e', v,
							  "trace-cmd-lbr record") < 0 ? -EINVAL : 0;
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
			a->follow = true;
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
	if (!a->opts.nr_events) {
		fprintf(stderr, "trace-cmd-lbr record: no --lbr SPEC given\n%s", record_usage);
		return -EINVAL;
	}
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
		return i > 0 ? 0 : 129;
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
