// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include "capture/lbr-enable.h"

struct lbr_enable {
	int *fds;
	struct lbr_watch *watch;	/* per fd: its CPU and what the checks found */
	int nr;
};

/* Opens a gap at good_ns, or reopens the last one when it reaches that far, and extends it. */
static int gap_extend(struct lbr_watch *w, __u64 end_ns, __u64 enabled, __u64 running)
{
	struct lbrfile_lbr_gap *g;

	if (!w->in_gap && (!w->nr_gaps || w->gaps[w->nr_gaps - 1].end_ns < w->good_ns)) {
		if (w->nr_gaps == w->cap_gaps) {
			size_t cap = w->cap_gaps ? 2 * w->cap_gaps : 8;

			g = realloc(w->gaps, cap * sizeof(*g));
			if (!g)
				return -ENOMEM;
			w->gaps = g;
			w->cap_gaps = cap;
		}
		w->gaps[w->nr_gaps++] = (struct lbrfile_lbr_gap){
			.cpu = w->cpu, .start_ns = w->good_ns, .end_ns = w->good_ns,
		};
	}
	w->in_gap = true;
	g = &w->gaps[w->nr_gaps - 1];
	if (end_ns > g->end_ns)
		g->end_ns = end_ns;
	g->enabled_ns += enabled;
	g->running_ns += running;
	return 0;
}

int lbr_watch__update(struct lbr_watch *w, const struct lbr_reading *r)
{
	bool had_base = w->has_base, back;
	__u64 enabled = 0, running = 0;
	int err;

	if (!w->started) {
		w->started = true;
		w->good_ns = r->before_ns;
	}
	if (r->eof) {
		/* error state: LBR is off until the event is enabled again */
		w->rebase = true;
		err = gap_extend(w, r->after_ns, 0, 0);
		return err ?: 1;
	}
	/* totals never go back; a reading that did proves nothing: a gap without deltas */
	back = had_base && (r->enabled_ns < w->enabled_ns || r->running_ns < w->running_ns);
	if (had_base && !back) {
		enabled = r->enabled_ns - w->enabled_ns;
		running = r->running_ns - w->running_ns;
	}
	w->has_base = true;
	w->enabled_ns = r->enabled_ns;
	w->running_ns = r->running_ns;
	if (!had_base && !w->rebase)
		return 0;	/* the baseline */
	if (w->rebase) {
		/* running again since the re-enable: this reading ends the gap */
		err = gap_extend(w, r->after_ns, enabled, running);
		if (err)
			return err;
		w->rebase = false;
	} else if (running < enabled || back) {
		/* stays open: a good reading closes it */
		return gap_extend(w, r->after_ns, enabled, running);
	}
	w->in_gap = false;
	w->good_ns = r->before_ns;
	return 0;
}

