// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Option rows to getopt_long and to --help. getopt_long stays the parser (abbreviations,
 * --name=VALUE, bundled short options, as every tool reads them); the rows build its table
 * and say what each option it returns does. Its complaints are ours, through the library's
 * printer, naming the command.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "util/parse-options.h"
#include "util/print.h"

#define HELP_COL	26	/* where the help text starts, as in perf's and git's usage */
#define HELP_WIDTH	80
#define LONG_ONLY_VAL	0x1000	/* getopt_long values of long-only rows: this + row index */

static const struct opt_row help_row = {
	.type = OPT_BOOLEAN, .short_name = 'h', .long_name = "help", .help = "this text",
};

struct row_ref {
	const struct opt_row *row;
	void *obj;
	bool has_short;		/* not left to another tool */
};

static bool skipped(const struct opt_set *set, int short_name)
{
	return short_name && set->skip_shorts && strchr(set->skip_shorts, short_name);
}

static size_t count_rows(const struct opt_cmd *cmd)
{
	const struct opt_set *set;
	const struct opt_row *row;
	size_t n = 0;

	for (set = cmd->sets; set && set->rows; set++)
		for (row = set->rows; row->type != OPT_END; row++)
			n++;
	return n;
}

int opt_row__apply(const struct opt_row *row, const char *arg, void *obj, const char *who)
{
	char *dest = (char *)obj + row->dest;
	int err = 0;

	switch (row->type) {
	case OPT_BOOLEAN:
		*(bool *)dest = true;
		break;
	case OPT_INCR:
		(*(int *)dest)++;
		break;
	case OPT_STRING:
		*(const char **)dest = arg;
		break;
	case OPT_CALLBACK:
		err = row->cb(row, arg, obj, who);
		break;
	default:
		return -EINVAL;
	}
	if (!err && row->deprecated)
		pr_warn("%s: %s\n", who, row->deprecated);
	return err;
}

/* The getopt_long table and short string of all the sets, with -h/--help last. */
static int build_tables(const struct opt_cmd *cmd, struct row_ref *refs, struct option *longs,
			char *shorts)
{
	const struct opt_set *set;
	const struct opt_row *row;
	int n = 0, nl = 0, ns = 0;

	if (cmd->stop_at_nonopt)
		shorts[ns++] = '+';
	/* ':' a missing value apart from an unknown option; the messages are ours */
	shorts[ns++] = ':';
	for (set = cmd->sets; set && set->rows; set++) {
		for (row = set->rows; row->type != OPT_END; row++, n++) {
			bool has_short = row->short_name && !skipped(set, row->short_name);
			int val = has_short ? row->short_name : LONG_ONLY_VAL + n;

			refs[n].row = row;
			refs[n].obj = set->obj;
			refs[n].has_short = has_short;
			if (has_short) {
				shorts[ns++] = row->short_name;
				if (row->arg != OPT_ARG_NONE)
					shorts[ns++] = ':';
				if (row->arg == OPT_ARG_OPTIONAL)
					shorts[ns++] = ':';
			}
			if (!row->long_name)
				continue;
			longs[nl].name = row->long_name;
			longs[nl].has_arg = row->arg == OPT_ARG_NONE ? no_argument :
					    row->arg == OPT_ARG_REQUIRED ? required_argument :
					    optional_argument;
			longs[nl].flag = NULL;
			longs[nl++].val = val;
		}
	}
	longs[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	longs[nl] = (struct option){ 0 };
	shorts[ns++] = 'h';
	shorts[ns] = 0;
	return n;
}

static const struct row_ref *ref_of(const struct row_ref *refs, int n, int val)
{
	int i;

	if (val >= LONG_ONLY_VAL && val < LONG_ONLY_VAL + n)
		return &refs[val - LONG_ONLY_VAL];
	for (i = 0; i < n; i++) {
		if (refs[i].has_short && refs[i].row->short_name == val)
			return &refs[i];
	}
	return NULL;
}

/* The usage through the library's printer, as one message */
static void usage_warn(const struct opt_cmd *cmd)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	opt_rows__usage(cmd, f);
	if (!fclose(f))
		pr_warn("%s", text);
	free(text);
}

