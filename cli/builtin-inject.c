// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap inject: merge a capture's records into a perf.data from `perf record -k mono`. */
#include <stdio.h>
#include <string.h>
#include "builtin-inject.h"
#include "perf-cli.h"
#include "perf-convert.h"
#include "perf-merge.h"
#include "sig-defer.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbrsnap inject -i RECORDED [--lbr CAPTURE] -o MERGED [--kallsyms FILE]\n"
		"                      [--keep-all] [-f|--force]\n"
		"\n"
		"    -i, --input FILE      perf.data from `perf record -k mono ...`; - for a\n"
		"                          pipe (perf record -k mono -o -)\n"
		"        --lbr FILE        capture to merge in (default lbrsnap.data)\n"
		"    -o, --output FILE     merged perf.data to write; - for a pipe-mode stream\n"
		"                          on standard output (perf report -i -)\n"
		"        --kallsyms FILE   where to save the capture's kallsyms for\n"
		"                          `perf report --kallsyms` (default OUTPUT.kallsyms,\n"
		"                          none for -o -)\n"
		"        --no-kallsyms     do not save the kallsyms copy\n"
		"        --keep-all        keep the tracing path's entries in callchains and\n"
		"                          branch stacks (as lbrsnap report --keep-all)\n"
		"    -f, --force           merge even a capture of another kernel release or\n"
		"                          time range than the recording\n"
		"    -h, --help            this text; see lbrsnap-inject(1)\n");
}

int cmd_inject(int argc, char **argv)
{
	struct perf_cli cli = { .cmd = "inject", .with_lbr = true, .lbr = "lbrsnap.data" };
	struct perf_merge_stats st;
	sigset_t old;
	int err;

	err = perf_cli__parse(&cli, argc, argv, usage);
	if (err)
		return err < 0 ? 0 : err;
	sig_defer__begin(&old);
	err = perf_merge_flags(cli.input, cli.lbr, cli.output, cli.kallsyms, cli.keep_all,
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
