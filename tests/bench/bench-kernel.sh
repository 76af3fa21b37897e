# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "kernel": cost of one invocation of the capture program, from the kernel's own BPF
# run-time accounting (kernel.bpf_stats_enabled=1; bpftool prog show: run_time_ns / run_cnt).
#
# The numbers cover the program body only (helpers included), not the tracepoint dispatch
# around it. Every repetition is a delta over one syscall-load run of KERNEL_N failing close()
# calls; the programs also run for every other syscall on the machine during that time, which
# is counted too (rejected or accepted like the workload's, depending on the mode).

KERNEL_N=${KERNEL_N:-50000}
KERNEL_REPS=${KERNEL_REPS:-5}

# Targets. Measured on the development VM (2 vCPUs, Intel Xeon, other test suites running):
# empty program 30-80 ns; comm filter rejecting 90-225 ns; accepted with a kernel stack
# 1.9-5.9 us, of which bpf_get_stack() alone is 1.2-3.8 us on this host (README.md).
# A rejected invocation must stay a few atomic adds and three cheap helpers: 400 ns is about
# twice the worst median seen, and a helper call or a loop added before the filter crosses
# it. The accepted path gets about twice the worst median seen, so a new per-record cost of a
# few microseconds (a second stack walk, copying the whole snapshot area) fails.
KERNEL_REJECT_MAX_NS=400
# Under a call or return filter (LBR taken as on: --lbr external) an invocation rejected by
# comm is a filter-first one (META order): where the kernel inlines the task and CPU id
# helpers (7.x) the comm is checked before any snapshot, elsewhere (x86-64) the task's
# rejection is remembered by kernel stack and repeated before it; loads and jumps either
# way, so within 1.3x of the empty program (issue 23).
KERNEL_FIRST_MAX_RATIO=1.3
KERNEL_ACCEPT_MAX_NS=9000

# The tracepoint a program PID holds is attached to, by its name: lbrsnap's are named by
# attach point order (-e sys_enter -e sys_exit). Others (lbrsnap's task trackers of
# remembered rejections: task_newtask, sched_process_exec, task_rename) are not measured.
kernel_prog_tp() {
	case $1 in
	*_enter|lbrsnap_rawtp_0) echo sys_enter ;;
	*_exit|lbrsnap_rawtp_1) echo sys_exit ;;
	esac
}

# kernel_measure LABEL PID: KERNEL_REPS workload runs, per-invocation cost of each of the two
# programs PID holds at sys_enter and sys_exit
kernel_measure() {
	local label=$1 pid=$2 ids id r name t0 c0 t1 c1 i0 i1 runs tp progs
	declare -A cost=()
	local -a iwi=() per_prog=()

	ids=$(bpf_prog_ids "$pid")
	for ((r = 0; r < KERNEL_REPS; r++)); do
		for id in $ids; do bpf_prog_stats "$id"; done > "$BENCH_TMP/s0"
		i0=$(irq_work_count)
		syscall-load --comm bench-k --fail "$KERNEL_N" > /dev/null
		i1=$(irq_work_count)
		for id in $ids; do bpf_prog_stats "$id"; done > "$BENCH_TMP/s1"
		runs=0 progs=0
		while read -r name t0 c0 t1 c1; do
			[ -n "$(kernel_prog_tp "$name")" ] || continue
			cost[$name]+=" $(( (t1 - t0) / (c1 - c0) ))"
			runs=$((runs + c1 - c0)) progs=$((progs + 1))
		done < <(paste -d' ' "$BENCH_TMP/s0" <(cut -d' ' -f2- "$BENCH_TMP/s1"))
		iwi+=("$(awk -v i=$((i1 - i0)) -v n=$runs 'BEGIN { printf "%.0f", 1000 * i / n }')")
		per_prog+=("$((runs / (progs ? progs : 1)))")
	done
	for name in $(printf '%s\n' "${!cost[@]}" | sort); do
		tp=$(kernel_prog_tp "$name")
		# shellcheck disable=SC2086 # a list of numbers
		bench_row "raw_tp:$tp, $label" ns ${cost[$name]}
		# shellcheck disable=SC2086
		KERNEL_MEDIAN[$label/$tp]=$(bench_median ${cost[$name]})
	done
	bench_row "  invocations per program and run (workload: $KERNEL_N)" "" "${per_prog[@]}"
	bench_row "  IRQ-work interrupts per 1000 invocations" "" "${iwi[@]}"
}

