// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap features: probe the running kernel's newer attach types, one line each. */
#include <stdio.h>
#include "builtin-features.h"
#include "capture/kernel-features.h"
#include "util/parse-options.h"

int cmd_features(int argc, char **argv)
{
	const struct opt_set sets[] = { { NULL } };
	const struct opt_cmd cmd = {
		.who = "lbrsnap features",
		.usage = "usage: lbrsnap features",
		.intro = "Loads and attaches a trivial program of each newer type and prints one "
			 "line per type: NAME yes|no (the step that worked or the kernel's "
			 "refusal).",
		.outro = "See lbrsnap(1).",
		.sets = sets,
	};
	char why[128];
	int f, i;

	i = opt_rows__parse(&cmd, argc, argv);
	if (i < 0)
		return opt_rows__exit(i);
	if (i < argc) {
		fprintf(stderr, "lbrsnap features: unexpected argument '%s'\n", argv[i]);
		opt_rows__usage(&cmd, stderr);
		return 2;
	}
	for (f = 0; f < KFEAT__MAX; f++) {
		int err = kernel_feature__probe(f, why, sizeof(why));

		printf("%-15s %s (%s)\n", kernel_feature__name(f), err ? "no" : "yes", why);
	}
	return 0;
}
