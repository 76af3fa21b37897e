# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared by the trace.dat host tests (sourced, not run): a `trace-cmd record -C mono` that
# undoes its side effects on this machine, and report helpers.
#
# On the development machine `trace-cmd record` only works as `record -d --no-filter`, which
# exits 1 after writing a complete file and leaves tracing_on=0, function-trace=0, the -B
# instances and the enabled events behind (platform.md section 6). Everything is put back.

tracefs=/sys/kernel/tracing

tracefs_mount() {
	if [ ! -e "$tracefs/trace_clock" ]; then
		mount -t tracefs nodev "$tracefs" || return 1
		test_at_exit "umount '$tracefs'"
	fi
}

# tracefs_save / tracefs_restore: around anything that runs `trace-cmd record`
tracefs_save() {
	saved_clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$tracefs/trace_clock")
	saved_on=$(cat "$tracefs/tracing_on")
	saved_ft=$(cat "$tracefs/options/function-trace")
	saved_events=$(grep -l 1 "$tracefs"/events/*/*/enable 2>/dev/null)
}

tracefs_restore() {
	local f
	echo "$saved_on" > "$tracefs/tracing_on"
	echo "$saved_ft" > "$tracefs/options/function-trace"
	echo "$saved_clock" > "$tracefs/trace_clock"
	# disable what the recording enabled, keep what was on before
	for f in $(grep -l 1 "$tracefs"/events/*/*/enable 2>/dev/null); do
		grep -qxF "$f" <<<"$saved_events" || echo 0 > "$f"
	done
}

# trace_record INSTANCE OUT.dat [trace-cmd record args...]: records with -B INSTANCE added
# when INSTANCE is not "-"; restores tracefs afterwards; succeeds if the file reads.
trace_record() {
	local inst=$1 out=$2
	shift 2
	tracefs_save
	if [ "$inst" != - ]; then
		[ -e "$tracefs/instances/$inst" ] && return 1
		set -- "$@" -B "$inst" -e sched:sched_switch
	fi
	# twenty short sleeps, not one: a quiet machine switches tasks too rarely in 0.2 s for
	# the tests that need a recording with events in it
	trace-cmd record -d --no-filter -o "$out" "$@" -- \
		sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do sleep 0.01; done' \
		> "$out.log" 2>&1
	tracefs_restore
	[ "$inst" != - ] && rmdir "$tracefs/instances/$inst" 2>/dev/null
	trace-cmd report "$out" > /dev/null 2>&1
}

# Report lines of the lbr events, and of everything else
lbr_lines() { grep -E ' (branch_snapshot|branch|stack): ' "$@"; }
other_lines() { grep -vE ' (branch_snapshot|branch|stack): ' "$@"; }

# First and last time stamp of a file, in ns
trace_span() {
	trace-cmd report -t "$1" 2>/dev/null |
		sed -n 's/.*\] *\([0-9]*\)\.\([0-9]\{9\}\): .*/\1\2/p' | sed -n '1p;$p' | tr '\n' ' '
}
