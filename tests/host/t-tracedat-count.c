// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tracedat-count FILE: reads a trace.dat as trace-cmd-lbr merge reads it, its metadata with
 * lbrsnap's own section walk (tracedat_input__read_meta) and its events with libtracecmd
 * CPU by CPU, and prints
 *
 *   version V cpus C systems S events E
 *
 * E counting the events of every CPU of every buffer, as `trace-cmd report` prints them.
 * Exit status 1 with the reader's message for anything it refuses.
 */
#include <stdio.h>
#include <string.h>
#include <trace-cmd.h>
#include "tracedat/tracedat-input.h"

static unsigned long long count_events(struct tracecmd_input *h, unsigned int cpus)
{
	unsigned long long n = 0;
	struct tep_record *rec;
	unsigned int cpu;

	for (cpu = 0; cpu < cpus; cpu++) {
		for (rec = tracecmd_read_cpu_first(h, cpu); rec; rec = tracecmd_read_data(h, cpu)) {
			n++;
			tracecmd_free_record(rec);
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct tracedat_meta m = { 0 };
	struct tracedat_input_info info;
	struct tracecmd_input *in, *h;
	unsigned long long events;
	char err[512] = "";
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: tracedat-count FILE\n");
		return 2;
	}
	if (tracedat_input__read_meta(argv[1], &m, &info, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[1], err);
		tracedat_meta__free(&m);
		return 1;
	}
	in = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in) {
		fprintf(stderr, "%s: libtracecmd cannot open it\n", argv[1]);
		tracedat_meta__free(&m);
		return 1;
	}
	events = count_events(in, m.nr_cpus);
	for (i = 0; i < tracecmd_buffer_instances(in); i++) {
		h = tracecmd_buffer_instance_handle(in, i);
		if (!h)
			continue;
		events += count_events(h, m.nr_cpus);
		tracecmd_close(h);
	}
	printf("version %d cpus %u systems %d events %llu\n", info.version, m.nr_cpus,
	       m.nr_systems, events);
	tracecmd_close(in);
	tracedat_meta__free(&m);
	return 0;
}
