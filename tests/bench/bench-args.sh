# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "args": what capturing a record's arguments costs, per record, at sys_enter and
# sys_exit: the syscall number, six registers and the path openat() takes, read from user
# memory. lbrsnap with arguments (the default) and with --no-args, alternating, on the same
# load: ARGS_N failing openat() of a path by one process (--comm keeps only those). Cost per
# invocation from the kernel's BPF run-time accounting (run_time_ns / run_cnt), as in the
# kernel section; the programs also run, and reject, the other syscalls of the machine.

ARGS_N=${ARGS_N:-20000}
ARGS_REPS=${ARGS_REPS:-5}

# args_once LABEL ARGS...: one capture around one load; the cost per invocation of each of
# the two programs appended to ARGS_COST[LABEL/TRACEPOINT]
args_once() {
	local label=$1 rec id name t0 c0 t1 c1 tp summary
	shift
	rm -f "$BENCH_TMP"/a.data*
	bench_bg rec lbrsnap record -e raw_tp:sys_enter -e raw_tp:sys_exit --comm bench-args \
		--ringbuf 256M "$@" -o "$BENCH_TMP/a.data" 2> "$BENCH_TMP/a.err"
	wait_for_tmp "$BENCH_TMP/a.data" || return 1
	for id in $(bpf_prog_ids "$rec"); do bpf_prog_stats "$id"; done > "$BENCH_TMP/a0"
	syscall-load --comm bench-args --open-missing "$ARGS_N" > /dev/null
	for id in $(bpf_prog_ids "$rec"); do bpf_prog_stats "$id"; done > "$BENCH_TMP/a1"
	bench_stop "$rec"
	while read -r name t0 c0 t1 c1; do
		[ "$c1" -gt "$c0" ] || continue
		# -e sys_enter first: its program is the kind's first
		[ "$name" = lbrsnap_rawtp_0 ] && tp=sys_enter || tp=sys_exit
		ARGS_COST[$label/$tp]+=" $(( (t1 - t0) / (c1 - c0) ))"
	done < <(paste -d' ' "$BENCH_TMP/a0" <(cut -d' ' -f2- "$BENCH_TMP/a1"))
	read -r -a summary <<<"$(recorder_summary "$BENCH_TMP/a.err")"
	# a lost record skips the stack walk and the arguments: the cost would undercount
	[ "${summary[3]:-1}" = 0 ] || bench_out "  NOTE: $label: ${summary[3]:-?} records lost"
	rm -f "$BENCH_TMP"/a.data*
}

bench_args() {
	local r tp with without
	declare -gA ARGS_COST=()

	bench_section "args: what arguments cost per record (bpftool run_time_ns / run_cnt;" \
		"$ARGS_REPS alternating runs of $ARGS_N failing openat of a path)"
	bench_cmd "lbrsnap record -e raw_tp:sys_enter -e raw_tp:sys_exit --comm bench-args" \
		"[--no-args] -- (load: syscall-load --comm bench-args --open-missing $ARGS_N)"
	bpf_stats_on || return 1
	for ((r = 0; r < ARGS_REPS; r++)); do
		args_once "with arguments" || return 1
		args_once "--no-args" --no-args || return 1
	done
	bpf_stats_restore
	for tp in sys_enter sys_exit; do
		with=${ARGS_COST[with arguments/$tp]:-}
		without=${ARGS_COST[--no-args/$tp]:-}
		[ -n "$with" ] && [ -n "$without" ] || return 1
		# shellcheck disable=SC2086 # lists of numbers
		bench_row "raw_tp:$tp, with arguments: cost per record" ns $with
		# shellcheck disable=SC2086
		bench_row "raw_tp:$tp, --no-args: cost per record" ns $without
		# shellcheck disable=SC2086
		bench_info "raw_tp:$tp: arguments add (difference of medians)" \
			"$(( $(bench_median $with) - $(bench_median $without) )) ns"
		bench_info "raw_tp:$tp: with / without arguments (medians)" \
			"$(bench_ratio "$with" "$without")"
	done
}
