// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap: LBR snapshots at kernel function returns and tracepoints.
 *
 * Subcommand dispatch: one file per subcommand (builtin-*.c), one table here.
 * Installed as "perf-lbr" too, so "perf lbr CMD" runs the same code.
 */
#include <stdio.h>
#include <string.h>
#include "builtin-features.h"
#include "builtin-inject.h"
#include "builtin-perf.h"
#include "builtin-record.h"
#include "builtin-report.h"
#include "util/subcmd.h"

static const struct subcmd cmds[] = {
	{ "record", cmd_record, "capture LBR snapshots (or kernel stacks) into a file" },
	{ "report", cmd_report, "print a capture: branches, stacks, losses; --json" },
	{ "perf", cmd_perf, "write a capture as perf.data (perf report, perf script)" },
	{ "inject", cmd_inject, "merge a capture into a perf.data from perf record -k mono" },
	{ "features", cmd_features, "which newer attach types this kernel takes (probed)" },
	{ 0 }
};

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	/* "perf lbr record" execs perf-lbr with argv[0] "perf-lbr" */
	if (!strcmp(prog, "perf-lbr"))
		prog = "perf lbr";
	return subcmd__run(cmds, prog, "lbrsnap-COMMAND(1)", argc, argv);
}
