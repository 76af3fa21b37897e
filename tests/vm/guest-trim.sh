#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-trim-kinds boots it): one capture of every kind, kernel
# stacks (no LBR in guests), and in what report shows of each record no tracing-path
# function and nothing newer than the traced code: a kernel function's stack is kept from
# that function (or, where it has returned, from its caller), a tracepoint's from the code
# that hit it, a user probe's kernel stack is the trap's and wholly tracing path.
# With LBRSNAP_TRIM_DUMP=DIR, the guest's kallsyms, each capture's report --keep-all --json
# and the kallsyms lines of the symbols it names are copied to DIR/<release>/ (how
# tests/unit/trim-listings.h was made).
. "$(dirname "$0")/../lib/test.sh"
test_tmpdir
cd "$TEST_TMP" || exit 1
k=$(uname -r | cut -d. -f1,2)

# Functions that run only for the tracing path, on 6.1, 6.12 and 7.2 (kprobe, fprobe over
# ftrace or fgraph, rethook, trampolines, tracepoint glue, uprobe and debug exceptions)
tracing_re='^('
tracing_re+='bpf_prog_|bpf_trampoline_|__bpf_prog_enter|__bpf_prog_exit|__bpf_tramp_|'
tracing_re+='bpf_trace_run|__bpf_trace_|__traceiter_|trace_call_bpf|kprobe_|kretprobe_|'
tracing_re+='__kretprobe|get_kprobe|aggr_pre_handler|opt_pre_handler|optimized_callback|'
tracing_re+='fprobe_|__fprobe_|fgraph_|__SCT__fgraph|function_graph_enter|ftrace_|arch_ftrace|'
tracing_re+='prepare_ftrace_return|return_to_handler|rethook_|arch_rethook|__rethook|'
tracing_re+='migrate_disable|migrate_enable|__rcu_read_|rcu_is_watching|'
tracing_re+='copy_from_kernel_nofault|uprobe_|uretprobe_|__uprobe_|handle_swbp|handler_chain|'
tracing_re+='arch_uprobe|perf_|__perf_|bpf_overflow_handler|hw_breakpoint_|exc_debug|'
tracing_re+='noist_exc_debug|asm_exc_|exc_int3|do_int3|notify_die|bpf_get_stack|'
tracing_re+='bpf_get_branch_snapshot)'

dump=${LBRSNAP_TRIM_DUMP:+$LBRSNAP_TRIM_DUMP/$(uname -r)}
if [ -n "$dump" ]; then
	mkdir -p "$dump"
	# PVH boots have no KASLR: these addresses are every boot's
	gzip -c < /proc/kallsyms > "$dump/kallsyms.gz"
fi

# checks NAME CAPTURE FIRST_RE: every record's kept frames hold no tracing-path function and
# the first kept one matches FIRST_RE ("" for a stack that must be all tracing path)
checks() {
	local name=$1 cap=$2 first=$3 n bad
	lbrsnap report --json -i "$cap" > "$cap.json" 2> /dev/null
	lbrsnap report --keep-all --json -i "$cap" > "$cap.all.json" 2> /dev/null
	if [ -n "$dump" ]; then
		cp "$cap.all.json" "$dump/$name.json"
		jq -r 'select(.time_ns) | .stack[].sym' "$cap.all.json" | sed 's/+0x.*//' | sort -u |
			awk 'NR == FNR { want[$1] = 1; next } want[$3]' - /proc/kallsyms \
			> "$dump/$name.kallsyms"
	fi
	n=$(jq -r 'select(.time_ns) | .seq' "$cap.json" | wc -l)
	check "$k: $name: records ($n)" test "$n" -ge 1
	check "$k: $name: every record has its kernel stack" test -z "$(jq -r \
		'select(.time_ns) | select((.stack | length) == 0 and (.stack_err // 0) != 0) | .seq' \
		"$cap.all.json")"
	bad=$(jq -r 'select(.time_ns) | .stack[] | select(.trimmed | not) | .sym' "$cap.json" |
	      sed 's/+0x.*//' | grep -E "$tracing_re" | sort -u | tr '\n' ' ')
	check_eq "$k: $name: no kept frame is a tracing-path function" "" "$bad"
	if [ -z "$first" ]; then
		check_eq "$k: $name: no kernel frame kept (the trap's path only)" "" \
			"$(jq -r 'select(.time_ns) | .stack[] | select(.trimmed | not) | .sym' \
			   "$cap.json" | sort -u | tr '\n' ' ')"
		return
	fi
	bad=$(jq -r 'select(.time_ns) | [.stack[] | select(.trimmed | not) | .sym][0] // "none"' \
	      "$cap.json" | sed 's/+0x.*//; s/\..*//' | grep -vE "$first" | sort -u | tr '\n' ' ')
	check_eq "$k: $name: kept from the traced code (first kept frame ~ $first)" "" "$bad"
}

