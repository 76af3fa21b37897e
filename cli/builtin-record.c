// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap record: capture into lbrsnap.data.
 *
 * The recording itself is lib/capture/record-session.c: with a command after "--", the
 * command is held until every program is attached and only it and its descendants are
 * traced (the way perf record prepares its workload).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin-perf-record.h"
#include "builtin-record.h"
#include "capture-opts.h"
#include "lbr-stale.h"
#include "out-file.h"
#include "record-session.h"

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
	/* a device or FIFO has no size to tell, and cannot be read back */
	bool stream = out_file__is_stream(path);
	struct stat sb;

	if (stream)
		fprintf(stderr, "[ lbrsnap record: Captured and wrote %s (%llu records) ]\n",
			path, (unsigned long long)st->records);
	else
		fprintf(stderr, "[ lbrsnap record: Captured and wrote %.3f MB %s (%llu records) "
			"]\n", stat(path, &sb) ? 0.0 : sb.st_size / 1048576.0, path,
			(unsigned long long)st->records);
	capture_stats__print(st, "lbrsnap record", stderr);
	/* last: where LBR was off, read back from the file (gaps are rare) */
	if (st->lbr_gaps && !stream)
		lbr_stale__warn(stderr, "lbrsnap record", path);
	else if (st->lbr_gaps)
		fprintf(stderr, "[ lbrsnap record: WARNING: LBR was off on some CPU during the "
			"capture: records taken then may have stale branches (lbrsnap report of "
			"the file marks them) ]\n");
}

int cmd_record(int argc, char **argv)
{
	struct record_session_opts so = { .output = "lbrsnap.data", .follow = true,
					  .who = "lbrsnap record" };
	struct record_session_result res;
	int opt, i, ret = 129;

	/* with perf alongside, the one-command path owns the whole command line */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--perf-args", 11))
			return perf_record_main(argc, argv);
	}
	while ((opt = getopt_long(argc, argv, "+o:ad:h" CAPTURE_SHORT_OPTIONS, long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o':
			so.output = optarg;
			break;
		case 'a':
			break;
		case 'd': {
			char *end;

			so.duration_s = strtod(optarg, &end);
			if (end == optarg || *end || !(so.duration_s > 0)) {
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
			ret = capture_opts__parse(&so.capture, opt, optarg, "lbrsnap record");
			if (ret > 0)
				break;
			if (ret == 0)
				usage(stderr);
			ret = 129;
			goto cleanup;
		}
	}
	capture_opts__finish(&so.capture);
	if (optind < argc)
		so.argv = argv + optind;
	ret = record_session__run(&so, &res);
	if (ret) {
		/* a bad spec or --filter is the command line's error, found before any load */
		ret = ret == -EBADMSG ? 2 : 1;
		goto cleanup;
	}
	print_summary(&res.stats, so.output);
	/* perf record's rule: the command's exit status (128 + its signal, like a shell) */
	ret = record_session__exit_status(&res, "lbrsnap record", stderr);
cleanup:
	capture_opts__free(&so.capture);
	return ret;
}
