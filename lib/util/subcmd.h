/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Git-style subcommand dispatch shared by lbrsnap (perf-lbr) and trace-cmd-lbr:
 * "PROG [--version] [--help] COMMAND [ARGS]", unknown commands named; a usage error exits 2,
 * as a subcommand's bad option does (parse-options.h).
 */
#ifndef LBRSNAP_SUBCMD_H
#define LBRSNAP_SUBCMD_H

struct subcmd {
	const char *name;
	int (*func)(int argc, char **argv);	/* argv[0] is the command's name */
	const char *help;			/* one line for the usage list */
};

/*
 * Runs the command argv[1] names from cmds (ended by a zeroed entry). prog names the tool
 * in messages; man is the man page pattern shown in the usage ("lbrsnap-COMMAND(1)").
 * Returns the command's exit status, 0 for --help and --version, 2 for usage errors.
 */
int subcmd__run(const struct subcmd *cmds, const char *prog, const char *man, int argc,
		char **argv);

#endif /* LBRSNAP_SUBCMD_H */
