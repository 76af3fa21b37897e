/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The options `lbrsnap perf` and `lbrsnap inject` share (perf-cli.c). */
#ifndef LBRSNAP_PERF_CLI_H
#define LBRSNAP_PERF_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct perf_cli {
	const char *cmd;		/* "perf", "inject": for messages */
	bool with_lbr;			/* accept --lbr (inject) */
	const char *input;		/* -i */
	const char *lbr;		/* --lbr */
	const char *output;		/* -o */
	/* --kallsyms, else OUTPUT.kallsyms (none for -o -); NULL: --no-kallsyms */
	const char *kallsyms;
	bool keep_all;			/* --keep-all */
	bool force;			/* --force (inject): another release or time range */
	char *kallsyms_buf;
};

/*
 * Parses -i, -o, --lbr, --kallsyms, --no-kallsyms, --keep-all, --force and -h into cli
 * (defaults set by the caller). Returns 0 to go on, -1 after --help, 129 for a usage error
 * (after usage(stderr)).
 */
int perf_cli__parse(struct perf_cli *cli, int argc, char **argv, void (*usage)(FILE *f));
void perf_cli__free(struct perf_cli *cli);

#endif /* LBRSNAP_PERF_CLI_H */
