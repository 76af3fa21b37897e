#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-kprobe-sret boots it): a kprobe on a kernel function
# returning a struct of more than 16 bytes by value, whose address the caller passes in rdi
# (rtc_ktime_to_tm's struct rtc_time is 36 bytes on 6.1 and 6.12, ZSTD_adjustCParams's 28 on
# 7.2): the capture records no arguments for it and says why in one note, while a kprobe on
# do_sys_openat2 in the same capture still records its own. Prints ok/not ok lines.
. "$(dirname "$0")/../lib/test.sh"
test_tmpdir
cd "$TEST_TMP" || exit 1
k=$(uname -r | cut -d. -f1,2)

# each kernel's own: BTF of 6.1 and 6.12 has rtc_ktime_to_tm returning struct rtc_time,
# 7.2's has ZSTD_adjustCParams returning ZSTD_compressionParameters
case $k in
6.1 | 6.12) fn=rtc_ktime_to_tm ;;
7.2) fn=ZSTD_adjustCParams ;;
*) fn= ;;
esac
if [ -z "$fn" ] || ! awk -v f="$fn" '$1 == f { found = 1 } END { exit !found }' \
	/sys/kernel/tracing/available_filter_functions; then
	skip "$k: kprobe on a struct returned in memory" \
		"no function known to return one is traceable on this kernel"
	exit 0
fi
lbrsnap record -e "kprobe:$fn" -e kprobe:do_sys_openat2 -o k.data -- \
	sh -c 'cat /etc/hostname > /dev/null' > /dev/null 2> k.err
check_eq "$k: kprobe:$fn: exit status" 0 "$?"
check_eq "$k: kprobe:$fn: the note says why it has no arguments" \
	"kprobe:$fn: returns a struct in memory, whose address takes the first argument register: its arguments are not recorded" \
	"$(grep -F 'returns a struct in memory' k.err)"
check_eq "$k: kprobe:do_sys_openat2 in the same capture keeps its arguments" \
	"-100 /etc/hostname" \
	"$(lbrsnap report --json -i k.data 2> /dev/null |
	   jq -r 'select(.target == "do_sys_openat2" and .args.filename == "/etc/hostname") |
		  "\(.args.dfd) \(.args.filename)"' | sort -u)"
