// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace-cmd-lbr: lbrsnap's trace-cmd integration.
 *
 * trace-cmd 3.1 has no external subcommands and no writer API, so this tool works beside
 * it: it converts a capture to trace.dat, merges a capture into a `trace-cmd record -C mono`
 * file, or runs both recorders together and merges their outputs.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/out-file.h"
#include "util/parse-options.h"
#include "util/sig-defer.h"
#include "util/subcmd.h"
#include "tracedat-lbr/tracedat-merge.h"
#include "record.h"
#include "trace-cmd-lbr.h"

static void print_stats(const char *output, const struct tracedat_merge_stats *st)
{
	fprintf(stderr, "trace-cmd-lbr: wrote %s: ", output);
	if (st->in_version)
		fprintf(stderr, "%llu recorded events in %d buffer%s (trace.dat v%d, %s), ",
			(unsigned long long)st->kernel_events, st->nr_buffers,
			st->nr_buffers == 1 ? "" : "s", st->in_version, st->in_compression);
	fprintf(stderr, "%llu lbr records as %llu lbr events",
		(unsigned long long)st->lbr_records, (unsigned long long)st->lbr_events);
	if (st->call_events)
		fprintf(stderr, " and %llu funcgraph events of their calls",
			(unsigned long long)st->call_events);
	if (st->lbr_lost)
		fprintf(stderr, "; the capture lost %llu records", (unsigned long long)st->lbr_lost);
	fputc('\n', stderr);
}

static int write_flags(const char *input, const char *capture, const char *output, bool quiet,
		       unsigned int flags)
{
	struct tracedat_merge_stats st;
	char err[640];
	int ret;

	ret = tracedat__write_flags(input, capture, output, flags, &st, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "trace-cmd-lbr: %s\n", err);
		return 1;
	}
	if (!quiet)
		print_stats(output, &st);
	return 0;
}

int lbr__write(const char *input, const char *capture, const char *output, bool quiet)
{
	return write_flags(input, capture, output, quiet, 0);
}

struct write_args {
	const char *input;
	const char *capture;
	const char *output;
	bool quiet;
	bool force;
};

#define WRITE_ROW_QUIET OPT_ROW_BOOL('q', "quiet", struct write_args, quiet, "no summary line")

static const struct opt_row convert_rows[] = {
	OPT_ROW_STRING('i', "input", "FILE", struct write_args, capture,
		       "capture written by `lbrsnap record` (default lbrsnap.data)"),
	OPT_ROW_STRING('o', "output", "FILE", struct write_args, output,
		       "trace.dat to write (default trace.dat)"),
	WRITE_ROW_QUIET,
	OPT_ROW_END
};

static const struct opt_row merge_rows[] = {
	OPT_ROW_STRING('i', "input", "FILE", struct write_args, input,
		       "file from `trace-cmd record -C mono` (v6 or v7, any buffers)"),
	OPT_ROW_STRING('L', "capture", "FILE", struct write_args, capture,
		       "capture written by `lbrsnap record` (default lbrsnap.data)"),
	OPT_ROW_STRING('o', "output", "FILE", struct write_args, output,
		       "merged trace.dat (default trace-lbr.dat)"),
	OPT_ROW_BOOL('f', "force", struct write_args, force,
		     "merge even if the kernel release or the time ranges differ"),
	WRITE_ROW_QUIET,
	OPT_ROW_STRING_OLD("lbr", "FILE", struct write_args, capture,
			   "--lbr FILE is now --capture FILE"),
	OPT_ROW_END
};

/* convert and merge share their options; merge needs -i */
static int cmd_write(int argc, char **argv, bool merge)
{
	struct write_args a = { .capture = "lbrsnap.data",
				.output = merge ? "trace-lbr.dat" : "trace.dat" };
	const struct opt_set sets[] = { { merge ? merge_rows : convert_rows, &a }, { 0 } };
	const struct opt_cmd cmd = {
		.who = merge ? "trace-cmd-lbr merge" : "trace-cmd-lbr convert",
		.usage = merge ? "usage: trace-cmd-lbr merge -i TRACE.DAT [-L CAPTURE] [-o FILE] "
				 "[-f] [-q]" :
				 "usage: trace-cmd-lbr convert [-i CAPTURE] [-o TRACE.DAT] [-q]",
		.sets = sets,
	};
	sigset_t old;
	int ret;

	ret = opt_rows__parse(&cmd, argc, argv);
	if (ret < 0)
		return opt_rows__exit(ret);
	if (ret < argc || (merge && !a.input)) {
		fprintf(stderr, "%s: %s\n", cmd.who,
			ret < argc ? "unexpected argument" : "-i <trace.dat> is required");
		opt_rows__usage(&cmd, stderr);
		return 2;
	}
	/* the output replaces its name only at the end: an input by that name would be lost */
	if (out_file__same(a.output, a.capture) || out_file__same(a.output, a.input)) {
		fprintf(stderr, "%s: %s: is the input %s; write the output elsewhere\n", cmd.who,
			a.output, out_file__same(a.output, a.capture) ? a.capture : a.input);
		return 2;
	}
	sig_defer__begin(&old);
	ret = write_flags(a.input, a.capture, a.output, a.quiet,
			  a.force ? TRACEDAT_WRITE_FORCE : 0);
	sig_defer__end(&old, cmd.who, a.output);
	return ret;
}

static int cmd_convert(int argc, char **argv)
{
	return cmd_write(argc, argv, false);
}

static int cmd_merge(int argc, char **argv)
{
	return cmd_write(argc, argv, true);
}

static const struct subcmd cmds[] = {
	{ "record", lbr__record, "trace-cmd record -C mono and lbrsnap record together, merged" },
	{ "convert", cmd_convert, "lbrsnap.data -> trace.dat" },
	{ "merge", cmd_merge, "add a capture's lbr events to a trace-cmd recording" },
	{ 0 }
};

int main(int argc, char **argv)
{
	return subcmd__run(cmds, "trace-cmd-lbr", "trace-cmd-lbr(1)", argc, argv);
}
