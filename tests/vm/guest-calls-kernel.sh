#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-calls-kernel boots it): --calls on the kernel scopes,
# issue 22's acceptance. Around `mkdir d; mkdir d; mkdir new`:
#
#   -e fexit:MKDIRAT --errors --calls 'filename_create,lookup_one_qstr_excl,vfs_mkdir,may_*'
#
# keeps exactly the -EEXIST scope, its origin the call the kernel returns -EEXIST from
# (filename_create up to 6.12, which finds the dentry positive; lookup_one_qstr_excl on 7.2,
# which refuses it with LOOKUP_EXCL; measured), the calls nested, durations non-negative and
# inside their caller's, the same tree in report text and JSON; --longer 2s keeps none (once
# per kind of scope). The same with kretprobe:MKDIRAT, and with raw_tp:sys_exit filtered to
# the mkdir syscall (frame 0 named "mkdir"). Every scope counted: a task killed (kill -9)
# while blocked inside the traced hrtimer_nanosleep and the tasks that exit (exit_group never
# returns) die inside a sys_exit scope, and the closing line adds up. The mechanism -v names
# is the kernel's: tracing_multi where the kernel has its links (7.2), else kprobe.session
# where it has kprobe.session links (6.12), fentry/fexit pairs on 6.1; --calls-via each other
# one the kernel takes gives the same tree, one it does not take is refused.
# MKDIRAT is do_mkdirat, filename_mkdirat on 7.2 (probed in kallsyms, said below).
. "$(dirname "$0")/../lib/test.sh"
. "$(dirname "$0")/guest-ret-load.sh"
test_guest_dir
SPEC='filename_create,lookup_one_qstr_excl,vfs_mkdir,may_*'
echo "# $k: the mkdirat function is $MKDIRAT"

case $k in
6.1) mech=fentry-fexit; origin=filename_create ;;
6.12) mech=kprobe.session; origin=filename_create ;;
*) mech='tracing_multi (fentry.multi+fexit.multi)'; origin=lookup_one_qstr_excl ;;
esac

# rec NAME OPTIONS...: the three mkdirs in a fresh folder, into NAME.data; report text/JSON
rec() {
	local name=$1
	shift
	rm -rf "w-$name"
	mkdir "w-$name"
	(cd "w-$name" && lbrsnap record -v "$@" -o "../$name.data" -- \
		sh -c 'mkdir d; mkdir d; mkdir new' > "../$name.out" 2> "../$name.err")
	check "$k: $name: recorded" test -s "$name.data" || tail -3 "$name.err" | sed 's/^/# /'
	grep 'calls: ' "$name.err" | sed "s/^/# $name: /"
	lbrsnap report -i "$name.data" > "$name.txt" 2> /dev/null
	lbrsnap report --json -i "$name.data" > "$name.json" 2> /dev/null
}

# One jq per recording (jq takes seconds to start under TCG): NAME.view holds "ret VALUE" and
# "origin FUNC ERRNO" per record with calls, "call DEPTH FUNC" per call and "fault WHAT" per
# call that is not nested: its depth one more than its caller's (the nearest shallower call
# before it), its duration >= 0 and its time inside its caller's; frame 0 at depth 0.
VIEW_JQ='select(.calls) | .calls as $c |
	"ret \(.ret)", "origin \(.origin.func) \(.origin.errno)", ($c[] | "call \(.depth) \(.func)"),
	(range(1; $c | length) as $i |
		[range(0; $i) | select($c[.].depth == $c[$i].depth - 1)] | last as $p |
		if $p == null then "fault call \($i) \($c[$i].func): no caller"
		elif $c[$i].duration_ns < 0 then "fault call \($i): negative duration"
		elif ($c[$i].start_ns | tonumber) < ($c[$p].start_ns | tonumber) or
		     ($c[$i].start_ns | tonumber) + $c[$i].duration_ns >
		     ($c[$p].start_ns | tonumber) + $c[$p].duration_ns
		then "fault call \($i) \($c[$i].func) outside \($c[$p].func)" else empty end),
	($c[0] | select(.depth != 0 or .duration_ns < 0) |
		"fault the scope\u0027s frame: depth \(.depth), \(.duration_ns) ns")'

