// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * lbrsnap report: print a capture file, symbolized, oldest branch first.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "builtin-report.h"
#include "symbols/ksyms.h"
#include "lbrfile/lbrfile.h"
#include "util/parse-options.h"
#include "report/report.h"
#include "symbols/symbolize.h"

struct report_env {
	const char *input;
	const char *vmlinux;
	const char *kallsyms;
	bool keep_all;
	bool json;
	bool group;
	bool no_summary;
};

/*
 * no short -j: it is the branch filter of lbrsnap record and perf record; no short -g: it is
 * perf report's call graph
 */
static const struct opt_row report_rows[] = {
	OPT_ROW_STRING('i', "input", "FILE", struct report_env, input,
		       "capture to read (default: lbrsnap.data)"),
	OPT_ROW_BOOL(0, "group", struct report_env, group,
		     "count identical paths together, largest group first"),
	OPT_ROW_BOOL(0, "no-summary", struct report_env, no_summary,
		     "no list of the largest groups before the records"),
	OPT_ROW_BOOL(0, "keep-all", struct report_env, keep_all,
		     "also show the tracing path's own branches and stack frames"),
	OPT_ROW_BOOL(0, "json", struct report_env, json,
		     "one JSON object per record or group (JSON Lines), then a summary"),
	OPT_ROW_STRING(0, "vmlinux", "PATH", struct report_env, vmlinux,
		       "vmlinux with DWARF, for file:line and inlined frames"),
	OPT_ROW_STRING(0, "kallsyms", "PATH", struct report_env, kallsyms,
		       "symbols from this file instead of the capture's copy"),
	OPT_ROW_END
};

/* Returns 0 to go on, else the exit status (0 after --help, 2 after a usage error). */
static int parse_args(int argc, char **argv, struct report_env *env, bool *done)
{
	const struct opt_set sets[] = { { report_rows, env }, { 0 } };
	const struct opt_cmd cmd = {
		.who = "lbrsnap report",
		.usage = "usage: lbrsnap report [-i FILE] [--group] [--no-summary] [--keep-all] "
			 "[--json]\n"
			 "                      [--vmlinux PATH] [--kallsyms PATH]",
		.sets = sets,
	};
	int i;

	env->input = "lbrsnap.data";
	*done = true;
	i = opt_rows__parse(&cmd, argc, argv);
	if (i < 0)
		return opt_rows__exit(i);
	if (i < argc) {
		fprintf(stderr, "lbrsnap report: unexpected argument '%s'\n", argv[i]);
		opt_rows__usage(&cmd, stderr);
		return 2;
	}
	*done = false;
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
	err = text ? ksyms__parse_borrowed(text, len, ks) : -ENODATA;
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
	bool done;
	int err;

	err = parse_args(argc, argv, &env, &done);
	if (done)
		return err;
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
