#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-args-fexit boots it): fexit arguments typed from BTF,
# for tests/helpers/ret-load's exact calls (see guest-ret.sh):
#
#   do_mkdirat(int dfd, struct filename *name, umode_t mode)	dfd -100, mode 0755: 0 x1,
#								-17 (EEXIST) x3
#   do_sys_openat2(int dfd, const char *filename, struct open_how *how)
#								DIR/ret-load.d x1 (a real
#								fd), DIR/ret-load.d/missing x2
#   hrtimer_nanosleep(ktime_t rqtp, const enum hrtimer_mode mode, const clockid_t clockid)
#								1000 HRTIMER_MODE_REL 1 x2,
#								0 HRTIMER_MODE_ABS 1 x1
#
# The same calls in lbrsnap report, report --json, perf script and trace-cmd report; and
# --filter on an argument keeps an exact count. Prints ok/not ok lines.
. "$(dirname "$0")/../lib/test.sh"
. "$(dirname "$0")/guest-ret-load.sh"
test_guest_dir

# record NAME [OPTIONS...]: ret-load's calls only (--comm), into NAME.data
record() {
	ret_load_record lbrt-args "$1" -e fexit:$MKDIRAT "${@:2}"
	check "$k: $1: captured" test -s "$1.data"
}

record all -e fexit:do_sys_openat2 -e fexit:hrtimer_nanosleep
lbrsnap report -i all.data > all.txt 2> /dev/null
lbrsnap report --json -i all.data > all.json 2> /dev/null
check_eq "$k: $MKDIRAT: int, pointer and umode_t arguments, with ret" \
"      3 $MKDIRAT(dfd=-100, name=0xffff<addr>, mode=0755) = -17 (EEXIST)
      1 $MKDIRAT(dfd=-100, name=0xffff<addr>, mode=0755) = 0" \
	"$(grep " fexit:$MKDIRAT " all.txt | sed -n "s/.* fexit:$MKDIRAT //p" | kaddr |
	   sort | uniq -c)"
check_eq "$k: do_sys_openat2: the paths, read as strings" \
"      1 $dir/ret-load.d
      2 $dir/ret-load.d/missing" \
	"$(jq -r 'select(.target == "do_sys_openat2") | .args.filename' all.json |
	   grep "^$dir" | sort | uniq -c)"
check_eq "$k: hrtimer_nanosleep: s64, const enum by name, const clockid_t, long ret" \
"      1 hrtimer_nanosleep(rqtp=0, mode=HRTIMER_MODE_ABS, clockid=1) = 0
      2 hrtimer_nanosleep(rqtp=1000, mode=HRTIMER_MODE_REL, clockid=1) = 0" \
	"$(sed -n 's/.* fexit:hrtimer_nanosleep //p' all.txt | sort | uniq -c)"
check_eq "$k: report --json: the types from BTF" "-100 0755 int" \
	"$(jq -r --arg f "$MKDIRAT" 'select(.target == $f) |
	   "\(.args.dfd) \(.args.mode) \(.ret_type)"' all.json | sort -u)"

# perf script and trace-cmd report: the calls report prints, record for record
want=$(sed -n 's/.* \(fexit:[a-z_0-9]* .*)\) = .*/\1/p' all.txt | kaddr)
lbrsnap perf -i all.data -o all.perf --no-kallsyms > /dev/null 2>&1
check_eq "$k: perf script: the same calls" "$want" \
	"$(perf script -i all.perf -F event,trace 2> /dev/null |
	   sed -n 's/^ *lbr:\(fexit:[a-z_0-9]*\): *\(.*)\) ret=.*/\1 \2/p' | kaddr)"
trace-cmd-lbr convert -q -i all.data -o all.dat
check_eq "$k: trace-cmd report: the same calls" "$want" \
	"$(trace-cmd report -N all.dat 2> /dev/null |
	   sed -n 's/.* branch_snapshot: *\(fexit:[a-z_0-9]* .*)\) ret=.*/\1/p' | kaddr)"

