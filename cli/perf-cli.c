// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Option parsing shared by `lbrsnap perf` and `lbrsnap inject`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/out-file.h"
#include "perf-cli.h"

/* An output must not replace an input, by any name: the input would be lost on success. */
static int perf_cli__check_apart(const struct perf_cli *cli)
{
	const char *in[] = { cli->input, cli->capture };
	const char *out[] = { cli->output, cli->kallsyms };
	size_t i, j;

	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			/* "-" is standard input or output, never a file */
			if (!out_file__same(out[j], in[i]) && !(out[j] && in[i] &&
			    !strcmp(out[j], in[i]) && strcmp(in[i], "-")))
				continue;
			fprintf(stderr, "lbrsnap %s: %s: is the input %s; write the output "
				"elsewhere\n", cli->cmd, out[j], in[i]);
			return 1;
		}
	}
	return 0;
}

void perf_cli__free(struct perf_cli *cli)
{
	free(cli->kallsyms_buf);
	cli->kallsyms_buf = NULL;
}

int perf_cli__parse(struct perf_cli *cli, int argc, char **argv, const struct opt_cmd *cmd)
{
	int i = opt_rows__parse(cmd, argc, argv);

	if (i < 0)
		return i == OPT_PARSE_HELP ? -1 : 2;
	if (i < argc || !cli->input || !cli->output) {
		if (i < argc)
			fprintf(stderr, "lbrsnap %s: unexpected argument '%s'\n", cli->cmd,
				argv[i]);
		else
			fprintf(stderr, "lbrsnap %s: -i and -o are required\n", cli->cmd);
		opt_rows__usage(cmd, stderr);
		return 2;
	}
	if (cli->no_kallsyms) {
		cli->kallsyms = NULL;
	} else if (!cli->kallsyms && !strcmp(cli->output, "-")) {
		/* standard output has no name to put the copy beside: --kallsyms FILE does */
	} else if (!cli->kallsyms && out_file__is_stream(cli->output)) {
		/* nothing is created beside a device, FIFO or socket */
		fprintf(stderr, "lbrsnap %s: %s is not a regular file: no kallsyms copy is saved "
			"beside it (--kallsyms FILE saves one)\n", cli->cmd, cli->output);
	} else if (!cli->kallsyms) {
		if (asprintf(&cli->kallsyms_buf, "%s.kallsyms", cli->output) < 0)
			return 1;
		cli->kallsyms = cli->kallsyms_buf;
	}
	return perf_cli__check_apart(cli) ? 2 : 0;
}
