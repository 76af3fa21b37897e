// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap inject: merge a capture's records into a perf.data from `perf record -k mono`. */
#include <stdio.h>
#include <string.h>
#include "builtin-inject.h"
#include "perf-cli.h"
#include "perf-lbr/perf-convert.h"
#include "perf-lbr/perf-merge.h"
#include "util/sig-defer.h"

static const struct opt_row inject_rows[] = {
	OPT_ROW_STRING('i', "input", "FILE", struct perf_cli, input,
		       "perf.data from `perf record -k mono ...`; - for a pipe (perf record -k "
		       "mono -o -)"),
	OPT_ROW_STRING('L', "capture", "FILE", struct perf_cli, capture,
		       "capture to merge in (default lbrsnap.data)"),
	OPT_ROW_STRING('o', "output", "FILE", struct perf_cli, output,
		       "merged perf.data to write; - for a pipe-mode stream on standard output "
		       "(perf report -i -)"),
	PERF_CLI_ROW_OUTPUT_EXTRAS,
	OPT_ROW_BOOL('f', "force", struct perf_cli, force,
		     "merge even a capture of another kernel release or time range than the "
		     "recording"),
	OPT_ROW_STRING_OLD("lbr", "FILE", struct perf_cli, capture,
			   "--lbr FILE is now --capture FILE"),
	OPT_ROW_END
};

int cmd_inject(int argc, char **argv)
{
	struct perf_cli cli = { .cmd = "inject", .capture = "lbrsnap.data" };
	const struct opt_set sets[] = { { inject_rows, &cli }, { 0 } };
	const struct opt_cmd cmd = {
		.who = "lbrsnap inject",
		.usage = "usage: lbrsnap inject -i RECORDED [--capture CAPTURE] -o MERGED "
			 "[--kallsyms FILE]\n"
			 "                      [--keep-all] [-f|--force]",
		.outro = "See lbrsnap-inject(1).",
		.sets = sets,
	};
	struct perf_merge_stats st;
	sigset_t old;
	int err;

	err = perf_cli__parse(&cli, argc, argv, &cmd);
	if (err)
		return err < 0 ? 0 : err;
	sig_defer__begin(&old);
	err = perf_merge_flags(cli.input, cli.capture, cli.output, cli.kallsyms, cli.keep_all,
			       cli.force ? PERF_MERGE_FORCE : 0, &st);
	if (err >= 0)
		fprintf(stderr, "lbrsnap inject: wrote %s: %llu recorded samples, %llu lbr "
			"samples%s\n", strcmp(cli.output, "-") ? cli.output : "standard output",
			(unsigned long long)st.rec_samples, (unsigned long long)st.lbr_samples,
			err ? " (without its kallsyms copy)" : "");
	sig_defer__end(&old, "lbrsnap inject", cli.output);
	perf_cli__free(&cli);
	return err < 0 ? 1 : 0;
}
