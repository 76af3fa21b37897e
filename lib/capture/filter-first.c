// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "capture/filter-first.h"
#include "lbrfile/branch-filter.h"

int filter_first__helpers_inlined(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_smp_processor_id },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_task_btf },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	/* the inlined sequences are a few instructions each: room for far more */
	struct bpf_insn xlated[64];
	struct bpf_prog_info info;
	__u32 len = sizeof(info), i, n;
	int fd, ret;

	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "lbrsnap_inline", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), NULL);
	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_insns = (__u64)(unsigned long)xlated;
	info.xlated_prog_len = sizeof(xlated);
	ret = bpf_obj_get_info_by_fd(fd, &info, &len);
	if (ret) {
		ret = -errno;
		goto cleanup;
	}
	if (info.xlated_prog_len > sizeof(xlated)) {
		ret = -E2BIG;
		goto cleanup;
	}
	n = info.xlated_prog_len / sizeof(xlated[0]);
	ret = 1;
	for (i = 0; i < n; i++) {
		/* a call left in the kernel's copy: a helper the JIT calls, which LBR records */
		if (xlated[i].code == (BPF_JMP | BPF_CALL))
			ret = 0;
	}
cleanup:
	close(fd);
	return ret;
}

enum filter_first_order filter_first__choose(__u64 branch_filter, bool lbr_on, bool calls,
					     bool task_filters, bool comm_filter, char *why,
					     size_t why_len)
{
	unsigned int rec = branch_filter__records(branch_filter);
	int inlined;

	if (!lbr_on) {
		snprintf(why, why_len, "snapshot-first (LBR off)");
		return FILTER_FIRST__SNAPSHOT;
	}
	if (rec & BR_JUMPS) {
		snprintf(why, why_len, "snapshot-first (the branch filter records jumps)");
		return FILTER_FIRST__SNAPSHOT;
	}
	/* a scope's state is freed where its return is recorded, after the snapshot */
	if (calls) {
		snprintf(why, why_len, "snapshot-first (--calls)");
		return FILTER_FIRST__SNAPSHOT;
	}
	inlined = filter_first__helpers_inlined();
	if (inlined < 0) {
		snprintf(why, why_len, "snapshot-first (cannot probe the helpers' inlining: %s)",
			 strerror(-inlined));
		return FILTER_FIRST__SNAPSHOT;
	}
	/*
	 * A 16 KiB tag names one task's stack only where no stack is smaller: x86-64's
	 * THREAD_SIZE is 16 KiB at least (KASAN doubles it: then only the lower half counts)
	 */
#if defined(__x86_64__)
	/* 7.2, rejected by pid: 1.19-1.29x the empty program remembered, 1.26-1.43x by the ids */
	if (inlined && task_filters) {
		snprintf(why, why_len, "filter-first (tasks rejected by pid, tid or follow "
			 "remembered by kernel stack and rejected first, then pid, tid, comm before "
			 "the snapshot: the branch filter records no jump, the helpers are inlined)");
		return FILTER_FIRST__TASK_REMEMBERED;
	}
#endif
	if (inlined) {
		snprintf(why, why_len, "filter-first (pid, tid, comm before the snapshot: the "
			 "branch filter records no jump, the helpers are inlined)");
		return FILTER_FIRST__TASK;
	}
#if defined(__x86_64__)
	/* a comm changes by a rename too, which task_rename tells before it is made */
	if (task_filters || comm_filter) {
		snprintf(why, why_len, "filter-first (tasks rejected by pid, tid, follow or comm "
			 "remembered by kernel stack and rejected before the snapshot: the branch "
			 "filter records no jump, this kernel calls the task helper)");
		return FILTER_FIRST__REMEMBERED;
	}
#endif
	snprintf(why, why_len, "snapshot-first (this kernel calls the CPU id or current task "
		 "helper: the branch filter would record its %s)", rec & BR_CALLS ? "call" : "return");
	return FILTER_FIRST__SNAPSHOT;
}
