# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared helpers of the benchmark sections (sourced by tests/bench/run-bench).
#
#   bench_row NAME UNIT V...      one table row: median, min..max and n of the values
#   bench_ratio "A..." "B..."     median of A over median of B (two decimals)
#   bench_info NAME TEXT          one table row that is not a repeated measurement
#   bench_cmd TEXT                how to reproduce the rows that follow (one command)
#   bench_target NAME VALUE OP LIMIT UNIT [WHY]   "PASS target ..." or "MISS target ...: WHY"
#   bench_fail NAME WHY           "FAIL target NAME: WHY" (a measurement that could not run)
#   bench_bg VAR CMD...           start CMD in the background; stopped at exit if not reaped
#   bench_wait PID                reap it
#   bench_stop PID                SIGINT, then reap; a recorder finishes its file
#   wait_for_file PATH            until PATH exists
#   wait_for_tmp OUT              until a recorder's temporary file "OUT.tmp.XXXXXX" exists
#                                 (it has attached)
#   watchpoints_fire              whether hardware watchpoints fire here (tests/lib/watchpoints.sh)
#   perf_record_bg VAR OUT ERR ARGS...   perf record ARGS -o OUT in the background, enabled
#   bpf_prog_ids PID              ids of the BPF programs PID holds (/proc/PID/fdinfo)
#   bpf_prog_stats ID             "NAME RUN_TIME_NS RUN_CNT" from bpftool
#   recorder_summary FILE         "hits records filtered lost" from lbrsnap record's stderr
# Every value goes to stdout and to $BENCH_RESULTS, and as a Markdown table row to $BENCH_MD
# (Documentation/performance.md after a full `make bench`).

# shellcheck disable=SC2034 # read by run-bench, which sources this file
bench_failed=0
bench_cleanups=()
declare -A bench_live=()

bench_out() { printf '%s\n' "$*" | tee -a "$BENCH_RESULTS"; }

# One Markdown table row of its arguments (cells); a '|' inside a cell is escaped.
bench_md() {
	local c line="|"
	for c in "$@"; do line+=" ${c//|/\\|} |"; done
	printf '%s\n' "$line" >> "$BENCH_MD"
}

bench_section() {
	bench_out ""
	bench_out "== $*"
	printf '\n## %s\n\n| measurement | median | min - max | n |\n|---|---|---|---|\n' \
		"$*" >> "$BENCH_MD"
}

bench_cmd() {
	bench_out "  \$ $*"
	bench_md "reproduce: \`$*\`" "" "" ""
}

# Median (upper of the two middle values for an even count), min and max, whole numbers.
bench_stats() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		printf "%.0f %.0f %.0f %d\n", v[int(NR / 2) + 1], v[1], v[NR], NR }'
}

bench_median() { bench_stats "$@" | cut -d' ' -f1; }

# bench_ratio "A..." "B...": median of the values A over the median of the values B
bench_ratio() {
	# shellcheck disable=SC2086 # lists of numbers
	awk -v a="$(bench_median $1)" -v b="$(bench_median $2)" \
		'BEGIN { if (b) printf "%.2f", a / b; else print "none" }'
}

bench_row() {
	local name=$1 unit=$2 med min max n
	shift 2
	read -r med min max n <<<"$(bench_stats "$@")"
	bench_out "$(printf '  %-58s %12s %-8s (min %s, max %s, n=%d)' "$name" "$med" "$unit" \
		"$min" "$max" "$n")"
	bench_md "$name" "$med $unit" "$min - $max" "$n"
}

bench_info() {
	bench_out "$(printf '  %-58s %s' "$1" "$2")"
	bench_md "$1" "$2" "" ""
}

bench_target() {
	local name=$1 value=$2 op=$3 limit=$4 unit=$5 why=${6:-} verdict=MISS line
	if awk -v v="$value" -v l="$limit" -v op="$op" 'BEGIN {
		exit !((op == "<" && v < l) || (op == "<=" && v <= l) ||
		       (op == ">" && v > l) || (op == ">=" && v >= l) || (op == "==" && v == l)) }'
	then
		verdict=PASS
	else
		bench_failed=1
	fi
	line="$verdict target $name: $value $unit $op $limit $unit"
	[ $verdict = PASS ] || [ -z "$why" ] || line+=": $why"
	bench_out "$line"
	[ $verdict = PASS ] && why=""
	bench_md "**$verdict** $name" "$value $unit $op $limit $unit" "$why" ""
}

bench_fail() {
	bench_failed=1
	bench_out "FAIL target $1: $2"
	bench_md "**FAIL** $1" "$2" "" ""
}

bench_at_exit() { bench_cleanups+=("$1"); }

