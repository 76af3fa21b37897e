# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Helpers for guest tests (tests/vm/t-*): source this file from bash.
#
#   vm_kernels                  the kernels to test: $LBRSNAP_VM_KERNELS, default "6.1 6.12 7.2"
#   vm_kernels_ends             the oldest and the newest of them (the first and the last), for
#                               the slowest tests; all of them with LBRSNAP_VM_ALL=1
#   vm_unavailable KERNEL       prints why guests of KERNEL cannot run here; fails if they can
#   vm_run KERNEL [run-vm options] -- CMD...
#                               run CMD in a guest (see run-vm); stdout is the guest's output,
#                               the status is CMD's (124 timeout, 125 guest died)
#   vm_capture TAG KERNEL [run-vm options] -- CMD...
#                               vm_run with stdout, stderr and status saved in $VM_T/TAG.out,
#                               TAG.err and TAG.rc; safe to start several with & and `wait`
#   vm_guest_status NAME TAG    "not ok - NAME" unless guest command TAG exited 0, the kernel's
#                               lines when its guest died; a guest booted twice said as a
#                               diagnostic
#   t_ok NAME | t_not_ok NAME WHY | t_skip NAME WHY
#                               one result line in the test protocol of tests/run-tests
#   t_is NAME GOT WANT          ok if GOT equals WANT, else not ok showing both (status 1)
#   t_check NAME WHY CMD...     ok if CMD succeeds, else not ok with WHY (status 1)
#   t_diag TEXT...              comment lines ("# ...") for the log; ignored by the counters
#   t_done                      exit status of the test: 1 if any check failed
#
# $VM_T is a private temporary directory, removed when the test exits.

LBRSNAP_TOP=${LBRSNAP_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LBRSNAP_BUILD=${LBRSNAP_BUILD:-$LBRSNAP_TOP/build}
export LBRSNAP_TOP LBRSNAP_BUILD
VM_RUNNER=$LBRSNAP_TOP/tests/vm/run-vm
VM_T=$(mktemp -d "${TMPDIR:-/tmp}/lbrsnap-vmtest.XXXXXX") || exit 1
trap 'rm -rf "$VM_T"' EXIT
t_failed=0

vm_kernels() {
	echo "${LBRSNAP_VM_KERNELS:-6.1 6.12 7.2}"
}

# Three guests at once on a 2-CPU machine made the slowest test overrun its timeout; the
# middle kernel's code paths are those of one of its neighbours there.
vm_kernels_ends() {
	local k
	read -r -a k <<< "$(vm_kernels)"
	if [ -n "${LBRSNAP_VM_ALL:-}" ] || [ ${#k[@]} -le 2 ]; then
		echo "${k[*]}"
	else
		echo "${k[0]} ${k[${#k[@]} - 1]}"
	fi
}

vm_unavailable() {
	local tool
	for tool in qemu-system-x86_64 busybox cpio; do
		if ! command -v "$tool" >/dev/null; then
			echo "$tool is not installed (make deps)"
			return 0
		fi
	done
	if ! "$LBRSNAP_TOP/tests/vm/fetch-kernel" "$1" >/dev/null 2>"$VM_T/fetch.err"; then
		echo "kernel $1 cannot be fetched: $(tail -1 "$VM_T/fetch.err")"
		return 0
	fi
	return 1
}

vm_run() {
	local kernel=$1
	shift
	"$VM_RUNNER" --kernel "$kernel" "$@"
}

vm_capture() {
	local tag=$1 rc
	shift
	vm_run "$@" > "$VM_T/$tag.out" 2> "$VM_T/$tag.err"
	rc=$?
	echo "$rc" > "$VM_T/$tag.rc"
	return "$rc"
}

# vm_kernel_lines ERR MARK: the kernel's own lines (first complaint, RIP, panic) of the report
# run-vm wrote to ERR after the line holding MARK, up to its next message
vm_kernel_lines() {
	awk -v mark="$2" 'index($0, mark) { on = 1; next } on && /^run-vm:/ { exit } on' "$1" |
		grep -a -E 'BUG:|Oops|RIP:|WARNING:|general protection|Kernel panic' | head -n 6
}

# vm_guest_status NAME TAG: "not ok - NAME" unless guest command TAG (vm_capture) exited 0,
# with why: for a guest that died (125) the kernel's own lines, else the end of its stderr.
# A guest that died once and was booted again by run-vm is said as a diagnostic even when
# the second boot passed: a crash is never silent.
vm_guest_status() {
	local name=$1 tag=$2 rc why err=$VM_T/$2.err
	rc=$(cat "$VM_T/$tag.rc")
	if grep -q 'booting it once more' "$err"; then
		t_diag "$name: $(grep -a -m1 'booting it once more' "$err")" \
			"$(vm_kernel_lines "$err" 'booting it once more')"
	fi
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 125 ] && why=$(vm_kernel_lines "$err" 'kernel messages:')
	t_not_ok "$name" "guest checks exited with $rc: ${why:-$(tail -3 "$err")}"
}

t_ok() {
	echo "ok - $1"
}

t_not_ok() {
	echo "not ok - $1: $2"
	t_failed=1
}

t_skip() {
	echo "skip - $1: $2"
}

t_diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

t_is() {
	if [ "$2" = "$3" ]; then
		t_ok "$1"
	else
		t_not_ok "$1" "got '$2', want '$3'"
		return 1
	fi
}

t_check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then
		t_ok "$name"
	else
		t_not_ok "$name" "$why"
		return 1
	fi
}

t_done() {
	exit "$t_failed"
}