void lbr_watch__free(struct lbr_watch *w)
{
	free(w->gaps);
	w->gaps = NULL;
	w->nr_gaps = w->cap_gaps = 0;
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* { value, time enabled, time running }; anything but the 24 bytes counts as error state */
static void read_event(int fd, struct lbr_reading *r)
{
	__u64 v[3];
	ssize_t n;

	r->before_ns = mono_ns();
	n = read(fd, v, sizeof(v));
	r->after_ns = mono_ns();
	r->eof = n != sizeof(v);
	r->value = r->eof ? 0 : v[0];
	r->enabled_ns = r->eof ? 0 : v[1];
	r->running_ns = r->eof ? 0 : v[2];
}

int lbr_enable__check(struct lbr_enable *lbr)
{
	struct lbr_reading r;
	int i, ret, off = 0;

	for (i = 0; lbr && i < lbr->nr; i++) {
		read_event(lbr->fds[i], &r);
		ret = lbr_watch__update(&lbr->watch[i], &r);
		if (ret < 0)
			return ret;
		off += ret || lbr->watch[i].in_gap;
		if (!ret)
			continue;
		/*
		 * Enabling is synchronous (the target CPU schedules the event in, or puts it
		 * back in error state, before the ioctl returns), so reading again tells
		 * whether LBR is on now; if not, the next check tries again.
		 */
		ioctl(lbr->fds[i], PERF_EVENT_IOC_ENABLE, 0);
		read_event(lbr->fds[i], &r);
		ret = lbr_watch__update(&lbr->watch[i], &r);
		if (ret < 0)
			return ret;
	}
	return off;
}

const struct lbrfile_lbr_gap *lbr_enable__gap(const struct lbr_enable *lbr, size_t i)
{
	int cpu;

	for (cpu = 0; lbr && cpu < lbr->nr; cpu++) {
		if (i < lbr->watch[cpu].nr_gaps)
			return &lbr->watch[cpu].gaps[i];
		i -= lbr->watch[cpu].nr_gaps;
	}
	return NULL;
}

int lbr_enable__write_gaps(const struct lbr_enable *lbr, struct lbrfile_writer *w)
{
	const struct lbrfile_lbr_gap *g;
	size_t i;
	int err;

	for (i = 0; (g = lbr_enable__gap(lbr, i)); i++) {
		err = lbrfile_writer__lbr_gap(w, g);
		if (err)
			return err;
	}
	return i;
}

int lbr_enable__open_attr(struct perf_event_attr *attr, struct lbr_enable **out, char *why,
			  size_t why_len)
{
	struct lbr_enable *lbr;
	int cpu, nr, err, fd;

	*out = NULL;
	/*
	 * Pinned: never multiplexed, so LBR stays on; an event that cannot be scheduled goes
	 * into error state instead, which lbr_enable__check() sees in its times.
	 */
	attr->pinned = 1;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	nr = libbpf_num_possible_cpus();
	if (nr < 0)
		return nr;
	lbr = calloc(1, sizeof(*lbr));
	if (!lbr)
		return -ENOMEM;
	lbr->fds = malloc(nr * sizeof(int));
	lbr->watch = calloc(nr, sizeof(*lbr->watch));
	if (!lbr->fds || !lbr->watch) {
		lbr_enable__close(lbr);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < nr; cpu++) {
		fd = syscall(__NR_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			continue;	/* possible but offline CPU */
		if (fd < 0) {
			err = -errno;
			if (err == -ENOENT || err == -EOPNOTSUPP)
				snprintf(why, why_len, "no hardware PMU with branch records "
					 "(perf_event_open cycles with a branch stack on cpu %d: "
					 "%s)", cpu, strerror(-err));
			else if (err == -EACCES || err == -EPERM)
				snprintf(why, why_len, "perf_event_open refused (%s): needs "
					 "CAP_PERFMON or root", strerror(-err));
			else
				snprintf(why, why_len, "perf_event_open cycles with a branch "
					 "stack on cpu %d: %s", cpu, strerror(-err));
			lbr_enable__close(lbr);
			return err;
		}
		lbr->watch[lbr->nr].cpu = cpu;
		lbr->fds[lbr->nr++] = fd;
	}
	/* the baseline of every event; an event already in error state starts a gap */
	err = lbr_enable__check(lbr);
	if (err < 0) {
		lbr_enable__close(lbr);
		return err;
	}
	*out = lbr;
	return 0;
}

void lbr_enable__attr(__u64 branch_filter, struct perf_event_attr *attr)
{
	*attr = (struct perf_event_attr) {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(*attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		/*
		 * A sampling event: since 85846b27072d (6.8) Intel enables LBR only for
		 * sampling events, and a counting one silently gives empty snapshots. The
		 * period is long because nothing reads the samples.
		 */
		.sample_period = 100000000,
		.sample_type = PERF_SAMPLE_BRANCH_STACK,
		/*
		 * The privilege bits (u, k) say whose branches LBR keeps; the event itself
		 * counts everywhere, so -j u records the application's last branches before
		 * it entered the kernel.
		 */
		.branch_sample_type = branch_filter,
	};
}

int lbr_enable__open(__u64 branch_filter, struct lbr_enable **out, char *why, size_t why_len)
{
	struct perf_event_attr attr;

	lbr_enable__attr(branch_filter, &attr);
	return lbr_enable__open_attr(&attr, out, why, why_len);
}

void lbr_enable__close(struct lbr_enable *lbr)
{
	int i;

	if (!lbr)
		return;
	for (i = 0; i < lbr->nr; i++) {
		close(lbr->fds[i]);
		lbr_watch__free(&lbr->watch[i]);
	}
	free(lbr->watch);
	free(lbr->fds);
	free(lbr);
}
