# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Shared shell helpers for tests: result lines in the format tests/run-tests counts.
#
#   . "$LBRSNAP_TOP/tests/lib/test.sh"
#   check NAME CMD...      ok if CMD succeeds, else "not ok" with CMD's output
#   check_eq NAME WANT GOT
#   ok NAME / not_ok NAME WHY / skip NAME WHY
#   test_tmpdir            a private directory, removed at exit
# The test's exit status is 1 when any check failed.

: "${LBRSNAP_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${LBRSNAP_BUILD:=$LBRSNAP_TOP/build}"
export LBRSNAP_TOP LBRSNAP_BUILD
export PATH="$LBRSNAP_BUILD:$LBRSNAP_BUILD/tests/helpers:$PATH"

test_failed=0
test_cleanups=()

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1${2:+: $2}"; test_failed=1; }
skip() { echo "skip - $1: $2"; }

check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "$(printf '%s' "$out" | tail -5 | tr '\n' ' ')"
	fi
}

check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'"
	fi
}

test_at_exit() { test_cleanups+=("$1"); }

test_run_cleanups() {
	local i
	for ((i = ${#test_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${test_cleanups[i]}" >/dev/null 2>&1 || true
	done
}

test_tmpdir() {
	TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lbrsnap-test.XXXXXX")
	test_at_exit "rm -rf '$TEST_TMP'"
}

# A guest script's start: its own temporary folder as the working one, C messages, and k, the
# kernel's major.minor ("6.12") that its expectations are chosen by.
test_guest_dir() {
	test_tmpdir
	cd "$TEST_TMP" || exit 1
	export LC_ALL=C
	k=$(uname -r | cut -d. -f1,2)
}

trap 'test_run_cleanups; exit $test_failed' EXIT

# Names of loaded programs that belong to lbrsnap (bpftool is the oracle).
lbrsnap_progs() {
	bpftool prog list 2>/dev/null | sed -n 's/^\([0-9]*\): .* name \(lbrsnap_[a-z_0-9]*\) .*/\1 \2/p'
}

# lbrsnap_progs_new BEFORE: the programs loaded now that BEFORE (lbrsnap_progs) did not list;
# programs of other runs that went away meanwhile are not this test's leak
lbrsnap_progs_new() {
	comm -13 <(sort <<<"$1") <(lbrsnap_progs | sort)
}

# watchpoints_fire: whether hardware watchpoints fire here (tests/lib/watchpoints.sh)
. "$LBRSNAP_TOP/tests/lib/watchpoints.sh"
