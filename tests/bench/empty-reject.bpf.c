// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * The baseline of the "reject" section: programs that do nothing, of the same program types
 * and on the same attach points as lbrsnap's there (raw_tp and tp_btf at sys_exit), so the
 * ratio compares the capture program's body with the kernel's own cost of running a program.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("raw_tp/sys_exit")
int bench_empty_rawtp(void *ctx)
{
	return 0;
}

SEC("tp_btf/sys_exit")
int bench_empty_tpbtf(void *ctx)
{
	return 0;
}
