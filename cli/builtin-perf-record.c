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
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>
#include <sys/wait.h>
#include "builtin-perf-record.h"
#include "capture-opts.h"
#include "lbr-stale.h"
#include "out-file.h"
#include "perf-merge.h"
#include "record-session.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: lbrsnap perf record [-e SPEC]... [--perf-args ARGS] [-o FILE] [-- command [args]]\n"
"\n"
"Runs `perf record -k mono ARGS [-- command]` while capturing LBR snapshots (or kernel\n"
"stacks) and writes one perf.data with both; see lbrsnap-perf(1).\n"
"\n"
"      --perf-args ARGS    arguments for perf record, shell-quoted (e.g. '-e sched:* -a')\n"
"  -o, --output FILE       merged perf.data (default perf.data)\n"
"  -a, --all-cpus          capture system-wide even with a command (default: perf record\n"
"                          and its command, with their children)\n"
"      --keep              keep the intermediate OUTPUT.rec and OUTPUT.lbrsnap.data\n"
"      --perf PATH         perf binary (default: perf from PATH)\n"
CAPTURE_OPTIONS_HELP
"  -h, --help              this text\n");
}

/* perf record -k mono ARGS -o rec [-- cmd...], as an argv for the record session. */
static char **perf_argv(const char *perf, const char *args, const char *rec, char **cmd,
			int nr_cmd, wordexp_t *we)
{
	char **argv;
	int i, n = 0;

	if (args && wordexp(args, we, WRDE_NOCMD | WRDE_UNDEF)) {
		fprintf(stderr, "lbrsnap perf record: cannot split --perf-args '%s'\n", args);
		return NULL;
	}
	argv = calloc(we->we_wordc + nr_cmd + 8, sizeof(*argv));
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
	if (nr_cmd)
		argv[n++] = "--";
	for (i = 0; i < nr_cmd; i++)
		argv[n++] = cmd[i];
	return argv;
}

/* Where the steps of an output that is no regular file go: ${TMPDIR:-/tmp}, this run's own. */
static char *temp_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (asprintf(&dir, "%s/lbrsnap-perf-record.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
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
	bool follow;			/* the capture follows perf and its children */
};

enum { OPT_PERF_ARGS = 256, OPT_KEEP, OPT_PERF };

static int parse_args(int argc, char **argv, struct record_args *a)
{
	static const struct option opts[] = {
		CAPTURE_LONG_OPTIONS,
		{ "perf-args", required_argument, NULL, OPT_PERF_ARGS },
		{ "output", required_argument, NULL, 'o' },
		{ "keep", no_argument, NULL, OPT_KEEP },
		{ "perf", required_argument, NULL, OPT_PERF },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:ah" CAPTURE_SHORT_OPTIONS, opts, NULL)) != -1) {
		switch (c) {
		case OPT_PERF_ARGS:
			a->perf_args = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'a':
			a->all = true;
			break;
		case OPT_KEEP:
			a->keep = true;
			break;
		case OPT_PERF:
			a->perf = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			ret = capture_opts__parse(&a->opts, c, optarg, "lbrsnap perf record");
			if (ret > 0)
				break;
			if (ret == 0)
				usage(stderr);
			return 129;
		}
	}
	capture_opts__finish(&a->opts);

	/* with a command, the capture follows perf and its children as perf does */
	a->follow = optind < argc && !a->all && !a->opts.pid;
	return 0;
}

int perf_record_main(int argc, char **argv)
{
	struct record_args a = { .output = "perf.data", .perf = "perf" };
	struct record_session_opts so = { .command_records = true,
					  .who = "lbrsnap perf record" };
	char *rec = NULL, *cap = NULL, *ksyms = NULL, **pargv = NULL, *dir = NULL;
	struct record_session_result res;
	wordexp_t we = { 0 };
	int ret, perf_rc;

	ret = parse_args(argc, argv, &a);
	if (ret)
		goto cleanup;
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
	pargv = perf_argv(a.perf, a.perf_args, rec, argv + optind, argc - optind, &we);
	if (!pargv)
		goto cleanup;
	unlink(rec);	/* its existence afterwards says perf record worked */
	so.capture = a.opts;
	so.output = cap;
	so.argv = pargv;
	so.follow = a.follow;
	ret = record_session__run(&so, &res);
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
	ret = perf_rc;
cleanup:
	if (!a.keep && rec && cap) {
		unlink(rec);
		unlink(cap);
	}
	if (dir)
		rmdir(dir);	/* unless something kept is in it */
	free(dir);
	if (a.perf_args && pargv)
		wordfree(&we);
	free(pargv);
	free(rec);
	free(cap);
	free(ksyms);
	capture_opts__free(&a.opts);
	return ret < 0 ? 0 : ret;
}
