// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * Programs that break the snapshot-first rule the way peer tools do, so the static check
 * (tests/lib/snapshot-first.awk) is shown to reject them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct perf_branch_entry buf[32];
volatile int ready;

/* a filter's helper call before the snapshot (only the CPU id may come first) */
SEC("raw_tp")
int lbrsnap_rawtp_0(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	bpf_get_branch_snapshot(&buf[tgid & 1], sizeof(buf) / 2, 0);
	return 0;
}

/* two CPU id calls: the second one costs LBR entries for nothing */
SEC("fexit")
int lbrsnap_fexit_0(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();

	cpu += bpf_get_smp_processor_id();
	bpf_get_branch_snapshot(&buf[cpu & 1], sizeof(buf) / 2, 0);
	return 0;
}

/* a "ready" check: a jump before the snapshot */
SEC("tp_btf")
int lbrsnap_tpbtf_0(void *ctx)
{
	if (!ready)
		return 0;
	bpf_get_branch_snapshot(buf, sizeof(buf), 0);
	return 0;
}
