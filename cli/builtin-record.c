// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap record: capture into lbrsnap.data.
 *
 * With a command after "--" the command is forked first and held on a pipe until every
 * program is attached and its pid is in the follow map, so its first syscall is already
 * traced (the way perf record prepares its workload).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "capture-engine.h"
#include "capture-opts.h"
#include "builtin-record.h"
#include "lbrfile.h"
#include "builtin-perf-record.h"
#include "workload.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
"usage: lbrsnap record [options] [-- command [args]]\n"
"\n"
"Captures an LBR snapshot (or, without LBR, a kernel stack) each time an attach point fires.\n"
"\n"
"  -o, --output FILE       output file (default lbrsnap.data)\n"
"  -a, --all-cpus          system-wide (the default without a command)\n"
"  -d, --duration SECS     stop after SECS seconds\n"
"      --perf-args ARGS    run `perf record -k mono ARGS` alongside and write one merged\n"
"                          perf.data to -o (see lbrsnap-perf(1))\n"
CAPTURE_OPTIONS_HELP
"  -h, --help              this text\n"
"\n"
"Without a command, captures system-wide until Ctrl-C or --duration.\n");
}

static const struct option long_opts[] = {
	CAPTURE_LONG_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "duration", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

static void print_summary(const struct capture_stats *st, const char *path)
{
	struct stat sb;

	if (stat(path, &sb))
		sb.st_size = 0;
	fprintf(stderr, "[ lbrsnap record: Captured and wrote %.3f MB %s (%llu records) ]\n",
		sb.st_size / 1048576.0, path, (unsigned long long)st->records);
	capture_stats__print(st, "lbrsnap record", stderr);
}

int cmd_record(int argc, char **argv)
{
	const char *output = "lbrsnap.data";
	struct capture_opts opts = {};
	struct lbrfile_writer *w = NULL;
	struct workload wl = WORKLOAD_INIT;
	struct capture_run run = { .stop = &stop_requested };
	struct capture_stats st;
	struct capture *c = NULL;
	struct sigaction sa = {};
	double duration = 0;
	char err[1024];
	size_t i;
	int opt, ret = 1;

	/* with perf alongside, the one-command path owns the whole command line */
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--perf-args", 11))
			return perf_record_main(argc, argv);
	}
	while ((opt = getopt_long(argc, argv, "+o:ad:h" CAPTURE_SHORT_OPTIONS, long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'a':
			break;
		case 'd': {
			char *end;

			duration = strtod(optarg, &end);
			if (end == optarg || *end || !(duration > 0)) {
				fprintf(stderr, "lbrsnap record: bad --duration '%s'\n", optarg);
				goto cleanup;
			}
			break;
		}
		case 'h':
			usage(stdout);
			ret = 0;
			goto cleanup;
		default:
			ret = capture_opts__parse(&opts, opt, optarg, "lbrsnap record");
			if (ret > 0)
				break;
			if (ret == 0)
				usage(stderr);
			ret = 129;
			goto cleanup;
		}
	}
	ret = 1;
	capture_opts__finish(&opts);
	if (optind < argc) {
		opts.follow = true;
		if (workload__prepare(&wl, argv + optind, "lbrsnap record"))
			goto cleanup;
	}

	ret = capture__open(&opts, &c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lbrsnap record: %s\n", err);
		ret = 1;
		goto cleanup;
	}
	ret = 1;
	if (!capture__has_lbr(c) && opts.lbr_mode == CAPTURE_LBR_AUTO)
		fprintf(stderr, "lbrsnap record: LBR is not available here: %s; capturing kernel "
			"call stacks instead\n", capture__lbr_why(c));
	if (opts.verbose) {
		for (i = 0; i < capture__nr_attach(c); i++)
			fprintf(stderr, "lbrsnap record: attached %s (%llu bytes of snapshot "
				"memory: %u slots)\n", capture__attach_spec(c, i),
				(unsigned long long)capture__attach_bytes(c), capture__slots(c));
		fprintf(stderr, "lbrsnap record: %zu attach points, %llu bytes in total "
			"(the slot pools of the loaded objects, and the ring buffer)\n",
			capture__nr_attach(c), (unsigned long long)capture__total_bytes(c));
	}
	if (lbrfile_writer__create(output, &w)) {
		fprintf(stderr, "lbrsnap record: cannot create '%s': %s\n", output,
			strerror(errno));
		goto cleanup;
	}
	if (capture__write_header(c, w)) {
		fprintf(stderr, "lbrsnap record: cannot write '%s'\n", output);
		goto cleanup;
	}

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (wl.pid > 0) {
		if (capture__follow(c, wl.pid) || workload__start(&wl, "lbrsnap record"))
			goto cleanup;
		run.child = wl.pid;
	}
	run.duration_s = duration;
	ret = capture__run(c, w, &run);
	if (run.exited)
		wl.pid = 0;
	if (ret) {
		fprintf(stderr, "lbrsnap record: writing '%s': %s\n", output, strerror(-ret));
		ret = 1;
		goto cleanup;
	}
	ret = 1;
	if (capture__finish(c, w, &st)) {
		fprintf(stderr, "lbrsnap record: cannot finish '%s'\n", output);
		goto cleanup;
	}
	ret = lbrfile_writer__close(w);
	w = NULL;
	if (ret) {
		fprintf(stderr, "lbrsnap record: cannot write '%s': %s\n", output, strerror(-ret));
		ret = 1;
		goto cleanup;
	}
	print_summary(&st, output);
	ret = 0;
cleanup:
	lbrfile_writer__abort(w);
	capture__close(c);
	if (wl.pid > 0) {
		/* stopped before the command ended: end it, as perf record does */
		if (wl.go_fd >= 0) {
			workload__cancel(&wl);
		} else {
			kill(wl.pid, SIGTERM);
			waitpid(wl.pid, NULL, 0);
		}
	}
	capture_opts__free(&opts);
	return ret;
}
