#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-ret-types boots it): fexit captures of kernel functions of
# every return type, each made to return exact, known values an exact number of times by
# tests/helpers/ret-load.c. The values must read as their type says in lbrsnap report,
# report --json, perf script and trace-cmd report, and --errors / --ret must keep exactly the
# right records. Prints ok/not ok lines, prefixed with the guest's kernel release.
#
# The functions have the same return type in the BTF of both kernels (6.1.0-56 and 6.12.117,
# `bpftool btf dump file vmlinux format raw`), are in both kernels'
# available_filter_functions, and fire on ret-load's paths in both (measured):
#
#   do_mkdirat		int		the mkdirat syscall's own function
#   do_filp_open	struct file *	a real file, or ERR_PTR(-ENOENT) for a missing one
#   filldir64		bool		getdents64's actor, called through a pointer
#   ksys_write		ssize_t		a long, the write syscall's body
#   map_id_up		u32		from_kgid() for getegid, zero-extended: egid 4294967279
#					is the 32-bit pattern of -17, which --errors and
#					--ret -17 must not take
#   ksys_mmap_pgoff	unsigned long	(BTF "long unsigned int") errors come back as
#					18446744073709551607: above 2^53, so a JSON string
#   fget		struct file *	NULL for fd -1 (mmap of fd -1 looks the fd up)
#
# Not taken: fget_raw (dup's NULL; inlined into dup on 6.12, never fires), from_kgid and
# from_kgid_munged (take kgid_t, a struct, by value: no fexit), seccomp_run_filters (its u32
# 0x80000000 would be ideal, but it is inlined and absent from BTF), from_kuid for an unmapped
# uid (needs a user namespace, refused in the chroot the guest runs commands in).
. "$(dirname "$0")/../lib/test.sh"
. "$(dirname "$0")/guest-ret-load.sh"
test_guest_dir

FUNCS="$MKDIRAT $FILP_OPEN filldir64 ksys_write $MAP_ID_UP ksys_mmap_pgoff fget"
EVENTS=()
for f in $FUNCS; do
	EVENTS+=(-e "fexit:$f")
done

# What one run of ret-load makes each function return (see ret-load.c):
# function, the value as every text output prints it, report --json's "ret", "ret_type",
# "errno" (- for null; report's text prints it in parentheses), records. 0xffff<addr> stands
# for a kernel address (16 hex digits).
WANT=$(cat <<EOF
$MKDIRAT	0	0	int	-	1
$MKDIRAT	-17	-17	int	EEXIST	3
$FILP_OPEN	0xffff<addr>	"0xffff<addr>"	struct file *	-	1
$FILP_OPEN	ERR_PTR(-ENOENT)	"ERR_PTR(-ENOENT)"	struct file *	ENOENT	2
filldir64	true	true	bool	-	4
filldir64	false	false	bool	-	2
ksys_write	4242	4242	ssize_t	-	3
ksys_write	-9	-9	ssize_t	EBADF	5
$MAP_ID_UP	0	0	u32	-	3
$MAP_ID_UP	4294967279	4294967279	u32	-	6
ksys_mmap_pgoff	1099511627776	1099511627776	long unsigned int	-	1
ksys_mmap_pgoff	18446744073709551597	"18446744073709551597"	long unsigned int	-	1
ksys_mmap_pgoff	18446744073709551607	"18446744073709551607"	long unsigned int	-	2
fget	0xffff<addr>	"0xffff<addr>"	struct file *	-	1
fget	NULL	"NULL"	struct file *	-	2
EOF
)

# record NAME [FILTER...]: ret-load's calls, and only those (--comm), captured in NAME.data
record() {
	local name=$1
	shift
	ret_load_record lbrt-ret "$name" "${EVENTS[@]}" "$@"
	check "$k: $name: captured; ret-load's calls returned as planned" \
		bash -c "test -s '$name.data' && ! grep -q unexpected '$name.out' &&
			 tail -1 '$name.out' | grep -qx 'setresgid(-1, 0, -1): 0' ||
			 { cat '$name.out' '$name.err'; exit 1; }"
}