bench_run_cleanups() {
	local i pid
	# only our own children that were never reaped: their pids cannot have been reused
	for pid in "${!bench_live[@]}"; do
		kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	for ((i = ${#bench_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${bench_cleanups[i]}" >/dev/null 2>&1 || true
	done
}

bench_bg() {
	local var=$1
	shift
	"$@" &
	printf -v "$var" '%s' $!
	bench_live[$!]=1
}

bench_wait() {
	local rc
	wait "$1"
	rc=$?
	unset "bench_live[$1]"
	return $rc
}

# A program that installs its SIGINT handler late (bpftrace does so after attaching) drops a
# SIGINT that comes first: background jobs start with SIGINT ignored. So it is sent again
# every second until the process is gone.
bench_stop() {
	local i
	for ((i = 0; i < 300; i++)); do
		((i % 10)) || kill -INT "$1" 2>/dev/null || break
		# exited: a zombie until bench_wait reaps it
		grep -q '^State:[[:space:]]*[ZX]' /proc/"$1"/status 2>/dev/null && break
		[ -e /proc/"$1" ] || break
		sleep 0.1
	done
	bench_wait "$1"
}

wait_for_file() {
	local i
	for ((i = 0; i < 300; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	echo "run-bench: $1 did not appear" >&2
	return 1
}

wait_for_tmp() {
	local i
	for ((i = 0; i < 300; i++)); do
		compgen -G "$1.tmp.??????" > /dev/null && return 0
		sleep 0.05
	done
	echo "run-bench: no temporary file $1.tmp.XXXXXX appeared" >&2
	return 1
}

. "$LBRSNAP_TOP/tests/lib/watchpoints.sh"

# perf starts disabled and is enabled through its control fifo: its ack means it records.
perf_record_bg() {
	local var=$1 out=$2 err=$3 ack
	shift 3
	rm -f "$out.ctl" "$out.ack"
	mkfifo "$out.ctl" "$out.ack" || return 1
	bench_bg "$var" perf record "$@" -D -1 --control "fifo:$out.ctl,$out.ack" -o "$out" \
		> /dev/null 2> "$err"
	echo enable > "$out.ctl"
	read -r -t 30 ack < "$out.ack"
	[ "$ack" = ack ] || { cat "$err" >&2; return 1; }
}

# Samples written and samples lost (ring buffer full) of a perf.data: "WRITTEN LOST"
perf_record_counts() {
	perf report -i "$1" --stats 2>/dev/null | awk '
		$1 == "SAMPLE" && $2 == "events:" { s = $3 }
		$1 == "LOST_SAMPLES" && $2 == "events:" { l = $3 }
		END { print s + 0, l + 0 }'
}

# Program fds and link fds both show prog_id in fdinfo; ids are unique, so no other process's
# programs (a test running lbrsnap at the same time) are ever counted.
bpf_prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -un
}

# Kernel memory the process's BPF programs and maps are charged for (memlock, bytes).
bpf_memlock() {
	awk 'function emit() { if (id != "" && m != "") print id, m; id = m = "" }
	     FNR == 1 { emit() }
	     /^memlock:/ { m = $2 }
	     /^(prog|map)_id:/ { id = $1 $2 }
	     END { emit() }' /proc/"$1"/fdinfo/* 2>/dev/null |
		sort -u | awk '{ s += $2 } END { print s + 0 }'
}

# The kernel's BPF run-time accounting, on for a section and put back as it was after it
# (and at exit, should the section fail half-way).
bpf_stats_on() {
	BPF_STATS_OLD=$(sysctl -n kernel.bpf_stats_enabled)
	bench_at_exit "sysctl -qw kernel.bpf_stats_enabled=$BPF_STATS_OLD"
	sysctl -qw kernel.bpf_stats_enabled=1
}

bpf_stats_restore() { sysctl -qw kernel.bpf_stats_enabled="$BPF_STATS_OLD"; }

bpf_prog_stats() {
	bpftool prog show id "$1" --json | sed -E \
		's/.*"name":"([^"]*)".*"run_time_ns":([0-9]+),"run_cnt":([0-9]+).*/\1 \2 \3/;
		 t; s/.*"name":"([^"]*)".*/\1 0 0/'
}

# Sum of the IRQ-work interrupts over all CPUs: the ring buffer's consumer wake-ups.
irq_work_count() {
	awk '$1 == "IWI:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' \
		/proc/interrupts
}

recorder_summary() {
	awk '/ hook hits: / { for (i = 2; i <= NF; i++) v[$i] = $(i - 1)
			     print v["hook"], v["recorded,"], v["filtered,"], v["lost"] }' "$1"
}

# Field NAME of a bench-run result file ("wall_ns=... maxrss_kb=... status=...").
run_field() { sed -n "s/.*\b$2=\([0-9]*\).*/\1/p" "$1"; }
