// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* lbrsnap features: probe the running kernel's newer attach types, one line each. */
#include <stdio.h>
#include <string.h>
#include "builtin-features.h"
#include "kernel-features.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lbrsnap features\n"
		"\n"
		"    Load and attach a trivial program of each newer type and print one line per\n"
		"    type: NAME yes|no (the step that worked or the kernel's refusal).\n"
		"    -h, --help            this text; see lbrsnap(1)\n");
}

int cmd_features(int argc, char **argv)
{
	char why[128];
	int f;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "lbrsnap features: unexpected argument '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	for (f = 0; f < KFEAT__MAX; f++) {
		int err = kernel_feature__probe(f, why, sizeof(why));

		printf("%-15s %s (%s)\n", kernel_feature__name(f), err ? "no" : "yes", why);
	}
	return 0;
}
