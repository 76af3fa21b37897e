#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside a guest booted with preempt=full (tests/vm/t-preempt-staging): fexit and uprobe
# programs run with migration disabled but preemptible there, so on one CPU a program's
# invocation may be preempted by another task's in the middle of its record. Many tasks
# pinned to CPU 0 hit one fexit and one uprobe at once: the closing line adds up exactly,
# no staging buffer is shared (every record parses and holds its own attach point's
# values) and none stays claimed (a second capture on the same CPU loses nothing to nesting).
# Then the ia32 checks of t-sys-records, which the host cannot run (int $0x80).
. "$(dirname "$0")/../lib/test.sh"
test_tmpdir
cd "$TEST_TMP" || exit 1
k=$(uname -r | cut -d. -f1,2)
TASKS=6 CALLS=600

mode=$(cat /sys/kernel/debug/sched/preempt 2>/dev/null)
if [ -z "$mode" ]; then
	mount -t debugfs none /sys/kernel/debug 2> /dev/null
	mode=$(cat /sys/kernel/debug/sched/preempt 2> /dev/null)
fi
# "none voluntary (full)": the mode in use in parentheses
check_eq "$k: the kernel runs with full preemption" "(full)" "$(grep -o '(full)' <<<"$mode")"

UP=$(command -v uprobe-load)
# closing LINE: "H R F S L" of "[ lbrsnap record: H hook hits: R recorded, F filtered, ...]"
counts() {
	awk '/^\[ lbrsnap record: [0-9]+ hook hits: [0-9]+ recorded, / { print $4, $7, $9, $11, $14 }' \
		"$1"
}
run() {
	local tag=$1 i
	lbrsnap record -e fexit:do_sys_openat2 -e "uprobe:$UP:lbrsnap_up_count" -o $tag.data -- \
		sh -c "for i in \$(seq $TASKS); do
			taskset -c 0 syscall-load --open-missing $CALLS > /dev/null &
			taskset -c 0 uprobe-load --calls $CALLS > /dev/null &
		done; wait" > /dev/null 2> $tag.err
}
for tag in p1 p2; do
	run $tag
	read -r hits rec filt samp lost <<<"$(counts $tag.err)"
	check "$tag: $k: a closing line" test -n "$hits"
	check_eq "$tag: $k: hits = recorded + filtered + sampled out + lost ($hits)" "$hits" \
		"$((rec + filt + samp + lost))"
	check_eq "$tag: $k: nothing still running when counted" "0" \
		"$(grep -c 'still running when counted' $tag.err)"
	s=$(lbrsnap report --json -i $tag.data 2> /dev/null | "$LBRSNAP_TOP/tests/lib/records.py")
	check_eq "$tag: $k: every record parses: the file's records are the closing line's" \
		"$rec" "$(sed -n 's/^count=//p' <<<"$s")"
	check_eq "$tag: $k: every record has every field" 1 "$(sed -n 's/^fields=//p' <<<"$s")"
	# two invocations given one buffer submit the later one's record twice (the first's is
	# gone): an attach point's ticket (seq) on a CPU is in one record only
	check_eq "$tag: $k: no record twice: (attach point, CPU, ticket) unique" 0 \
		"$(lbrsnap report --json -i $tag.data 2> /dev/null |
		   jq -s '[.[] | select(.time_ns) | "\(.attach) \(.cpu) \(.seq)"] |
			  length - (unique | length)')"
	# each record its own: a uprobe record's one argument is its call's i, 1..CALLS
	lbrsnap report --json -i $tag.data 2> /dev/null |
		jq -c "select(.attach == \"uprobe:$UP:lbrsnap_up_count\") | .args.i" > $tag.up
	check_eq "$tag: $k: every uprobe record holds its own argument (i in 1..$CALLS)" 0 \
		"$(awk -v n=$CALLS '!($1 >= 1 && $1 <= n)' $tag.up | wc -l)"
	if [ "$lost" = 0 ]; then
		check_eq "$tag: $k: nothing lost: the $TASKS x $CALLS uprobe calls recorded" \
			"$((TASKS * CALLS))" "$(wc -l < $tag.up)"
	fi
	echo "# $tag: $(grep -v '^lbrsnap record: LBR is not available' $tag.err | tr '\n' ' ')"
done

# the ia32 checks (and the rest of t-sys-records) where int $0x80 runs
[ -n "${LBRSNAP_PREEMPT_ONLY:-}" ] && exit
"$LBRSNAP_TOP/tests/host/t-sys-records" | sed "s/^\(\(not \)\?ok - \|skip - \)/\1$k: /"
