# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks that nothing the branch filter records runs before bpf_get_branch_snapshot() in
# every lbrsnap_* program. Reads `llvm-objdump -d --no-show-raw-insn` of a BPF object, or
# `bpftool prog dump xlated` of loaded programs, and prints one line per program:
#     PROG ok N C J	N instructions (C of them calls, J jumps) may run before the snapshot
#     PROG bad WHY	WHY names the first offending instruction
# "Before the snapshot" is every instruction on some path from the entry to the snapshot:
# paths that end (exit) without one do not count, whatever they hold.
#
# -v filter=F, a -j word (default any): what may not run there.
#     any, cond, ind_jmp     no jump at all, no call (snapshot first, branch-free)
#     any_call, call, ind_call, any_ret, call_stack
#                            conditional and unconditional jumps allowed, no call: LBR
#                            records a helper's call or its return, and a BPF-to-BPF call
# In both, one call is allowed: the CPU id that addresses the program's per-CPU slot
# (bpf_get_smp_processor_id(), helper 8, inlined from 6.10 by 1ae6921009e5).
# -v inlined="158 ...": helper numbers taken as inlined (the object's view: the loader runs
# filter-first where the kernel inlines the current task, 158, and the CPU id, 8; elsewhere
# only the remembered rejections of --pid, --tid and --follow precede it, with no call).
# With -v count=1 it measures instead of checking (the bench section "distance"): calls and
# jumps before the snapshot are counted, not rejected.
# In an object the snapshot is "call 176" (BPF_FUNC_get_branch_snapshot). In the kernel's
# xlated copy it is "call bpf_get_branch_snapshot" before 6.10; from 6.10 the verifier inlines
# it (314a53623cd4) as "if r3 != 0x0 goto" (never taken: r3 = 0 is set just before) followed
# by a call of the PMU's snapshot function, so that sequence is the snapshot too.

BEGIN {
	if (filter == "")
		filter = "any"
	no_jumps = filter ~ /^(any|cond|ind_jmp|ind_jump)$/
	if (filter !~ /^(any|cond|ind_jmp|ind_jump|any_call|call|ind_call|any_ret|call_stack)$/) {
		print "snapshot-first.awk: unknown filter '" filter "'" > "/dev/stderr"
		exit 2
	}
	n_inl = split(inlined, inl_list, " ")
	for (i = 1; i <= n_inl; i++)
		is_inlined[inl_list[i]] = 1
}

function is_call(insn) { return insn ~ /^call / }
function is_jump(insn) { return insn ~ /goto/ }
function is_exit(insn) { return insn ~ /^exit/ }
function is_uncond(insn) { return insn ~ /^(goto|gotol) / }

