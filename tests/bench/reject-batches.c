// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * reject-batches BATCHES PER_BATCH PID...: the workload of the reject bench, and its own
 * meter. Finds the BPF programs the PIDs hold open, turns the kernel's run-time statistics on
 * (BPF_ENABLE_STATS: off again when it exits) and does BATCHES batches of PER_BATCH failing
 * close() calls, reading each program's run_time_ns and run_cnt around each batch. Prints,
 * per program that ran, "prog NAME RUN_TIME_NS RUN_CNT" of its median batch (by time per
 * run) and "batches NAME N" (the batches it ran in).
 *
 * Batches, not one long run: under TCG a vCPU preempted inside a program adds the whole
 * preemption to its run time; the median batch leaves the few batches it hits out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "bench-progs.h"

#define MAX_PROGS 16
#define MAX_BATCHES 1000

/* a program and its batches */
struct prog {
	__u64 b_ns[MAX_BATCHES], b_cnt[MAX_BATCHES];
	int nb;
};

static struct bench_prog bprogs[MAX_PROGS];
static struct prog progs[MAX_PROGS];
static int nr_progs;

static const struct prog *sort_prog;

static int by_time_per_run(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	/* cross-multiplied: ns/cnt of each batch, no rounding */
	unsigned __int128 l = (unsigned __int128)sort_prog->b_ns[x] * sort_prog->b_cnt[y];
	unsigned __int128 r = (unsigned __int128)sort_prog->b_ns[y] * sort_prog->b_cnt[x];

	return l < r ? -1 : l > r;
}

int main(int argc, char **argv)
{
	__u64 ns0[MAX_PROGS], cnt0[MAX_PROGS];
	long batches, per, b, i;
	int stats_fd, p, order[MAX_BATCHES];

	if (argc < 4 || (batches = atol(argv[1])) <= 0 || batches > MAX_BATCHES ||
	    (per = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: reject-batches BATCHES(1-%d) PER_BATCH PID...\n",
			MAX_BATCHES);
		return 2;
	}
	for (i = 3; i < argc; i++)
		bench_progs__find(bprogs, &nr_progs, MAX_PROGS, atoi(argv[i]), "");
	if (!nr_progs) {
		fprintf(stderr, "reject-batches: no BPF program held by the given processes\n");
		return 1;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "reject-batches: cannot enable BPF run-time statistics: %s\n",
			strerror(errno));
		return 1;
	}
	for (b = 0; b < batches; b++) {
		if (bench_progs__read(bprogs, nr_progs))
			goto fail;
		for (p = 0; p < nr_progs; p++) {
			ns0[p] = bprogs[p].ns;
			cnt0[p] = bprogs[p].cnt;
		}
		for (i = 0; i < per; i++) {
			/* fails with EBADF: a syscall whose own work is next to nothing */
			if (close(-1) != -1) {
				fprintf(stderr, "reject-batches: close(-1) succeeded\n");
				return 1;
			}
		}
		if (bench_progs__read(bprogs, nr_progs))
			goto fail;
		for (p = 0; p < nr_progs; p++) {
			struct prog *pr = &progs[p];

			if (bprogs[p].cnt == cnt0[p])
				continue;
			pr->b_ns[pr->nb] = bprogs[p].ns - ns0[p];
			pr->b_cnt[pr->nb] = bprogs[p].cnt - cnt0[p];
			pr->nb++;
		}
	}
	for (p = 0; p < nr_progs; p++) {
		const struct prog *pr = &progs[p];
		int m;

		if (!pr->nb)
			continue;
		for (i = 0; i < pr->nb; i++)
			order[i] = i;
		sort_prog = pr;
		qsort(order, pr->nb, sizeof(order[0]), by_time_per_run);
		m = order[pr->nb / 2];
		printf("prog %s %llu %llu\n", bprogs[p].name, (unsigned long long)pr->b_ns[m],
		       (unsigned long long)pr->b_cnt[m]);
		printf("batches %s %d\n", bprogs[p].name, pr->nb);
	}
	close(stats_fd);
	return 0;
fail:
	fprintf(stderr, "reject-batches: cannot read the programs' statistics: %s\n",
		strerror(errno));
	return 1;
}
