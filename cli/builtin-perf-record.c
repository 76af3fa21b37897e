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
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>
#include <sys/wait.h>
#include "capture-engine.h"
#include "capture-opts.h"
#include "lbrfile.h"
#include "perf-convert.h"
#include "perf-merge.h"
#include "builtin-perf-record.h"
#include "workload.h"

static volatile sig_atomic_t term_requested;

static void on_term(int sig)
{
	term_requested = 1;
}

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

/* perf record -k mono ARGS -o rec [-- cmd...], held in wl until workload__start(). */
static int start_perf(const char *perf, const char *args, const char *rec, char **cmd,
		      int nr_cmd, struct workload *wl)
{
	wordexp_t we = { 0 };
	char **argv;
	int i, n = 0, err;

	if (args && wordexp(args, &we, WRDE_NOCMD | WRDE_UNDEF)) {
		fprintf(stderr, "lbrsnap perf record: cannot split --perf-args '%s'\n", args);
		return -EINVAL;
	}
	argv = calloc(we.we_wordc + nr_cmd + 8, sizeof(*argv));
	if (!argv) {
		wordfree(&we);
		return -ENOMEM;
	}
	argv[n++] = (char *)perf;
	argv[n++] = "record";
	argv[n++] = "-k";
	argv[n++] = "mono";
	for (i = 0; i < (int)we.we_wordc; i++)
		argv[n++] = we.we_wordv[i];
	argv[n++] = "-o";
	argv[n++] = (char *)rec;
	if (nr_cmd)
		argv[n++] = "--";
	for (i = 0; i < nr_cmd; i++)
		argv[n++] = cmd[i];
	err = workload__prepare(wl, argv, "lbrsnap perf record");
	free(argv);
	if (args)
		wordfree(&we);
	return err;
}

struct record_args {
	struct capture_opts opts;
	const char *perf_args;
	const char *output;
	const char *perf;
	bool keep;
	bool all;
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
	a->opts.follow = optind < argc && !a->all && !a->opts.pid;
	return 0;
}

int perf_record_main(int argc, char **argv)
{
	struct record_args a = { .output = "perf.data", .perf = "perf" };
	char *rec = NULL, *cap = NULL, *ksyms = NULL, err[1024];
	struct lbrfile_writer *w = NULL;
	struct sigaction sa = { 0 };
	struct capture_stats st;
	struct capture *c = NULL;
	struct workload wl = WORKLOAD_INIT;
	struct capture_run run = { .stop = &term_requested, .forward_stop = true };
	int ret, perf_rc, err_close;

	ret = parse_args(argc, argv, &a);
	if (ret)
		goto cleanup;
	ret = 1;
	if (asprintf(&rec, "%s.rec", a.output) < 0 ||
	    asprintf(&cap, "%s.lbrsnap.data", a.output) < 0 ||
	    asprintf(&ksyms, "%s.kallsyms", a.output) < 0)
		goto cleanup;
	if (capture__open(&a.opts, &c, err, sizeof(err))) {
		fprintf(stderr, "lbrsnap perf record: %s\n", err);
		goto cleanup;
	}
	if (!capture__has_lbr(c))
		fprintf(stderr, "lbrsnap perf record: no LBR here (%s): capturing kernel stacks\n",
			capture__lbr_why(c));
	if (lbrfile_writer__create(cap, &w) || capture__write_header(c, w)) {
		fprintf(stderr, "lbrsnap perf record: cannot write '%s'\n", cap);
		goto cleanup;
	}
	/* Ctrl-C goes to perf too (same process group); we stop when perf has stopped */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	unlink(rec);	/* its existence afterwards says perf record worked */
	if (start_perf(a.perf, a.perf_args, rec, argv + optind, argc - optind, &wl))
		goto cleanup;
	if (a.opts.follow && capture__follow(c, wl.pid)) {
		fprintf(stderr, "lbrsnap perf record: cannot follow perf's pid %d\n", wl.pid);
		goto cleanup;
	}
	if (workload__start(&wl, "lbrsnap perf record"))
		goto cleanup;
	run.child = wl.pid;
	err_close = capture__run(c, w, &run);
	if (err_close) {
		fprintf(stderr, "lbrsnap perf record: writing '%s': %s\n", cap, strerror(-err_close));
		goto cleanup;
	}
	wl.pid = 0;
	perf_rc = WIFEXITED(run.status) ? WEXITSTATUS(run.status) : 128 + WTERMSIG(run.status);
	if (capture__finish(c, w, &st)) {
		fprintf(stderr, "lbrsnap perf record: cannot finish '%s'\n", cap);
		goto cleanup;
	}
	err_close = lbrfile_writer__close(w);
	w = NULL;
	if (err_close) {
		fprintf(stderr, "lbrsnap perf record: cannot write '%s': %s\n", cap,
			strerror(-err_close));
		goto cleanup;
	}
	capture__close(c);
	c = NULL;
	/* perf record exits with its command's status: its file tells whether it worked */
	if (access(rec, R_OK)) {
		fprintf(stderr, "lbrsnap perf record: perf record failed (exit status %d); "
			"capture kept in %s\n", perf_rc, cap);
		a.keep = true;
		goto cleanup;
	}
	if (perf_merge(rec, cap, a.output, ksyms)) {
		a.keep = true;
		goto cleanup;
	}
	fprintf(stderr, "lbrsnap perf record: wrote %s and %s\n", a.output, ksyms);
	capture_stats__print(&st, "lbrsnap perf record", stderr);
	ret = perf_rc;
cleanup:
	if (wl.pid > 0 && wl.go_fd >= 0) {
		workload__cancel(&wl);
	} else if (wl.pid > 0) {
		kill(wl.pid, SIGTERM);
		waitpid(wl.pid, NULL, 0);
	}
	lbrfile_writer__abort(w);
	capture__close(c);
	if (!a.keep && rec && cap) {
		unlink(rec);
		unlink(cap);
	}
	free(rec);
	free(cap);
	free(ksyms);
	capture_opts__free(&a.opts);
	return ret < 0 ? 0 : ret;
}
