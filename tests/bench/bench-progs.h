/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The BPF programs a tracer holds open, found through its /proc/PID/fdinfo, and their
 * run-time statistics: shared by the bench's in-process meters (bench-callcost,
 * reject-batches).
 */
#ifndef LBRSNAP_BENCH_PROGS_H
#define LBRSNAP_BENCH_PROGS_H

#include <sys/types.h>
#include <bpf/bpf.h>

struct bench_prog {
	int fd;
	__u32 id;
	char name[BPF_OBJ_NAME_LEN];
	__u64 ns, cnt;			/* run_time_ns and run_cnt at the last read */
};

/* Adds to progs[*nr] (at most max) the programs pid holds whose name starts with prefix */
void bench_progs__find(struct bench_prog *progs, int *nr, int max, pid_t pid,
		       const char *prefix);
/* Reads each program's statistics: 0, or -errno */
int bench_progs__read(struct bench_prog *progs, int nr);

#endif