# kernel_lbrsnap LABEL ARGS...: the capture program under lbrsnap record ARGS, system-wide
kernel_lbrsnap() {
	local label=$1 rec summary
	shift
	rm -f "$BENCH_TMP"/k.data*
	bench_bg rec lbrsnap record -e raw_tp:sys_enter -e raw_tp:sys_exit "$@" \
		-o "$BENCH_TMP/k.data" 2> "$BENCH_TMP/k.err"
	wait_for_tmp "$BENCH_TMP/k.data" || return 1
	kernel_measure "$label" "$rec"
	bench_stop "$rec"
	read -r -a summary <<<"$(recorder_summary "$BENCH_TMP/k.err")"
	# which came first, as the capture says: filter-first only under call or return filters
	KERNEL_ORDER=$(sed -n 's/^lbrsnap record: \(filter-first\|snapshot-first\).*/\1/p' \
		       "$BENCH_TMP/k.err" | head -1)
	bench_info "  order" "${KERNEL_ORDER:-?}"
	bench_info "  recorder: hits / recorded / filtered / lost" \
		"${summary[0]:-?} / ${summary[1]:-?} / ${summary[2]:-?} / ${summary[3]:-?}"
	# a full ring buffer skips the record and the stack walk: the accepted cost would be low
	if [ "${summary[3]:-1}" != 0 ]; then
		bench_out "  NOTE: records were lost, so the cost above undercounts accepted ones"
	fi
	rm -f "$BENCH_TMP"/k.data*
}

# kernel_object LABEL OBJ: one of our own objects (empty.bpf.o, reference.bpf.o)
kernel_object() {
	local att
	bench_bg att bench-attach "$LBRSNAP_BUILD/tests/bench/$2" > "$BENCH_TMP/att.out"
	for _ in $(seq 100); do grep -q '^ready' "$BENCH_TMP/att.out" && break; sleep 0.05; done
	kernel_measure "$1" "$att"
	bench_stop "$att"
}

bench_kernel() {
	local tp acc ref f rej emp
	local -A order=()

	declare -gA KERNEL_MEDIAN=()
	bench_section "kernel: per-invocation cost of the BPF program (bpftool run_time_ns / run_cnt;" \
		"$KERNEL_REPS runs of $KERNEL_N failing syscalls)"
	bpf_stats_on || return 1

	kernel_object "empty program (baseline)" empty.bpf.o
	kernel_object "bpf_get_stack() alone (reference)" reference.bpf.o
	kernel_lbrsnap "lbrsnap, --comm rejecting all" --comm bench-nomatch
	for f in any_ret any_call; do
		kernel_lbrsnap "lbrsnap -j $f --lbr external, --comm rejecting all" \
			-v -j "$f" --lbr external --comm bench-nomatch
		order[$f]=$KERNEL_ORDER
	done
	kernel_lbrsnap "lbrsnap, --comm accepting the workload" --comm bench-k --ringbuf 256M
	kernel_lbrsnap "lbrsnap, no filter: all accepted" --ringbuf 256M

	bpf_stats_restore
	for tp in sys_enter sys_exit; do
		acc=${KERNEL_MEDIAN[lbrsnap, no filter: all accepted/$tp]:-none}
		ref=${KERNEL_MEDIAN[bpf_get_stack() alone (reference)/$tp]:-none}
		bench_info "accepted minus the stack walk alone, $tp (medians)" \
			"$(awk -v a="$acc" -v r="$ref" 'BEGIN { print a - r }') ns"
	done
	for f in any_ret any_call; do
		for tp in sys_enter sys_exit; do
			rej=${KERNEL_MEDIAN[lbrsnap -j $f --lbr external, --comm rejecting all/$tp]:-}
			emp=${KERNEL_MEDIAN[empty program (baseline)/$tp]:-}
			bench_target "kernel: rejected by comm under -j $f (${order[$f]:-?}) over the empty program, $tp" \
				"$(awk -v a="${rej:-0}" -v b="${emp:-0}" \
				   'BEGIN { printf "%.2f", b ? a / b : 99 }')" \
				"<=" "$KERNEL_FIRST_MAX_RATIO" x "$rej ns against $emp ns"
		done
	done
	for tp in sys_enter sys_exit; do
		bench_target "kernel: rejected invocation at $tp" \
			"${KERNEL_MEDIAN[lbrsnap, --comm rejecting all/$tp]:-none}" \
			"<" "$KERNEL_REJECT_MAX_NS" ns
		bench_target "kernel: accepted invocation with a kernel stack at $tp" \
			"${KERNEL_MEDIAN[lbrsnap, no filter: all accepted/$tp]:-none}" \
			"<" "$KERNEL_ACCEPT_MAX_NS" ns
	done
}
