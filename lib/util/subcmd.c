// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <stdio.h>
#include <string.h>
#include "util/print.h"
#include "util/subcmd.h"
#include "util/version.h"

static void usage(FILE *out, const struct subcmd *cmds, const char *prog, const char *man)
{
	const struct subcmd *c;

	fprintf(out, "usage: %s [--version] [--help] COMMAND [ARGS]\n\ncommands:\n", prog);
	for (c = cmds; c->name; c++)
		fprintf(out, "  %-8s %s\n", c->name, c->help);
	fprintf(out, "\nSee '%s COMMAND --help' and %s.\n", prog, man);
}

int subcmd__run(const struct subcmd *cmds, const char *prog, const char *man, int argc,
		char **argv)
{
	const struct subcmd *c;

	if (argc < 2) {
		usage(stderr, cmds, prog, man);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout, cmds, prog, man);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		/* "lbrsnap version 0.1", "trace-cmd-lbr (lbrsnap) version 0.1" */
		printf(strcmp(prog, "lbrsnap") ? "%s (lbrsnap) version %s\n" : "%s version %s\n",
		       prog, LBRSNAP_VERSION);
		return 0;
	}
	for (c = cmds; c->name; c++) {
		if (!strcmp(argv[1], c->name))
			return c->func(argc - 1, argv + 1);
	}
	pr_warn("%s: '%s' is not a command. See '%s --help'.\n", prog, argv[1], prog);
	return 2;
}
