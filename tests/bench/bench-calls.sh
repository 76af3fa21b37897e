# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sections "calls-attach" and "calls-cost": what --calls costs, per mechanism, in one boot of
# a QEMU guest per kernel of CALLS_KERNELS (default 6.1 6.12 7.2: fentry/fexit pairs,
# kprobe-multi and tracing_multi, as each kernel's probes choose; the host has neither fexit
# nor kprobes). tests/bench/calls-times runs in the guest; both sections read the same boot.
#   calls-attach: lbrsnap record -e fexit:do_mkdirat --calls LIST over CALLS_N (500) functions
#	against bpftrace attaching kfunc and kretfunc to the same LIST, and the same record
#	without --calls (lbrsnap's own start); time to first event and to detach. On 7.2 also the
#	two tracing_multi links alone. Target (7.2): --calls' attach step (record -v's
#	"N functions attached by M in T ms": its programs loaded, its links made) < 1 s for 500
#	functions; what --calls adds to the time to first event (with minus without) is shown.
#   calls-cost: run time per program invocation (kernel.bpf_stats_enabled) of --calls
#	vfs_mkdir's entry and exit programs inside the scope against bpftrace's empty
#	'kfunc:vfs_mkdir { } kretfunc:vfs_mkdir { }', CALLS_COST_N mkdir+rmdir pairs each.
#	Target: ratio <= 1.5.

CALLS_KERNELS=${CALLS_KERNELS-6.1 6.12 7.2}
CALLS_N=${CALLS_N:-500}
CALLS_REPS=${CALLS_REPS:-1}
CALLS_COST_N=${CALLS_COST_N:-2000}

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
		> "$out" 2> "$out.err"
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
	bench_cmd "tests/vm/run-vm --kernel K -- tests/bench/calls-times $CALLS_REPS $n $CALLS_COST_N"
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

bench_calls-cost() {
	local k out r

	bench_section "calls-cost: run time per --calls program invocation inside a scope" \
		"against an empty fentry+fexit pair (bpftrace) on vfs_mkdir, per mechanism (guests)"
	bench_cmd "tests/vm/run-vm --kernel K -- tests/bench/calls-times $CALLS_REPS $CALLS_N $CALLS_COST_N"
	for k in $CALLS_KERNELS; do
		out=$BENCH_TMP/calls-$k.out
		calls_boot "$k" || { bench_fail "calls-cost $k" "no guest run (messages above)"; continue; }
		# shellcheck disable=SC2046 # one value per run
		bench_row "$k: lbrsnap --calls vfs_mkdir, per invocation" ns \
			$(awk '$1 == "cost" && $2 == "lbrsnap-calls" && $4 { printf "%.0f\n", $3 / $4 }' "$out")
		# shellcheck disable=SC2046
		bench_row "$k: bpftrace empty kfunc+kretfunc, per invocation" ns \
			$(awk '$1 == "cost" && $2 == "bpftrace" && $4 { printf "%.0f\n", $3 / $4 }' "$out")
		r=$(bench_ratio "$(awk '$1 == "cost" && $2 == "lbrsnap-calls" && $4 { printf "%.0f ", $3 / $4 }' "$out")" \
			"$(awk '$1 == "cost" && $2 == "bpftrace" && $4 { printf "%.0f ", $3 / $4 }' "$out")")
		bench_target "calls-cost ($k): --calls entry+exit / empty fentry+fexit pair" "$r" "<=" 1.5 \
			"x" "the per-call bookkeeping (task lookup, frame, time stamps) costs more than that"
	done
}
