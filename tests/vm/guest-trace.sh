# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-trace-record boots it, with bash): trace-cmd-lbr record
# with an fexit attach point around a workload whose failing opens are known. Not executable
# on purpose: the test runner must not start it on the host.
. "$(dirname "$0")/../lib/test.sh"
test_tmpdir
cd "$TEST_TMP" || exit 1
k=$(uname -r | cut -d. -f1,2)
[ -e /sys/kernel/tracing/trace_clock ] || mount -t tracefs nodev /sys/kernel/tracing

trace-cmd-lbr record -e sched:sched_switch --event fexit:do_sys_openat2 --errors --stack \
	--follow --keep -o m.dat -- syscall-load --comm lbrt-tc --open-missing 12 > w.out 2> w.err
rc=$?
check_eq "$k: record exits 0" 0 "$rc"
pid=$(sed -n 's/^pid=//p' w.out)
check_eq "$k: one file (and the kept inputs) left behind" "m.dat w.err w.out" \
	"$(ls | tr '\n' ' ' | sed 's/ $//')"
trace-cmd report m.dat > m.txt 2> m.err
sw=$(grep -c ' sched_switch: ' m.txt)
check "$k: sched_switch events recorded ($sw)" test "$sw" -gt 0
# the capture, kept for comparison: the workload's 12 failing opens (the fork child was
# trace-cmd until its exec and may have failing opens of its own, under the same pid)
kept=$(sed -n 's/.*inputs kept in //p' w.err)
lbrsnap report --json -i "$kept/lbrsnap.data" 2> /dev/null | python3 -c '
import json, sys
pid = int(sys.argv[1])
recs = [json.loads(l) for l in sys.stdin if l.startswith("{\"time_ns\"")]
mine = [r for r in recs if r["tid"] == pid]
print(sum(1 for r in mine if r["comm"] == "lbrt-tc" and r["ret"] == -2 and r["stack"]))
for t in sorted(int(r["time_ns"]) for r in mine):
	print(t)' "$pid" > cap.txt
check_eq "$k: the capture has the workload's 12 failing opens" 12 "$(head -1 cap.txt)"
got=$(trace-cmd report -t m.dat 2> /dev/null |
	sed -n "s/^ *[^ ]*-$pid .* \([0-9]*\)\.\([0-9]\{9\}\): branch_snapshot: .*/\1\2/p")
check_eq "$k: merged snapshots of the workload at their capture times" \
	"$(tail -n +2 cap.txt)" "$got"
check_eq "$k: each with its kernel stack" "$(tail -n +2 cap.txt | wc -l)" \
	"$(grep -cE "^ *[^ ]+-$pid +\[.* stack: +fexit:do_sys_openat2 nr=[1-9]" m.txt)"
# both kinds interleave in time: sched_switch events between the first and last snapshot
between=$(awk '/ branch_snapshot: /{ if (!f) f = NR; l = NR } / sched_switch: /{ sw[NR] = 1 }
	END { for (i = f; i < l; i++) n += (i in sw); print n + 0 }' m.txt)
check "$k: sched_switch and lbr events interleave ($between between)" test "$between" -gt 0
check "$k: report --ts-check" trace-cmd report --ts-check m.dat
check "$k: report --check-events" trace-cmd report --check-events m.dat
# The recording's own name for the pid wins; the capture's (lbrt-tc) stands where it has
# none. trace-cmd reads the kernel's saved comms at the end: a workload that ran briefly may
# be saved under the name of the trace-cmd child it was forked as.
own=$(trace-cmd dump --cmd-lines "$kept/trace-cmd.dat" 2> /dev/null |
	sed -n "s/^ *$pid \(.*\)$/\1/p" | tail -1)
check_eq "$k: the workload's name: the recording's (${own:-none}), else the capture's" \
	"${own:-lbrt-tc}" \
	"$(sed -n "s/^ *\([^ ]*\)-$pid .* branch_snapshot: .*/\1/p" m.txt | sort -u)"
