# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "throughput": records delivered and lost under a saturating load, lbrsnap record
# next to perf record on the same events, in the same run.
#
# The load is syscall-load with one thread per CPU, TP_N failing close() calls each. Both
# recorders watch raw_syscalls:sys_exit system-wide and keep every failing syscall with a
# kernel stack: `lbrsnap record -e raw_tp:sys_exit --errors` and
# `perf record -g -e raw_syscalls:sys_exit --filter 'ret < 0'`. lbrsnap runs with its
# default ring buffer and with a ring the size of perf's buffers (perf -m TP_PERF_MMAP per CPU
# times the CPUs, rounded down to a power of two). Each repetition runs untraced, lbrsnap
# (both rings) and perf once, in that order, so tool and peer share the machine's load.
# records/s = records written / the load's wall time. Lost: lbrsnap's own count (ring buffer
# full); perf's LOST_SAMPLES (perf report --stats). Every lbrsnap run must account for every
# hit (hits = recorded + filtered + lost).

TP_N=${TP_N:-100000}
TP_THREADS=${TP_THREADS:-$(nproc)}
TP_REPS=${TP_REPS:-9}
TP_PERF_MMAP=512K

# tp_ring: perf's buffer bytes in all (TP_PERF_MMAP per CPU), rounded down to a power of two
tp_ring() {
	local per=$((${TP_PERF_MMAP%K} * 1024)) total p=1
	total=$((per * $(nproc)))
	while ((p * 2 <= total)); do p=$((p * 2)); done
	echo "$((p / 1024))K"
}

# tp_measure MODE: one recorder start, one load run, one stop; appends to TP_RATE, TP_LOST,
# TP_LOSTP and TP_WALL of MODE
tp_measure() {
	local mode=$1 pid='' n lost s
	rm -f "$BENCH_TMP"/tp.*
	case $mode in
	lbrsnap*)
		bench_bg pid lbrsnap record -e raw_tp:sys_exit --errors \
			${TP_ARGS[$mode]:+--ringbuf "${TP_ARGS[$mode]}"} -o "$BENCH_TMP/tp.data" 2> "$BENCH_TMP/tp.err"
		wait_for_tmp "$BENCH_TMP/tp.data" || return 1 ;;
	perf)
		perf_record_bg pid "$BENCH_TMP/tp.perf" "$BENCH_TMP/tp.err" -a -k mono -g \
			-m "$TP_PERF_MMAP" -e raw_syscalls:sys_exit --filter 'ret < 0' || return 1 ;;
	esac
	bench-run -o "$BENCH_TMP/w.run" -- syscall-load --comm bench-tp --fail "$TP_N" \
		--threads "$TP_THREADS" > /dev/null || return 1
	[ -z "$pid" ] || bench_stop "$pid"
	case $mode in
	lbrsnap*)
		read -r -a s <<<"$(recorder_summary "$BENCH_TMP/tp.err")"
		[ ${#s[@]} = 4 ] || { cat "$BENCH_TMP/tp.err" >&2; return 1; }
		n=${s[1]} lost=${s[3]}
		[ "${s[0]}" = $((s[1] + s[2] + s[3])) ] ||
			TP_UNACCOUNTED+=("$mode: ${s[0]} hits, ${s[1]} recorded + ${s[2]} filtered + ${s[3]} lost") ;;
	perf) read -r n lost <<<"$(perf_record_counts "$BENCH_TMP/tp.perf")" ;;
	*) n=0 lost=0 ;;
	esac
	TP_WALL[$mode]+=" $(( $(run_field "$BENCH_TMP/w.run" wall_ns) / 1000000 ))"
	TP_RATE[$mode]+=" $(awk -v n="$n" -v w="$(run_field "$BENCH_TMP/w.run" wall_ns)" \
		'BEGIN { printf "%.0f", n * 1e9 / w }')"
	TP_LOST[$mode]+=" $lost"
	TP_LOSTP[$mode]+=" $(awk -v l="$lost" -v n="$n" \
		'BEGIN { printf "%.1f", l + n ? 100 * l / (l + n) : 0 }')"
	rm -f "$BENCH_TMP"/tp.*
}

