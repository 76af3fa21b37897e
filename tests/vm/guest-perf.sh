#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Runs inside the guest for tests/vm/t-perf-merge: an fexit capture beside a system-wide
# `perf record -k mono -e sched:sched_switch -a`, merged with lbrsnap inject; and the same
# in one command (lbrsnap record --perf-args). Files go to $1 for the host's perf to judge.
set -u
out=$1
cd /tmp || exit 1
build=${LBRSNAP_BUILD:-$(cd "$(dirname "$0")/../../build" && pwd)}
export PATH="$build:$build/tests/helpers:$PATH"

lbrsnap record -e fexit:do_sys_openat2 --comm lbrt-pm --errors -o cap.data 2> cap.err &
rec=$!
for _ in $(seq 300); do [ -e cap.data.tmp.?????? ] && break; sleep 0.1; done
# two bursts with a sleep between: the sleep is a sched_switch between lbr samples
perf record -q -k mono -e sched:sched_switch -a -o rec.data -- sh -c \
	'syscall-load --comm lbrt-pm --open-missing 10; sleep 0.05;
	 syscall-load --comm lbrt-pm --open-missing 10' > /dev/null 2> perf.err
kill -INT "$rec"
wait "$rec"
lbrsnap inject -i rec.data --capture cap.data -o merged.data 2> inject.err
echo "inject=$?"

lbrsnap record -e fexit:do_sys_openat2 --comm lbrt-pm2 --errors \
	--perf-args '-e sched:sched_switch -a' -o one.data -- \
	syscall-load --comm lbrt-pm2 --open-missing 9 > /dev/null 2> one.err
echo "one=$?"
cp rec.data merged.data merged.data.kallsyms one.data ./*.err "$out"/
