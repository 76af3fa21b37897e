# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "reject": program time of a rejected event against an empty program of the same type
# on the same attach point (issue 23), from the kernel's own accounting (run_time_ns /
# run_cnt, kernel.bpf_stats_enabled=1), in the same boot, modes alternating within each of
# REJECT_REPS repetitions (tests/bench/reject-times; each repetition's figure the median of
# its batches, against TCG's preempted vCPUs). Every event is rejected by pid (a --pid
# no task has). On the host: raw_tp:sys_exit and tp_btf:sys_exit; in one QEMU guest boot per
# kernel of REJECT_KERNELS: those and fexit:__x64_sys_close.
# Target: the median of -j any_ret and of -j any_call (--lbr external) over the empty
# program's median <= 1.3, per attach point. -j any (the default) is shown, not judged: its
# snapshot must come first, and with it a ticket.

REJECT_REPS=${REJECT_REPS:-7}
REJECT_N=${REJECT_N:-50000}
REJECT_GUEST_N=${REJECT_GUEST_N:-20000}
REJECT_KERNELS=${REJECT_KERNELS-6.1 6.12 7.2}
REJECT_MAX_RATIO=1.3

# reject_values FILE MODE KIND: ns per invocation of each repetition
reject_values() {
	awk -v m="$2" -v k="$3" '$1 == "cost" && $2 == m && $3 == k && $5 {
		printf "%.0f\n", $4 / $5 }' "$1"
}

# reject_report WHERE FILE: rows and targets of one reject-times output
reject_report() {
	local where=$1 out=$2 kind mode r emp rej order before=
	local -A label=([empty]="empty program" [any]="lbrsnap -j any" [any_ret]="lbrsnap -j any_ret"
			[any_call]="lbrsnap -j any_call"
			[any_ret@before]="REJECT_BEFORE's lbrsnap -j any_ret"
			[any_call@before]="REJECT_BEFORE's lbrsnap -j any_call")

	# reject-times with REJECT_BEFORE: the other build's rows beside, shown, not judged
	grep -q '^cost any_ret@before ' "$out" && before="any_ret@before any_call@before"
	for mode in any any_ret any_call $before; do
		order=$(awk -v m="$mode" '$1 == "order" && $2 == m { print $3 }' "$out" | sort -u |
			paste -sd/)
		bench_info "$where: order under -j $mode (record -v)" "${order:-?}"
	done
	for kind in rawtp tpbtf fexit; do
		grep -q "^cost empty $kind " "$out" || continue
		for mode in empty any any_ret any_call $before; do
			# shellcheck disable=SC2046 # one value per repetition
			bench_row "$where $kind: ${label[$mode]}, per rejected event" ns \
				$(reject_values "$out" "$mode" "$kind")
		done
		emp=$(reject_values "$out" empty "$kind" | tr '\n' ' ')
		for mode in any any_ret any_call $before; do
			rej=$(reject_values "$out" "$mode" "$kind" | tr '\n' ' ')
			r=$(bench_ratio "$rej" "$emp")
			if [ "$mode" != any_ret ] && [ "$mode" != any_call ]; then
				bench_info "$where $kind: -j $mode over the empty program (medians)" \
					"x$r"
				continue
			fi
			bench_target "reject ($where $kind): -j $mode over the empty program (medians)" \
				"$r" "<=" "$REJECT_MAX_RATIO" x \
				"$(bench_median $rej) ns against $(bench_median $emp) ns"
		done
	done
}

# reject_boot KERNEL: the guest's measurements in $BENCH_TMP/reject-KERNEL.out
reject_boot() {
	local out=$BENCH_TMP/reject-$1.out
	if ! command -v qemu-system-x86_64 > /dev/null ||
	   ! "$LBRSNAP_TOP/tests/vm/fetch-kernel" "$1" > /dev/null 2>&1; then
		return 2
	fi
	"$LBRSNAP_TOP/tests/vm/run-vm" --kernel "$1" --mem 2048 --timeout 3600 -- \
		"$LBRSNAP_TOP/tests/bench/reject-times" "$REJECT_REPS" "$REJECT_GUEST_N" fexit \
		> "$out" 2> "$out.err" || { cat "$out.err" >&2; return 1; }
}

bench_reject() {
	local k out=$BENCH_TMP/reject-host.out

	bench_section "reject: program time of an event rejected by pid against an empty program" \
		"of the same type and attach point (any_ret, any_call: --lbr external;" \
		"$REJECT_REPS runs, alternating, medians)"
	bench_cmd "tests/bench/reject-times $REJECT_REPS $REJECT_N"
	"$LBRSNAP_TOP/tests/bench/reject-times" "$REJECT_REPS" "$REJECT_N" > "$out" ||
		{ bench_fail "reject host" "reject-times failed (messages above)"; return 1; }
	reject_report host "$out"
	for k in $REJECT_KERNELS; do
		bench_cmd "tests/vm/run-vm --kernel $k -- tests/bench/reject-times" \
			"$REJECT_REPS $REJECT_GUEST_N fexit"
		reject_boot "$k" || { bench_fail "reject $k" "no guest run (messages above)"; continue; }
		reject_report "$k" "$BENCH_TMP/reject-$k.out"
	done
}
