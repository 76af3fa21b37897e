# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "memory": what lbrsnap record costs in memory as attach points grow.
#
# Each run is a 1 s system-wide capture of 1, 100 and 500 raw tracepoints (the first ones of
# this kernel's btf_trace_* types, sorted by name) with a --comm filter nothing matches, so
# the numbers are the fixed cost of the attach points (no records in flight). The cost of
# one attach point is the slope between 1 and 500: the ring buffer (8 MiB by default) is in
# every run once, so it drops out of the slope and is counted on its own row.
#   - max RSS of lbrsnap record (wait4 rusage): mostly the mmapped BPF maps (the kernel maps
#     the ring buffer's data area twice, so 8 MiB of ring count 16 MiB) and the kallsyms copy
#     written at the end;
#   - the bytes `lbrsnap record -v` prints: snapshot memory per attach point, and the total of
#     every loaded object's .bss plus the ring buffer;
#   - kernel memory charged to the recorder's programs and maps (memlock in
#     /proc/PID/fdinfo, read while it runs);
#   - start-up and finish time: wall time minus the 1 s capture.

MEM_REPS=${MEM_REPS:-3}
MEM_AP=${MEM_AP:-1 100 500}

# Targets. Measured: 31-33 MiB RSS for 1 attach point, 33 MiB for 100 and 46 MiB for 500
# (8 object instances of 64 programs); per attach point 10 KiB of kernel memory and 30 KiB
# of RSS beside the ring buffer (the design's limit is 64 KiB). About twice the measured RSS
# catches a leak per record or per attach point without tripping on a larger kallsyms.
# Snapshot memory per attach point is one slot per possible CPU (rounded up
# to a power of two): 768 bytes of branches and a 64-byte line of counters each, so the limit
# scales with the CPUs and stays under the 64 KiB per attach point of the design up to 64.
MEM_MAX_RSS_1_MIB=64
MEM_MAX_RSS_500_MIB=96
MEM_SLOTS=1
while [ "$MEM_SLOTS" -lt "$(( $(cat /sys/devices/system/cpu/possible | sed 's/.*-//') + 1 ))" ]; do
	MEM_SLOTS=$((MEM_SLOTS * 2))
done
MEM_MAX_AP_BYTES=$((MEM_SLOTS * (768 + 64)))

# mem_run LABEL TARGET_VAR SPEC...: MEM_REPS captures; rows; the median RSS in TARGET_VAR
mem_run() {
	local label=$1 var=$2 r rec pid spec nr ap total
	local -a args=() rss=() mlock=() setup=()
	shift 2
	for spec; do args+=(-e "$spec"); done
	for ((r = 0; r < MEM_REPS; r++)); do
		rm -f "$BENCH_TMP"/m.data*
		bench_bg rec bench-run -o "$BENCH_TMP/m.run" -- lbrsnap record "${args[@]}" \
			--comm bench-nomatch -v -d 1 -o "$BENCH_TMP/m.data" 2> "$BENCH_TMP/m.err"
		wait_for_tmp "$BENCH_TMP/m.data" || return 1
		read -r pid _ < /proc/"$rec"/task/"$rec"/children
		mlock+=("$(( $(bpf_memlock "$pid") / 1024 ))")
		bench_wait "$rec" || { cat "$BENCH_TMP/m.err" >&2; return 1; }
		rss+=("$(( $(run_field "$BENCH_TMP/m.run" maxrss_kb) / 1024 ))")
		setup+=("$(( $(run_field "$BENCH_TMP/m.run" wall_ns) / 1000000 - 1000 ))")
	done
	nr=$(sed -n 's/.*: \([0-9]*\) attach points, .*/\1/p' "$BENCH_TMP/m.err")
	total=$(sed -n 's/.*attach points, \([0-9]*\) bytes in total.*/\1/p' "$BENCH_TMP/m.err")
	ap=$(sed -n 's/.*attached .* (\([0-9]*\) bytes of snapshot memory.*/\1/p' \
		"$BENCH_TMP/m.err" | sort -un | tail -1)
	bench_info "$label" "$nr attach points"
	bench_info "  snapshot memory per attach point (-v)" "$ap bytes"
	bench_info "  total: objects' .bss and the ring buffer (-v)" \
		"$total bytes ($((total / 1048576)) MiB)"
	bench_row "  kernel memlock of its programs and maps" KiB "${mlock[@]}"
	bench_row "  lbrsnap record max RSS" MiB "${rss[@]}"
	bench_row "  start-up and finish (wall - 1 s)" ms "${setup[@]}"
	printf -v "$var" '%s' "$(bench_median "${rss[@]}")"
	MEM_AP_BYTES=$ap
	MEM_MLOCK[$nr]=$(bench_median "${mlock[@]}")
	MEM_RSS[$nr]=$(bench_median "${rss[@]}")
	rm -f "$BENCH_TMP"/m.data*
}

# mem_tracepoints N: -e arguments for the first N raw tracepoints of this kernel
mem_tracepoints() {
	bpftool btf dump file /sys/kernel/btf/vmlinux |
		sed -n "s/^\[[0-9]*\] TYPEDEF 'btf_trace_\([^']*\)'.*/raw_tp:\1/p" | sort -u |
		head -n "$1"
}

bench_memory() {
	local n ap_k ap_r lo hi
	declare -gA MEM_MLOCK=() MEM_RSS=() MEM_RSS_OF=()
	local -a tps
	read -r lo _ <<<"$MEM_AP"
	hi=${MEM_AP##* }

	bench_section "memory: lbrsnap record -v --comm (nothing matches) -d 1, $MEM_REPS runs each"
	bench_cmd "lbrsnap record -v --comm bench-nomatch -d 1 -e raw_tp:NAME ..." \
		"(the first N btf_trace_* names, sorted)"
	for n in $MEM_AP; do
		mapfile -t tps < <(mem_tracepoints "$n")
		[ ${#tps[@]} = "$n" ] || { echo "run-bench: fewer than $n raw tracepoints" >&2; return 1; }
		mem_run "raw_tp: the first $n" "MEM_RSS_OF[$n]" "${tps[@]}" || return 1
	done
	bench_info "ring buffer (default, once per recorder, not per attach point)" \
		"8 MiB of kernel memory; its data area is mapped twice: 16 MiB of RSS"
	ap_k=$(( (MEM_MLOCK[$hi] - MEM_MLOCK[$lo]) / (hi - lo) ))
	ap_r=$(( (MEM_RSS[$hi] - MEM_RSS[$lo]) * 1024 / (hi - lo) ))
	bench_info "per attach point, kernel memlock (slope from $lo to $hi)" "$ap_k KiB"
	bench_info "per attach point, max RSS (slope from $lo to $hi)" "$ap_r KiB"

	bench_target "memory: snapshot memory per attach point" "$MEM_AP_BYTES" "<=" \
		"$MEM_MAX_AP_BYTES" bytes
	bench_target "memory: kernel memory per attach point, ring buffer aside" "$ap_k" "<=" 64 \
		KiB "each group of 64 attach points loads one more object"
	bench_target "memory: RSS per attach point, ring buffer aside" "$ap_r" "<=" 64 KiB \
		"each group of 64 attach points maps one more object's maps"
	for n in $MEM_AP; do
		bench_target "memory: max RSS, $n attach points" "${MEM_RSS_OF[$n]}" "<" \
			"$( ((n <= 100)) && echo "$MEM_MAX_RSS_1_MIB" || echo "$MEM_MAX_RSS_500_MIB")" MiB
	done
}
