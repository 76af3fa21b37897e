# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks that bpf_get_branch_snapshot() is the first call of every lbrsnap_* program with no
# jump before it; the one call allowed before it is the CPU id that addresses the program's
# per-CPU slot (bpf_get_smp_processor_id(), helper 8, inlined from 6.10 by 1ae6921009e5). Reads `llvm-objdump -d --no-show-raw-insn` of a BPF object, or `bpftool
# prog dump xlated` of loaded programs, and prints one line per program:
#     PROG ok N C J	N instructions (C of them calls, J jumps) precede the snapshot
#     PROG bad WHY
# With -v count=1 it measures instead of checking (the bench section "distance"): other calls
# and jumps before the snapshot are counted, not rejected; instructions are taken in address
# order, so with a jump N, C and J are those of the fall-through path.
# In an object the snapshot is "call 176" (BPF_FUNC_get_branch_snapshot). In the kernel's
# xlated copy it is "call bpf_get_branch_snapshot" before 6.10; from 6.10 the verifier inlines
# it (314a53623cd4) as "if r3 != 0x0 goto" (never taken: r3 = 0 is set just before) followed
# by a call of the PMU's snapshot function, so that sequence is the snapshot too.

function finish() {
	if (prog != "" && !decided)
		print prog, "bad", "no call at all"
	prog = ""
	decided = 0
	setup = 0
	cpu_calls = 0
	calls = 0
	jumps = 0
	inline_at = -1
}

# objdump: "0000000000004678 <lbrsnap_rawtp_5>:"; bpftool: "int lbrsnap_rawtp_0(void * ctx):"
/^[0-9a-f]+ <[A-Za-z_0-9]+>:$/ || /^[a-z].*[A-Za-z_0-9]+\(.*\):$/ {
	finish()
	name = $0
	if (name ~ /</) {
		sub(/^[0-9a-f]+ </, "", name)
		sub(/>:$/, "", name)
	} else {
		sub(/\(.*$/, "", name)
		sub(/^.* /, "", name)
	}
	# lbrsnap_call_exit: a --calls traced exit, whose snapshot is kept if it is the origin
	if (name ~ /^lbrsnap_(fexit|rawtp|tpbtf|mem|uprobe|uretprobe|usdt|kprobe|kretprobe)_[0-9]+$/ ||
	    name ~ /^lbrsnap_call_exit$/)
		prog = name
	next
}

prog == "" || decided { next }

# instruction lines: objdump "  2255:	insn", bpftool "   0: (7b) insn"
/^ *[0-9]+:/ {
	insn = $0
	sub(/^ *[0-9]+:[ \t]*/, "", insn)
	sub(/^\([0-9a-f]+\) /, "", insn)
	if (inline_at >= 0) {
		if (insn ~ /^call /) {
			if (insn ~ /snapshot_branch_stack|__static_call_return0/)
				print prog, "ok", setup, calls, jumps
			else
				print prog, "bad", "inlined sequence calls " insn
			decided = 1
		} else if (insn ~ /goto|^if |^exit/ || ++inline_at > 4) {
			print prog, "bad", "jump before the snapshot: " insn
			decided = 1
		}
		next
	}
	if (insn ~ /^call (8|bpf_get_smp_processor_id)([^0-9]|$)/ && !cpu_calls++) {
		setup++
		calls++
	} else if (insn ~ /^call (176|bpf_get_branch_snapshot)([^0-9]|$)/) {
		print prog, "ok", setup, calls, jumps
		decided = 1
	} else if (insn ~ /^call / && count) {
		setup++
		calls++
		last_r3_zero = 0
	} else if (insn ~ /^call /) {
		print prog, "bad", "a call precedes the snapshot: " insn
		decided = 1
	} else if (insn ~ /^if r3 != 0x0 goto/ && last_r3_zero) {
		inline_at = 0
	} else if (insn ~ /goto|^if / && count) {
		setup++
		jumps++
		last_r3_zero = 0
	} else if (insn ~ /goto|^if |^exit/) {
		print prog, "bad", "jump before the snapshot: " insn
		decided = 1
	} else {
		setup++
		last_r3_zero = insn ~ /^r3 = 0$/
	}
}

END { finish() }
