// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap report: print a capture file, symbolized, oldest branch first.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "builtin-report.h"
#include "ksyms.h"
#include "lbrfile.h"
#include "report.h"
#include "symbolize.h"

static const char report_usage[] =
	"usage: lbrsnap report [-i FILE] [--group] [--no-summary] [--keep-all] [--json]\n"
	"                      [--vmlinux PATH] [--kallsyms PATH]\n"
	"\n"
	"    -i, --input FILE     capture to read (default: lbrsnap.data)\n"
	"        --group          count identical paths together, largest group first\n"
	"        --no-summary     no list of the largest groups before the records\n"
	"        --keep-all       also show the tracing path's own branches and stack frames\n"
	"        --json           one JSON object per record or group (JSON Lines), then a "
	"summary\n"
	"        --vmlinux PATH   vmlinux with DWARF, for file:line and inlined frames\n"
	"        --kallsyms PATH  symbols from this file instead of the capture's copy\n"
	"    -h, --help           show this help\n";

/*
 * no short -j: it is the branch filter of lbrsnap record and perf record; no short -g: it is
 * perf report's call graph
 */
enum { OPT_KEEP_ALL = 256, OPT_JSON, OPT_VMLINUX, OPT_KALLSYMS, OPT_NO_SUMMARY, OPT_GROUP };

static const struct option report_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-summary", no_argument, NULL, OPT_NO_SUMMARY },
	{ "keep-all", no_argument, NULL, OPT_KEEP_ALL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "help", no_argument, NULL, 'h' },
	{ 0 }
};

struct report_env {
	const char *input;
	const char *vmlinux;
	const char *kallsyms;
	bool keep_all;
	bool json;
	bool group;
	bool no_summary;
};

static int parse_args(int argc, char **argv, struct report_env *env)
{
	int c;

	env->input = "lbrsnap.data";
	/* 0 makes glibc start over: tests call cmd_report() more than once */
	optind = 0;
	while ((c = getopt_long(argc, argv, "i:h", report_options, NULL)) != -1) {
		switch (c) {
		case 'i':
			env->input = optarg;
			break;
		case OPT_GROUP:
			env->group = true;
			break;
		case OPT_NO_SUMMARY:
			env->no_summary = true;
			break;
		case OPT_KEEP_ALL:
			env->keep_all = true;
			break;
		case OPT_JSON:
			env->json = true;
			break;
		case OPT_VMLINUX:
			env->vmlinux = optarg;
			break;
		case OPT_KALLSYMS:
			env->kallsyms = optarg;
			break;
		case 'h':
			fputs(report_usage, stdout);
			return 1;
		default:
			fputs(report_usage, stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lbrsnap report: unexpected argument '%s'\n%s", argv[optind],
			report_usage);
		return -EINVAL;
	}
	return 0;
}

/* Symbols from --kallsyms, else from the capture; a capture without them stays hex. */
static int load_ksyms(const struct report_env *env, struct lbrfile *f, struct ksyms **ks)
{
	const char *text;
	size_t len;
	int err;

	if (env->kallsyms) {
		err = ksyms__load(env->kallsyms, ks);
		if (err)
			fprintf(stderr, "lbrsnap report: %s: %s\n", env->kallsyms,
				err == -ENODATA ? "no symbols with addresses (kptr_restrict?)" :
				strerror(-err));
		return err;
	}
	text = lbrfile__kallsyms(f, &len);
	err = text ? ksyms__parse(text, len, ks) : -ENODATA;
	if (err == -ENOMEM)
		return err;
	if (err)
		fprintf(stderr, "lbrsnap report: %s holds no kernel symbols; addresses are shown "
			"as numbers (use --kallsyms)\n", env->input);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_env env = {};
	struct symbolizer *sym = NULL;
	struct lbrfile *f = NULL;
	struct ksyms *ks = NULL;
	struct report r = {};
	const char *status;
	int err;

	err = parse_args(argc, argv, &env);
	if (err)
		return err > 0 ? 0 : 129;
	err = lbrfile__open(env.input, &f);
	if (err) {
		fprintf(stderr, "lbrsnap report: %s: %s\n", env.input, lbrfile__strerror(err));
		goto cleanup;
	}
	err = load_ksyms(&env, f, &ks);
	if (err)
		goto cleanup;
	err = symbolizer__new(ks, env.vmlinux, lbrfile__meta(f, "release"), &sym);
	if (err) {
		fprintf(stderr, "lbrsnap report: %s\n", strerror(-err));
		goto cleanup;
	}
	status = symbolizer__dwarf_status(sym);
	if (status && env.vmlinux) {
		fprintf(stderr, "lbrsnap report: --vmlinux: %s\n", status);
		err = -EINVAL;
		goto cleanup;
	}

	r.out = stdout;
	r.file = f;
	r.ks = ks;
	r.sym = sym;
	r.keep_all = env.keep_all;
	r.json = env.json;
	r.group = env.group;
	r.top_groups = !env.no_summary;
	err = report__run(&r);
	if (!err && fflush(stdout))
		err = -errno;
	/*
	 * Say once why kernel stack frames have no file:line and no inlined frames; branches
	 * and user frames are named the same without it, and without symbols it adds nothing
	 */
	if (!err && status && ks && r.nr_with_stack)
		fprintf(stderr, "lbrsnap report: %s\n", status);
	if (err)
		fprintf(stderr, "lbrsnap report: writing the report: %s\n", strerror(-err));
cleanup:
	symbolizer__free(sym);
	ksyms__free(ks);
	lbrfile__close(f);
	return err ? 1 : 0;
}
