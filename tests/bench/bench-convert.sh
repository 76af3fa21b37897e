# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "convert": readers and writers of a capture of CONV_N records.
#
# The capture comes from lbrsnap record around syscall-load (CONV_N failing close() calls,
# kernel stacks, a ring buffer large enough to lose nothing). Each command runs CONV_REPS
# times; records/s is CONV_N divided by its wall time, which includes reading the capture's
# kallsyms copy and symbolizing every frame. All output goes to files (the reports' stdout
# too), so terminal speed is not measured. perf.data and trace.dat writers are timed
# when this tree has them (lbrsnap perf, trace-cmd-lbr convert).

CONV_N=${CONV_N:-100000}
CONV_REPS=${CONV_REPS:-3}

# Targets. Medians measured with 100k records on the development VM: report 120-180k
# records/s, report --json 45-75k, lbrsnap perf 160-420k and trace-cmd-lbr convert 290-750k
# (both writers were still being written at the time), all at 31-36 MiB max RSS. A quarter
# of the lowest median leaves room for a loaded machine and fails on a per-record cost
# several times the present one (symbolizing without a cache, a syscall per record).
# 128 MiB RSS fails a reader that keeps every decoded record in memory.
CONV_MIN_REPORT=30000
CONV_MIN_JSON=12000
CONV_MIN_PERF=40000
CONV_MIN_TRACE=70000
CONV_MAX_RSS_MIB=128

# conv_time LABEL MIN_RATE OUT CMD...: CONV_REPS timed runs of CMD, writing OUT (or stdout)
conv_time() {
	local label=$1 min=$2 out=$3 r st
	local -a rate=() rss=() size=()
	shift 3
	for ((r = 0; r < CONV_REPS; r++)); do
		rm -f "$BENCH_TMP/conv.out"*
		bench-run -o "$BENCH_TMP/c.run" -- "$@" > "$BENCH_TMP/conv.stdout" \
			2> "$BENCH_TMP/conv.err"
		st=$(run_field "$BENCH_TMP/c.run" status)
		if [ "$st" != 0 ] || [ ! -s "$out" ]; then
			bench_fail "convert: $label" "exit status $st: $(tail -1 "$BENCH_TMP/conv.err")"
			return 0
		fi
		rate+=("$(awk -v n="$CONV_N" -v w="$(run_field "$BENCH_TMP/c.run" wall_ns)" \
			'BEGIN { printf "%.0f", n * 1e9 / w }')")
		rss+=("$(( $(run_field "$BENCH_TMP/c.run" maxrss_kb) / 1024 ))")
		size+=("$(( $(stat -c %s "$out") / 1048576 ))")
	done
	bench_row "$label" rec/s "${rate[@]}"
	bench_row "  max RSS" MiB "${rss[@]}"
	bench_row "  output size" MiB "${size[@]}"
	bench_target "convert: $label" "$(bench_median "${rate[@]}")" ">=" "$min" rec/s
	bench_target "convert: $label, max RSS" "$(bench_median "${rss[@]}")" "<" \
		"$CONV_MAX_RSS_MIB" MiB
}

bench_convert() {
	local cap=$BENCH_TMP/cap.data s

	bench_section "convert: a capture of $CONV_N records (kernel stacks), $CONV_REPS runs each"
	lbrsnap record -e raw_tp:sys_exit --comm bench-conv --errors --ringbuf 128M -o "$cap" -- \
		syscall-load --comm bench-conv --fail "$CONV_N" > /dev/null 2> "$BENCH_TMP/cap.err" ||
		{ cat "$BENCH_TMP/cap.err" >&2; return 1; }
	read -r -a s <<<"$(recorder_summary "$BENCH_TMP/cap.err")"
	bench_info "capture: $((CONV_N)) failing syscalls" \
		"${s[1]:-?} records, ${s[3]:-?} lost, $(( $(stat -c %s "$cap") / 1048576 )) MiB"
	[ "${s[1]:-0}" = "$CONV_N" ] || bench_out "  NOTE: the rates below assume $CONV_N records"

	# stdout is the output here: conv_time's own redirection points it at the file it checks
	conv_time "lbrsnap report" "$CONV_MIN_REPORT" "$BENCH_TMP/conv.stdout" \
		lbrsnap report -i "$cap"
	conv_time "lbrsnap report --json" "$CONV_MIN_JSON" "$BENCH_TMP/conv.stdout" \
		lbrsnap report --json -i "$cap"
	if lbrsnap --help 2>&1 | grep -q '^  perf '; then
		conv_time "lbrsnap perf (perf.data)" "$CONV_MIN_PERF" "$BENCH_TMP/conv.out" \
			lbrsnap perf -i "$cap" -o "$BENCH_TMP/conv.out"
	else
		bench_out "skip - lbrsnap perf: this tree has no perf.data writer yet"
	fi
	if [ -x "$LBRSNAP_BUILD/trace-cmd-lbr" ] &&
	   trace-cmd-lbr --help 2>&1 | grep -q '^  convert '; then
		conv_time "trace-cmd-lbr convert (trace.dat)" "$CONV_MIN_TRACE" "$BENCH_TMP/conv.out" \
			trace-cmd-lbr convert -q -i "$cap" -o "$BENCH_TMP/conv.out"
	else
		bench_out "skip - trace-cmd-lbr convert: this tree has no trace.dat writer yet"
	fi
	rm -f "$cap" "$BENCH_TMP"/conv.*
}