/* What getopt_long refused: '?' an unknown option (or a value given to a flag), ':' a
 * missing value; word is the argument it was reading */
static void say_bad(const struct opt_cmd *cmd, int c, const char *word)
{
	char shown[3] = { '-', (char)optopt, 0 };

	/* a short option, maybe in a bundle ("-vx"): name the letter alone */
	if (optopt && word[0] == '-' && word[1] != '-')
		word = shown;
	if (c == ':')
		pr_warn("%s: option '%s' needs a value\n", cmd->who, word);
	else if (optopt && word[1] == '-' && strchr(word, '='))
		pr_warn("%s: option '%s' takes no value\n", cmd->who, word);
	else
		pr_warn("%s: unknown option '%s'\n", cmd->who, word);
	usage_warn(cmd);
}

int opt_rows__parse(const struct opt_cmd *cmd, int argc, char **argv)
{
	size_t nr = count_rows(cmd);
	struct row_ref *refs = calloc(nr + 1, sizeof(*refs));
	struct option *longs = calloc(nr + 2, sizeof(*longs));
	char *shorts = calloc(3 * nr + 4, 1);
	const struct row_ref *ref;
	int c, n, ret = OPT_PARSE_USAGE;

	if (!refs || !longs || !shorts) {
		pr_warn("%s: %s\n", cmd->who, strerror(ENOMEM));
		goto out;
	}
	n = build_tables(cmd, refs, longs, shorts);
	/* 0 makes glibc start over: a process may parse more than one command line */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == 'h') {
			opt_rows__usage(cmd, stdout);
			ret = OPT_PARSE_HELP;
			goto out;
		}
		ref = c == '?' || c == ':' ? NULL : ref_of(refs, n, c);
		if (!ref) {
			say_bad(cmd, c, argv[optind - 1]);
			goto out;
		}
		if (opt_row__apply(ref->row, optarg, ref->obj, cmd->who))
			goto out;
	}
	ret = optind;
out:
	free(refs);
	free(longs);
	free(shorts);
	return ret;
}

const struct opt_row *opt_rows__find(const struct opt_row *rows, const char *long_name)
{
	for (; rows->type != OPT_END; rows++) {
		if (rows->long_name && !strcmp(rows->long_name, long_name))
			return rows;
	}
	return NULL;
}

/* The row argv word o names: "--name[=VALUE]", or "-X[VALUE]" of a short not skipped */
static const struct opt_row *take_find(const struct opt_cmd *cmd, const char *o,
				       const struct opt_set **in, const char **inline_arg)
{
	const struct opt_set *set;
	const struct opt_row *row;
	size_t len;

	*inline_arg = NULL;
	for (set = cmd->sets; set && set->rows; set++) {
		for (row = set->rows; row->type != OPT_END; row++) {
			if (o[1] == '-' && row->long_name) {
				len = strlen(row->long_name);
				if (strncmp(o + 2, row->long_name, len) ||
				    (o[2 + len] && o[2 + len] != '='))
					continue;
				*inline_arg = o[2 + len] ? o + 3 + len : NULL;
			} else if (o[1] != '-' && row->short_name && !skipped(set, row->short_name)) {
				if (o[1] != row->short_name)
					continue;
				*inline_arg = o[2] ? o + 2 : NULL;
			} else {
				continue;
			}
			*in = set;
			return row;
		}
	}
	return NULL;
}

