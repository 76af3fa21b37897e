// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* trace.dat metadata (v6 and v7, compressed sections too) as `trace-cmd-lbr merge` reads it. */
#include "fuzz-file.h"
#include "tracedat/tracedat-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracedat_meta m = {};
	struct tracedat_input_info info;
	char err[256];

	tracedat_input__read_meta(fuzz_file__write(data, size), &m, &info, err, sizeof(err));
	tracedat_meta__free(&m);
	return 0;
}
