#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-kprobe-multi boots it): kprobe:GLOB and kretprobe:GLOB,
# one program per spec, each matched function an attach point of its own: one kprobe-multi
# link on 6.12, one kprobe link per function on Debian's 6.1 (no CONFIG_FPROBE), with the
# same results. For tests/helpers/ret-load's exact calls (see guest-ret.sh and guest-args.sh
# for the functions and what each returns):
#
#   kretprobe:do_[a-m]* (100+ functions), kretprobe:ksys_*, kretprobe:filldir64
#	do_mkdirat		int		0 x1, -17 (EEXIST) x3
#	do_filp_open		struct file *	a pointer x1, ERR_PTR(-ENOENT) x2
#	filldir64		bool		true x4, false x2
#	ksys_write		ssize_t		4242 x3, -9 (EBADF) x5
#	ksys_mmap_pgoff		unsigned long	1099511627776 x1, 18446744073709551597 x1,
#						18446744073709551607 x2
#   kprobe:do_mkdirat,do_sys_openat2,hrtimer_nanosleep (a list: one link): the arguments
#
# in lbrsnap report (text and JSON), perf script and trace-cmd report; --filter; the counters
# adding up; the programs taking the snapshot first (xlated); and the attach and detach times
# of kretprobe:LIST next to fexit:LIST and bpftrace on the same 10 functions (7.x). Prints
# ok/not ok.
. "$(dirname "$0")/../lib/test.sh"
. "$(dirname "$0")/guest-ret-load.sh"
test_guest_dir

# record NAME [OPTIONS...]: ret-load's calls only (--comm), into NAME.data
record() {
	ret_load_record lbrt-km "$@"
	check "$k: $1: captured" test -s "$1.data"
}
# "N target ret" per distinct value, as report --json gives them
values() {
	jq -r 'select(.time_ns) | "\(.target) \(.ret) \(.ret_type)"' "$1" | kaddr | sort |
		uniq -c | sed 's/^ *//'
}

# 7.2's filename_mkdirat is out of the do_[a-m]* glob: a spec of its own (one function, one
# program, so the counts of shared programs below stay the same)
mkspec=()
[ "$MKDIRAT" = do_mkdirat ] || mkspec=(-e "kretprobe:$MKDIRAT")
record ret -v -e 'kretprobe:do_[a-m]*' -e 'kretprobe:ksys_*' -e kretprobe:filldir64 "${mkspec[@]}"
lbrsnap report --json -i ret.data > ret.json 2> /dev/null
lbrsnap report -i ret.data > ret.txt 2> /dev/null
n=$(grep -c '^lbrsnap record: attached kretprobe:do_[a-m]' ret.err)
check "$k: kretprobe:do_[a-m]* attaches 100+ functions ($n), one program" \
	test "$n" -ge 100 -a "$(grep -c '(shares the program' ret.err)" = $((n - 1 + \
	$(grep -c '^lbrsnap record: attached kretprobe:ksys_' ret.err) - 1))
check_eq "$k: kretprobe: exact values of each type, each function its own attach point" \
"1 $FILP_OPEN 0xffff<addr> struct file *
2 $FILP_OPEN ERR_PTR(-ENOENT) struct file *
3 $MKDIRAT -17 int
1 $MKDIRAT 0 int
2 filldir64 false bool
4 filldir64 true bool
1 ksys_mmap_pgoff 1099511627776 long unsigned int
1 ksys_mmap_pgoff 18446744073709551597 long unsigned int
2 ksys_mmap_pgoff 18446744073709551607 long unsigned int
5 ksys_write -9 ssize_t
3 ksys_write 4242 ssize_t" \
	"$(values ret.json | grep -E " ($MKDIRAT|$FILP_OPEN|filldir64|ksys_write|ksys_mmap_pgoff) ")"
check_eq "$k: report: the function and its typed value" \
"      3 kretprobe:$MKDIRAT ret=-17 (EEXIST)
      1 kretprobe:$MKDIRAT ret=0" \
	"$(grep -E '^ *[0-9]+\.[0-9]+ ' ret.txt | grep -o " kretprobe:$MKDIRAT .*" |
	   sed 's/^ //' | sort | uniq -c)"
# the counters: per glob, so they sum over its functions
counts='s/.* \([0-9]*\) hook hits: \([0-9]*\) recorded, \([0-9]*\) filtered, \([0-9]*\) sampled out, \([0-9]*\) lost.*/\1 \2 \3 \4 \5/p'
read -r hits rec filt samp lost <<<"$(sed -n "$counts" ret.err)"
check_eq "$k: counters add up: hits = recorded + filtered, records = JSON records, none lost" \
	"$((rec + filt)) $(jq -r 'select(.time_ns) | .target' ret.json | wc -l) 0 0" \
	"$hits $rec $samp $lost"

