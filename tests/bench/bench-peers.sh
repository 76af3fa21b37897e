# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "peers": the cost of one event on the same tracepoint and the same load, lbrsnap next
# to the tools people use today, all measured in the same run.
#
# The load is one syscall-load process making PEER_N failing close(-1) calls. Every tracer
# watches raw_syscalls:sys_exit system-wide and is started, attached, the load run once, and
# stopped, mode after mode inside each repetition (so tool and peer runs alternate and share
# the machine's load of the moment). Two filters:
#   reject: a comm matching nothing, tested in the kernel (lbrsnap --comm, bpftrace /comm/);
#   accept: every failing syscall (ret < 0) kept with its kernel stack (lbrsnap --errors,
#           bpftrace /args->ret < 0/ { @[kstack] = count(); }, perf record --filter 'ret < 0'
#           without and with -g).
# Measured: the load's CPU time (bench-run: user + system from wait4), the extra ns per event
# over the untraced load of the same repetition ((traced - untraced) / PEER_N), the load's
# wall time, and for BPF tools the
# kernel's run-time accounting of their programs (kernel.bpf_stats_enabled=1: Δrun_time_ns /
# Δrun_cnt, every program the tracer's process holds). bpftrace 0.17 has no working
# rawtracepoint probe ("Invalid probe type"), so it runs on the tracepoint
# raw_syscalls:sys_exit, the same event reached through perf's tracepoint glue.
# The load's CPU time, not its wall time, carries the comparison: every tracer here does its
# per-event work in the traced syscall's own context (charged to the load as system time),
# while the wall time of a run of a few ms also holds however long a shared, loaded machine
# left the load waiting for a CPU (a 2.5 ms run measured 2.6 to 91 ms of wall time).
#
# PEER_BEFORE=/path/to/an/older/lbrsnap adds that binary in the accept mode (a before/after
# row for a change of lbrsnap itself).

PEER_N=${PEER_N:-300000}
PEER_REPS=${PEER_REPS:-5}
PEER_BEFORE=${PEER_BEFORE:-}
PEER_RING=256M

# Targets (the issue "Benchmarks side by side"): a rejected event costs at most 1.3 times the
# empty program; an accepted event with a stack slows the load no more than perf record -g on
# the same events and costs at most 1.2 times bpftrace's.
PEER_REJECT_MAX_RATIO=1.3
PEER_ACCEPT_MAX_RATIO=1.2

PEER_BPF_REJECT='tracepoint:raw_syscalls:sys_exit /comm == "bench-nomatch"/'
PEER_BPF_REJECT+=' { @[kstack] = count(); }'
PEER_BPF_ACCEPT='tracepoint:raw_syscalls:sys_exit /args->ret < 0/ { @[kstack] = count(); }'
PEER_PERF=(-a -k mono -e raw_syscalls:sys_exit --filter 'ret < 0')
PEER_PERF_CMD="perf record -a -k mono -e raw_syscalls:sys_exit --filter 'ret < 0'"

# peer_wait_bpf PID: until one of PID's BPF programs has run (attached; the machine makes
# syscalls all the time, so an attached sys_exit program runs within milliseconds)
peer_wait_bpf() {
	local i id
	for ((i = 0; i < 400; i++)); do
		for id in $(bpf_prog_ids "$1"); do
			[ "$(bpf_prog_stats "$id" | cut -d' ' -f3)" -gt 0 ] 2>/dev/null && return 0
		done
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	echo "run-bench: the BPF programs of pid $1 never ran" >&2
	return 1
}

# peer_start MODE: start MODE's tracer; PEER_PID is its pid (empty when untraced) once it is
# attached.
peer_start() {
	PEER_PID=
	rm -f "$BENCH_TMP"/p.data* "$BENCH_TMP"/p.perf*
	case $1 in
	untraced) return 0 ;;
	empty)
		bench_bg PEER_PID bench-attach "$LBRSNAP_BUILD/tests/bench/empty.bpf.o" \
			bench_empty_exit > "$BENCH_TMP/p.out" ;;
	lbrsnap-reject)
		bench_bg PEER_PID lbrsnap record -e raw_tp:sys_exit --comm bench-nomatch \
			-o "$BENCH_TMP/p.data" 2> "$BENCH_TMP/p.err" ;;
	lbrsnap-accept)
		bench_bg PEER_PID lbrsnap record -e raw_tp:sys_exit --errors --ringbuf "$PEER_RING" \
			-o "$BENCH_TMP/p.data" 2> "$BENCH_TMP/p.err" ;;
	lbrsnap-before)
		bench_bg PEER_PID "$PEER_BEFORE" record -e raw_tp:sys_exit --errors \
			--ringbuf "$PEER_RING" -o "$BENCH_TMP/p.data" 2> "$BENCH_TMP/p.err" ;;
	bpftrace-reject)
		bench_bg PEER_PID bpftrace -e "$PEER_BPF_REJECT" > "$BENCH_TMP/p.out" 2>&1 ;;
	bpftrace-accept)
		bench_bg PEER_PID bpftrace -e "$PEER_BPF_ACCEPT" > "$BENCH_TMP/p.out" 2>&1 ;;
	perf|perf-g)
		# shellcheck disable=SC2086 # ${1#perf} is "" or "-g"
		perf_record_bg PEER_PID "$BENCH_TMP/p.perf.data" "$BENCH_TMP/p.err" \
			"${PEER_PERF[@]}" ${1#perf}
		return ;;
	esac
	peer_wait_bpf "$PEER_PID"
}

