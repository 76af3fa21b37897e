/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Subcommands of lbrsnap: each is one cmd-NAME.c, taking (argc, argv) with argv[0] = NAME. */
#ifndef LBRSNAP_COMMANDS_H
#define LBRSNAP_COMMANDS_H

#define LBRSNAP_VERSION "0.1"

struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *help;
};

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_perf(int argc, char **argv);
int cmd_inject(int argc, char **argv);

#endif /* LBRSNAP_COMMANDS_H */
