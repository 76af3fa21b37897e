#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-mem-kernel boots it): a hardware watchpoint on a kernel
# variable by name, which needs CONFIG_KALLSYMS_ALL (Debian's kernels have it, the host's
# does not). panic_timeout is written once per write of /proc/sys/kernel/panic.
. "$(dirname "$0")/../lib/test.sh"
test_tmpdir
cd "$TEST_TMP" || exit 1
k=$(uname -r | cut -d. -f1,2)
old=$(cat /proc/sys/kernel/panic)
test_at_exit "echo $old > /proc/sys/kernel/panic"
writes='for v in 3 7 11; do echo $v > /proc/sys/kernel/panic; done'

# Where this guest's watchpoints never fire (perf stat is the oracle), lbrsnap refuses at start
if ! why=$(watchpoints_fire); then
	out=$(lbrsnap record -e mem:panic_timeout:w -o n.data -- sh -c "$writes" 2>&1 >/dev/null)
	check_eq "$k: watchpoints do not fire: exit status 1, one line" "1 1" \
		"$? $(wc -l <<<"$out")"
	check "$k: watchpoints do not fire: says so" \
		grep -qF "mem: hardware watchpoints do not fire on this machine" <<<"$out"
	skip "$k: mem:panic_timeout recordings" "$why"
	exit
fi

lbrsnap record -e mem:panic_timeout:w -o m.data -- sh -c "$writes" > /dev/null 2> m.err
check_eq "$k: mem:panic_timeout: closing line" \
	"[ lbrsnap record: 3 hook hits: 3 recorded, 0 filtered, 0 sampled out, 0 lost ]" \
	"$(tail -1 m.err)"
lbrsnap report --json -i m.data > m.json 2> /dev/null
check_eq "$k: mem:panic_timeout: spec, address from kallsyms" \
	"mem:panic_timeout/4:w 0x$(awk '$3 == "panic_timeout" { print $1 }' /proc/kallsyms)" \
	"$(jq -r 'select(.time_ns) | "\(.attach) \(.args.addr)"' m.json | sort -u)"
check_eq "$k: mem:panic_timeout: the values written" "3 7 11" \
	"$(jq -r 'select(.time_ns) | .args.value' m.json | tr '\n' ' ' | sed 's/ $//')"
check_eq "$k: mem:panic_timeout: every write's kernel stack passes the sysctl handler" 3 \
	"$(jq -r 'select(.time_ns) | [.stack[].sym] | join(" ")' m.json |
	   grep -c 'proc_sys_call_handler')"
check_eq "$k: mem:panic_timeout: ip is a kernel address in every record" 3 \
	"$(jq -r 'select(.time_ns) | .args.ip' m.json | grep -c '^0xffffffff')"

lbrsnap record -e mem:panic_timeout:w --filter 'value > 5' -o f.data -- sh -c "$writes" \
	> /dev/null 2> f.err
check_eq "$k: --filter 'value > 5': 7 and 11" "7 11" \
	"$(lbrsnap report --json -i f.data 2> /dev/null | jq -r 'select(.time_ns) | .args.value' |
	   tr '\n' ' ' | sed 's/ $//')"

check "$k: lbrsnap perf" lbrsnap perf -i m.data -o m.perf
check_eq "$k: perf script: the values" "3 7 11" \
	"$(perf script -i m.perf 2> /dev/null | sed -n 's/.* value=\([0-9]*\), ip=.*/\1/p' |
	   tr '\n' ' ' | sed 's/ $//')"
check "$k: trace-cmd-lbr convert" trace-cmd-lbr convert -i m.data -o m.dat
check_eq "$k: trace-cmd report: the values" "3 7 11" \
	"$(trace-cmd report m.dat 2> /dev/null | sed -n 's/.* value=\([0-9]*\), ip=.*/\1/p' |
	   tr '\n' ' ' | sed 's/ $//')"