# view KEY NAME: the lines of NAME.view under KEY, the key taken off (no process started)
view() {
	local key rest
	while read -r key rest; do
		[ "$key" != "$1" ] || printf '%s\n' "$rest"
	done < "$2.view"
}

# tree NAME: "depth func" per call, from the JSON (view) and from the text's indentation
json_tree() { view call "$1"; }
text_tree() {
	awk '/^  calls \(/ { on = 1; next }
	     on && /^    / { match($0, /^ */); print (RLENGTH - 4) / 2, $1; next }
	     { on = 0 }' "$1.txt"
}

# graph_tree REPORT: "depth func" per funcgraph_entry line of trace-cmd report, the depth from
# the indentation after the duration column (2 spaces a level, the first call's is 0)
graph_tree() {
	grep -E 'funcgraph_entry: ' "$1" | sed 's/^[^|]*|//' |
		awk '{ match($0, /^ */); if (NR == 1) base = RLENGTH
		       name = $1; sub(/\(\).*$/, "", name); print (RLENGTH - base) / 2, name }'
}

# perf_tree PERF: "depth func" per lbr:call sample perf script prints
perf_tree() {
	perf script -i "$1" 2> /dev/null | grep -o 'func=[^ ]* depth=[0-9]*' |
		sed 's/^func=\([^ ]*\) depth=\(.*\)$/\2 \1/'
}

# scope NAME FRAME0 OPTIONS...: the acceptance checks of one scope (GRAPH0: frame 0's name in
# trace.dat where it is not FRAME0)
scope() {
	local name=$1 frame0=$2
	shift 2
	rec "$name" "$@" --errors --calls "$SPEC"
	jq -r "$VIEW_JQ" "$name.json" > "$name.view"
	check_eq "$k: $name: exactly one record, the -EEXIST one" "-17" "$(view ret "$name")"
	check_eq "$k: $name: origin $origin (returns -EEXIST)" "$origin EEXIST" \
		"$(view origin "$name")"
	check_eq "$k: $name: frame 0 is $frame0" "0 $frame0" "$(json_tree "$name" | head -1)"
	check_eq "$k: $name: the exact tree: the scope, filename_create, lookup_one_qstr_excl" \
		"0 $frame0
1 filename_create
2 lookup_one_qstr_excl" "$(json_tree "$name")"
	check_eq "$k: $name: calls nested, durations >= 0 and inside their caller's" "" \
		"$(view fault "$name")"
	check_eq "$k: $name: report text and JSON show the same tree" "$(json_tree "$name")" \
		"$(text_tree "$name")"
	check "$k: $name: the text marks the origin" grep -q "^ *$origin .*<- origin" "$name.txt"
	check_eq "$k: $name: -v names the mechanism" \
		"lbrsnap record: calls: mechanism $mech" \
		"$(grep -o '^lbrsnap record: calls: mechanism [^,]*' "$name.err")"
	check "$k: $name: the report's summary names it" \
		grep -q "^\[ lbrsnap: calls traced by $mech \]" "$name.txt"
	# every output encodes the same view: trace.dat's function graph, perf.data's lbr:call
	trace-cmd-lbr convert -q -i "$name.data" -o "$name.dat" 2> "$name.dat.err"
	trace-cmd report "$name.dat" > "$name.dat.txt" 2> /dev/null
	check_eq "$k: $name: trace-cmd report prints the same tree (function graph)" \
		"$(json_tree "$name" | sed "1s/^0 .*/0 ${GRAPH0:-$frame0}/")" \
		"$(graph_tree "$name.dat.txt")"
	lbrsnap perf -i "$name.data" -o "$name.perf" 2> "$name.perf.err"
	check_eq "$k: $name: perf script prints the same calls (lbr:call)" \
		"$(json_tree "$name")" "$(perf_tree "$name.perf")"
	grep -E 'funcgraph_entry: ' "$name.dat.txt" | sed "s/^/# $name trace.dat: /"
	json_tree "$name" | sed "s/^/# $name: /"
	# the scope's duration filter, once per kind of scope: a --calls-via scope's durations
	# are those checked above
	[[ " $* " != *" --calls-via "* ]] || return 0
	rec "$name-longer" "$@" --errors --calls "$SPEC" --longer 2s
	check_eq "$k: $name: --longer 2s keeps none" "0" \
		"$(jq -r 'select(.calls) | .ret' "$name-longer.json" | wc -l)"
}

