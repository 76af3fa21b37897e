// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Where fields sit in SAMPLE bodies and in sample_id trailers, from the sample_type bits.
 * Sample order: IDENTIFIER, IP, TID, TIME, ADDR, ID, ...; trailer order: TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER (all u64 each).
 */
#include "perf/perf-data.h"
#include "perf/perf-sample.h"

static int bits(__u64 sample_type, __u64 mask)
{
	return __builtin_popcountll(sample_type & mask);
}

int perf_sample__time_pos(__u64 sample_type)
{
	if (!(sample_type & PERF_SAMPLE_TIME))
		return -1;
	return 8 * bits(sample_type, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID);
}

size_t perf_sample__id_trailer_size(__u64 sample_type)
{
	return 8 * bits(sample_type, PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER);
}

int perf_sample__trailer_time_pos(__u64 sample_type)
{
	if (!(sample_type & PERF_SAMPLE_TIME))
		return -1;
	return 8 * (1 + bits(sample_type, PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER));
}