# perf script and trace-cmd report name the function of each record
lbrsnap perf -i ret.data -o ret.perf --no-kallsyms > /dev/null 2>&1
check_eq "$k: perf script: an event per function, with its value" \
"      3 lbr:kretprobe:$MKDIRAT: ret=-17
      1 lbr:kretprobe:$MKDIRAT: ret=0
      4 lbr:kretprobe:filldir64: ret=true" \
	"$(perf script -i ret.perf -F event,trace 2> /dev/null |
	   sed -n "s/^ *\(lbr:kretprobe:\($MKDIRAT\|filldir64\):\) *.*\(ret=[-a-z0-9]*\).*/\1 \3/p" |
	   grep -v 'ret=false' | sort | uniq -c)"
trace-cmd-lbr convert -q -i ret.data -o ret.dat
check_eq "$k: trace-cmd report: the function of each record, with its value" \
"      3 kretprobe:$MKDIRAT ret=-17
      1 kretprobe:$MKDIRAT ret=0" \
	"$(trace-cmd report -N ret.dat 2> /dev/null |
	   sed -n "s/.* branch_snapshot: *\(kretprobe:$MKDIRAT\) .*\(ret=[-0-9]*\).*/\1 \2/p" |
	   sort | uniq -c)"

# kprobe: the arguments, from the registers, typed from BTF
record args -e kprobe:$MKDIRAT,do_sys_openat2,hrtimer_nanosleep
lbrsnap report -i args.data > args.txt 2> /dev/null
lbrsnap report --json -i args.data > args.json 2> /dev/null
check_eq "$k: kprobe: int, pointer and umode_t arguments" \
	"      4 $MKDIRAT(dfd=-100, name=0xffff<addr>, mode=0755)" \
	"$(sed -n "s/.* kprobe:$MKDIRAT //p" args.txt | kaddr | sort | uniq -c)"
check_eq "$k: kprobe: the paths, read as strings" \
"      1 $dir/ret-load.d
      2 $dir/ret-load.d/missing" \
	"$(jq -r 'select(.target == "do_sys_openat2") | .args.filename' args.json |
	   grep "^$dir" | sort | uniq -c)"
check_eq "$k: kprobe: s64, enum by name, clockid_t" \
"      1 hrtimer_nanosleep(rqtp=0, mode=HRTIMER_MODE_ABS, clockid=1)
      2 hrtimer_nanosleep(rqtp=1000, mode=HRTIMER_MODE_REL, clockid=1)" \
	"$(sed -n 's/.* kprobe:hrtimer_nanosleep //p' args.txt | sort | uniq -c)"
check_eq "$k: kprobe: no return value" "null" \
	"$(jq -r --arg f "$MKDIRAT" 'select(.target == $f) | .ret' args.json | sort -u)"
trace-cmd-lbr convert -q -i args.data -o args.dat
check_eq "$k: trace-cmd report: the per-function event with typed fields, selected by -F" 4 \
	"$(trace-cmd report -F "lbr/kprobe__$MKDIRAT: dfd == -100 && mode == 0755" args.dat \
	   2> /dev/null | grep -c " kprobe__$MKDIRAT: ")"

# --filter, in the kernel, on every function of a glob
# do_mk* (do_mkdirat, do_mknodat) or, from 7.2, filename_mk* (filename_mkdirat, _mknodat)
mk=${MKDIRAT%mkdirat}mk*
record f1 -e "kprobe:$mk" --filter 'mode == 0755 && dfd == -100'
check_eq "$k: --filter on kprobe:$mk: the 4 mkdirat calls" "4 $MKDIRAT" \
	"$(lbrsnap report --json -i f1.data 2> /dev/null | jq -r 'select(.time_ns) | .target' |
	   sort | uniq -c | sed 's/^ *//')"
record f2 -e kretprobe:$MKDIRAT,$RMDIR --filter 'ret == -EEXIST'
check_eq "$k: --filter ret on kretprobe: the 3 EEXIST" "3 $MKDIRAT -17" \
	"$(lbrsnap report --json -i f2.data > f2.json 2> /dev/null; values f2.json |
	   sed 's/ int$//')"
lbrsnap record -e 'kretprobe:ksys_write,ksys_mmap_pgoff' --filter 'ret == 0' -- true 2> f3.err
check_eq "$k: --filter meaning different things in one glob: refused, exit 2" \
	"2 1" "$? $(wc -l < f3.err)"
