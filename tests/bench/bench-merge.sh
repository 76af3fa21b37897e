# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "merge": lbrsnap inject and trace-cmd-lbr merge of a capture into a large perf.data
# and trace.dat, next to copying the same file and to perf's and trace-cmd's own rewriters.
#
# Inputs, made once: a perf.data from `perf record -a -g -k mono -e raw_syscalls:sys_exit`
# around MERGE_LOAD failing close() calls in two threads (about 100 MB with 200,000), a
# trace.dat around twice that load (trace-cmd start -C mono -b 60000 -e raw_syscalls, then
# trace-cmd extract --compression none; about 90 MB), and two captures of MERGE_N and
# MERGE_N / 10 records (lbrsnap record --errors around syscall-load --fail N). Each
# repetition then runs, in turn: cp, dd conv=fsync (a copy that is on disk when it ends:
# inject and merge write through a temporary file, fsync and rename), cat of the two inputs
# (the recording and the capture of MERGE_N records) into one file, the same cat followed
# by `sync OUT` (its fsync), lbrsnap inject with each capture and perf inject -i X -o Y on
# the perf.data; cp, dd, the two cats, trace-cmd-lbr merge with each capture and trace-cmd
# convert on the trace.dat. Then, given beside them and not judged, the same merges of a
# recording and a capture taken together (merge_together): the capture's records fall
# between the recording's, as they do where the tools are used.
# Reported: wall time, CPU time (user + system) and peak RSS (bench-run, wait4). The
# targets judge wall time; CPU time is given beside it because on a loaded machine a run
# waits for a CPU longer than it works.

# shellcheck source=tests/host/t-trace-lib.sh # tracefs_save, tracefs_restore
. "$LBRSNAP_TOP/tests/host/t-trace-lib.sh"

MERGE_N=${MERGE_N:-100000}
MERGE_LOAD=${MERGE_LOAD:-200000}
MERGE_REPS=${MERGE_REPS:-5}

# Targets (issue 23, "Speed"): a merge takes at most twice `cat` of its two inputs, less
# than perf inject, and trace-cmd-lbr merge at most 1.5 times trace-cmd convert; each record
# merged costs at most 1 us (the slope between the two captures); its peak RSS does not
# grow with the records merged (MERGE_N against MERGE_N / 10: at most 1.1 times).
MERGE_MAX_CAT_RATIO=2
MERGE_MAX_PEER_RATIO=1.5
MERGE_MAX_US=1
MERGE_MAX_RSS_RATIO=1.1

# merge_inputs: the perf.data, the trace.dat and the two captures, in $BENCH_TMP/m
merge_inputs() {
	local d=$BENCH_TMP/m pid n bs
	mkdir -p "$d"
	perf_record_bg pid "$d/in.perf" "$d/perf.err" -a -g -k mono -m 4M \
		-e raw_syscalls:sys_exit || return 1
	syscall-load --comm bench-mload --fail "$MERGE_LOAD" --threads 2 > /dev/null
	bench_stop "$pid"
	for n in "$MERGE_N" $((MERGE_N / 10)); do
		lbrsnap record -e raw_tp:sys_exit --comm bench-merge --errors --ringbuf 256M \
			-o "$d/cap$n.data" -- syscall-load --comm bench-merge --fail "$n" \
			> /dev/null 2> "$d/cap.err" || { cat "$d/cap.err" >&2; return 1; }
		grep -q "($n records)" "$d/cap.err" ||
			{ echo "run-bench: capture of $n records: $(tail -1 "$d/cap.err")" >&2; return 1; }
	done
	[ -e "$tracefs/trace_clock" ] || mount -t tracefs nodev "$tracefs" || return 1
	# trace-cmd start and extract, not record: on this host only `record -d --no-filter`
	# works and it stops before draining the kernel buffers (platform.md section 6). The
	# top-level buffer, because the file's clock is the top level's; everything put back.
	tracefs_save
	# "7 (expanded: 1408)": never used since boot, and 1408 on first use. That state cannot
	# be put back, and writing 7 would starve every later trace: put back what use gives.
	bs=$(sed 's/.*(expanded: \([0-9]*\))/\1/; s/ .*//' "$tracefs/buffer_size_kb")
	trace-cmd start -d --no-filter -C mono -b 60000 -e raw_syscalls > "$d/tc.log" 2>&1
	syscall-load --comm bench-mload --fail $((MERGE_LOAD * 2)) --threads 2 > /dev/null
	trace-cmd stop >> "$d/tc.log" 2>&1
	trace-cmd extract --compression none -o "$d/in.dat" >> "$d/tc.log" 2>&1
	echo "$bs" > "$tracefs/buffer_size_kb"
	tracefs_restore
	trace-cmd report "$d/in.dat" > /dev/null 2>&1 || { tail -3 "$d/tc.log" >&2; return 1; }
}

