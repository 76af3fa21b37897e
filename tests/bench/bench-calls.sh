# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sections "calls-attach" and "calls-cost": what --calls costs, per mechanism, in one boot of
# a QEMU guest per kernel of CALLS_KERNELS (default 6.1 6.12 7.2: fentry/fexit pairs,
# kprobe.session and tracing_multi, as each kernel's probes choose; the host has neither fexit
# nor kprobes). tests/bench/calls-times runs in the guest; both sections read the same boot.
#   calls-attach: lbrsnap record -e fexit:do_mkdirat --calls LIST over CALLS_N (500) functions
#	against bpftrace attaching kfunc and kretfunc to the same LIST, and the same record
#	without --calls (lbrsnap's own start); time to first event and to detach. On 7.2 also the
#	two tracing_multi links alone. Target (7.2): --calls' attach step (record -v's
#	"N functions attached by M in T ms": its programs loaded, its links made) < 1 s for 500
#	functions; what --calls adds to the time to first event (with minus without) is shown.
#   calls-cost: cost per traced call (entry + exit) of --calls vfs_mkdir inside a scope
#	against an empty fentry+fexit pair on vfs_mkdir (bpftrace 'kfunc:vfs_mkdir { }
#	kretfunc:vfs_mkdir { }') and the floor of any call trace (clock-pair.bpf.o: a pair
#	that reads the clock once in each program), from the programs' own run time (kernel
#	run-time statistics: run_time_ns / run_cnt, read around each of 20 batches of
#	CALLS_COST_N / 20 mkdir+rmdir by bench-callcost), CALLS_COST_REPS runs of each
#	alternating in one boot; a run's value is its median batch, the row's the median run.
#	Target: ratio <= 1.5. Also the memory a task in flight holds (its call state, the BPF
#	object's BTF size of struct lbrsnap_call_state).
#	CALLS_REPS=0 skips calls-attach's runs in the boot (calls-cost alone). With
#	LBRSNAP_CALLS_BASE=PATH set, another lbrsnap (e.g. main's) is measured in the same runs.

CALLS_KERNELS=${CALLS_KERNELS-6.1 6.12 7.2}
CALLS_N=${CALLS_N:-500}
CALLS_REPS=${CALLS_REPS:-1}
CALLS_COST_N=${CALLS_COST_N:-2000}
CALLS_COST_REPS=${CALLS_COST_REPS:-5}

# calls_boot KERNEL: the guest's measurements in $BENCH_TMP/calls-KERNEL.out, once per run
calls_boot() {
	local k=$1 out=$BENCH_TMP/calls-$1.out
	[ -e "$out.done" ] && return "$(cat "$out.done")"
	if ! command -v qemu-system-x86_64 > /dev/null ||
	   ! "$LBRSNAP_TOP/tests/vm/fetch-kernel" "$k" > /dev/null 2>&1; then
		echo 2 > "$out.done"
		return 2
	fi
	"$LBRSNAP_TOP/tests/vm/run-vm" --kernel "$k" --mem 2048 --timeout 3600 -- \
		"$LBRSNAP_TOP/tests/bench/calls-times" "$CALLS_REPS" "$CALLS_N" "$CALLS_COST_N" \
		"$CALLS_COST_REPS" > "$out" 2> "$out.err"
	echo $? > "$out.done"
	[ "$(cat "$out.done")" = 0 ] || cat "$out.err" >&2
	return "$(cat "$out.done")"
}

# calls_values FILE TOOL COLUMN: one value per run
calls_values() {
	awk -v t="$2" -v c="$3" '$1 == t { print $c }' "$1"
}

