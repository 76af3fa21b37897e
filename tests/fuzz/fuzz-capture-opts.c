// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture options of every recording command: the input is a command line, options
 * separated by NUL bytes, each "LETTER value" where LETTER picks one of the options.
 */
#include <stdlib.h>
#include <string.h>
#include "capture-opts.h"
#include "fuzz-file.h"

static const int opts[] = {
	'e', 'p', 't', 'j', 'v', CAPTURE_OPT_COMM, CAPTURE_OPT_ERRORS, CAPTURE_OPT_RET,
	CAPTURE_OPT_SAMPLE, CAPTURE_OPT_STACK, CAPTURE_OPT_LBR, CAPTURE_OPT_RINGBUF,
	CAPTURE_OPT_SLOTS, CAPTURE_OPT_FOLLOW_MAX, 'x',
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_file__str(data, size), *p = line, *end = line + size;
	struct capture_opts o = {};
	__s64 ret;

	while (p < end) {
		size_t n = strlen(p);
		int opt = opts[(unsigned char)*p % (sizeof(opts) / sizeof(opts[0]))];

		const char *arg = n ? p + 1 : "";

		/* as getopt_long() gives them: no argument, or an optional one left out */
		if (opt == 'v' || opt == CAPTURE_OPT_STACK || (opt == CAPTURE_OPT_ERRORS && !n))
			arg = NULL;
		capture_opts__parse(&o, opt, arg, "fuzz");
		if (n)
			capture_opts__parse_ret(p + 1, &ret);
		p += n + 1;
	}
	capture_opts__finish(&o);
	capture_opts__free(&o);
	free(line);
	return 0;
}
