/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Option rows: each command-line option is one row (its names, its argument, where its
 * value goes and its help text), as perf's OPT_* rows. From the rows come the getopt_long
 * table, the short option string, the parsing and the --help text, so they cannot drift.
 *
 * A command parses with a list of row sets: its own rows, and rows shared with other
 * commands (lib/capture/capture-opts.c), each set with the object its values go to. The
 * convention is the same for every command: -h/--help prints the usage line and the rows to
 * stdout (exit 0); a bad option prints the usage to stderr (exit 2).
 */
#ifndef LBRSNAP_PARSE_OPTIONS_H
#define LBRSNAP_PARSE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum opt_type {
	OPT_END,
	OPT_BOOLEAN,		/* sets a bool at dest */
	OPT_INCR,		/* adds one to an int at dest (-v, -vv) */
	OPT_STRING,		/* stores the argument (a const char *) at dest */
	OPT_CALLBACK,		/* calls cb with the argument */
};

enum opt_arg {
	OPT_ARG_NONE,
	OPT_ARG_REQUIRED,
	OPT_ARG_OPTIONAL,	/* --name=VALUE only, as getopt_long */
};

struct opt_row;

/*
 * What a row's callback gets: the row, its argument (NULL when an optional one is left
 * out), the object of the row's set and the command's name for messages. Returns 0, or a
 * negative errno with the message printed ("WHO: bad ...").
 */
typedef int (*opt_cb_t)(const struct opt_row *row, const char *arg, void *obj, const char *who);

enum opt_flags {
	OPT_HIDDEN = 1 << 0,		/* parsed, not in --help (an old spelling) */
};

struct opt_row {
	enum opt_type type;
	int short_name;			/* 0: none */
	const char *long_name;		/* NULL: none */
	enum opt_arg arg;
	const char *argname;		/* "SPEC", "FILE"; with OPT_ARG_OPTIONAL, "=null" */
	size_t dest;			/* offset of the value in the set's object */
	opt_cb_t cb;
	const char *help;		/* may hold '\n': each line is wrapped on its own */
	const char *(*help_fn)(void);	/* when the help is built at run time */
	unsigned int flags;
	const char *deprecated;		/* said once on stderr when used: "--x is now --y" */
};

#define OPT_ROW_BOOL(s, l, type_, member, h) \
	{ .type = OPT_BOOLEAN, .short_name = s, .long_name = l, \
	  .dest = offsetof(type_, member), .help = h }
#define OPT_ROW_INCR(s, l, type_, member, h) \
	{ .type = OPT_INCR, .short_name = s, .long_name = l, \
	  .dest = offsetof(type_, member), .help = h }
#define OPT_ROW_STRING(s, l, a, type_, member, h) \
	{ .type = OPT_STRING, .short_name = s, .long_name = l, .arg = OPT_ARG_REQUIRED, \
	  .argname = a, .dest = offsetof(type_, member), .help = h }
#define OPT_ROW_CALLBACK(s, l, a, fn, h) \
	{ .type = OPT_CALLBACK, .short_name = s, .long_name = l, \
	  .arg = (a) ? OPT_ARG_REQUIRED : OPT_ARG_NONE, .argname = a, .cb = fn, .help = h }
/* An old spelling of a string option: parsed, hidden from --help, note said once on use */
#define OPT_ROW_STRING_OLD(l, a, type_, member, note) \
	{ .type = OPT_STRING, .long_name = l, .arg = OPT_ARG_REQUIRED, .argname = a, \
	  .dest = offsetof(type_, member), .flags = OPT_HIDDEN, .deprecated = note }
#define OPT_ROW_END { .type = OPT_END }

/* One command's rows: sets end with a NULL rows. */
struct opt_set {
	const struct opt_row *rows;
	void *obj;
	/* names this command leaves to another tool (trace-cmd-lbr: "-e" is trace-cmd's) */
	const char *skip_shorts;
};

struct opt_cmd {
	const char *who;		/* "lbrsnap record": prefixes messages */
	const char *usage;		/* the usage line(s), "usage: ..." without the newline */
	const char *intro;		/* a paragraph between usage and rows, or NULL */
	const char *outro;		/* a paragraph after the rows, or NULL */
	const struct opt_set *sets;
	int stop_at_nonopt;		/* the first non-option ends the options (a command) */
};

/* What opt_rows__parse() returns besides the index of the first argument left */
#define OPT_PARSE_HELP	(-1)		/* --help printed: exit 0 */
#define OPT_PARSE_USAGE	(-2)		/* a bad option or value, said with the usage: exit 2 */

/*
 * Parses argv[1..] against the sets; returns the index of the first argument that is not
 * an option (argc when none), OPT_PARSE_HELP or OPT_PARSE_USAGE.
 */
int opt_rows__parse(const struct opt_cmd *cmd, int argc, char **argv);

/* The exit status for a parse result below 0: 0 after --help, 2 after a usage error. */
static inline int opt_rows__exit(int ret)
{
	return ret == OPT_PARSE_HELP ? 0 : 2;
}

/* Prints the usage line, the intro, every row but the hidden ones, and the outro. */
void opt_rows__usage(const struct opt_cmd *cmd, FILE *out);

/*
 * For a command that passes what it does not know to another tool: whether argv[*i] is one
 * of the sets' options ("--name", "--name=VALUE", or "-X", "-XVALUE" for a short that is not
 * skipped; no bundles); applies it then (taking its value from argv[*i + 1] if needed, *i
 * moves past it) and returns 1. Returns 0 when it is not one, OPT_PARSE_USAGE when it is one
 * with a missing or bad value (said).
 */
int opt_rows__take(const struct opt_cmd *cmd, int argc, char **argv, int *i);

/* Applies one row with its argument, as the parser does (for fuzzing and pass-through). */
int opt_row__apply(const struct opt_row *row, const char *arg, void *obj, const char *who);

/* The row of a set with that long name, or NULL. */
const struct opt_row *opt_rows__find(const struct opt_row *rows, const char *long_name);

/* Prints one row as --help does (for tests of the layout). */
void opt_row__print(const struct opt_row *row, const char *skip_shorts, FILE *out);

#endif /* LBRSNAP_PARSE_OPTIONS_H */
