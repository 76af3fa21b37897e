// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * plugin_lbr.so's handlers on damaged records: the lbr formats parsed by libtraceevent, the
 * plugin loaded into it, and each input printed as one lbr event (byte 0 picks which one;
 * the common_type field is set to it). Records shorter than the common fields are left out:
 * libtraceevent itself reads those before any plugin runs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "tracedat-lbr/tracedat-formats.h"

int TEP_PLUGIN_LOADER(struct tep_handle *tep);

static struct tep_handle *tep;

static void setup(void)
{
	int i;

	tep = tep_alloc();
	if (!tep)
		abort();
	for (i = 0; i < TRACEDAT_NR_FORMATS; i++) {
		const char *f = tracedat_format(i);

		if (tep_parse_event(tep, f, strlen(f), TRACEDAT_LBR_SYSTEM))
			abort();
	}
	TEP_PLUGIN_LOADER(tep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_record rec = {};
	struct trace_seq s;
	unsigned short type;

	if (!tep)
		setup();
	if (size < 8)
		return 0;
	rec.data = malloc(size);
	rec.size = size;
	memcpy(rec.data, data, size);
	type = TRACEDAT_ID_SNAPSHOT + data[0] % TRACEDAT_NR_FORMATS;
	memcpy(rec.data, &type, sizeof(type));
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_destroy(&s);
	free(rec.data);
	return 0;
}
