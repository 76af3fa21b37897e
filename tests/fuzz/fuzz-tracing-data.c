// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A perf.data TRACING_DATA payload: header_page, header_event, ftrace and event format
 * texts, as `lbrsnap inject` walks them to find the largest tracepoint ID.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "perf-lbr/perf-tracing-data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy: a read past the payload is a heap overflow ASan sees */
	void *d = malloc(size ? size : 1);
	__u32 max_id;

	memcpy(d, data, size);
	perf_tracing_data__max_id(d, size, &max_id);
	free(d);
	return 0;
}
