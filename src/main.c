// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap: LBR snapshots at kernel function returns and tracepoints.
 *
 * Subcommand dispatch, bpftool style: one file per subcommand (cmd-*.c), one table here.
 * Installed as "perf-lbr" too, so "perf lbr CMD" runs the same code.
 */
#include <stdio.h>
#include <string.h>
#include "commands.h"

static const struct cmd cmds[] = {
	{ "record", cmd_record, "capture LBR snapshots (or kernel stacks) into a file" },
	{ "report", cmd_report, "print a capture: branches, stacks, losses; --json" },
	{ "perf", cmd_perf, "write a capture as perf.data (perf report, perf script)" },
	{ "inject", cmd_inject, "merge a capture into a perf.data from perf record -k mono" },
	{ 0 }
};

static void usage(FILE *out, const char *prog)
{
	const struct cmd *c;

	fprintf(out, "usage: %s [--version] [--help] COMMAND [ARGS]\n\ncommands:\n", prog);
	for (c = cmds; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->help);
	fprintf(out, "\nSee '%s COMMAND --help' and lbrsnap-COMMAND(1).\n", prog);
}

int main(int argc, char **argv)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const struct cmd *c;

	/* "perf lbr record" execs perf-lbr with argv[0] "perf-lbr" */
	if (!strcmp(prog, "perf-lbr"))
		prog = "perf lbr";
	if (argc < 2) {
		usage(stderr, prog);
		return 129;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout, prog);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("lbrsnap version %s\n", LBRSNAP_VERSION);
		return 0;
	}
	for (c = cmds; c->name; c++) {
		if (!strcmp(argv[1], c->name))
			return c->func(argc - 1, argv + 1);
	}
	fprintf(stderr, "%s: '%s' is not a command. See '%s --help'.\n", prog, argv[1], prog);
	return 129;
}
