# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "attach": how long a tool takes to attach to N kernel functions (until its first
# event) and to let go of them (after the traced workload ends), for N = 10, 100 and 500
# (ATTACH_N), in one boot of a QEMU guest (ATTACH_KERNEL, default 6.12: the host has neither
# fexit nor kprobes, and Debian's 6.1 has no kprobe-multi). Tools, alternating inside each of
# ATTACH_REPS repetitions, on the same functions (tests/bench/attach-times picks them: the
# workload's __x64_sys_mkdir, then syscall entry points and LSM hooks):
#   lbrsnap record -e fexit:F1,F2,...	a program and a trampoline per function
#   bpftrace -e 'kretfunc:F1,kretfunc:F2,... { @[probe] = count(); }'
#					Debian's bpftrace (the host's, through the 9p root)
#   lbrsnap record -e kretprobe:F1,F2,...	one kprobe-multi program and link
# each running the workload as its command. Time to first event: tool start to workload start
# (a command starts once everything is attached); time to detach: workload end to tool exit.
# Every run must see the workload's one mkdir. Target: attaching 500 fexit functions takes
# lbrsnap no longer than bpftrace (medians).

ATTACH_N=${ATTACH_N:-10 100 500}
ATTACH_REPS=${ATTACH_REPS:-3}
ATTACH_KERNEL=${ATTACH_KERNEL:-6.12}

# attach_values FILE TOOL N COLUMN: the values of one tool and size, one per run
attach_values() {
	awk -v t="$2" -v n="$3" -v c="$4" '$1 == t && $2 == n { print $c }' "$1"
}

bench_attach() {
	local k=$ATTACH_KERNEL out=$BENCH_TMP/attach.out n tool what col f b r max=0
	local -A label=([lbrsnap-fexit]="lbrsnap fexit:LIST" [bpftrace]="bpftrace kretfunc:LIST"
			[lbrsnap-kretprobe]="lbrsnap kretprobe:LIST (kprobe-multi)")

	bench_section "attach: time to first event and to detach for N kernel functions," \
		"lbrsnap fexit and kretprobe (kprobe-multi) against bpftrace kretfunc, in a $k guest"
	bench_cmd "tests/vm/run-vm --kernel $k -- tests/bench/attach-times $ATTACH_REPS $ATTACH_N"
	if ! command -v qemu-system-x86_64 > /dev/null ||
	   ! "$LBRSNAP_TOP/tests/vm/fetch-kernel" "$k" > /dev/null 2>&1; then
		bench_fail "attach" "no QEMU or no kernel $k here"
		return 0
	fi
	# shellcheck disable=SC2086 # the list of sizes
	"$LBRSNAP_TOP/tests/vm/run-vm" --kernel "$k" --mem 2048 --timeout 3600 -- \
		"$LBRSNAP_TOP/tests/bench/attach-times" "$ATTACH_REPS" $ATTACH_N \
		> "$out" 2> "$BENCH_TMP/attach.err" ||
		{ cat "$out" "$BENCH_TMP/attach.err" >&2; return 1; }
	bench_info "functions to choose from in the guest" "$(sed -n 's/^funcs //p' "$out")"
	for n in $ATTACH_N; do
		((n > max)) && max=$n
		for tool in lbrsnap-fexit bpftrace lbrsnap-kretprobe; do
			f=$(attach_values "$out" "$tool" "$n" 5 | sort -u | tr '\n' ' ')
			[ "$f" = "1 " ] ||
				bench_fail "attach: $tool, $n functions" "saw mkdir '$f' times, not once"
		done
		for what in "time to first event:3" "time to detach:4"; do
			col=${what##*:}
			what=${what%:*}
			for tool in lbrsnap-fexit bpftrace lbrsnap-kretprobe; do
				# shellcheck disable=SC2046 # one value per run
				bench_row "${label[$tool]}, $n functions: $what" ms \
					$(attach_values "$out" "$tool" "$n" "$col")
			done
			b=$(attach_values "$out" bpftrace "$n" "$col" | tr '\n' ' ')
			r="fexit $(bench_ratio "$(attach_values "$out" lbrsnap-fexit "$n" "$col" |
				tr '\n' ' ')" "$b")"
			r+=", kretprobe $(bench_ratio "$(attach_values "$out" lbrsnap-kretprobe "$n" \
				"$col" | tr '\n' ' ')" "$b")"
			bench_info "$n functions, $what: lbrsnap / bpftrace (medians)" "$r"
		done
	done
	# shellcheck disable=SC2046
	bench_target "attach ($k): lbrsnap fexit on $max functions, time to first event <= bpftrace's" \
		"$(bench_median $(attach_values "$out" lbrsnap-fexit "$max" 3))" "<=" \
		"$(bench_median $(attach_values "$out" bpftrace "$max" 3))" ms \
		"lbrsnap loads and attaches its fexit programs slower than bpftrace"
}
