/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Hardware watchpoints as breakpoint perf events, each running an attach point's program:
 * a kernel address on every CPU, a user address in a process, its threads and its future
 * children (the events are inherited, and the kernel gives inherited events the program).
 */
#ifndef LBRSNAP_MEM_WATCH_H
#define LBRSNAP_MEM_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct bpf_link;
struct bpf_program;
struct attach_target;

struct mem_watch {
	struct bpf_link **links;	/* one per breakpoint event */
	int *fds;			/* ... its perf event, owned by the link */
	size_t nr;
};

/* x86 has four debug registers per CPU: at most this many watchpoints at once */
#define MEM_WATCH_MAX 4

/* Writes of lbrsnap's own variable that mem_watch__probe() expects its watchpoint to count */
#define MEM_WATCH_PROBE_WRITES 3

/*
 * Whether hardware watchpoints fire here: one armed on a variable of lbrsnap's own, written
 * MEM_WATCH_PROBE_WRITES times, must count every write. 0, or a negative errno with a
 * one-line message naming the cause.
 */
int mem_watch__probe(char *err, size_t err_len);
/* A kernel address on every online CPU. Returns 0 or a negative errno, with a message. */
int mem_watch__attach_cpus(struct mem_watch *w, struct bpf_program *prog,
			   const struct attach_target *t, char *err, size_t err_len);
/*
 * A user address in every thread of process pid (tid > 0: that thread alone) and its future
 * children; on_exec: from its next exec on (a command held before it execs).
 */
int mem_watch__attach_task(struct mem_watch *w, struct bpf_program *prog,
			   const struct attach_target *t, pid_t pid, pid_t tid, bool on_exec,
			   char *err, size_t err_len);
/*
 * Disables every event and sums what they counted, their inherited copies included: the hits
 * whose program ran, and those the kernel did not run it for (another BPF program running on
 * the CPU). 0 with *count, or a negative errno when an event cannot be read.
 */
int mem_watch__stop_count(struct mem_watch *w, __u64 *count);
/* Detaches and closes every event; the watch can be attached again. */
void mem_watch__detach(struct mem_watch *w);

#endif /* LBRSNAP_MEM_WATCH_H */
