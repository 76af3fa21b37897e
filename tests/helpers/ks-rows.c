// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ks-rows FILE [PID]: the rows of KernelShark's list view for a trace.dat, as libkshark's
 * data-stream API loads them (the library the GUI's table reads), without a display:
 *   TIME_S CPU PID TASK EVENT | INFO
 * TIME_S is the time stamp as the table shows it (seconds, 6 decimals); with PID, only that
 * task's rows. tests/host/t-trace-kernelshark holds these rows against exact values.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "libkshark.h"

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	int sd, pid = argc > 2 ? atoi(argv[2]) : -1, ret = 1;
	uint64_t sec, usec;
	ssize_t n, i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: ks-rows FILE [PID]\n");
		return 2;
	}
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "ks-rows: no kshark context\n");
		return 1;
	}
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "ks-rows: %s: kshark cannot open it (%d)\n", argv[1], sd);
		goto out;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	if (n < 0) {
		fprintf(stderr, "ks-rows: %s: no entries loaded (%zd)\n", argv[1], n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct kshark_entry *e = rows[i];
		char *task, *event, *info;

		if (pid < 0 || e->pid == pid) {
			task = kshark_get_task(e);
			event = kshark_get_event_name(e);
			info = kshark_get_info(e);
			kshark_convert_nano(e->ts, &sec, &usec);
			printf("%" PRIu64 ".%06" PRIu64 " %d %d %s %s | %s\n", sec, usec, e->cpu,
			       e->pid, task ?: "?", event ?: "?", info ?: "");
			free(task);
			free(event);
			free(info);
		}
	}
	ret = 0;
	for (i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
out:
	kshark_free(ctx);
	return ret;
}
