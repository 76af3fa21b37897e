// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap record: capture into lbrsnap.data.
 *
 * The recording itself is lib/capture/record-session.c: with a command after "--", the
 * command is held until every program is attached and only it and its descendants are
 * traced (the way perf record prepares its workload).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "builtin-perf-record.h"
#include "builtin-record.h"
#include "capture/capture-opts.h"
#include "report/lbr-stale.h"
#include "util/out-file.h"
#include "util/parse-options.h"
#include "capture/record-session.h"

/* what the command line sets beside the capture options */
struct record_cli {
	struct record_session_opts so;
	bool all;			/* -a: the default without a command, said for clarity */
	const char *perf_args;		/* taken by lbrsnap perf record (perf_record_main) */
};

static int opt_duration(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	struct record_cli *cli = obj;
	char *end;

	cli->so.duration_s = strtod(arg, &end);
	if (end == arg || *end || !(cli->so.duration_s > 0)) {
		fprintf(stderr, "%s: bad --duration '%s'\n", who, arg);
		return -EINVAL;
	}
	return 0;
}

static const struct opt_row record_rows[] = {
	OPT_ROW_STRING('o', "output", "FILE", struct record_cli, so.output,
		       "output file (default lbrsnap.data)"),
	OPT_ROW_BOOL('a', "all-cpus", struct record_cli, all,
		     "system-wide (the default without a command)"),
	OPT_ROW_CALLBACK('d', "duration", "SECS", opt_duration, "stop after SECS seconds"),
	OPT_ROW_STRING(0, "perf-args", "ARGS", struct record_cli, perf_args,
		       "run `perf record -k mono ARGS` alongside and write one merged perf.data "
		       "to -o (see lbrsnap-perf(1))"),
	OPT_ROW_END
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
	struct record_cli cli = { .so = { .output = "lbrsnap.data", .follow = true,
					  .who = "lbrsnap record" } };
	const struct opt_set sets[] = {
		{ record_rows, &cli },
		{ capture_opts__rows, &cli.so.capture },
		{ 0 }
	};
	const struct opt_cmd cmd = {
		.who = "lbrsnap record",
		/* perf runs perf-lbr for "perf lbr record": the usage says what was typed */
		.usage = strcmp(program_invocation_short_name, "perf-lbr") ?
			 "usage: lbrsnap record [options] [-- command [args]]" :
			 "usage: perf lbr record [options] [-- command [args]]",
		.intro = "Captures an LBR snapshot (or, without LBR, a kernel stack) each time an "
			 "attach point fires.",
		.outro = "Without a command, captures system-wide until Ctrl-C or --duration.",
		.sets = sets,
		.stop_at_nonopt = 1,
	};
	struct record_session_opts *so = &cli.so;
	struct record_session_result res;
	int i, ret;

	/* with perf alongside, the one-command path owns the whole command line */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--perf-args", 11))
			return perf_record_main(argc, argv);
	}
	i = opt_rows__parse(&cmd, argc, argv);
	if (i < 0) {
		ret = opt_rows__exit(i);
		goto cleanup;
	}
	capture_opts__finish(&so->capture);
	if (i < argc)
		so->argv = argv + i;
	ret = record_session__run(so, &res);
	if (ret) {
		/* a bad spec or --filter is the command line's error, found before any load */
		ret = ret == -EBADMSG ? 2 : 1;
		goto cleanup;
	}
	print_summary(&res.stats, so->output);
	/* perf record's rule: the command's exit status (128 + its signal, like a shell) */
	ret = record_session__exit_status(&res, "lbrsnap record", stderr);
cleanup:
	capture_opts__free(&so->capture);
	return ret;
}
