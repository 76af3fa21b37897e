// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * The "reject" section's fexit baseline (guests only: the host has no fexit), on the
 * function the workload's failing close() calls return through. An object of its own, so that
 * the raw_tp and tp_btf baselines load where fexit does not.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("fexit/__x64_sys_close")
int bench_empty_fexit(void *ctx)
{
	return 0;
}