# tp_median_p "V...": the median of percentages with one decimal (bench_median rounds)
tp_median_p() {
	# shellcheck disable=SC2086 # a list of numbers
	printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'
}

bench_throughput() {
	local r m ring rate_p lost_p why_rate why_lost
	declare -gA TP_RATE=() TP_LOST=() TP_LOSTP=() TP_WALL=() TP_ARGS=()
	declare -A label
	TP_UNACCOUNTED=()
	ring=$(tp_ring)
	TP_ARGS=([lbrsnap]="" [lbrsnap-ring]="$ring")
	label=([untraced]="untraced" [lbrsnap]="lbrsnap record, default ring buffer (8 MiB)"
	       [lbrsnap-ring]="lbrsnap record --ringbuf $ring (perf's size)"
	       [perf]="perf record -g -m $TP_PERF_MMAP (x $(nproc) CPUs)")

	bench_section "throughput: records delivered and lost, lbrsnap against perf record," \
		"syscall-load $TP_THREADS threads x $TP_N failing close(), $TP_REPS runs"
	bench_cmd "syscall-load --comm bench-tp --fail $TP_N --threads $TP_THREADS"
	bench_cmd "lbrsnap record -e raw_tp:sys_exit --errors [--ringbuf $ring]"
	bench_cmd "perf record -a -k mono -g -m $TP_PERF_MMAP -e raw_syscalls:sys_exit --filter 'ret < 0'"
	for ((r = 0; r < TP_REPS; r++)); do
		for m in untraced lbrsnap lbrsnap-ring perf; do
			tp_measure "$m" || return 1
		done
	done
	for m in untraced lbrsnap lbrsnap-ring perf; do
		# shellcheck disable=SC2086 # lists of numbers
		bench_row "${label[$m]}: load wall time" ms ${TP_WALL[$m]}
		[ $m = untraced ] && continue
		# shellcheck disable=SC2086
		bench_row "  records/s written" rec/s ${TP_RATE[$m]}
		# shellcheck disable=SC2086
		bench_row "  records lost (ring buffer full)" "" ${TP_LOST[$m]}
		# shellcheck disable=SC2086
		bench_row "  records lost, % of events" % ${TP_LOSTP[$m]}
	done
	# shellcheck disable=SC2086
	rate_p=$(bench_median ${TP_RATE[perf]})
	# shellcheck disable=SC2086
	lost_p=$(tp_median_p "${TP_LOSTP[perf]}")
	for m in lbrsnap lbrsnap-ring; do
		# shellcheck disable=SC2086
		bench_info "${label[$m]} / perf: records/s (medians)" \
			"x$(awk -v a="$(bench_median ${TP_RATE[$m]})" -v b="$rate_p" \
				'BEGIN { printf "%.2f", b ? a / b : 0 }')"
	done
	why_lost="every record reserves the largest size, 1360 bytes (32 branches and 64"
	why_lost+=" stack entries), whatever it fills: a ring holds about 10 times fewer records"
	why_lost+=" than perf's buffer of the same size (about 140 bytes per sample with a stack)"
	# shellcheck disable=SC2086 # lists of numbers
	for m in lbrsnap lbrsnap-ring; do
		why_rate="the load ran $(bench_median ${TP_WALL[$m]}) ms against"
		why_rate+=" $(bench_median ${TP_WALL[perf]}) ms under perf, and"
		why_rate+=" $(tp_median_p "${TP_LOSTP[$m]}") % of its events were lost against"
		why_rate+=" $(tp_median_p "${TP_LOSTP[perf]}") %"
		# shellcheck disable=SC2086
		bench_target "throughput: ${label[$m]}: records/s, against perf's" \
			"$(bench_median ${TP_RATE[$m]})" ">=" "$rate_p" rec/s \
			"$why_rate"
		# shellcheck disable=SC2086
		bench_target "throughput: ${label[$m]}: % lost, against perf's" \
			"$(tp_median_p "${TP_LOSTP[$m]}")" "<=" "$lost_p" % \
			"$why_lost"
	done
	bench_target "throughput: lbrsnap runs where hits != recorded + filtered + lost" \
		"${#TP_UNACCOUNTED[@]}" "==" 0 runs
	for r in "${TP_UNACCOUNTED[@]}"; do
		bench_out "  unaccounted: $r"
	done
}
