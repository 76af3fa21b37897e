// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * uprobe:, uretprobe: and usdt: through libbpf: a function by name (libbpf finds it in the
 * same symbol tables attach-spec.c checked), a USDT probe at each of its sites. With -p the
 * kernel probes that process alone; otherwise every process mapping the file, and the
 * program's pid and follow filters pick the ones wanted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "capture/attach-kind.h"
#include "capture/attach-spec.h"

/* The perf event type that uprobes (and so uretprobes and USDT probes) need */
#define UPROBE_PMU "/sys/bus/event_source/devices/uprobe"

int attach_uprobe__attach(const struct attach_req *req, char *err, size_t err_len)
{
	const struct attach_target *t = req->t;
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = t->ufunc,
		    .retprobe = lbr_kind__is_return(t->kind));
	pid_t pid = req->pid ? req->pid : -1;
	struct bpf_link *link;
	int ret;

	if (lbr_kind__is(t->kind, LBR_KIND_SDT))
		link = bpf_program__attach_usdt(req->prog, pid, t->upath, t->usdt_provider,
						t->usdt_name, NULL);
	else
		link = bpf_program__attach_uprobe_opts(req->prog, pid, t->upath, t->uoff, &uo);
	req->links[0] = link;
	if (link)
		return 0;
	ret = -errno;
	/* libbpf's "failed to determine uprobe perf type" says less */
	if (access(UPROBE_PMU, F_OK))
		snprintf(err, err_len, "cannot attach %s: this kernel has no uprobes (no %s: "
			 "CONFIG_UPROBE_EVENTS)", t->spec, UPROBE_PMU);
	else
		snprintf(err, err_len, "cannot attach %s: %s", t->spec, strerror(-ret));
	return ret;
}
