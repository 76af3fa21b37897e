// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap perf: write a capture as a perf.data file for perf report / perf script. */
#include <stdio.h>
#include <string.h>
#include "builtin-perf.h"
#include "perf-cli.h"
#include "perf-lbr/perf-convert.h"
#include "builtin-perf-record.h"
#include "util/sig-defer.h"

static const struct opt_row perf_rows[] = {
	OPT_ROW_STRING('i', "input", "FILE", struct perf_cli, input,
		       "capture to convert (default lbrsnap.data)"),
	OPT_ROW_STRING('o', "output", "FILE", struct perf_cli, output,
		       "perf.data to write (default perf.data)"),
	PERF_CLI_ROW_OUTPUT_EXTRAS,
	OPT_ROW_END
};

int cmd_perf(int argc, char **argv)
{
	struct perf_cli cli = { .cmd = "perf", .input = "lbrsnap.data", .output = "perf.data" };
	const struct opt_set sets[] = { { perf_rows, &cli }, { 0 } };
	const struct opt_cmd cmd = {
		.who = "lbrsnap perf",
		.usage = "usage: lbrsnap perf [-i CAPTURE] [-o PERF.DATA] [--kallsyms FILE | "
			 "--no-kallsyms]\n"
			 "                    [--keep-all]\n"
			 "   or: lbrsnap perf record [-e SPEC]... [--perf-args ARGS] [-o FILE] "
			 "[-- cmd]",
		.outro = "See lbrsnap-perf(1); lbrsnap perf record --help for the second form.",
		.sets = sets,
	};
	sigset_t old;
	int err;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return perf_record_main(argc - 1, argv + 1);
	err = perf_cli__parse(&cli, argc, argv, &cmd);
	if (err)
		return err < 0 ? 0 : err;
	sig_defer__begin(&old);
	err = perf_convert(cli.input, cli.output, cli.kallsyms, cli.keep_all);
	if (!err)
		fprintf(stderr, "Wrote %s%s%s\n", cli.output, cli.kallsyms ? " and " : "",
			cli.kallsyms ? cli.kallsyms : "");
	else if (err > 0)
		fprintf(stderr, "Wrote %s (without its kallsyms copy)\n", cli.output);
	sig_defer__end(&old, "lbrsnap perf", cli.output);
	perf_cli__free(&cli);
	return err < 0 ? 1 : 0;
}