# merge_together: a recording and a capture taken at the same time, as the tools are used:
# perf record -a and trace-cmd (as merge_inputs does) around lbrsnap record of MERGE_N
# failing close() among MERGE_LOAD of another process; the capture's records fall between
# the recording's, so most pages hold one and go event by event (tog.perf, tog.dat, tog.data)
merge_together() {
	local d=$BENCH_TMP/m pid bs
	perf_record_bg pid "$d/tog.perf" "$d/perf.err" -a -g -k mono -m 4M \
		-e raw_syscalls:sys_exit || return 1
	tracefs_save
	bs=$(sed 's/.*(expanded: \([0-9]*\))/\1/; s/ .*//' "$tracefs/buffer_size_kb")
	trace-cmd start -d --no-filter -C mono -b 60000 -e raw_syscalls > "$d/tc.log" 2>&1
	lbrsnap record -e raw_tp:sys_exit --comm bench-merge --errors --ringbuf 256M \
		-o "$d/tog.data" -- sh -c "syscall-load --comm bench-mload --fail $MERGE_LOAD \
		--threads 2 > /dev/null & syscall-load --comm bench-merge --fail $MERGE_N \
		> /dev/null; wait" > /dev/null 2> "$d/cap.err"
	trace-cmd stop >> "$d/tc.log" 2>&1
	trace-cmd extract --compression none -o "$d/tog.dat" >> "$d/tc.log" 2>&1
	echo "$bs" > "$tracefs/buffer_size_kb"
	tracefs_restore
	bench_stop "$pid"
	grep -q "($MERGE_N records)" "$d/cap.err" ||
		{ echo "run-bench: capture of $MERGE_N records: $(tail -1 "$d/cap.err")" >&2; return 1; }
}

# merge_time KEY CMD...: one run of CMD; wall time (ms) and peak RSS (MiB) appended to
# MERGE_WALL[KEY] and MERGE_RSS[KEY]; the output ($BENCH_TMP/m/out*) is removed after
merge_time() {
	local key=$1 st
	shift
	bench-run -o "$BENCH_TMP/m/run" -- "$@" > /dev/null 2> "$BENCH_TMP/m/err"
	st=$(run_field "$BENCH_TMP/m/run" status)
	if [ "$st" != 0 ]; then
		echo "run-bench: $*: exit status $st: $(tail -1 "$BENCH_TMP/m/err")" >&2
		return 1
	fi
	MERGE_WALL[$key]+=" $(( $(run_field "$BENCH_TMP/m/run" wall_ns) / 1000000 ))"
	MERGE_CPU[$key]+=" $(( $(run_field "$BENCH_TMP/m/run" cpu_ns) / 1000000 ))"
	MERGE_RSS[$key]+=" $(( $(run_field "$BENCH_TMP/m/run" maxrss_kb) / 1024 ))"
	rm -f "$BENCH_TMP"/m/out*
}

