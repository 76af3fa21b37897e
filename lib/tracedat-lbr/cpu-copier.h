/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The recording's top-buffer pages that go to the output as they are, copied on a thread of
 * their own while the merge writes what the capture's events go into: encoding them is the
 * merge's longest part, and the copy goes beside it, not before it.
 *
 * Two steps, each a run of the thread. Sizing checks each CPU's pages as the merge would
 * (tracedat_check__page_times()), from the first on, for as long as they go as they are
 * (events in time order, none after the CPU's first capture record): those with events are
 * noted, those without left out, as the merge does. A CPU whose pages all go so is the
 * copier's; of another, the merge writes what follows. Copying then puts the noted pages
 * where the writer left room for them (tracedat_writer__reserve_cpu(), __begin_cpu_after()),
 * CPU by CPU as the merge posts where, on a copy thread (util/copy-thread.h). The bytes are
 * those the merge itself would have written there.
 */
#ifndef LBRSNAP_CPU_COPIER_H
#define LBRSNAP_CPU_COPIER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct copy_thread;
struct tracedat_cpu_data;

/* Pages that go out one after the other: len bytes from in_off in the input */
struct page_span {
	__u64 in_off;
	__u64 len;
};

struct cpu_copy {
	/* set by the caller */
	const struct tracedat_cpu_data *d;	/* NULL: a CPU passed over */
	__u64 limit_ns;			/* a page with a later event is the merge's (~0: none) */
	/* by sizing */
	__u64 done_at;			/* bytes of d it covers: the merge goes on from there */
	bool all;			/* done_at is d's size: the CPU is the copier's */
	__u64 size;			/* bytes in the output */
	struct page_span *spans;
	size_t nr_spans, cap_spans;
	size_t nr_events;		/* its data events, as the merge counts them */
	size_t nr_missed;		/* pages that say events were lost before them */
	__u64 first_ns, last_ns;	/* its events' range (nr_events: valid) */
};

struct cpu_copier {
	/* set by the caller */
	int in_fd;
	bool in_sparse;			/* read, never mapped */
	unsigned int page_size;
	const char *input;		/* named in messages */
	struct cpu_copy *cpus;
	size_t nr_cpus;
	/* sizing's thread */
	pthread_t thread;
	bool started;
	bool stop;			/* the merge gave up: end soon (atomic) */
	int err;
	bool damaged;			/* a page failed its check: why says */
	char why[320];
	/* copying's */
	struct copy_thread *copy;
};

/* Sizing started: 0 or a negative errno */
int cpu_copier__size(struct cpu_copier *cc);
/* Sizing waited for: its error (why says, for a damaged page), or 0 */
int cpu_copier__wait(struct cpu_copier *cc);
/* The copy thread started, for out_fd (behind: writeback started as it copies) */
int cpu_copier__copy(struct cpu_copier *cc, int out_fd, bool behind);
/* c's noted pages to be copied at out_off: 0 or a negative errno */
int cpu_copier__post(struct cpu_copier *cc, const struct cpu_copy *c, __u64 out_off);
/* Every page posted copied, the thread ended: 0 or the first error */
int cpu_copier__finish(struct cpu_copier *cc);
/* Stopped wherever it is and freed (the caller's cpus array stays the caller's) */
void cpu_copier__free(struct cpu_copier *cc);

#endif /* LBRSNAP_CPU_COPIER_H */
