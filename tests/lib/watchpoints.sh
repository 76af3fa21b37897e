# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sourced by tests/lib/test.sh and tests/bench/lib.sh; needs watch-load on PATH.
# Whether hardware watchpoints fire here, with perf stat as the oracle (some virtual machines
# open breakpoint events that never count): fails, printing why, where they do not.
watchpoints_fire() {
	local wl addr n
	wl=$(command -v watch-load) || { echo "watch-load is not built"; return 1; }
	addr=0x$(nm "$wl" | awk '$3 == "lbrsnap_watched" { print $1 }')
	n=$(perf stat -x, -e "mem:$addr:w" -- watch-load --writes 5 2>&1 >/dev/null |
	    awk -F, '$3 ~ /^mem:/ { print $1 }')
	[ "$n" = 5 ] && return 0
	echo "hardware watchpoints do not fire on this machine (perf stat -e mem:$addr:w" \
		"counted '${n:-nothing}' of watch-load's 5 writes)"
	return 1
}