scope fexit "$MKDIRAT" -e "fexit:$MKDIRAT"
# --calls-via: each other mechanism the kernel takes gives the same answer, named as used; one
# it does not take is refused (exit 1, no file) with what its probe found
case $k in
6.1) others=(); refused=kprobe.session ;;
6.12) others=(kprobe-multi fentry-fexit); refused=tracing_multi ;;
*) others=(kprobe.session kprobe-multi fentry-fexit); refused= ;;
esac
for via in "${others[@]}"; do
	mech=$via scope "fexit-via-$via" "$MKDIRAT" -e "fexit:$MKDIRAT" --calls-via "$via"
done
if [ -n "$refused" ]; then
	lbrsnap record -e "fexit:$MKDIRAT" --calls "$SPEC" --calls-via "$refused" -o via.data \
		-- true > /dev/null 2> via.err
	check_eq "$k: --calls-via $refused: exit 1" 1 "$?"
	check "$k: --calls-via $refused: says the kernel does not take it" grep -q \
		"^lbrsnap record: --calls-via $refused: this kernel does not take it (no $refused" \
		via.err
	check "$k: --calls-via $refused: no file" test ! -e via.data
fi
scope kretprobe "$MKDIRAT" -e "kretprobe:$MKDIRAT"
# x86-64 coreutils mkdir calls the mkdir syscall
# (in trace.dat the syscall's frame is its kernel function, as the function_graph tracer shows)
GRAPH0=__x64_sys_mkdir scope sys_exit mkdir -e raw_tp:sys_exit \
	--filter 'syscall == mkdir || syscall == mkdirat'

# Scopes that never end, or end killed. A sleep killed (kill -9) while blocked inside the
# traced hrtimer_nanosleep: the syscall returns (-ERESTART_RESTARTBLOCK, -516) before the
# task dies, so its scope ends and, being an error, is kept. Every task's exit_group has no
# sys_exit: sh, `sleep 1` and the two mkdirs die inside their scope. A sleep left blocked when
# the capture ends (the workload's sh exited) is a scope still open at detach.
rm -rf w-died && mkdir w-died
(cd w-died && lbrsnap record -e raw_tp:sys_exit --errors --calls "$SPEC,hrtimer_nanosleep" \
	--filter 'syscall == mkdir || syscall == clock_nanosleep' -o ../died.data -- \
	sh -c 'sleep 100 & pid=$!; sleep 30 & echo $! > ../left; sleep 1; kill -9 $pid
wait $pid; mkdir d; mkdir d' > ../died.out 2> ../died.err)
kill -9 "$(cat left)"
line=$(grep -o 'calls: [0-9]* scopes: [0-9]* ended, [0-9]* died inside, [0-9]* still open' \
	died.err)
echo "# died: $line"
read -r s e d o <<< "$(echo "$line" | tr -cs '0-9' ' ')"
check "$k: died: the closing line adds up ($line)" test -n "$s" -a "$s" = "$((e + d + o))"
lbrsnap report --json -i died.data 2> /dev/null > died.json
kept=$(jq -r 'select(.calls) | "\(.calls[0].func) \(.ret) \(.origin.func)"' died.json | sort)
# Whether the killed sleep's syscall returns first is the kernel's: 6.12 returns -516 (the
# scope ends, the record is kept, hrtimer_nanosleep its origin), 7.2 kills it inside
if grep -q '^clock_nanosleep -516 hrtimer_nanosleep$' <<< "$kept"; then
	echo "# $k: the killed sleep's syscall returned -516: its scope ended"
	killed=0
else
	echo "# $k: the killed sleep died inside its scope"
	killed=1
fi
check_eq "$k: died: 4 exit_groups (and the killed sleep, if it did not return) died inside, \
the left sleep still open" "$((4 + killed)) 1" "$d $o"
check_eq "$k: died: the records are the -EEXIST mkdir (and the killed sleep's, if it returned)" \
	"$([ $killed = 1 ] || echo 'clock_nanosleep -516 hrtimer_nanosleep')
mkdir -17 $origin" "$([ $killed = 1 ] && echo; echo "$kept")"