# typed fields: perf's Python scripts get ints and strs, trace-cmd report -F selects on them
cat > args.py <<EOT
import sys
sys.path.insert(0, "$LBRSNAP_TOP/perf-scripts")
import lbrsnap_perf


def show(s):
    print(s.event, " ".join("%s=%s:%r" % (k, type(v).__name__, v) for k, v in s.args.items()))


lbrsnap_perf.install(globals(), show)
EOT
perf script -i all.perf -s args.py > all.py.txt 2> /dev/null
check_eq "$k: perf script -s: int, pointer (an int), umode_t" \
	"4 lbr:fexit:$MKDIRAT dfd=int:-100 name=int:<ptr> mode=int:493" \
	"$(grep $MKDIRAT all.py.txt | sed 's/name=int:[0-9]\{10,\}/name=int:<ptr>/' | sort |
	   uniq -c | sed 's/^ *//')"
check_eq "$k: perf script -s: a string is a str" \
	"      2 filename=str:'$dir/ret-load.d/missing'" \
	"$(grep -o "filename=str:'$dir/ret-load.d/missing'" all.py.txt | uniq -c)"
check_eq "$k: perf script -s: s64, enum and clockid_t are ints" \
"      1 lbr:fexit:hrtimer_nanosleep rqtp=int:0 mode=int:0 clockid=int:1
      2 lbr:fexit:hrtimer_nanosleep rqtp=int:1000 mode=int:1 clockid=int:1" \
	"$(grep hrtimer_nanosleep all.py.txt | sort | uniq -c)"
tcount() { trace-cmd report -F "$1" all.dat 2> /dev/null | grep -c " $2: "; }
check_eq "$k: trace-cmd report -F on int and mode fields" 4 \
	"$(tcount "lbr/fexit__$MKDIRAT: dfd == -100 && mode == 0755" "fexit__$MKDIRAT")"
check_eq "$k: trace-cmd report -F on a string field" 2 \
	"$(tcount 'lbr/fexit__do_sys_openat2: filename =~ "/missing$"' fexit__do_sys_openat2)"
check_eq "$k: trace-cmd report -F on an enum field: the relative sleeps" 2 \
	"$(tcount 'lbr/fexit__hrtimer_nanosleep: mode == 1' fexit__hrtimer_nanosleep)"
check_eq "$k: trace-cmd report: the typed event prints the enum by name" \
	"1 mode=HRTIMER_MODE_ABS 2 mode=HRTIMER_MODE_REL" \
	"$(trace-cmd report all.dat 2> /dev/null | grep -o ' fexit__hrtimer_nanosleep: .*' |
	   grep -o 'mode=[A-Z_]*' | sort | uniq -c | tr -s ' \n' '  ' | sed 's/^ //; s/ $//')"

# --filter on arguments, in the kernel
record f1 --filter 'mode == 0755 && dfd == -100 && ret == -EEXIST'
check_eq "$k: --filter on int and umode_t arguments and ret: the 3 EEXIST" 3 \
	"$(lbrsnap report --json -i f1.data 2> /dev/null | jq -r 'select(.time_ns) | .ret' |
	   grep -cx -- -17)"
record f2 -e fexit:do_sys_openat2 --filter 'filename == "/dev/shm/lbrt-args.*"'
check_eq "$k: --filter on a string with a glob: $MKDIRAT unfiltered, 3 opens kept" \
	"4 3" "$(lbrsnap report --json -i f2.data 2> /dev/null |
	   jq -r 'select(.time_ns) | .target' | sort | uniq -c | sort -rn | awk '{print $1}' |
	   tr '\n' ' ' | sed 's/ $//')"
record f3 -e fexit:hrtimer_nanosleep --filter 'mode == HRTIMER_MODE_ABS'
check_eq "$k: --filter on an enumerator: the one absolute sleep, $MKDIRAT unfiltered" \
	"4 $MKDIRAT 1 hrtimer_nanosleep" "$(lbrsnap report --json -i f3.data 2> /dev/null |
	   jq -r 'select(.time_ns) | .target' | sort | uniq -c | tr -s ' \n' '  ' |
	   sed 's/^ //; s/ $//')"
