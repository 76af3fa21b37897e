#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# make demo: why did this mkdir fail, and where was -EEXIST born? A failing mkdir's call trace
# (issue 22): where fexit and --calls run, the kernel's own (mkdir d; mkdir d; mkdir new under
# fexit:do_mkdirat, filename_mkdirat on kernels that renamed it); elsewhere one line says what
# that would show, and the same question is asked of a user program through uprobes.
#
#   demo/demo.sh OUT [DATA]	OUT: the build directory (lbrsnap, demo/mkdir-demo); the capture
#				goes to DATA, OUT/demo.data by default
set -u
out=$(cd "$1" && pwd) || exit 1
data=${2:-$out/demo.data}
case $data in /*) ;; *) data=$PWD/$data ;; esac
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fn=do_mkdirat
grep -q ' T do_mkdirat$' /proc/kallsyms 2> /dev/null || fn=filename_mkdirat
if "$out/lbrsnap" record -e "fexit:$fn" --errors \
	--calls 'filename_create,lookup_one_qstr_excl,vfs_mkdir,may_*' -o "$data" -- \
	sh -c 'mkdir d; mkdir d; mkdir new' 2> err; then
	cat err >&2
	"$out/lbrsnap" report -i "$data"
	exit
fi
why=$(grep -v '^lbrsnap record: LBR is not available' err | head -1)
echo "lbrsnap demo: fexit:$fn --calls would show the kernel's call tree of a failing" \
     "mkdir down to -EEXIST's origin, but cannot run here (${why:-no reason given});" \
     "the same for a user program, through uprobes:"
rm -rf d new
rm -f "$data"
# the workload's second mkdir fails: its status is lbrsnap's, the capture is still whole
"$out/lbrsnap" record -e "uretprobe:$out/demo/mkdir-demo:demo_mkdirat" --errors \
	--calls 'demo_filename_create,demo_lookup_excl,demo_vfs_mkdir,demo_may_*' \
	-o "$data" -- "$out/demo/mkdir-demo" d d new
[ -f "$data" ] || exit 1
# not exec: the shell must live on to run the EXIT trap that removes $work
"$out/lbrsnap" report -i "$data"
