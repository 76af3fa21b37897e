// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace-cmd-lbr: lbrsnap's trace-cmd integration.
 *
 * trace-cmd 3.1 has no external subcommands and no writer API, so this tool works beside
 * it: it converts a capture to trace.dat, merges a capture into a `trace-cmd record -C mono`
 * file, or runs both recorders together and merges their outputs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out-file.h"
#include "sig-defer.h"
#include "subcmd.h"
#include "tracedat-merge.h"
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

static const char convert_usage[] =
	"usage: trace-cmd-lbr convert [-i lbrsnap.data] [-o trace.dat]\n"
	"\n"
	"    -i, --input <file>    capture written by `lbrsnap record` (default lbrsnap.data)\n"
	"    -o, --output <file>   trace.dat to write (default trace.dat)\n"
	"    -q, --quiet           no summary line\n";

static const char merge_usage[] =
	"usage: trace-cmd-lbr merge -i <trace.dat> --lbr <lbrsnap.data> [-o <file>]\n"
	"\n"
	"    -i, --input <file>    file from `trace-cmd record -C mono` (v6 or v7, any buffers)\n"
	"    -L, --lbr <file>      capture written by `lbrsnap record` (default lbrsnap.data)\n"
	"    -o, --output <file>   merged trace.dat (default trace-lbr.dat)\n"
	"    -f, --force           merge even if the kernel release or the time ranges differ\n"
	"    -q, --quiet           no summary line\n";

/* convert and merge share their options; merge needs -i */
static int cmd_write(int argc, char **argv, bool merge)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "lbr", required_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *usage = merge ? merge_usage : convert_usage;
	const char *input = NULL, *capture = "lbrsnap.data";
	const char *output = merge ? "trace-lbr.dat" : "trace.dat";
	sigset_t old;
	int ret;
	unsigned int flags = 0;
	bool quiet = false;
	int c;

	while ((c = getopt_long(argc, argv, merge ? "i:L:o:qfh" : "i:o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'L':
			capture = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'f':
			if (!merge)
				goto bad;
			flags |= TRACEDAT_WRITE_FORCE;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
bad:
			fputs(usage, stderr);
			return 129;
		}
	}
	if (optind < argc || (merge && !input)) {
		fprintf(stderr, "trace-cmd-lbr %s: %s\n%s", argv[0],
			optind < argc ? "unexpected argument" : "-i <trace.dat> is required", usage);
		return 129;
	}
	if (!merge) {
		capture = input ? input : capture;
		input = NULL;
	}
	/* the output replaces its name only at the end: an input by that name would be lost */
	if (out_file__same(output, capture) || out_file__same(output, input)) {
		fprintf(stderr, "trace-cmd-lbr %s: %s: is the input %s; write the output "
			"elsewhere\n", argv[0], output,
			out_file__same(output, capture) ? capture : input);
		return 129;
	}
	sig_defer__begin(&old);
	ret = write_flags(input, capture, output, quiet, flags);
	sig_defer__end(&old, merge ? "trace-cmd-lbr merge" : "trace-cmd-lbr convert", output);
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