# peer_measure MODE: one tracer start, one load run, one stop; values appended to the
# PEER_WALL, PEER_CPU and PEER_PROG lists of MODE
peer_measure() {
	local mode=$1 id t0=0 c0=0 t1=0 c1=0 t c prog='' s
	peer_start "$mode" || return 1
	for id in $(bpf_prog_ids "${PEER_PID:-none}"); do bpf_prog_stats "$id"; done > "$BENCH_TMP/s0"
	bench-run -o "$BENCH_TMP/w.run" -- syscall-load --comm bench-peer --fail "$PEER_N" \
		> /dev/null || return 1
	for id in $(bpf_prog_ids "${PEER_PID:-none}"); do bpf_prog_stats "$id"; done > "$BENCH_TMP/s1"
	[ -z "$PEER_PID" ] || bench_stop "$PEER_PID"
	while read -r _ t c; do t0=$((t0 + t)); c0=$((c0 + c)); done < "$BENCH_TMP/s0"
	while read -r _ t c; do t1=$((t1 + t)); c1=$((c1 + c)); done < "$BENCH_TMP/s1"
	[ $((c1 - c0)) -gt 0 ] && prog=$(( (t1 - t0) / (c1 - c0) ))
	PEER_WALL[$mode]+=" $(( $(run_field "$BENCH_TMP/w.run" wall_ns) / 1000 ))"
	PEER_CPU[$mode]+=" $(( $(run_field "$BENCH_TMP/w.run" cpu_ns) / 1000 ))"
	PEER_PROG[$mode]+=${prog:+ $prog}
	case $mode in lbrsnap-*)
		read -r -a s <<<"$(recorder_summary "$BENCH_TMP/p.err")"
		[ "${s[3]:-1}" = 0 ] || PEER_LOST+=("$mode: ${s[3]:-?} lost") ;;
	esac
	return 0
}

# peer_extra MODE: per repetition, (MODE's load CPU time - the untraced one) / PEER_N, in ns
peer_extra() {
	paste -d' ' <(tr ' ' '\n' <<<"${PEER_CPU[$1]# }") \
		<(tr ' ' '\n' <<<"${PEER_CPU[untraced]# }") |
		awk -v n="$PEER_N" '{ printf "%.0f\n", ($1 - $2) * 1000 / n }'
}

