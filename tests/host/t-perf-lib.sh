# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared by the t-perf* host tests (sourced, not run), on top of tests/lib/test.sh:
# kernel addresses from /proc/kallsyms and synthetic captures (perf-mkcapture).

set -u
. "$(dirname "$0")/../lib/test.sh"
BUILD=$LBRSNAP_BUILD
MKCAP=$BUILD/tests/host/perf-mkcapture
test_tmpdir
T=$TEST_TMP
# the EXIT trap of test.sh sets the exit status from the results
finish() { exit 0; }

need_perf() {
	if ! command -v perf >/dev/null; then
		skip "${1:-perf}" "perf is not installed"
		exit 0
	fi
	if [ ! -x "$MKCAP" ] || ! command -v lbrsnap >/dev/null; then
		not_ok "${1:-perf}" "build first: $MKCAP or lbrsnap missing"
		exit 1
	fi
}

# addr SYMBOL: its address (hex, no 0x) in the running kernel's kallsyms
addr() { awk -v s="$1" '$3 == s && ($2 == "T" || $2 == "t") { print $1; exit }' /proc/kallsyms; }
# hexadd ADDR OFF: 0x(ADDR + OFF)
hexadd() { printf '0x%x' $((0x$1 + $2)); }

# The kallsyms of the capture: the running kernel's, plus two BPF symbols in module space
# (nothing may be loaded here), so that KSYMBOL and [bpf] handling is exercised.
BPF_PROG=ffffffffa0001000
BPF_TRAMP=ffffffffa0002000
make_kallsyms() {
	cat /proc/kallsyms > "$T/kallsyms"
	printf '%s t bpf_prog_0123456789abcdef_lbr_fexit\t[bpf]\n' $BPF_PROG >> "$T/kallsyms"
	printf '%s t bpf_trampoline_6442450944\t[bpf]\n' $BPF_TRAMP >> "$T/kallsyms"
}

# capture_header: META and attach points of the synthetic captures
capture_header() {
	cat <<EOT
meta clock mono
meta hostname perftest
meta machine x86_64
meta release $(uname -r)
meta nr_cpus 2
meta time_ref 1000000000 1763800000000000000
ap fexit:vfs_read vfs_read ret
ap raw_tp:sys_exit sys_exit
kallsyms $T/kallsyms
EOT
}

# Recorded sample times (ns) of a perf.data, one per line.
sample_times() {
	perf script --ns -i "$1" -F time 2>/dev/null |
		awk '{ t = $1; sub(":", "", t); split(t, p, "."); printf "%d%09d\n", p[1], p[2] }' |
		sed 's/^0*//'
}