# the helper's number or name of "call 8", "call bpf_get_smp_processor_id#123"
function callee(insn,    c) {
	c = insn
	sub(/^call /, "", c)
	sub(/[#( ].*$/, "", c)
	return c
}

# the index an instruction's jump goes to: objdump "goto +5 <LBB..>", bpftool "goto pc+5"
function target(k,    t) {
	t = text[k]
	sub(/^.*goto(l)? (pc)?/, "", t)
	sub(/[ <].*$/, "", t)
	return idx[k] + 1 + t
}

function decide(    k, j, q, head, tail, nb, calls, jumps, cpu, c, why, m, snaps, t) {
	if (prog == "")
		return
	# snapshot points
	snaps = 0
	for (k = 0; k < n; k++) {
		snap[k] = 0
		if (is_call(text[k]) && callee(text[k]) ~ /^(176|bpf_get_branch_snapshot)$/)
			snap[k] = 1
		else if (text[k] ~ /^if r3 != 0x0 goto/ && k > 0 && text[k - 1] ~ /^r3 = 0$/) {
			snap[k] = 1
			# the inlined sequence: a few set-up instructions, then the PMU's function
			for (j = k + 1; j < n && j <= k + 5; j++) {
				if (is_call(text[j]) || is_jump(text[j]) || is_exit(text[j]))
					break
			}
			if (j >= n || !is_call(text[j]) ||
			    text[j] !~ /snapshot_branch_stack|__static_call_return0/) {
				print prog, "bad", "inlined sequence: " (j < n ? text[j] : "no call")
				return
			}
		}
		snaps += snap[k]
	}
	if (!snaps) {
		print prog, "bad", "no call at all"
		return
	}
	# successors, as positions in the listing
	for (k = 0; k < n; k++) {
		nsucc[k] = 0
		if (is_exit(text[k]) || snap[k])
			continue
		if (is_jump(text[k])) {
			t = target(k)
			if (t in pos)
				succ[k, nsucc[k]++] = pos[t]
			if (is_uncond(text[k]))
				continue
		}
		if (k + 1 < n)
			succ[k, nsucc[k]++] = k + 1
	}
	# forward from the entry, stopping at snapshots
	for (k = 0; k < n; k++) {
		fwd[k] = 0
		bwd[k] = 0
	}
	head = tail = 0
	queue[tail++] = 0
	fwd[0] = 1
	while (head < tail) {
		k = queue[head++]
		for (j = 0; j < nsucc[k]; j++) {
			q = succ[k, j]
			if (!fwd[q]) {
				fwd[q] = 1
				queue[tail++] = q
			}
		}
	}
	# backward from the snapshots reached: a fixed point over the forward set
	for (k = 0; k < n; k++)
		bwd[k] = snap[k] && fwd[k]
	do {
		c = 0
		for (k = n - 1; k >= 0; k--) {
			if (!fwd[k] || bwd[k] || snap[k])
				continue
			for (j = 0; j < nsucc[k]; j++) {
				if (bwd[succ[k, j]]) {
					bwd[k] = 1
					c = 1
					break
				}
			}
		}
	} while (c)
	nb = calls = jumps = cpu = 0
	for (k = 0; k < n; k++) {
		if (!fwd[k] || !bwd[k] || snap[k])
			continue
		nb++
		if (is_call(text[k])) {
			m = callee(text[k])
			calls++
			if (m in is_inlined)
				continue
			if (m ~ /^(8|bpf_get_smp_processor_id)$/ && !cpu++)
				continue
			if (!count) {
				print prog, "bad", "a call precedes the snapshot: " idx[k] ": " text[k]
				return
			}
		} else if (is_jump(text[k])) {
			jumps++
			if (no_jumps && !count) {
				print prog, "bad", "jump before the snapshot: " idx[k] ": " text[k]
				return
			}
		}
	}
	print prog, "ok", nb, calls, jumps
}

function finish() {
	decide()
	prog = ""
	n = 0
	delete pos
	delete succ
}

# objdump: "0000000000004678 <lbrsnap_rawtp_5>:"; bpftool: "int lbrsnap_rawtp_0(void * ctx):"
/^[0-9a-f]+ <[A-Za-z_0-9]+>:$/ || /^[a-z].*[A-Za-z_0-9]+\(.*\):$/ {
	name = $0
	if (name ~ /</) {
		sub(/^[0-9a-f]+ </, "", name)
		sub(/>:$/, "", name)
	} else {
		sub(/\(.*$/, "", name)
		sub(/^.* /, "", name)
	}
	# objdump's labels inside a program (LBB0_3) continue it
	if (name ~ /^LBB/ && prog != "")
		next
	finish()
	# lbrsnap_call_exit, lbrsnap_kcall_*: --calls traced exits, whose snapshot is kept if it
	# is the origin. Not lbrsnap_kcall_session: the entry's program too, it reads which one
	# it is before the exit's snapshot, through bpf_get_current_task_btf(), a call before
	# 7.2; the tracing-path trim drops that call's two branches by name (lib/symbols/trim.c).
	if (name ~ /^lbrsnap_(fexit|rawtp|tpbtf|mem|uprobe|uretprobe|usdt|kprobe|kretprobe)_[0-9]+$/ ||
	    name ~ /^lbrsnap_(call_exit|kcall_fexit|kcall_kretprobe)$/)
		prog = name
	next
}

prog == "" { next }

# instruction lines: objdump "  2255:	insn", bpftool "   0: (7b) insn"
/^ *[0-9]+:/ {
	insn = $0
	i = insn
	sub(/:.*$/, "", i)
	sub(/^ */, "", i)
	sub(/^ *[0-9]+:[ \t]*/, "", insn)
	sub(/^\([0-9a-f]+\) /, "", insn)
	idx[n] = i + 0
	pos[i + 0] = n
	text[n++] = insn
}

END { finish() }
