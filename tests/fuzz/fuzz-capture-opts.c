// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The capture options of every recording command: the input is a command line, options
 * separated by NUL bytes, each "LETTER value" where LETTER picks one of the options.
 */
#include <stdlib.h>
#include <string.h>
#include "capture/capture-opts.h"
#include "fuzz-file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = fuzz_file__str(data, size), *p = line, *end = line + size;
	struct capture_opts o = {};
	size_t nr_rows = 0;
	__s64 ret;

	while (capture_opts__rows[nr_rows].type != OPT_END)
		nr_rows++;
	while (p < end) {
		size_t n = strlen(p);
		/* one more than the rows: an option that is not one is left alone */
		size_t k = (unsigned char)*p % (nr_rows + 1);
		const struct opt_row *row = &capture_opts__rows[k];
		const char *arg = n ? p + 1 : "";

		/* as getopt_long() gives them: no argument, or an optional one left out */
		if (row->arg == OPT_ARG_NONE || (row->arg == OPT_ARG_OPTIONAL && !n))
			arg = NULL;
		if (k < nr_rows)
			opt_row__apply(row, arg, &o, "fuzz");
		if (n)
			capture_opts__parse_ret(p + 1, &ret);
		p += n + 1;
	}
	capture_opts__finish(&o);
	capture_opts__free(&o);
	free(line);
	return 0;
}
