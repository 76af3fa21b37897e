// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * The baseline of the per-invocation cost benchmark: programs that do nothing, on the same
 * raw tracepoints lbrsnap is measured on. Their run time is what the kernel's accounting and
 * the program call cost by themselves; lbrsnap's cost above it is its own work.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("raw_tp/sys_enter")
int bench_empty_enter(void *ctx)
{
	return 0;
}

SEC("raw_tp/sys_exit")
int bench_empty_exit(void *ctx)
{
	return 0;
}