# identical lines counted: the count becomes the last tab-separated column
count() { sort | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2\t\1/'; }

# Views of a capture, as WANT's columns
json_view() {
	lbrsnap report --json -i "$1" 2> /dev/null | jq -r 'select(has("time_ns")) |
		[(.attach | ltrimstr("fexit:")), (.ret | tojson), (.errno // "-")] | join("\t")' |
		kaddr | count
}
# each function's "ret_type", as often as it has records
type_view() {
	lbrsnap report --json -i "$1" 2> /dev/null | jq -r 'select(has("time_ns")) |
		[(.attach | ltrimstr("fexit:")), (.ret_type // "-")] | join("\t")' | count
}
# report's record headers: "TIME [CPU] COMM/PID/TID SPEC ret=VALUE[ (ENAME)]"
text_view() {
	# with arguments: "fexit:F F(ARGS) = VALUE (ERRNO)"
	local re='^[0-9.]+ \[[0-9]+\] .* fexit:([a-z0-9_]+) (ret=|[a-z0-9_]+\(.*\) = )([^ ]+)( \(([A-Z0-9]+)\))?$'

	lbrsnap report -i "$1" 2> /dev/null | sed -nE "s/$re/\1\t\3\t\5/p" |
		awk -F'\t' -v OFS='\t' '$3 == "" { $3 = "-" } { print }' | kaddr | count
}
perf_view() {
	perf script -i "$1" -F event,trace 2> /dev/null |
		sed -nE 's/.*lbr:fexit:([a-z0-9_]+): (.*\) )?ret=([^ ]+)( .*)?$/\1\t\3/p' | kaddr |
		count
}
trace_view() {
	trace-cmd report "$@" 2> /dev/null |
		sed -nE 's/.* branch_snapshot: +fexit:([a-z0-9_]+) (.*\) )?ret=([^ ]+)( .*)?$/\1\t\3/p' |
		kaddr | count
}
# WANT's rows (those matching the awk condition $2) in the columns $1 lists
want() { awk -F'\t' -v OFS='\t' "${2:-1} { print $1 }" <<<"$WANT"; }

# rows FUNC: the function's rows of a view (stdin) on one line, "value ... xN; ..."
rows() {
	sort | awk -F'\t' -v f="$1" '$1 == f {
		s = ""; for (i = 2; i < NF; i++) s = s $i " "
		out = out (out ? "; " : "") s "x" $NF } END { print out }'
}

# compare VIEW GOT WANT: one result per function
compare() {
	local f
	for f in $FUNCS; do
		check_eq "$k: $1: $f" "$(rows "$f" <<<"$3")" "$(rows "$f" <<<"$2")"
	done
}

# rows equal but for their count (the last column) become one row, the counts added
merge() {
	awk -F'\t' -v OFS='\t' '{ c = $NF; NF--; n[$0] += c } END { for (r in n) print r, n[r] }'
}
# a table on one line, rows sorted, "; " between them and " " between columns
oneline() { sort | tr '\t' ' ' | paste -sd';' | sed 's/;/; /g'; }

# Every value, every output
record all
compare "report --json" "$(json_view all.data)" "$(want '$1, $3, $5, $6')"
compare "report --json ret_type" "$(type_view all.data)" "$(want '$1, $4, $6' | merge)"
compare "report" "$(text_view all.data)" "$(want '$1, $2, $5, $6')"
lbrsnap perf -i all.data -o all.perf --no-kallsyms > /dev/null 2>&1
compare "perf script" "$(perf_view all.perf)" "$(want '$1, $2, $6')"
trace-cmd-lbr convert -q -i all.data -o all.dat
compare "trace-cmd report (plugin_lbr)" \
	"$(TRACEEVENT_PLUGIN_DIR=$LBRSNAP_BUILD/plugin trace_view all.dat)" "$(want '$1, $2, $6')"
compare "trace-cmd report -N (print fmt)" "$(trace_view -N all.dat)" "$(want '$1, $2, $6')"

# Filters in the kernel: exactly the records the values say, per function (the counts read
# the same before and after the output formats), then the values themselves. Unsigned and
# bool values never carry an errno, whatever their bits; --ret compares the value as its type
# extends it, so false and NULL are 0 and match every type's 0.
filter() {
	local name=$1 cond=$2 got
	shift 2
	record "$name" "$@"
	got=$(json_view "$name.data")
	check_eq "$k: $* keeps per function" "$(want '$1, $6' "$cond" | merge | oneline)" \
		"$(cut -f1,4 <<<"$got" | merge | oneline)"
	check_eq "$k: $* keeps the values" "$(want '$1, $3, $5, $6' "$cond" | oneline)" \
		"$(oneline <<<"$got")"
}
filter errors '$5 != "-"' --errors
filter errors-null '$5 != "-" || $2 == "NULL"' --errors=null
filter ret-17 '$2 == "-17"' --ret -17
filter ret-eexist '$2 == "-17"' --ret -EEXIST
filter ret-true '$2 == "true"' --ret true
filter ret-false '$2 == "false" || $2 == "0" || $2 == "NULL"' --ret false
filter ret-u32 '$2 == "4294967279"' --ret 4294967279
