// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * A damaged capture through both converters: `lbrsnap perf` (perf.data, kallsyms beside it)
 * and `trace-cmd-lbr convert` (trace.dat), written to /dev/shm and removed.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "fuzz-file.h"
#include "perf-lbr/perf-convert.h"
#include "tracedat-lbr/tracedat-merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char perf[64], ks[64], dat[64];
	struct tracedat_merge_stats st;
	const char *cap;
	char err[256];

	if (!*perf) {
		snprintf(perf, sizeof(perf), "/dev/shm/lbrsnap-fuzz-%d.data", getpid());
		snprintf(ks, sizeof(ks), "/dev/shm/lbrsnap-fuzz-%d.kallsyms", getpid());
		snprintf(dat, sizeof(dat), "/dev/shm/lbrsnap-fuzz-%d.dat", getpid());
	}
	cap = fuzz_file__write(data, size);
	perf_convert(cap, perf, ks, size & 1);
	tracedat__write(NULL, cap, dat, &st, err, sizeof(err));
	remove(perf);
	remove(ks);
	remove(dat);
	return 0;
}