check "$k: --filter meaning different things: names both functions" \
	grep -qE "means different things for (ksys_mmap_pgoff and ksys_write|ksys_write and \
ksys_mmap_pgoff)" f3.err

# Kernel stacks after trimming keep no frame of the tracing path: programs and trampolines
# for fexit; rethook (6.1) or fprobe over fgraph (6.14+, so 7.2), ftrace and kprobe glue for
# kretprobe. The JSON lists every frame, the trimmed ones marked: fexit's trampoline shows
# the check can fail.
tp='^(bpf_|__bpf_|fgraph_|__SCT__|function_graph|fprobe|__fprobe|rethook|arch_rethook|ftrace_|__ftrace|return_to_handler|kprobe_|kretprobe_|__kretprobe|rcu_|__rcu|migrate_)'
record trim -e "kretprobe:$MKDIRAT" -e "fexit:$MKDIRAT" --errors
lbrsnap report --json -i trim.data > trim.json 2> /dev/null
check_eq "$k: --errors on kretprobe and fexit: exactly the 3 EEXIST of each" \
"3 fexit:$MKDIRAT -17
3 kretprobe:$MKDIRAT -17" \
	"$(jq -r 'select(.time_ns) | "\(.attach) \(.ret)"' trim.json | sort | uniq -c | sed 's/^ *//')"
check_eq "$k: kernel stacks after trimming: no tracing-path frame" "" \
	"$(jq -r 'select(.time_ns) | .stack[] | select(.trimmed | not) | .sym' trim.json |
	   sed 's/+0x.*//' | grep -E "$tp" | sort -u | paste -sd' ')"
# The first frame kept: the syscall, except at fexit on 6.1 and 6.12, whose stacks unwind
# from the trampoline through the traced function's own entry (do_mkdirat+0x5 / +0x9); 7.2's
# do not show it.
first="3 __x64_sys_mkdirat 3 $MKDIRAT"
[ "$MKDIRAT" = do_mkdirat ] || first="6 __x64_sys_mkdirat"
check_eq "$k: kernel stacks after trimming: the first frame kept" "$first" \
	"$(jq -r 'select(.time_ns) | [.stack[] | select(.trimmed | not)][0].sym' trim.json |
	   sed 's/+0x.*//' | sort | uniq -c | sort -k2 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')"
check_eq "$k: the trimmed frames are tracing path, fexit's records have some" \
	"3 fexit:$MKDIRAT" "$(jq -r --arg tp "$tp" 'select(.time_ns) |
	   select(any(.stack[]; .trimmed and (.sym // "" | test($tp)))) |
	   select(all(.stack[]; .trimmed == (.sym // "" | sub("\\+0x.*"; "") | test($tp)))) |
	   .attach' trim.json | sort | uniq -c | sed 's/^ *//')"

# the kernel's copy of the programs: snapshot first
"$LBRSNAP_TOP/tests/bench/xlated-distance" kprobe:$MKDIRAT kretprobe:$MKDIRAT > x.out 2>&1
# 6.1 calls bpf_get_smp_processor_id(), 6.10+ inline it (the bench's distance section)
c=0
[ "$k" = 6.1 ] && c=1
check_eq "$k: xlated: kprobe and kretprobe programs take the snapshot first, no jump" \
	"lbrsnap_kprobe_0 ok $c 0 lbrsnap_kretprobe_0 ok $c 0" \
	"$(awk '/^lbrsnap_/ { print $1, $2, $4, $5 }' x.out | tr '\n' ' ' | sed 's/ $//')"

# attach and detach times on the same 10 functions (tests/bench/attach-times), on 7.x only:
# the three tools' runs take a minute under TCG, and host/t-bench-smoke runs them on 6.12
# (make bench's ATTACH_KERNEL)
if [ "${k%%.*}" -ge 7 ]; then
	"$LBRSNAP_TOP/tests/bench/attach-times" 1 10 > times.out 2> times.err
	check_eq "$k: attach-times: each tool saw the workload's one mkdir" \
		"bpftrace 1 lbrsnap-fexit 1 lbrsnap-kretprobe 1" \
		"$(awk '$2 == 10 { print $1, $5 }' times.out | sort | tr '\n' ' ' | sed 's/ $//')"
	awk -v k="$k" '$2 == 10 { printf "# %s: %s on 10 functions: first event after %d ms, " \
		"detached %d ms after the workload\n", k, $1, $3, $4 }' times.out
fi