bench_calls-attach() {
	local k out n=$CALLS_N mech tool what col ev d
	local -A label=([lbrsnap-calls]="lbrsnap --calls" [lbrsnap-alone]="lbrsnap without --calls"
			[bpftrace]="bpftrace kfunc+kretfunc")

	bench_section "calls-attach: time to first event and to detach, --calls over $n kernel" \
		"functions against bpftrace kfunc+kretfunc on the same, per mechanism (guests)"
	bench_cmd "tests/vm/run-vm --kernel K -- tests/bench/calls-times $CALLS_REPS $n $CALLS_COST_N $CALLS_COST_REPS"
	for k in $CALLS_KERNELS; do
		out=$BENCH_TMP/calls-$k.out
		calls_boot "$k" || { bench_fail "calls-attach $k" "no guest run (messages above)"; continue; }
		mech=$(sed -n 's/^mech //p' "$out" | head -1)
		bench_info "$k: mechanism" "${mech:-none named}"
		for tool in lbrsnap-alone lbrsnap-calls bpftrace; do
			ev=$(calls_values "$out" "$tool" 5 | sort -u | tr '\n' ' ')
			[ "$ev" = "1 " ] ||
				bench_fail "calls-attach $k: $tool" "saw the mkdir '$ev' times, not once"
		done
		for what in "time to first event:3" "time to detach:4"; do
			col=${what##*:}
			what=${what%:*}
			for tool in lbrsnap-alone lbrsnap-calls bpftrace; do
				# shellcheck disable=SC2046 # one value per run
				bench_row "$k: ${label[$tool]}, $what" ms \
					$(calls_values "$out" "$tool" "$col")
			done
			bench_info "$k: $what, lbrsnap --calls / bpftrace (medians)" \
				"$(bench_ratio "$(calls_values "$out" lbrsnap-calls "$col" | tr '\n' ' ')" \
					"$(calls_values "$out" bpftrace "$col" | tr '\n' ' ')")"
		done
		# shellcheck disable=SC2046
		d=$(($(bench_median $(calls_values "$out" lbrsnap-calls 3)) -
		     $(bench_median $(calls_values "$out" lbrsnap-alone 3))))
		bench_info "$k: what --calls adds to the time to first event (medians)" "$d ms"
		if grep -q '^layer ' "$out"; then
			# shellcheck disable=SC2046
			bench_row "$k: the two tracing_multi links alone, attach" ms \
				$(awk '$1 == "layer" { printf "%.0f\n", $3 * 1000 }' "$out")
			# shellcheck disable=SC2046
			bench_row "$k: the two tracing_multi links alone, detach" ms \
				$(awk '$1 == "layer" { printf "%.0f\n", $5 * 1000 }' "$out")
		fi
		# shellcheck disable=SC2046
		bench_row "$k: --calls' attach step (record -v: programs loaded, links made)" ms \
			$(awk '$1 == "step" { printf "%.0f\n", $3 }' "$out")
		case $mech in
		tracing_multi*)
			# shellcheck disable=SC2046
			bench_target "calls-attach ($k): --calls' attach step over $n functions" \
				"$(bench_median $(awk '$1 == "step" { printf "%.0f\n", $3 }' "$out"))" "<" \
				1000 ms "loading the entry and exit programs (verifier) and the links take longer"
			;;
		esac
	done
}

# calls_permed FILE TOOL WHAT [PER]: per run, the median over its batches of the programs' run
# time per call (WHAT run: NS / (CNT / 2)) or of the wall time per step of a batch (WHAT wall:
# PER steps a batch, default a mkdir+rmdir's)
calls_permed() {
	awk -v t="$2" -v w="$3" -v per="${4:-$((CALLS_COST_N / 20))}" '$1 == "cbatch" && $2 == t {
		if (w == "wall") print $3, $6 / per; else if ($5 > 0) print $3, $4 / ($5 / 2) }' "$1" |
		sort -k1,1n -k2,2g |
		awk '{ r[$1] = r[$1] " " $2; n[$1]++ }
		     END { for (k in r) { split(substr(r[k], 2), v, " "); m = n[k]
			   printf "%.0f\n", m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 } }'
}

# calls_wall_added FILE PREFIX [PER]: "LBRSNAP EMPTY", what each adds per step to the wall
# time (medians): PREFIXlbrsnap-calls over PREFIXlbrsnap-scope (the scopes alone), and
# PREFIXempty-pair over PREFIXnone (untraced)
calls_wall_added() {
	local m=()
	local t

	for t in lbrsnap-calls lbrsnap-scope empty-pair none; do
		# shellcheck disable=SC2046 # one value per run
		m+=("$(bench_median $(calls_permed "$1" "$2$t" wall "${3:-}"))")
	done
	echo "$((m[0] - m[1])) $((m[2] - m[3]))"
}

# calls_over FILE TOOL BASE PER: what TOOL's median wall time per getppid adds over BASE (a
# median), or nothing when TOOL has no run
calls_over() {
	local v

	v=$(calls_permed "$1" "$2" wall "$4")
	[ -n "$v" ] && [ -n "$3" ] || return 1
	# shellcheck disable=SC2086 # one value per run
	echo "$(($(bench_median $v) - $3))"
}

# the task's call state: what a scope in flight holds in the calls map (BTF of the object)
calls_task_bytes() {
	bpftool btf dump file "$LBRSNAP_BUILD/bpf/capture.bpf.o" format raw 2> /dev/null |
		sed -n "s/^\[[0-9]*\] STRUCT 'lbrsnap_call_state' size=\([0-9]*\).*/\1/p"
}