int opt_rows__take(const struct opt_cmd *cmd, int argc, char **argv, int *i)
{
	const char *o = argv[*i], *arg;
	const struct opt_set *set;
	const struct opt_row *row;

	if (o[0] != '-' || !o[1] || !strcmp(o, "--"))
		return 0;
	row = take_find(cmd, o, &set, &arg);
	if (!row)
		return 0;
	if (arg && row->arg == OPT_ARG_NONE) {
		pr_warn("%s: %s takes no value\n", cmd->who, o);
		return OPT_PARSE_USAGE;
	}
	if (!arg && row->arg == OPT_ARG_REQUIRED) {
		if (*i + 1 >= argc) {
			pr_warn("%s: %s needs a value\n", cmd->who, o);
			return OPT_PARSE_USAGE;
		}
		arg = argv[++*i];
	}
	return opt_row__apply(row, arg, set->obj, cmd->who) ? OPT_PARSE_USAGE : 1;
}

/*
 * Writes text from column col, wrapped before HELP_WIDTH at spaces; each of its lines on its
 * own, its leading spaces kept on its wrapped lines too, and the spaces between words kept
 * where the line is not broken (so a table in the text stays aligned)
 */
static void print_wrapped(const char *text, int col, FILE *out)
{
	const char *line = text, *nl, *p, *word;
	int pos, indent, start, gap, len;

	while (*line) {
		nl = strchrnul(line, '\n');
		indent = strspn(line, " ");
		start = col + indent;
		fprintf(out, "%*s", indent, "");
		pos = start;
		for (p = line + indent; p < nl; p = word + len) {
			for (word = p; word < nl && *word == ' '; word++)
				;
			gap = word - p;
			for (len = 0; word + len < nl && word[len] != ' '; len++)
				;
			if (!len)
				break;
			if (pos > start && pos + gap + len > HELP_WIDTH) {
				fprintf(out, "\n%*s", start, "");
				pos = start;
			} else if (pos > start) {
				fprintf(out, "%*s", gap, "");
				pos += gap;
			}
			fwrite(word, 1, len, out);
			pos += len;
		}
		fputc('\n', out);
		if (!*nl)
			break;
		line = nl + 1;
		if (*line)
			fprintf(out, "%*s", col, "");
	}
}

void opt_row__print(const struct opt_row *row, const char *skip_shorts, FILE *out)
{
	bool has_short = row->short_name &&
			 !(skip_shorts && strchr(skip_shorts, row->short_name));
	const char *help = row->help_fn ? row->help_fn() : row->help;
	int pos;

	if (has_short)
		pos = fprintf(out, "  -%c%s", row->short_name, row->long_name ? ", " : "");
	else
		pos = fprintf(out, "      ");
	if (row->long_name)
		pos += fprintf(out, "--%s", row->long_name);
	if (row->arg == OPT_ARG_REQUIRED)
		pos += fprintf(out, " %s", row->argname);
	else if (row->arg == OPT_ARG_OPTIONAL)
		pos += fprintf(out, "[=%s]", row->argname);
	if (!help || !*help) {
		fputc('\n', out);
		return;
	}
	if (pos >= HELP_COL - 1) {
		fputc('\n', out);
		pos = 0;
	}
	fprintf(out, "%*s", HELP_COL - pos, "");
	print_wrapped(help, HELP_COL, out);
}

void opt_rows__usage(const struct opt_cmd *cmd, FILE *out)
{
	const struct opt_set *set;
	const struct opt_row *row;

	fprintf(out, "%s\n", cmd->usage);
	if (cmd->intro) {
		fputc('\n', out);
		print_wrapped(cmd->intro, 0, out);
	}
	fputc('\n', out);
	for (set = cmd->sets; set && set->rows; set++) {
		for (row = set->rows; row->type != OPT_END; row++) {
			if (!(row->flags & OPT_HIDDEN))
				opt_row__print(row, set->skip_shorts, out);
		}
	}
	opt_row__print(&help_row, NULL, out);
	if (cmd->outro) {
		fputc('\n', out);
		print_wrapped(cmd->outro, 0, out);
	}
}