bench_peers() {
	local r m ratio why
	local -a modes=(untraced empty lbrsnap-reject bpftrace-reject lbrsnap-accept
			bpftrace-accept perf perf-g)
	declare -gA PEER_WALL=() PEER_CPU=() PEER_PROG=() PEER_EXTRA=()
	declare -A label=(
		[untraced]="untraced"
		[empty]="empty BPF program (raw_tp, empty.bpf.o)"
		[lbrsnap-reject]="lbrsnap, --comm rejecting all"
		[bpftrace-reject]="bpftrace, /comm/ rejecting all"
		[lbrsnap-accept]="lbrsnap --errors (kernel stack)"
		[bpftrace-accept]="bpftrace /ret < 0/ @[kstack]"
		[perf]="perf record --filter 'ret < 0'"
		[perf-g]="perf record -g --filter 'ret < 0'"
		[lbrsnap-before]="lbrsnap --errors, older binary (PEER_BEFORE)")
	PEER_LOST=()
	[ -z "$PEER_BEFORE" ] || modes+=(lbrsnap-before)

	bench_section "peers: one event at raw_syscalls:sys_exit, system-wide, against bpftrace," \
		"perf record and an empty program ($PEER_REPS runs of $PEER_N failing close())"
	command -v bpftrace > /dev/null || { echo "run-bench: no bpftrace" >&2; return 1; }
	bench_cmd "syscall-load --comm bench-peer --fail $PEER_N (under bench-run: wall time)"
	bench_cmd "bench-attach build/tests/bench/empty.bpf.o bench_empty_exit"
	bench_cmd "lbrsnap record -e raw_tp:sys_exit --comm bench-nomatch"
	bench_cmd "bpftrace -e '$PEER_BPF_REJECT'"
	bench_cmd "lbrsnap record -e raw_tp:sys_exit --errors --ringbuf $PEER_RING"
	bench_cmd "bpftrace -e '$PEER_BPF_ACCEPT'"
	bench_cmd "$PEER_PERF_CMD [-g]"
	bpf_stats_on || return 1

	for ((r = 0; r < PEER_REPS; r++)); do
		for m in "${modes[@]}"; do
			peer_measure "$m" || return 1
		done
	done
	bpf_stats_restore

	for m in "${modes[@]}"; do
		# shellcheck disable=SC2086 # lists of numbers
		bench_row "${label[$m]}: load CPU time" us ${PEER_CPU[$m]}
		# shellcheck disable=SC2086
		bench_row "  load wall time" us ${PEER_WALL[$m]}
		[ "$m" = untraced ] && continue
		bench_info "  load CPU time / untraced (medians)" \
			"x$(bench_ratio "${PEER_CPU[$m]}" "${PEER_CPU[untraced]}")"
		PEER_EXTRA[$m]=$(peer_extra "$m" | tr '\n' ' ')
		# shellcheck disable=SC2086
		bench_row "  extra per event over untraced" ns ${PEER_EXTRA[$m]}
		# shellcheck disable=SC2086
		[ -z "${PEER_PROG[$m]}" ] || bench_row "  BPF program run time per invocation" ns \
			${PEER_PROG[$m]}
	done
	for r in "${PEER_LOST[@]}"; do
		bench_out "  NOTE: $r (a lost record skips the stack walk: cost undercounted)"
	done

	ratio=$(bench_ratio "${PEER_PROG[lbrsnap-reject]}" "${PEER_PROG[empty]}")
	bench_info "reject: lbrsnap / empty program, program run time" "x$ratio"
	bench_info "reject: lbrsnap / empty program, extra per event" \
		"x$(bench_ratio "${PEER_EXTRA[lbrsnap-reject]}" "${PEER_EXTRA[empty]}")"
	bench_info "reject: lbrsnap / bpftrace, program run time" \
		"x$(bench_ratio "${PEER_PROG[lbrsnap-reject]}" "${PEER_PROG[bpftrace-reject]}")"
	bench_info "reject: lbrsnap / bpftrace, extra per event" \
		"x$(bench_ratio "${PEER_EXTRA[lbrsnap-reject]}" "${PEER_EXTRA[bpftrace-reject]}")"
	why="before the filter the program takes its snapshot (snapshot-first: the branch"
	why+=" record must be read before any other code runs), then counts the hit and reads"
	why+=" the pid and comm; the empty program does none of it"
	bench_target "peers: rejected event, program run time / empty program's" "$ratio" "<=" \
		"$PEER_REJECT_MAX_RATIO" x "$why"

	bench_info "accept: lbrsnap / bpftrace, program run time" \
		"x$(bench_ratio "${PEER_PROG[lbrsnap-accept]}" "${PEER_PROG[bpftrace-accept]}")"
	bench_info "accept: lbrsnap / perf record, load CPU time" \
		"x$(bench_ratio "${PEER_CPU[lbrsnap-accept]}" "${PEER_CPU[perf]}")"
	ratio=$(bench_ratio "${PEER_EXTRA[lbrsnap-accept]}" "${PEER_EXTRA[bpftrace-accept]}")
	bench_info "accept: lbrsnap / bpftrace, extra per event" "x$ratio"
	if [ -n "$PEER_BEFORE" ]; then
		bench_info "accept: older binary / this one, load CPU time" \
			"x$(bench_ratio "${PEER_CPU[lbrsnap-before]}" "${PEER_CPU[lbrsnap-accept]}")"
		bench_info "accept: older binary / this one, load wall time" \
			"x$(bench_ratio "${PEER_WALL[lbrsnap-before]}" "${PEER_WALL[lbrsnap-accept]}")"
	fi
	bench_target "peers: accepted event with a stack, load CPU time / perf record -g's" \
		"$(bench_ratio "${PEER_CPU[lbrsnap-accept]}" "${PEER_CPU[perf-g]}")" "<=" 1 x \
		"see the program run time: a record reserves the largest size and walks the stack"
	why="lbrsnap's program costs x$(bench_ratio "${PEER_PROG[lbrsnap-accept]}" \
		"${PEER_PROG[bpftrace-accept]}") bpftrace's (kernel accounting): it writes every"
	why+=" record with its stack to the ring buffer, bpftrace adds 1 to a count per distinct"
	why+=" stack"
	bench_target "peers: accepted event with a stack, extra per event / bpftrace's" \
		"$ratio" "<=" "$PEER_ACCEPT_MAX_RATIO" x "$why"
}
