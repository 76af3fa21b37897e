#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest (tests/vm/t-user-stack-fexit boots it): --user-stack at a kernel
# function's exit. ustack-load makes N fchdir(-1) from c() <- b() <- a(); fexit on the
# syscall's entry function keeps its -EBADF returns: exactly N records, each with a user
# stack that starts c, b, a, in lbrsnap report --json and in perf script. Prints ok/not ok.
. "$(dirname "$0")/../lib/test.sh"
test_guest_dir
N=4
HELPER=$(command -v ustack-load)

lbrsnap record -e fexit:__x64_sys_fchdir --errors --user-stack -o u.data -- ustack-load $N \
	> u.out 2> u.err
check_eq "$k: fexit --user-stack: exit status" 0 $?
lbrsnap report --json -i u.data > u.json 2> /dev/null
check_eq "$k: fexit: N records, each -EBADF" "$N EBADF" \
	"$(jq -r 'select(.time_ns) | .errno' u.json | uniq -c | awk '{ print $1, $2 }')"
check_eq "$k: fexit: every user stack starts c, b, a in the helper" \
	"$(for i in $(seq $N); do echo "c b a $HELPER"; done)" \
	"$(jq -r 'select(.time_ns) | [.user_stack[0:3][].sym, .user_stack[0].path] | join(" ")' u.json)"
check_eq "$k: fexit: the helper's maps read, none gone" "1 0" \
	"$(jq -r 'select(.procs != null) | "\(.procs) \(.procs_gone)"' u.json)"
check "$k: lbrsnap perf" lbrsnap perf -i u.data -o u.perf
check_eq "$k: perf script: c, b, a first among the user frames" \
	"$(for i in $(seq $N); do printf 'c\nb\na\n'; done)" \
	"$(perf script -i u.perf -F comm,ip,sym 2> /dev/null |
	   awk '/^ustack-load/ { n = 0; next } $1 !~ /^ffff/ && NF == 2 && n++ < 3 { print $2 }')"
