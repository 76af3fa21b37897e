// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Hardware watchpoints as breakpoint perf events (API in mem-watch.h). */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"
#include "capture/mem-watch.h"

/* The probe's variable: only mem_watch__probe() writes it. */
static volatile __u64 probe_var;

int mem_watch__probe(char *err, size_t err_len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = HW_BREAKPOINT_W,
		.bp_addr = (unsigned long)&probe_var,
		.bp_len = sizeof(probe_var),
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	__u64 count = 0;
	int fd, ret = 0, i;

	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ENOSPC)
			snprintf(err, err_len, "mem: no free hardware debug register on this "
				 "machine (perf, gdb or another watchpoint may hold them)");
		else
			snprintf(err, err_len, "mem: this machine has no hardware watchpoints "
				 "(perf_event_open(breakpoint): %s)", strerror(-ret));
		return ret;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		ret = -errno;
		snprintf(err, err_len, "mem: cannot enable a test watchpoint: %s", strerror(-ret));
		goto cleanup;
	}
	for (i = 0; i < MEM_WATCH_PROBE_WRITES; i++)
		probe_var = i + 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		ret = -EIO;
		snprintf(err, err_len, "mem: cannot read a test watchpoint's count");
		goto cleanup;
	}
	/*
	 * Some virtual machines accept breakpoint events but never deliver the debug exception:
	 * the events open and count nothing, and a recording would say only "0 hook hits".
	 */
	if (count != MEM_WATCH_PROBE_WRITES) {
		ret = -EOPNOTSUPP;
		snprintf(err, err_len, "mem: hardware watchpoints do not fire on this machine: a "
			 "test watchpoint counted %llu of %d writes to lbrsnap's own variable "
			 "(a virtual machine without debug register support?)",
			 (unsigned long long)count, MEM_WATCH_PROBE_WRITES);
	}
cleanup:
	close(fd);
	return ret;
}

static int watch_add(struct mem_watch *w, struct bpf_program *prog,
		     const struct attach_target *t, pid_t pid, int cpu, bool on_exec, char *err,
		     size_t err_len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = t->mem_access,
		.bp_addr = t->mem_addr,
		.bp_len = t->mem_len,
		/* every access runs the program; it returns 0, so perf itself writes nothing */
		.sample_period = 1,
		.inherit = pid > 0,
		/* a command held before its exec: the addresses are the new program's */
		.disabled = on_exec,
		.enable_on_exec = on_exec,
	};
	struct bpf_link **nv, *link;
	int fd, ret, *nfds;

	nv = realloc(w->links, (w->nr + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	w->links = nv;
	nfds = realloc(w->fds, (w->nr + 1) * sizeof(*nfds));
	if (!nfds)
		return -ENOMEM;
	w->fds = nfds;
	fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		/* ENODEV: an offline CPU, nothing runs there */
		if (ret == -ENODEV && cpu >= 0)
			return 0;
		if (ret == -ENOSPC)
			snprintf(err, err_len, "cannot watch %s: no free hardware debug register "
				 "on %s %d (x86 has %d; perf, gdb or another watchpoint may hold "
				 "some)", t->spec, cpu >= 0 ? "cpu" : "task", cpu >= 0 ? cpu : pid,
				 MEM_WATCH_MAX);
		else if (ret == -ESRCH)
			snprintf(err, err_len, "cannot watch %s in pid %d: no such process",
				 t->spec, pid);
		else
			snprintf(err, err_len, "cannot watch %s: perf_event_open(breakpoint): %s",
				 t->spec, strerror(-ret));
		return ret;
	}
	link = bpf_program__attach_perf_event(prog, fd);
	if (!link) {
		ret = -errno;
		close(fd);
		snprintf(err, err_len, "cannot attach the program of %s to its breakpoint: %s",
			 t->spec, strerror(-ret));
		return ret;
	}
	w->fds[w->nr] = fd;
	w->links[w->nr++] = link;
	return 0;
}

int mem_watch__attach_cpus(struct mem_watch *w, struct bpf_program *prog,
			   const struct attach_target *t, char *err, size_t err_len)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, ret;

	for (cpu = 0; cpu < cpus; cpu++) {
		ret = watch_add(w, prog, t, -1, cpu, false, err, err_len);
		if (ret)
			return ret;
	}
	if (!w->nr) {
		snprintf(err, err_len, "cannot watch %s: no CPU online", t->spec);
		return -ENODEV;
	}
	return 0;
}

int mem_watch__attach_task(struct mem_watch *w, struct bpf_program *prog,
			   const struct attach_target *t, pid_t pid, pid_t tid, bool on_exec,
			   char *err, size_t err_len)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (tid > 0)
		return watch_add(w, prog, t, tid, -1, on_exec, err, err_len);
	/* a per-task event follows one thread: open one on each (new ones inherit) */
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		ret = -errno;
		snprintf(err, err_len, "cannot watch %s in pid %d: %s", t->spec, pid,
			 strerror(-ret));
		return ret;
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] != '.')
			ret = watch_add(w, prog, t, atoi(de->d_name), -1, on_exec, err,
					err_len);
	}
	closedir(d);
	return ret;
}

int mem_watch__stop_count(struct mem_watch *w, __u64 *count)
{
	__u64 v;
	size_t i;

	*count = 0;
	for (i = 0; i < w->nr; i++) {
		/* disabled first: no hit after the read runs the program */
		ioctl(w->fds[i], PERF_EVENT_IOC_DISABLE, 0);
		/* read_format 0: one u64, the event's children summed in */
		if (read(w->fds[i], &v, sizeof(v)) != sizeof(v))
			return -EIO;
		*count += v;
	}
	return 0;
}

void mem_watch__detach(struct mem_watch *w)
{
	size_t i;

	/* libbpf's perf-event link disables and closes its event */
	for (i = 0; i < w->nr; i++)
		bpf_link__destroy(w->links[i]);
	free(w->links);
	free(w->fds);
	w->links = NULL;
	w->fds = NULL;
	w->nr = 0;
}

/* A kernel address now; a user one in -p/-t now, in the command by capture__watch() */
int mem_watch__attach(const struct attach_req *req, char *err, size_t err_len)
{
	const struct attach_target *t = req->t;

	if (!t->mem_user)
		return mem_watch__attach_cpus(req->watch, req->prog, t, err, err_len);
	if (req->pid || req->tid)
		return mem_watch__attach_task(req->watch, req->prog, t, req->pid, req->tid, false,
					      err, err_len);
	return 0;
}
