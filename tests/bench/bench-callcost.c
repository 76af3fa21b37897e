// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bench-callcost PREFIX BATCHES PER_BATCH DIR: the workload of the calls-cost bench, and its
 * own meter. Run as the command of a tracer (lbrsnap record -- ..., bpftrace -c ...), it
 * finds the tracer's BPF programs (the nearest ancestor holding any; those whose name starts
 * with PREFIX, every one for "all"; "none": no tracer, wall time only), turns the kernel's
 * run-time statistics on (BPF_ENABLE_STATS: off again when it exits) and does BATCHES
 * batches of PER_BATCH mkdir+rmdir of DIR/d, reading the programs' run_time_ns and run_cnt
 * and the monotonic clock before and after each batch. Prints, per batch,
 * "batch RUN_TIME_NS RUN_CNT WALL_NS" (the deltas summed over the programs, and the batch's
 * wall time) followed by "pbatch ID RUN_TIME_NS RUN_CNT" for each program that ran in
 * it, then the programs counted as "prog ID NAME RUN_TIME_NS RUN_CNT" lines (all batches).
 *
 * With DIR "getppid" each step of a batch is a getppid(2) instead (no directory), which calls
 * __task_pid_nr_ns once: a call so cheap that what a tracer adds to it stands out of the wall
 * time.
 *
 * Batches, not one long run: under TCG a vCPU preempted inside a program adds the whole
 * preemption to its run time; the median over batches leaves the few batches it hits out.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "bench-progs.h"

#define MAX_PROGS 64

static int nr_progs;
static struct bench_prog progs[MAX_PROGS];
static __u64 prog_ns0[MAX_PROGS], prog_cnt0[MAX_PROGS];	/* at the first batch's start */
static __u64 prog_ns_b[MAX_PROGS], prog_cnt_b[MAX_PROGS];	/* at the batch's start */

static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	pid_t pp = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "PPid: %d", &pp) == 1)
			break;
	fclose(fp);
	return pp;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The programs' statistics, and their sums */
static int read_stats(__u64 *ns, __u64 *cnt)
{
	int i, err;

	*ns = *cnt = 0;
	err = bench_progs__read(progs, nr_progs);
	if (err)
		return err;
	for (i = 0; i < nr_progs; i++) {
		*ns += progs[i].ns;
		*cnt += progs[i].cnt;
	}
	return 0;
}

int main(int argc, char **argv)
{
	__u64 ns0, cnt0, ns1, cnt1, t0, t1;
	bool none, cheap;
	long batches, per, b, i;
	char dir[4096];
	int stats_fd, up;
	pid_t pid;

	if (argc != 5 || (batches = atol(argv[2])) <= 0 || (per = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: bench-callcost PREFIX BATCHES PER_BATCH DIR\n");
		return 2;
	}
	if (snprintf(dir, sizeof(dir), "%s/d", argv[4]) >= (int)sizeof(dir)) {
		fprintf(stderr, "bench-callcost: %s: path too long\n", argv[4]);
		return 2;
	}
	cheap = !strcmp(argv[4], "getppid");
	none = !strcmp(argv[1], "none");
	if (!strcmp(argv[1], "all"))
		argv[1] = "";
	for (pid = getppid(), up = 0; !none && pid > 1 && !nr_progs && up < 4;
	     pid = parent_of(pid), up++)
		bench_progs__find(progs, &nr_progs, MAX_PROGS, pid, argv[1]);
	if (!nr_progs && !none) {
		fprintf(stderr, "bench-callcost: no BPF program named '%s*' in the tracer above\n",
			argv[1]);
		return 1;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "bench-callcost: cannot enable BPF run-time statistics: %s\n",
			strerror(errno));
		return 1;
	}
	for (b = 0; b < batches; b++) {
		if (read_stats(&ns0, &cnt0))
			goto fail;
		for (i = 0; i < nr_progs; i++) {
			if (!b) {
				prog_ns0[i] = progs[i].ns;
				prog_cnt0[i] = progs[i].cnt;
			}
			prog_ns_b[i] = progs[i].ns;
			prog_cnt_b[i] = progs[i].cnt;
		}
		t0 = now_ns();
		for (i = 0; cheap && i < per; i++)
			syscall(SYS_getppid);
		for (i = 0; !cheap && i < per; i++) {
			if (mkdir(dir, 0700) || rmdir(dir)) {
				fprintf(stderr, "bench-callcost: %s: %s\n", dir, strerror(errno));
				return 1;
			}
		}
		t1 = now_ns();
		if (read_stats(&ns1, &cnt1))
			goto fail;
		printf("batch %llu %llu %llu\n", (unsigned long long)(ns1 - ns0),
		       (unsigned long long)(cnt1 - cnt0), (unsigned long long)(t1 - t0));
		for (i = 0; i < nr_progs; i++)
			if (progs[i].cnt != prog_cnt_b[i])
				printf("pbatch %u %llu %llu\n", progs[i].id,
				       (unsigned long long)(progs[i].ns - prog_ns_b[i]),
				       (unsigned long long)(progs[i].cnt - prog_cnt_b[i]));
	}
	for (i = 0; i < nr_progs; i++)
		printf("prog %u %s %llu %llu\n", progs[i].id, progs[i].name,
		       (unsigned long long)(progs[i].ns - prog_ns0[i]),
		       (unsigned long long)(progs[i].cnt - prog_cnt0[i]));
	close(stats_fd);
	return 0;
fail:
	fprintf(stderr, "bench-callcost: cannot read the programs' statistics: %s\n",
		strerror(errno));
	return 1;
}
