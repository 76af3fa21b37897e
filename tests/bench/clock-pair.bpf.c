// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * The calls-cost bench's floor: an fentry+fexit pair on vfs_mkdir that reads the clock once
 * in each program and stores the value, which is the least a call trace does per call (its
 * entry and exit times). Against the empty pair it says how much of --calls' cost no
 * bookkeeping can avoid. Guests only: the host has no fentry.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* one slot per CPU (masked), so that no store needs an atomic */
__u64 stamp[64][2];

SEC("fentry/vfs_mkdir")
int bench_clock_entry(void *ctx)
{
	stamp[bpf_get_smp_processor_id() & 63][0] = bpf_ktime_get_ns();
	return 0;
}

SEC("fexit/vfs_mkdir")
int bench_clock_exit(void *ctx)
{
	stamp[bpf_get_smp_processor_id() & 63][1] = bpf_ktime_get_ns();
	return 0;
}
