// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `lbrsnap inject` on a damaged recording: the input is the perf.data from `perf record`,
 * merged with a fixed real capture (corpus/lbrfile/record.data) into a file in /dev/shm.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "fuzz-file.h"
#include "perf-lbr/perf-merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[64], ks[64];

	if (!*out) {
		snprintf(out, sizeof(out), "/dev/shm/lbrsnap-fuzz-%d.data", getpid());
		snprintf(ks, sizeof(ks), "/dev/shm/lbrsnap-fuzz-%d.kallsyms", getpid());
	}
	/* the capture is of another time than any input: the whole merge runs all the same */
	perf_merge_flags(fuzz_file__write(data, size), FUZZ_CAPTURE, out, ks, false,
			 PERF_MERGE_FORCE, NULL);
	remove(out);
	remove(ks);
	return 0;
}
