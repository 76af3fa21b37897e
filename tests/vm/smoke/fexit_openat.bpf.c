// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * Guest smoke test: proves that fexit programs load, attach and see return values on the
 * guest kernels. Counts the failed opens of one process.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Set before load: other processes open files all the time and must not count. */
const volatile __u32 target_tgid;

__u64 failed_opens;

SEC("fexit/do_sys_openat2")
int BPF_PROG(count_failed_open, int dfd, const char *filename, struct open_how *how, int ret)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return 0;
	if (ret < 0)
		__sync_fetch_and_add(&failed_opens, 1);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