bench_merge() {
	local d=$BENCH_TMP/m r k n10=$((MERGE_N / 10)) f per_us fixed_ms per_b why peer_max
	declare -gA MERGE_WALL=() MERGE_RSS=() MERGE_CPU=()
	declare -A label

	bench_section "merge: lbrsnap inject and trace-cmd-lbr merge against cp, perf inject and" \
		"trace-cmd convert ($MERGE_REPS runs)"
	merge_inputs || return 1
	merge_together || return 1
	for f in in.perf in.dat; do
		bench_info "input $f" "$(( $(stat -c %s "$d/$f") / 1048576 )) MiB"
	done
	bench_info "captures" "$MERGE_N and $n10 records, $(( $(stat -c %s \
		"$d/cap$MERGE_N.data") / 1048576 )) and $(( $(stat -c %s "$d/cap$n10.data") / 1048576 )) MiB"
	bench_cmd "perf record -a -g -k mono -m 4M -e raw_syscalls:sys_exit" \
		"(around syscall-load --fail $MERGE_LOAD --threads 2)"
	bench_cmd "trace-cmd start -d --no-filter -C mono -b 60000 -e raw_syscalls;" \
		"syscall-load --fail $((MERGE_LOAD * 2)) --threads 2; trace-cmd stop;" \
		"trace-cmd extract --compression none"
	bench_cmd "lbrsnap record -e raw_tp:sys_exit --comm bench-merge --errors --ringbuf 256M" \
		"-- syscall-load --comm bench-merge --fail N"
	bench_cmd "cp IN OUT; dd if=IN of=OUT bs=1M conv=fsync; cat IN cap.data > OUT;" \
		"cat IN cap.data > OUT && sync OUT"
	bench_cmd "lbrsnap inject --force -i in.perf --capture cap.data -o out.perf;" \
		"perf inject -i in.perf -o out.perf"
	bench_cmd "trace-cmd-lbr merge -q --force -i in.dat --capture cap.data -o out.dat;" \
		"trace-cmd convert -i in.dat -o out.dat"
	label=([cp.perf]="perf.data: cp" [dd.perf]="perf.data: dd conv=fsync"
	       [cat.perf]="perf.data: cat of in.perf and the capture"
	       [cat.dat]="trace.dat: cat of in.dat and the capture"
	       [catsync.perf]="perf.data: cat of in.perf and the capture, then sync of the output"
	       [catsync.dat]="trace.dat: cat of in.dat and the capture, then sync of the output"
	       [inj.perf]="perf.data: lbrsnap inject, $MERGE_N records"
	       [inj10.perf]="perf.data: lbrsnap inject, $n10 records"
	       [peer.perf]="perf.data: perf inject"
	       [cp.dat]="trace.dat: cp" [dd.dat]="trace.dat: dd conv=fsync"
	       [inj.dat]="trace.dat: trace-cmd-lbr merge, $MERGE_N records"
	       [inj10.dat]="trace.dat: trace-cmd-lbr merge, $n10 records"
	       [peer.dat]="trace.dat: trace-cmd convert"
	       [tog.perf]="perf.data: lbrsnap inject, recorded together"
	       [togcat.perf]="perf.data: cat of the inputs recorded together"
	       [tog.dat]="trace.dat: trace-cmd-lbr merge, recorded together"
	       [togcat.dat]="trace.dat: cat of the inputs recorded together")
	# --force: the captures are taken after the perf.data and before the trace.dat is
	# recorded, so their times do not overlap (a merge refuses that otherwise); what is
	# measured is the merge's work, the same
	for ((r = 0; r < MERGE_REPS; r++)); do
		for f in perf dat; do
			merge_time cp.$f cp "$d/in.$f" "$d/out.$f" || return 1
			merge_time dd.$f dd if="$d/in.$f" of="$d/out.$f" bs=1M conv=fsync || return 1
			merge_time cat.$f sh -c 'cat "$1" "$2" > "$3"' cat "$d/in.$f" \
				"$d/cap$MERGE_N.data" "$d/out.$f" || return 1
			merge_time catsync.$f sh -c 'cat "$1" "$2" > "$3" && sync "$3"' cat \
				"$d/in.$f" "$d/cap$MERGE_N.data" "$d/out.$f" || return 1
		done
		merge_time inj.perf lbrsnap inject --force -i "$d/in.perf" --capture "$d/cap$MERGE_N.data" \
			-o "$d/out.perf" || return 1
		merge_time inj10.perf lbrsnap inject --force -i "$d/in.perf" --capture "$d/cap$n10.data" \
			-o "$d/out.perf" || return 1
		merge_time peer.perf perf inject -i "$d/in.perf" -o "$d/out.perf" || return 1
		merge_time inj.dat trace-cmd-lbr merge -q --force -i "$d/in.dat" \
			--capture "$d/cap$MERGE_N.data" -o "$d/out.dat" || return 1
		merge_time inj10.dat trace-cmd-lbr merge -q --force -i "$d/in.dat" \
			--capture "$d/cap$n10.data" -o "$d/out.dat" || return 1
		merge_time peer.dat trace-cmd convert -i "$d/in.dat" -o "$d/out.dat" || return 1
		# recorded together: no --force, the origin check passes
		merge_time tog.perf lbrsnap inject -i "$d/tog.perf" --capture "$d/tog.data" \
			-o "$d/out.perf" || return 1
		merge_time togcat.perf sh -c 'cat "$1" "$2" > "$3"' cat "$d/tog.perf" \
			"$d/tog.data" "$d/out.perf" || return 1
		merge_time tog.dat trace-cmd-lbr merge -q -i "$d/tog.dat" --capture "$d/tog.data" \
			-o "$d/out.dat" || return 1
		merge_time togcat.dat sh -c 'cat "$1" "$2" > "$3"' cat "$d/tog.dat" \
			"$d/tog.data" "$d/out.dat" || return 1
	done
	for k in cp.perf dd.perf cat.perf catsync.perf inj.perf inj10.perf peer.perf cp.dat dd.dat \
		cat.dat catsync.dat inj.dat inj10.dat peer.dat tog.perf togcat.perf tog.dat togcat.dat; do
		# shellcheck disable=SC2086 # lists of numbers
		bench_row "${label[$k]}: wall time" ms ${MERGE_WALL[$k]}
		# shellcheck disable=SC2086
		bench_row "  CPU time (user + system)" ms ${MERGE_CPU[$k]}
		# shellcheck disable=SC2086
		bench_row "  peak RSS" MiB ${MERGE_RSS[$k]}
	done
	# shellcheck disable=SC2086 # lists of numbers
	for f in perf dat; do
		bench_info "${label[inj.$f]} / dd conv=fsync, wall time" \
			"x$(bench_ratio "${MERGE_WALL[inj.$f]}" "${MERGE_WALL[dd.$f]}")"
		bench_info "${label[inj.$f]} / cp, wall time" \
			"x$(bench_ratio "${MERGE_WALL[inj.$f]}" "${MERGE_WALL[cp.$f]}")"
		bench_info "${label[inj.$f]} / cat of its inputs, CPU time" \
			"x$(bench_ratio "${MERGE_CPU[inj.$f]}" "${MERGE_CPU[cat.$f]}")"
		# the merges end with fsync (an output on disk before the rename): the same copy
		# made durable is the peer of what they pay for their bytes; given, not judged
		bench_info "${label[inj.$f]} / cat of its inputs then sync, wall time" \
			"x$(bench_ratio "${MERGE_WALL[inj.$f]}" "${MERGE_WALL[catsync.$f]}")"
		bench_info "${label[inj.$f]} / ${label[peer.$f]#*: }, CPU time" \
			"x$(bench_ratio "${MERGE_CPU[inj.$f]}" "${MERGE_CPU[peer.$f]}")"
		# given, not judged: the targets are the section's inputs'
		bench_info "${label[tog.$f]} / cat of its inputs, wall time" \
			"x$(bench_ratio "${MERGE_WALL[tog.$f]}" "${MERGE_WALL[togcat.$f]}")"
		# what grows with the records: the slope between the two capture sizes
		read -r per_us fixed_ms per_b <<<"$(awk -v t1="$(bench_median ${MERGE_WALL[inj.$f]})" \
			-v t0="$(bench_median ${MERGE_WALL[inj10.$f]})" \
			-v r1="$(bench_median ${MERGE_RSS[inj.$f]})" \
			-v r0="$(bench_median ${MERGE_RSS[inj10.$f]})" -v n="$MERGE_N" 'BEGIN {
				d = n - n / 10; us = (t1 - t0) * 1000 / d
				printf "%.1f %.0f %.0f\n", us, t1 - us * n / 1000, (r1 - r0) * 1048576 / d }')"
		bench_info "  per record merged (slope between $n10 and $MERGE_N records)" \
			"$per_us us, $per_b bytes of peak RSS; fixed part $fixed_ms ms"
		bench_info "  per record merged, CPU time (same slope)" "$(awk -v n="$MERGE_N" \
			-v t1="$(bench_median ${MERGE_CPU[inj.$f]})" \
			-v t0="$(bench_median ${MERGE_CPU[inj10.$f]})" \
			'BEGIN { printf "%.1f us", (t1 - t0) * 1000 / (n - n / 10) }')"
		why="the merge costs $per_us us per record merged on top of $fixed_ms ms"
		bench_target "merge: ${label[inj.$f]} / cat of its inputs, wall time" \
			"$(bench_ratio "${MERGE_WALL[inj.$f]}" "${MERGE_WALL[cat.$f]}")" "<=" \
			"$MERGE_MAX_CAT_RATIO" x \
			"$why (cat: $(bench_median ${MERGE_WALL[cat.$f]}) ms)"
		# perf inject: the merge is faster; trace-cmd convert: at most 1.5 times
		peer_max=1
		[ $f = perf ] || peer_max=$MERGE_MAX_PEER_RATIO
		bench_target "merge: ${label[inj.$f]} / ${label[peer.$f]#*: }, wall time" \
			"$(bench_ratio "${MERGE_WALL[inj.$f]}" "${MERGE_WALL[peer.$f]}")" \
			"$( [ $f = perf ] && echo "<" || echo "<=")" "$peer_max" x \
			"$why (${label[peer.$f]#*: }: $(bench_median ${MERGE_WALL[peer.$f]}) ms)"
		bench_target "merge: ${label[inj.$f]%%,*}, per record merged" "$per_us" "<=" \
			"$MERGE_MAX_US" us "$why"
		bench_target "merge: ${label[inj.$f]#*, } / ${label[inj10.$f]#*, }, peak RSS" \
			"$(bench_ratio "${MERGE_RSS[inj.$f]}" "${MERGE_RSS[inj10.$f]}")" "<=" \
			"$MERGE_MAX_RSS_RATIO" x \
			"peak RSS grows by $per_b bytes per record merged: records are held in memory"
	done
}
