#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-filter-guest boots it): --filter edges on fexit, which
# only the guests can attach, for tests/helpers/ret-load's exact calls (see guest-ret.sh):
#
#   map_id_up (map_id_range_up on 7.2)	u32: 0 x3, 4294967279 (the pattern of -17) x6
#   do_sys_openat2(int dfd, const char *filename, ...)	DIR/ret-load.d x1,
#							DIR/ret-load.d/missing x2
#
# A negative literal against the u32 return is taken in 32 bits; a string literal is equal
# only to that text, "*" is any string and loads on every kernel's verifier. And uname's
# record at sys_exit is typed from sys_enter_newuname's format. Prints ok/not ok lines.
. "$(dirname "$0")/../lib/test.sh"
. "$(dirname "$0")/guest-ret-load.sh"
test_guest_dir

# rets NAME FUNC: FUNC's return values in NAME.data, counted
rets() {
	lbrsnap report -i "$1.data" 2> /dev/null | sed -n "s/.* fexit:$2 .* = \(.*\)$/\1/p" |
		sort | uniq -c | sed 's/^ *//' | tr '\n' ' ' | sed 's/ $//'
}
# paths NAME: do_sys_openat2's filenames in NAME.data under ret-load's directory, counted
paths() {
	lbrsnap report --json -i "$1.data" 2> /dev/null |
		jq -r 'select(.target == "do_sys_openat2") | .args.filename' |
		sed "s|^$dir|DIR|" | sort | uniq -c | sed 's/^ *//' | tr '\n' ' ' | sed 's/ $//'
}

ret_load_record lbrt-filt ret -e fexit:$MAP_ID_UP --filter 'ret == -17'
check_eq "$k: $MAP_ID_UP 'ret == -17' on a u32: the 6 of 4294967279" "6 4294967279" \
	"$(rets ret $MAP_ID_UP)"
ret_load_record lbrt-filt ret2 -e fexit:$MAP_ID_UP --filter 'ret < -17'
check_eq "$k: $MAP_ID_UP 'ret < -17': in 32 bits (below 4294967279), the 3 zeros" "3 0" \
	"$(rets ret2 $MAP_ID_UP)"

ret_load_record lbrt-filt any -e fexit:do_sys_openat2 --filter 'filename == "*"'
check_eq "$k: do_sys_openat2 'filename == \"*\"': loaded, every path" \
	"1 DIR/ret-load.d 2 DIR/ret-load.d/missing" "$(paths any)"
check_eq "$k: 'filename == \"*\"': no load error" "" "$(grep -i 'cannot load' any.err)"
# an exact match (NUL and captured length checked) and a glob, in one program
ret_load_record lbrt-filt ex -e fexit:do_sys_openat2 \
	--filter 'filename == "/nonexistent" || filename == "/dev/shm/lbrt-filt.*"'
check_eq "$k: 'filename == \"/nonexistent\" || glob': loaded, the glob's paths" \
	"1 DIR/ret-load.d 2 DIR/ret-load.d/missing" "$(paths ex)"

lbrsnap record -e raw_tp:sys_exit --filter 'syscall == uname' --comm uname -o u.data -- \
	uname -r > /dev/null 2> u.err
check_eq "$k: uname at sys_exit: typed from sys_enter_newuname, named uname" \
	"uname(name=ADDR) = 0" \
	"$(lbrsnap report -i u.data 2> /dev/null | grep -o 'uname(.*' |
	   sed 's/0x[0-9a-f]\{6,\}/ADDR/')"