open_re='^(do_sys_openat2|do_sys_open|__x64_sys_openat|__x64_sys_open|__do_sys_openat|__se_sys_openat)$'
load() { syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1; }

lbrsnap record -e fexit:do_sys_openat2 --comm lbrt-trim -o fexit.data -- \
	syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1
checks fexit fexit.data "$open_re"
lbrsnap record -e kprobe:do_sys_openat2 --comm lbrt-trim -o kprobe.data -- \
	syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1
checks kprobe kprobe.data '^do_sys_openat2$'
lbrsnap record -e kretprobe:do_sys_openat2 --comm lbrt-trim -o kretprobe.data -- \
	syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1
checks kretprobe kretprobe.data "$open_re"
# the tracepoint's call site: the syscall entry or exit work
lbrsnap record -e raw_tp:sys_exit --comm lbrt-trim -o raw_tp.data -- \
	syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1
exit_re='^(trace_syscall_exit|syscall_exit_work|syscall_exit_to_user_mode|__syscall_exit|'
exit_re+='syscall_exit_to_user_mode_prepare|exit_to_user_mode_prepare|do_syscall_64)$'
checks raw_tp raw_tp.data "$exit_re"
lbrsnap record -e tp_btf:sys_enter --comm lbrt-trim -o tp_btf.data -- \
	syscall-load --comm lbrt-trim --open-missing 3 > /dev/null 2>&1
enter_re='^(trace_syscall_enter|syscall_trace_enter|__syscall_trace_enter|'
enter_re+='syscall_enter_from_user_mode|syscall_enter_from_user_mode_work|do_syscall_64)$'
checks tp_btf tp_btf.data "$enter_re"

# user probes: the kernel stack of a trap from user mode is the trap's own path
lbrsnap record -e uprobe:uprobe-load:lbrsnap_up_count -o uprobe.data -- \
	uprobe-load --calls 3 > /dev/null 2>&1
checks uprobe uprobe.data ""
lbrsnap record -e usdt:uprobe-load:lbrsnap:values -o usdt.data -- \
	uprobe-load --calls 3 > /dev/null 2>&1
checks usdt usdt.data ""

if why=$(watchpoints_fire); then
	addr=0x$(nm "$(command -v watch-load)" | awk '$3 == "lbrsnap_watched" { print $1 }')
	lbrsnap record -e "mem:$addr:w" -o mem-user.data -- watch-load --writes 3 \
		> /dev/null 2>&1
	checks mem-user mem-user.data ""
	old=$(cat /proc/sys/kernel/panic)
	test_at_exit "echo $old > /proc/sys/kernel/panic"
	lbrsnap record -e mem:panic_timeout:w -o mem.data -- \
		sh -c 'for v in 3 7 11; do echo $v > /proc/sys/kernel/panic; done' > /dev/null 2>&1
	# kept from the instruction whose access trapped (the record's ip), in the sysctl code
	checks mem mem.data '^(proc_|do_proc_|__do_proc_)'
	check_eq "$k: mem: the first kept frame is where the access trapped" "" \
		"$(jq -r 'select(.time_ns) | select([.stack[] | select(.trimmed | not) | .addr][0] !=
		   .args.ip) | .seq' mem.data.json)"
else
	skip "$k: mem: kernel and user watchpoints" "$why"
fi