bench_calls-cost() {
	local k out r per bad ours empty clock base sz t wo we why gper floor scope via m
	local -A wlabel=([none]="untraced" [empty-pair]="empty fentry+fexit pair"
			 [lbrsnap-scope]="lbrsnap scope, --calls on an uncalled function"
			 [lbrsnap-calls]="lbrsnap --calls vfs_mkdir")

	per=$((CALLS_COST_N / 20))
	bench_section "calls-cost: run time per traced call (entry + exit), --calls vfs_mkdir in a" \
		"scope against an empty fentry+fexit pair (bpftrace) on vfs_mkdir, per mechanism (guests)"
	bench_cmd "tests/vm/run-vm --kernel K -- tests/bench/calls-times $CALLS_REPS $CALLS_N $CALLS_COST_N $CALLS_COST_REPS"
	sz=$(calls_task_bytes)
	if [ -n "$sz" ]; then
		bench_info "memory per task in flight (struct lbrsnap_call_state, a calls map slot)" \
			"$sz bytes; $sz KiB for the map's 1024 slots (LBRSNAP_CALLS_TASKS)"
	else
		bench_fail "calls-cost: memory per task" "no struct lbrsnap_call_state in capture.bpf.o's BTF"
	fi
	for k in $CALLS_KERNELS; do
		out=$BENCH_TMP/calls-$k.out
		calls_boot "$k" || { bench_fail "calls-cost $k" "no guest run (messages above)"; continue; }
		bench_info "$k: mechanism" "$(sed -n 's/^mech //p' "$out" | head -1)"
		# both tools' programs ran at each vfs_mkdir's entry and exit, nothing else: the same
		# count in every batch (a mkdir on the guest's overlayfs calls vfs_mkdir twice)
		bad=$(awk '$1 == "cbatch" && ($2 == "lbrsnap-calls" || $2 == "empty-pair") {
			if (!c) c = $5; if ($5 != c || c % 2) n++ } END { print n + 0 }' "$out")
		[ "$bad" = 0 ] ||
			bench_fail "calls-cost $k" "$bad batches counted other invocations than the rest"
		bench_info "$k: program invocations per mkdir (entry + exit of each vfs_mkdir call)" \
			"$(awk -v p="$per" '$1 == "cbatch" && $2 == "empty-pair" { print $5 / p; exit }' "$out")"
		ours=$(calls_permed "$out" lbrsnap-calls run | tr '\n' ' ')
		empty=$(calls_permed "$out" empty-pair run | tr '\n' ' ')
		# shellcheck disable=SC2086 # one value per run
		bench_row "$k: lbrsnap --calls vfs_mkdir, per call (entry + exit)" ns $ours
		# shellcheck disable=SC2086
		bench_row "$k: empty fentry+fexit pair (bpftrace), per call" ns $empty
		# the floor: a pair that only reads the clock, as a call trace must at entry and exit
		clock=$(calls_permed "$out" clock-pair run | tr '\n' ' ')
		if [ -n "$clock" ]; then
			# shellcheck disable=SC2086
			bench_row "$k: clock-only fentry+fexit pair (clock-pair.bpf.o), per call" ns \
				$clock
			bench_info "$k: clock-only pair / empty pair (medians): the floor of any call trace" \
				"$(bench_ratio "$clock" "$empty")"
			bench_info "$k: lbrsnap --calls / clock-only pair (medians): the bookkeeping" \
				"$(bench_ratio "$ours" "$clock")"
		fi
		# LBRSNAP_CALLS_BASE (calls-times): another binary's --calls, the same boot alternating
		base=$(calls_permed "$out" base-calls run | tr '\n' ' ')
		if [ -n "$base" ]; then
			# shellcheck disable=SC2086
			bench_row "$k: LBRSNAP_CALLS_BASE's --calls vfs_mkdir, per call" ns $base
			bench_info "$k: LBRSNAP_CALLS_BASE's / empty pair (medians)" \
				"$(bench_ratio "$base" "$empty")"
		fi
		# each program's share: per run its median batch, then the median run
		awk '$1 == "cpbatch" && $6 > 0 { print $2, $3, $4, $5 / $6 }' "$out" > "$out.p"
		awk 'NR == FNR { if ($1 == "cprog") name[$2 " " $3 " " $4] = $5; next }
		     { print $1, name[$1 " " $2 " " $3], $2, $3, $4 }' "$out" "$out.p" |
			sort -k1,1 -k2,2 -k3,3n -k4,4n -k5,5g |
			awk '{ k = $1 " " $2 " " $3 " " $4; v[k] = v[k] " " $5; n[k]++ }
			     END { for (k in v) { split(substr(v[k], 2), a, " "); m = n[k]
				   split(k, f, " ")
				   printf "%s %s %.0f\n", f[1], f[2],
					  m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 } }' |
			sort | awk '{ k = $1 " " $2; v[k] = v[k] " " $3 } END { for (k in v) print k, v[k] }' |
			sort | while read -r t name vals; do
				# shellcheck disable=SC2086 # one value per run (and program of that name)
				bench_row "$k: $t program $name, per invocation" ns $vals
			done
		r=$(bench_ratio "$ours" "$empty")
		why="the per-call bookkeeping (task lookup, frame, time stamps) costs more than that"
		[ -n "$clock" ] && why="reading the clock at entry and exit alone costs x$(bench_ratio \
			"$clock" "$empty") the empty pair, the rest (the task's slot, the frame, the\
 cookie) x$(bench_ratio "$ours" "$clock") the clock-only pair"
		bench_target "calls-cost ($k): --calls entry+exit / empty fentry+fexit pair" "$r" "<=" 1.5 \
			"x" "$why"
		# the whole cost, mechanism included: what each adds to a mkdir+rmdir's wall time
		for t in none empty-pair lbrsnap-scope lbrsnap-calls; do
			# shellcheck disable=SC2046 # one value per run
			bench_row "$k: wall time per mkdir+rmdir, ${wlabel[$t]}" ns \
				$(calls_permed "$out" "$t" wall)
		done
		read -r wo we <<<"$(calls_wall_added "$out" "")"
		bench_info "$k: added to a mkdir+rmdir (wall, medians; TCG noise): --calls / empty pair" \
			"$wo ns / $we ns = $(awk -v a="$wo" -v b="$we" \
				'BEGIN { if (b > 0) printf "%.2f", a / b; else print "none" }')"
		# the whole cost of a traced call, from wall time over a call cheap enough for it to
		# stand out: --calls over what its scope costs alone, the empty pair over untraced
		gper=$(sed -n 's/^gper //p' "$out")
		[ -n "$gper" ] || continue
		for t in none empty-pair lbrsnap-scope lbrsnap-calls; do
			# shellcheck disable=SC2046 # one value per run
			bench_row "$k: wall time per getppid, ${wlabel[$t]/vfs_mkdir/__task_pid_nr_ns}" \
				ns $(calls_permed "$out" "g-$t" wall "$gper")
		done
		read -r wo we <<<"$(calls_wall_added "$out" g- "$gper")"
		bench_info "$k: whole cost per traced call (wall over getppid, medians)" \
			"--calls $wo ns, empty pair $we ns"
		# a call trace reads the clock twice: less added than that (the clock-only pair's
		# run time over the empty pair's) is the guest's noise, not a measurement
		floor=0
		# shellcheck disable=SC2086 # lists of numbers
		[ -n "$clock" ] && floor=$(($(bench_median $clock) - $(bench_median $empty)))
		if [ "$wo" -lt "$floor" ]; then
			bench_fail "calls-cost ($k): whole cost per traced call" \
				"--calls added $wo ns, less than its two clock reads ($floor ns): noise"
		elif [ "$we" -gt 0 ]; then
			bench_target "calls-cost ($k): whole cost per traced call, --calls / empty pair" \
				"$(awk -v a="$wo" -v b="$we" 'BEGIN { printf "%.2f", a / b }')" "<=" 1.5 x \
				"per call its mechanism ($(sed -n 's/^mech //p' "$out" | head -1), the pair's an\
 fentry+fexit trampoline) runs two programs that read the clock and keep a frame"
		else
			bench_fail "calls-cost ($k): whole cost per traced call" \
				"the empty pair added nothing measurable to getppid ($we ns): noise"
		fi
		# the same through each other mechanism the kernel takes (--calls-via), not judged:
		# what the default's choice (fewest links, fastest attach) costs per call
		# shellcheck disable=SC2046 # one value per run
		scope=$(bench_median $(calls_permed "$out" g-lbrsnap-scope wall "$gper"))
		for t in $(sed -n 's/^vias //p' "$out"); do
			via=$(calls_over "$out" "$t" "$scope" "$gper") || continue
			# shellcheck disable=SC2046 # one value per run
			bench_row "$k: wall time per getppid, lbrsnap --calls-via ${t#g-via-}" ns \
				$(calls_permed "$out" "$t" wall "$gper")
			bench_info "$k: whole cost per traced call via ${t#g-via-}, / empty pair" \
				"$via ns, x$(awk -v a="$via" -v b="$we" \
				'BEGIN { if (b > 0) printf "%.2f", a / b; else print "none" }')"
		done
		# outside every scope (--comm matching no task): what a traced function costs the
		# calls of every other task, per mechanism
		# shellcheck disable=SC2046
		scope=$(bench_median $(calls_permed "$out" g-outside-lbrsnap-scope wall "$gper"))
		for t in g-lbrsnap-calls $(sed -n 's/^vias //p' "$out"); do
			via=$(calls_over "$out" "g-outside-${t#g-}" "$scope" "$gper") || continue
			m=${t#g-via-}
			[ "$t" = g-lbrsnap-calls ] && m="$(sed -n 's/^mech //p' "$out" | head -1)"
			bench_info "$k: outside every scope, per traced call (wall over getppid), $m" \
				"$via ns"
		done
	done
}
