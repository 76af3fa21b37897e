# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "distance": what runs between a program's entry and its bpf_get_branch_snapshot().
# Every branch taken before the snapshot takes one of the LBR's entries (32 on recent Intel)
# and pushes out one of the traced code's, so the fewer branches before the call, the more of
# the interesting history a record keeps. Ours are measured here, from the kernel's own copy of
# the programs lbrsnap loads (`bpftool prog dump xlated`, counted by
# tests/lib/snapshot-first.awk through tests/bench/xlated-distance): raw_tp, tp_btf, mem:,
# uprobe:, uretprobe: and usdt: (on tests/helpers/uprobe-load) on this host, fexit in the QEMU
# guests (DIST_KERNELS, default "6.1 6.12"; empty: none), and kprobe and kretprobe in those of
# DIST_KPROBE_KERNELS (default 6.12).
#
# The peers' figures come from reading their BPF sources (not built here), path from the
# program's entry to the snapshot, at the commits named:
#   retsnoop a777df07e1b3 (src/mass_attach.bpf.c): fexit (handle_fexit) tests `ready` (.bss,
#     a run-time branch), calls bpf_get_smp_processor_id(), tests running[cpu] (recursion
#     guard, a run-time branch), then `use_lbr` (.rodata: the verifier resolves it at load):
#     2 conditional branches and 1 helper call. kretprobe (retsn_kexit): `ready`, the CPU id:
#     1 branch and 1 call.
#   bpfsnoop 7e90b207c0c5 (bpf/bpfsnoop.c, emit_bpfsnoop_event): fexit tests `ready`
#     (.data.ready, run time), calls bpf_get_smp_processor_id(); the mode and output_lbr tests
#     read the .rodata config, resolved at load: 1 branch and 1 call. Its session mode adds a
#     bpf_session_is_return() kfunc call and a test of its result.
# The kernel inlines bpf_get_smp_processor_id() on x86-64 from 6.10 (1ae6921009e5), for them
# as for us, so on such a kernel the peers' call costs no branch. The targets compare, kernel by
# kernel, our worst program with each peer's shortest path (jumps + calls not inlined).

DIST_KERNELS=${DIST_KERNELS-6.1 6.12}
# guest kernels with kprobe-multi, where the kprobe and kretprobe programs are measured too
DIST_KPROBE_KERNELS=${DIST_KPROBE_KERNELS-6.12}

# peer PATH COND_BRANCHES HELPER_CALLS (the CPU id call, inlined from 6.10)
DIST_PEERS=(
	"retsnoop a777df07e1b3 fexit|2|1"
	"retsnoop a777df07e1b3 kretprobe|1|1"
	"bpfsnoop 7e90b207c0c5 fexit|1|1"
	"bpfsnoop 7e90b207c0c5 fexit, session mode|2|2"
)

# distance_judge FILE WHERE: a row per program measured by xlated-distance, then a target per
# peer: our worst program's branches (jumps + calls) against the peer's shortest path on the
# same kernel
distance_judge() {
	local file=$1 where=$2 prog verdict insns calls jumps kver worst=0 peer name cond pcalls
	local best
	kver=$(sed -n 's/^kernel //p' "$file")
	while read -r prog verdict insns calls jumps; do
		[ "$prog" = kernel ] && continue
		if [ "$verdict" != ok ]; then
			bench_fail "distance: $prog ($where)" "$verdict $insns $calls $jumps"
			continue
		fi
		bench_info "$prog ($where, $kver): before the snapshot" \
			"$insns instructions, $calls calls, $jumps jumps"
		((calls + jumps > worst)) && worst=$((calls + jumps))
	done < "$file"
	for name in retsnoop bpfsnoop; do
		best=
		for peer in "${DIST_PEERS[@]}"; do
			[[ $peer == "$name "* ]] || continue
			IFS='|' read -r _ cond pcalls <<<"$peer"
			# the CPU id call is inlined from 6.10, for them as for us
			distance_kernel_inlines "$kver" && pcalls=$((pcalls - 1))
			((cond + pcalls < ${best:-999})) && best=$((cond + pcalls))
		done
		bench_target "distance ($kver): lbrsnap's branches before the snapshot <= $name's" \
			"$worst" "<=" "$best" branches \
			"lbrsnap's worst program has more jumps and calls before the snapshot"
	done
}

distance_kernel_inlines() {
	awk -v v="$1" 'BEGIN { split(v, a, "[.-]"); exit !(a[1] > 6 || (a[1] == 6 && a[2] >= 10)) }'
}

bench_distance() {
	local addr k peer name cond calls events why

	bench_section "distance: what lbrsnap's programs execute before bpf_get_branch_snapshot()," \
		"in the kernel's xlated copy, against retsnoop's and bpfsnoop's sources"
	for peer in "${DIST_PEERS[@]}"; do
		IFS='|' read -r name cond calls <<<"$peer"
		bench_info "$name (read from the source): before the snapshot" \
			"$cond jumps (conditional), $calls calls"
	done
	events=(raw_tp:sys_exit tp_btf:sched_switch)
	# lbrsnap refuses mem: where watchpoints never fire, as it should
	if why=$(watchpoints_fire); then
		addr=0x$(nm "$(command -v watch-load)" | awk '$3 == "lbrsnap_watched" { print $1 }')
		events+=("mem:$addr:w")
	else
		bench_info "lbrsnap_mem_0 (host)" "not run: $why"
	fi
	events+=(uprobe:uprobe-load:lbrsnap_up_count uretprobe:uprobe-load:lbrsnap_ret_int
		 usdt:uprobe-load:lbrsnap:values)
	bench_cmd "tests/bench/xlated-distance ${events[*]}"
	"$LBRSNAP_TOP/tests/bench/xlated-distance" "${events[@]}" > "$BENCH_TMP/dist.host" \
		2> "$BENCH_TMP/dist.err" || { cat "$BENCH_TMP/dist.err" >&2; return 1; }
	distance_judge "$BENCH_TMP/dist.host" host

	for k in $DIST_KERNELS; do
		local events=(fexit:do_sys_openat2)
		[[ " $DIST_KPROBE_KERNELS " == *" $k "* ]] &&
			events+=(kprobe:do_sys_openat2 kretprobe:do_sys_openat2)
		bench_cmd "tests/vm/run-vm --kernel $k -- tests/bench/xlated-distance" \
			"${events[*]}"
		if ! command -v qemu-system-x86_64 > /dev/null ||
		   ! "$LBRSNAP_TOP/tests/vm/fetch-kernel" "$k" > /dev/null 2>&1; then
			bench_info "lbrsnap_fexit_0 (guest $k)" "not run: no QEMU or no kernel $k here"
			continue
		fi
		"$LBRSNAP_TOP/tests/vm/run-vm" --kernel "$k" --timeout 300 -- \
			"$LBRSNAP_TOP/tests/bench/xlated-distance" "${events[@]}" \
			> "$BENCH_TMP/dist.$k" 2> "$BENCH_TMP/dist.$k.err" ||
			{ cat "$BENCH_TMP/dist.$k" "$BENCH_TMP/dist.$k.err" >&2; return 1; }
		# the guest's output is the command's, console noise aside
		grep -E '^(lbrsnap_|kernel )' "$BENCH_TMP/dist.$k" > "$BENCH_TMP/dist.$k.rows"
		distance_judge "$BENCH_TMP/dist.$k.rows" guest
	done
}
