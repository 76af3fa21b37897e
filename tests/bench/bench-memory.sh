# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Section "memory": what lbrsnap record costs in memory as attach points grow.
#
# Each run is a 1 s system-wide capture with a --comm filter nothing matches, so the numbers
# are the fixed cost of the attach points (no records in flight):
#   - max RSS of lbrsnap record (wait4 rusage): mostly the mmapped BPF maps (the kernel maps
#     the ring buffer's data area twice, so 8 MiB of ring count 16 MiB) and the kallsyms copy
#     written at the end;
#   - the bytes `lbrsnap record -v` prints: snapshot memory per attach point, and the total of
#     every loaded object's .bss plus the ring buffer;
#   - kernel memory charged to the recorder's programs and maps (memlock in
#     /proc/PID/fdinfo, read while it runs);
#   - start-up and finish time: wall time minus the 1 s capture.

MEM_REPS=${MEM_REPS:-3}

# Targets. Measured before per-CPU slots: 32-34 MiB RSS for 1 attach point, about 34 MiB
# for 64, 42 MiB for 201, 100 MiB for all 1601 raw tracepoints (26 object instances). Twice
# the measured RSS catches a leak per record or per attach point without tripping on a
# larger kallsyms. Snapshot memory per attach point is one slot per possible CPU (rounded up
# to a power of two): 768 bytes of branches and a 64-byte line of counters each, so the limit
# scales with the CPUs and stays under the 64 KiB per attach point of the design up to 64.
MEM_MAX_RSS_1_MIB=64
MEM_MAX_RSS_200_MIB=96
MEM_MAX_RSS_ALL_MIB=200
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
		wait_for_file "$BENCH_TMP/m.data.tmp" || return 1
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
	bench_info "$label: $*" "$nr attach points"
	bench_info "  snapshot memory per attach point (-v)" "$ap bytes"
	bench_info "  total: objects' .bss and the ring buffer (-v)" \
		"$total bytes ($((total / 1048576)) MiB)"
	bench_row "  kernel memlock of its programs and maps" KiB "${mlock[@]}"
	bench_row "  lbrsnap record max RSS" MiB "${rss[@]}"
	bench_row "  start-up and finish (wall - 1 s)" ms "${setup[@]}"
	printf -v "$var" '%s' "$(bench_median "${rss[@]}")"
	MEM_AP_BYTES=$ap
	rm -f "$BENCH_TMP"/m.data*
}

bench_memory() {
	local rss1 rss64 rss200 rssall

	bench_section "memory: lbrsnap record -v --comm (nothing matches) -d 1, $MEM_REPS runs each"
	mem_run "1 attach point" rss1 raw_tp:sys_exit || return 1
	mem_run "64 attach points" rss64 'raw_tp:mm_*' 'raw_tp:pelt_*' || return 1
	mem_run "~200 attach points" rss200 'raw_tp:kvm_*' 'raw_tp:btrfs_*' 'raw_tp:ksm_*' ||
		return 1
	mem_run "every raw tracepoint of this kernel" rssall 'raw_tp:*' || return 1
	if [ -r /sys/kernel/tracing/available_events ]; then
		bench_info "  tracefs events on this host (available_events)" \
			"$(wc -l < /sys/kernel/tracing/available_events)"
	fi

	bench_target "memory: snapshot memory per attach point" "$MEM_AP_BYTES" "<=" \
		"$MEM_MAX_AP_BYTES" bytes
	bench_target "memory: max RSS, 1 attach point" "$rss1" "<" "$MEM_MAX_RSS_1_MIB" MiB
	bench_target "memory: max RSS, 64 attach points" "$rss64" "<" "$MEM_MAX_RSS_1_MIB" MiB
	bench_target "memory: max RSS, ~200 attach points" "$rss200" "<" "$MEM_MAX_RSS_200_MIB" MiB
	bench_target "memory: max RSS, every raw tracepoint" "$rssall" "<" "$MEM_MAX_RSS_ALL_MIB" MiB
}
