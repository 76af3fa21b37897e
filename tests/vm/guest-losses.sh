#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-losses boots it): the kernel's own loss counters, and
# how kprobe: attaches.
#
# - kprobe: and kretprobe: try a kprobe-multi link and fall back to one kprobe per function
#   when the kernel refuses it (6.1: no CONFIG_FPROBE), said with -v.
# - N sleep commands at once in hrtimer_nanosleep, under kretprobe:hrtimer_nanosleep,
#   exhaust the return instances where the kernel has a pool: 6.12's fprobe keeps
#   2 * possible CPUs rethook nodes per function, and counts the rest in the link's `missed`
#   (the closing line's and the file's probe_missed); 6.1's kretprobes keep
#   max(10, 2 * possible CPUs) instances and count the rest where no link info reaches (-v
#   and the file say it is not counted); 7.2's fprobe runs over fgraph's shadow stacks, with
#   no pool to exhaust: every call recorded, the counter read and 0.
# - A name kallsyms holds twice is refused, naming both addresses.
. "$(dirname "$0")/../lib/test.sh"
test_guest_dir
N=24
# possible CPUs: "0-1"
possible=$(( $(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1 ))
t_diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# --- item 16: the multi link tried, the fallback said
lbrsnap record -v -e kprobe:hrtimer_nanosleep -o v.data -- sleep 0.1 > /dev/null 2> v.err
rc=$?
case $k in
6.1) how="one kprobe per function: the kernel refused a test kprobe-multi link (attach to \
bpf_fentry_test1: Operation not supported)" ;;
*) how="kprobe-multi links: a test link attached to bpf_fentry_test1" ;;
esac
check_eq "$k: -v says how kprobe: attaches" "lbrsnap record: kprobe:, kretprobe: $how" \
	"$(grep '^lbrsnap record: kprobe:, kretprobe:' v.err)"
check_eq "$k: kprobe:hrtimer_nanosleep records the sleep (exit status, records)" "0 1" \
	"$rc $(lbrsnap report --json -i v.data 2> /dev/null | jq -s '[.[] | select(.time_ns)] | length')"

case $k in
6.1) want=no ;;
*) want=yes ;;
esac
check_eq "$k: lbrsnap features: kprobe_multi" "kprobe_multi $want" \
	"$(lbrsnap features | awk '$1 == "kprobe_multi" { print $1, $2 }')"

# --- item 15: kretprobe instances exhausted
# N sleep commands, all in clock_nanosleep (230) before any returns: then each is ended, and
# its call returns (the kretprobe fires, or its instance was missing). The script waits with
# read -t on a FIFO nobody writes, which never enters hrtimer_nanosleep itself.
mkfifo never
cat > sleepers <<EOS
exec 9<> never
pids=
for i in \$(seq $N); do sleep 1000 & pids="\$pids \$!"; done
for p in \$pids; do
	t=0
	until [ "\$(cut -d' ' -f1 /proc/\$p/syscall 2> /dev/null)" = 230 ] || [ \$t -ge 600 ]; do
		read -r -t 0.1 -u 9; t=\$((t + 1))
	done
done
kill \$pids
wait
EOS
lbrsnap record -v -e kretprobe:hrtimer_nanosleep -o x.data -- bash sleepers > /dev/null 2> x.err
rc=$?
check_eq "$k: exhausting run: exit status" 0 "$rc"
closing=$(grep '^\[ lbrsnap record: [0-9]* hook hits' x.err)
read -r hits recorded filtered sampled lost <<< "$(sed -E 's/^\[ lbrsnap record: ([0-9]+) hook hits: ([0-9]+) recorded, ([0-9]+) filtered, ([0-9]+) sampled out, ([0-9]+) lost \]$/\1 \2 \3 \4 \5/' <<<"$closing")"
missed=$(sed -n 's/^\[ lbrsnap record: LOST \([0-9]*\): skipped by the kernel.s kprobe or fprobe .*/\1/p' x.err)
missed=${missed:-0}
t_diag "$k: $N sleepers, possible CPUs $(cat /sys/devices/system/cpu/possible)" \
	"$k: $closing" "$(grep -e LOST -e 'not counted' x.err)"
check_eq "$k: the closing line adds up (hits = recorded + filtered + sampled out + lost)" \
	"$hits" "$((recorded + filtered + sampled + lost))"
