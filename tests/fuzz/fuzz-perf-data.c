// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * perf.data as `lbrsnap perf inject` reads it: header, attributes and ids, every feature
 * section (the tracing data's event formats parsed as the merge parses them), every record.
 */
#include <stdlib.h>
#include "fuzz-file.h"
#include "perf/perf-data.h"
#include "perf/perf-data-reader.h"
#include "perf-lbr/perf-tracing-data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct perf_event_header *ev;
	struct perf_reader *r;
	__u32 max_id;
	size_t len;
	void *d;
	int bit;

	if (perf_reader__open(fuzz_file__write(data, size), &r))
		return 0;
	for (bit = 0; bit < PERF_FEAT_BITS; bit++) {
		if (perf_reader__feature(r, bit, &d, &len))
			continue;
		if (bit == PERF_FEAT_TRACING_DATA)
			perf_tracing_data__max_id(d, len, &max_id);
		free(d);
	}
	while (perf_reader__next(r, &ev) > 0)
		;
	perf_reader__close(r);
	return 0;
}
