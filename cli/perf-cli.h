/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The options `lbrsnap perf` and `lbrsnap inject` share (perf-cli.c). */
#ifndef LBRSNAP_PERF_CLI_H
#define LBRSNAP_PERF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include "util/parse-options.h"

struct perf_cli {
	const char *cmd;		/* "perf", "inject": for messages */
	const char *input;		/* -i */
	const char *capture;		/* --capture (inject) */
	const char *output;		/* -o */
	/* --kallsyms, else OUTPUT.kallsyms (none for -o -); NULL: --no-kallsyms */
	const char *kallsyms;
	bool keep_all;			/* --keep-all */
	bool no_kallsyms;		/* --no-kallsyms */
	bool force;			/* --force (inject): another release or time range */
	char *kallsyms_buf;
};

/* The rows both commands take, their help the same; obj is the struct perf_cli */
#define PERF_CLI_ROW_OUTPUT_EXTRAS						\
	OPT_ROW_STRING(0, "kallsyms", "FILE", struct perf_cli, kallsyms,		\
		       "where to save the capture's kallsyms for `perf report --kallsyms` "	\
		       "(default OUTPUT.kallsyms, none for -o -)"),			\
	OPT_ROW_BOOL(0, "no-kallsyms", struct perf_cli, no_kallsyms,			\
		     "do not save the kallsyms copy"),					\
	OPT_ROW_BOOL(0, "keep-all", struct perf_cli, keep_all,				\
		     "keep the tracing path's entries in callchains and branch stacks (as "	\
		     "lbrsnap report --keep-all)")

/*
 * Parses argv with cmd's rows into cli (defaults set by the caller), then checks -i and -o
 * and that no output replaces an input. Returns 0 to go on, -1 after --help, 2 for a usage
 * error (said, with the usage), 1 when out of memory.
 */
int perf_cli__parse(struct perf_cli *cli, int argc, char **argv, const struct opt_cmd *cmd);
void perf_cli__free(struct perf_cli *cli);

#endif /* LBRSNAP_PERF_CLI_H */
