// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap perf: write a capture as a perf.data file for perf report / perf script. */
#include <stdio.h>
#include <string.h>
#include "builtin-perf.h"
#include "perf-cli.h"
#include "perf-convert.h"
#include "builtin-perf-record.h"
#include "sig-defer.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbrsnap perf [-i CAPTURE] [-o PERF.DATA] [--kallsyms FILE | --no-kallsyms]\n"
		"                    [--keep-all]\n"
		"   or: lbrsnap perf record [-e SPEC]... [--perf-args ARGS] [-o FILE] [-- cmd]\n"
		"\n"
		"    -i, --input FILE      capture to convert (default lbrsnap.data)\n"
		"    -o, --output FILE     perf.data to write (default perf.data)\n"
		"        --kallsyms FILE   where to save the capture's kallsyms for\n"
		"                          `perf report --kallsyms` (default OUTPUT.kallsyms)\n"
		"        --no-kallsyms     do not save the kallsyms copy\n"
		"        --keep-all        keep the tracing path's entries in callchains and\n"
		"                          branch stacks (as lbrsnap report --keep-all)\n"
		"    -h, --help            this text; see lbrsnap-perf(1)\n");
}

int cmd_perf(int argc, char **argv)
{
	struct perf_cli cli = { .cmd = "perf", .input = "lbrsnap.data", .output = "perf.data" };
	sigset_t old;
	int err;

	if (argc > 1 && !strcmp(argv[1], "record"))
		return perf_record_main(argc - 1, argv + 1);
	err = perf_cli__parse(&cli, argc, argv, usage);
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