uncounted=$(grep -c '^\[ lbrsnap record: not counted on this kernel, so not in the hits: kprobe, kretprobe' x.err)
json=$(lbrsnap report --json -i x.data 2> /dev/null | jq -c 'select(.losses)')
file_missed=$(jq '[.losses[].probe_missed] | add' <<<"$json")
case $k in
6.1)
	inst=$(( possible * 2 > 10 ? possible * 2 : 10 ))
	check_eq "$k: $N sleeps, $inst kretprobe instances: $inst recorded, none counted lost" \
		"$inst 0" "$recorded $missed"
	check_eq "$k: -v says the misses are not counted here" 1 "$uncounted"
	lbrsnap report -i x.data > x.txt 2> /dev/null
	check "$k: the file says so too (lbrsnap report)" grep -q \
		'^\[ lbrsnap: not counted by the capturing kernel: kprobe, kretprobe: hits the kernel let pass' \
		x.txt
	;;
6.12)
	inst=$(( possible * 2 ))
	check_eq "$k: $N sleeps, $inst fprobe return nodes: $inst recorded, $((N - inst)) missed" \
		"$inst $((N - inst))" "$recorded $missed"
	check_eq "$k: the misses are counted here (no 'not counted' line)" 0 "$uncounted"
	;;
*)
	check_eq "$k: $N sleeps, fprobe over fgraph (no pool): $N recorded, 0 missed" \
		"$N 0" "$recorded $missed"
	check_eq "$k: the misses are counted here (no 'not counted' line)" 0 "$uncounted"
	;;
esac
check_eq "$k: the file holds the misses of the closing line (report --json probe_missed)" \
	"$missed" "$file_missed"
check_eq "$k: the file holds the closing line's counts (report --json counts)" \
	"$hits $recorded $filtered" "$(jq -r '"\(.counts.hits) \(.counts.records) \(.counts.filtered)"' <<<"$json")"
if [ "$missed" -gt 0 ]; then
	lbrsnap report -i x.data > x.txt 2> /dev/null
	check "$k: lbrsnap report prints the misses" grep -qF \
		"[ lbrsnap: kretprobe:hrtimer_nanosleep: the kprobe or fprobe missed $missed hits" \
		x.txt
fi

# --- item 16: a name kallsyms holds twice is refused, both addresses named; left out of a glob
# Traceable twice: available_filter_functions lists each instance. The first few such names
# are tried until one is typed by BTF (lbrsnap's refusal says so, not an unknown name).
tracefs=/sys/kernel/tracing
[ -e $tracefs/available_filter_functions ] || tracefs=/sys/kernel/debug/tracing
awk 'NF == 1' $tracefs/available_filter_functions | sort | uniq -d > dups
# BTF functions, where this bpftool reads the kernel's BTF (Debian 12's cannot read 7.2's)
bpftool btf dump file /sys/kernel/btf/vmlinux 2> /dev/null |
	sed -n "s/^\[[0-9]*\] FUNC '\([^']*\)'.*/\1/p" | sort -u > funcs
[ -s funcs ] && comm -12 dups funcs > cands || cp dups cands
dup=
for cand in $(head -8 cands); do
	lbrsnap record -e "kprobe:$cand" -o d.data -- true > /dev/null 2> d.err
	rc=$?
	if grep -qF "kallsyms holds" d.err; then
		dup=$cand
		break
	fi
done
if [ -z "$dup" ]; then
	# 7.2's BTF (a newer pahole) leaves out every function traceable twice: nothing to refuse
	skip "$k: a name kallsyms holds twice" "no function traceable twice is typed by this \
kernel's BTF ($(wc -l < dups) traceable twice, $(wc -l < cands) of them in BTF)"
	t_diag "$(wc -l < dups) names traceable twice, $(wc -l < funcs) BTF functions" \
		"$(head -3 cands | tr '\n' ' ')" "$(cat d.err 2> /dev/null | head -3)"
else
	n=$(awk -v n="$dup" '$3 == n && NF == 3' /proc/kallsyms | wc -l)
	addrs=$(awk -v n="$dup" '$3 == n && NF == 3 && i++ < 2 { printf "%s0x%s", sep, $1;
		sep = ", " }' /proc/kallsyms)
	[ "$n" -gt 2 ] && addrs="$addrs, ..."
	check_eq "$k: kprobe:$dup (held twice): exit status 1" 1 "$rc"
	check "$k: kprobe:$dup: refused naming both addresses ($addrs)" grep -qF \
		"kallsyms holds $n functions named $dup ($addrs)" d.err
	t_diag "$(head -2 d.err)"
	lbrsnap record -e "kprobe:$dup*,hrtimer_nanosleep" -o g.data -- sleep 0.1 > /dev/null \
		2> g.err
	rc=$?
	check_eq "$k: kprobe:$dup*,hrtimer_nanosleep: exit status 0" 0 "$rc"
	check "$k: kprobe:$dup*: $dup left out of the glob, said with its addresses" grep -qF \
		"left out: kallsyms holds" g.err
	check "$k: kprobe:$dup*: the example names $dup ($addrs)" grep -qF "(e.g. $dup ($addrs))" \
		g.err
	t_diag "$(grep 'left out' g.err)"
fi
