// SPDX-License-Identifier: (GPL-2.0 OR BSD-3-Clause)
/*
 * A reference point for the accepted path of the cost benchmark: the kernel stack walk
 * alone, as lbrsnap asks for it (bpf_get_stack(), LBRSNAP_MAX_STACK frames), on the same
 * raw tracepoints. lbrsnap's accepted cost minus this is lbrsnap's own work around the walk.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "capture.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[LBRSNAP_MAX_STACK]);
} stack_buf SEC(".maps");

static __always_inline int walk(void *ctx)
{
	__u32 zero = 0;
	void *buf = bpf_map_lookup_elem(&stack_buf, &zero);

	if (buf)
		bpf_get_stack(ctx, buf, LBRSNAP_MAX_STACK * 8, 0);
	return 0;
}

SEC("raw_tp/sys_enter")
int bench_stack_enter(void *ctx)
{
	return walk(ctx);
}

SEC("raw_tp/sys_exit")
int bench_stack_exit(void *ctx)
{
	return walk(ctx);
}
