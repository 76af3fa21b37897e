#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Writes tests/unit/trim-listings.h from what guests of 6.1, 6.12 and 7.2 recorded.

usage: trim-listings.py DUMP > tests/unit/trim-listings.h

DUMP is the LBRSNAP_TRIM_DUMP directory of a tests/vm/t-trim-kinds run: per kernel release
the guest's kallsyms.gz (PVH boots have no KASLR: the addresses are every boot's) and the
report --keep-all --json of one capture per kind. Two kinds of listing come out:

- stacks: the kernel stacks the guest recorded, as they were, with the frames the trim must
  keep decided here from the kind alone (the traced function's frame, or the first frame
  past the BPF program and trampoline; nothing of a trap from user mode);
- branches: the path from the traced code to the BPF program, built from each kernel's own
  functions (guests have no LBR): PATHS below, oldest entry first, the traced code's newest
  entry marked '*'. A step naming functions that kernel lacks (inlined there) is left out.

Only the kallsyms lines a listing names, and the line after each (its end), are kept.
"""
import gzip
import json
import os
import sys

KERNELS = [("6.1", "6.1.0-56-amd64"), ("6.12", "6.12.117+deb12-amd64"),
           ("7.2", "7.2.13+deb14-amd64")]
USER = 0x55555555a100		# a user-mode address: the probed instruction in the program
# the kernels a step is on (all when it names none); "ibt": kprobe-multi's 6.2-6.8 entry
# with IBT, built on 6.12's symbols (the guests boot no such kernel)
V61, V612, V72, IBT = {"6.1"}, {"6.12"}, {"7.2"}, {"ibt"}
MULTI = V612 | V72 | IBT

# name alternatives "a|b" (first found), "?" first: the step is left out where none is found
COMMON_PROG = [
    ("?__bpf_prog_enter_recur+0x9", "migrate_disable+0x0"),
    ("?migrate_disable+0x37", "__bpf_prog_enter_recur+0xe"),
    ("PROG+0x32", "?bpf_get_smp_processor_id+0x0"),
    ("?bpf_get_smp_processor_id+0xe", "PROG+0x37"),
    ("PROG+0xe0", "?bpf_get_branch_snapshot+0x0"),
    ("?bpf_get_branch_snapshot+0x13", "intel_pmu_snapshot_branch_stack+0x0"),
]
TRACE_CALL = [
    ("trace_call_bpf+0x2a", "__rcu_read_lock+0x0"),
    ("__rcu_read_lock+0x1e", "trace_call_bpf+0x2f"),
    ("trace_call_bpf+0x5d", "migrate_disable+0x0"),
    ("migrate_disable+0x37", "trace_call_bpf+0x62"),
    ("trace_call_bpf+0x80", "PROG+0x0"),
]
UPROBE_PATH = [
    ("*USER", "asm_exc_int3+0x0"),
    ("asm_exc_int3+0x1b", "exc_int3+0x0"),
    ("?exc_int3+0x30", "do_int3_user+0x0"),
    ("?do_int3_user+0x10", "notify_die+0x0"),
    ("?notify_die+0x40", "arch_uprobe_exception_notify|uprobe_pre_sstep_notifier+0x0"),
    ("exc_int3+0x80", "irqentry_exit_to_user_mode+0x0"),
    ("irqentry_exit_to_user_mode+0x20", "exit_to_user_mode_prepare|exit_to_user_mode_loop+0x0"),
    ("exit_to_user_mode_prepare|exit_to_user_mode_loop+0x60", "uprobe_notify_resume+0x0"),
    ("uprobe_notify_resume+0x10", "handle_swbp+0x0"),
    ("?handle_swbp+0x20", "arch_uprobe_ignore+0x0"),
    ("?arch_uprobe_ignore+0x10", "handle_swbp+0x25"),
    ("?handle_swbp+0x40", "find_active_uprobe|find_active_uprobe_rcu+0x0"),
    ("?find_active_uprobe|find_active_uprobe_rcu+0x30", "_raw_read_lock|__srcu_read_lock+0x0"),
    ("?_raw_read_lock|__srcu_read_lock+0x10", "find_active_uprobe|find_active_uprobe_rcu+0x35"),
    ("handle_swbp+0x80", "handler_chain+0x0"),
    ("?handler_chain+0x20", "down_read|uprobe_dispatcher+0x0"),
    ("handler_chain+0x40", "uprobe_dispatcher+0x0"),
    ("uprobe_dispatcher+0x60", "__uprobe_perf_func|uprobe_perf_func+0x0"),
    ("__uprobe_perf_func|uprobe_perf_func+0x80", "trace_call_bpf+0x0"),
] + TRACE_CALL + COMMON_PROG
CALLER = [
    ("__x64_sys_openat+0x61", "do_sys_openat2+0x0"),
]
INNER = [
    ("do_sys_openat2+0x3c", "getname|getname_flags+0x0"),
    ("getname|getname_flags+0x2e", "do_sys_openat2+0x41"),
]
PATHS = {
    # fexit: the trampoline runs the function, which returns into it: that return is kept
    "fexit": CALLER + [
        ("do_sys_openat2+0x0", "TRAMP+0x0"),
        ("TRAMP+0x40", "do_sys_openat2+0x5"),
    ] + INNER + [
        ("*do_sys_openat2+0x95", "TRAMP+0x45"),
        ("TRAMP+0x5a", "__bpf_prog_enter_recur+0x0"),
        ("__bpf_prog_enter_recur+0x9", "migrate_disable+0x0"),
        ("migrate_disable+0x37", "__bpf_prog_enter_recur+0xe"),
        ("__bpf_prog_enter_recur+0x43", "TRAMP+0x5f"),
        ("TRAMP+0x6d", "PROG+0x0"),
    ] + COMMON_PROG[2:],
    # kprobe at the entry: the call into ftrace from the function's first instruction
    "kprobe": CALLER + [
        ("*do_sys_openat2+0x0", "FTRACE+0x0"),
        # 6.1: one kprobe per function, on ftrace
        ("FTRACE+0x50", "kprobe_ftrace_handler+0x0", V61),
        ("kprobe_ftrace_handler+0x40", "get_kprobe+0x0", V61),
        ("get_kprobe+0x38", "kprobe_ftrace_handler+0x45", V61),
        ("kprobe_ftrace_handler+0x90", "kprobe_dispatcher+0x0", V61),
        ("kprobe_dispatcher+0x30", "kprobe_perf_func+0x0", V61),
        ("kprobe_perf_func+0x40", "trace_call_bpf+0x0", V61),
    ] + [step + (V61,) for step in TRACE_CALL] + [
        # 6.12: fprobe on ftrace; 6.2-6.8 with IBT read the entry's endbr first
        ("FTRACE+0x50", "fprobe_handler+0x0", V612 | IBT),
        ("fprobe_handler+0x20", "copy_from_kernel_nofault+0x0", IBT),
        ("copy_from_kernel_nofault+0x40", "fprobe_handler+0x25", IBT),
        ("fprobe_handler+0xa0", "kprobe_multi_link_handler+0x0", V612 | IBT),
        # 7.2: fprobe over fgraph
        ("FTRACE+0x50", "function_graph_enter_regs+0x0", V72),
        ("function_graph_enter_regs+0x60", "fprobe_fgraph_entry+0x0", V72),
        ("fprobe_fgraph_entry+0x90", "fgraph_retrieve_data|fprobe_entry+0x0", V72),
        ("fgraph_retrieve_data|fprobe_entry+0x10", "fprobe_fgraph_entry+0x95", V72),
        ("fprobe_fgraph_entry+0xa0", "kprobe_multi_link_handler+0x0", V72),
        ("kprobe_multi_link_handler+0x10", "kprobe_multi_link_prog_run+0x0", MULTI),
        ("kprobe_multi_link_prog_run+0x2d", "migrate_disable+0x0", MULTI),
        ("migrate_disable+0x37", "kprobe_multi_link_prog_run+0x32", MULTI),
        ("kprobe_multi_link_prog_run+0x58", "PROG+0x0", MULTI),
    ] + COMMON_PROG[2:],
    # kretprobe: the function returns into the rethook trampoline (6.1, 6.12) or fgraph's
    # return_to_handler (7.2)
    "kretprobe": CALLER + [
        ("do_sys_openat2+0x0", "FTRACE+0x0"),
        ("FTRACE+0x50", "FTRACE+0x55"),
        ("FTRACE+0x56", "do_sys_openat2+0x5"),
    ] + INNER + [
        ("*do_sys_openat2+0x95", "arch_rethook_trampoline+0x0", V61 | V612),
        ("*do_sys_openat2+0x95", "return_to_handler+0x0", V72),
        ("arch_rethook_trampoline+0x27", "arch_rethook_trampoline_callback+0x0", V61 | V612),
        ("arch_rethook_trampoline_callback+0x31", "rethook_trampoline_handler+0x0",
         V61 | V612),
        ("rethook_trampoline_handler+0x6f", "kretprobe_rethook_handler+0x0", V61),
        ("kretprobe_rethook_handler+0x40", "kretprobe_dispatcher+0x0", V61),
        ("kretprobe_dispatcher+0x30", "kretprobe_perf_func+0x0", V61),
        ("kretprobe_perf_func+0x40", "trace_call_bpf+0x0", V61),
    ] + [step + (V61,) for step in TRACE_CALL] + [
        ("rethook_trampoline_handler+0x6f", "fprobe_exit_handler+0x0", V612),
        ("fprobe_exit_handler+0xb4", "kprobe_multi_link_exit_handler+0x0", V612),
        ("return_to_handler+0x20", "ftrace_return_to_handler+0x0", V72),
        ("ftrace_return_to_handler+0x80", "fprobe_return+0x0", V72),
        ("fprobe_return+0x60", "kprobe_multi_link_exit_handler+0x0", V72),
        ("kprobe_multi_link_exit_handler+0x4", "kprobe_multi_link_prog_run+0x0", MULTI),
        ("kprobe_multi_link_prog_run+0x2d", "migrate_disable+0x0", MULTI),
        ("migrate_disable+0x37", "kprobe_multi_link_prog_run+0x32", MULTI),
        ("kprobe_multi_link_prog_run+0x58", "PROG+0x0", MULTI),
    ] + COMMON_PROG[2:],
    # tracepoints: the name list; the call into the tracepoint is kept
    "raw_tp": [
        ("do_syscall_64+0x50", "syscall_exit_to_user_mode|syscall_exit_work+0x0"),
        ("*syscall_exit_to_user_mode_prepare|syscall_exit_work|trace_syscall_exit+0x13d",
         "__traceiter_sys_exit+0x0"),
        ("__traceiter_sys_exit+0x3e", "__bpf_trace_sys_exit+0x0"),
        ("__bpf_trace_sys_exit+0x10", "bpf_trace_run2+0x0"),
        ("bpf_trace_run2+0x4a", "__rcu_read_lock+0x0"),
        ("__rcu_read_lock+0x1e", "bpf_trace_run2+0x4f"),
        ("bpf_trace_run2+0x90", "PROG+0x0"),
    ] + COMMON_PROG[2:],
    "tp_btf": [
        ("do_syscall_64+0x30", "syscall_trace_enter|syscall_trace_enter.constprop.0|trace_syscall_enter+0x0"),
        ("*syscall_trace_enter|syscall_trace_enter.constprop.0|trace_syscall_enter+0x6e", "__traceiter_sys_enter+0x0"),
        ("__traceiter_sys_enter+0x3e", "__bpf_trace_sys_enter+0x0"),
        ("__bpf_trace_sys_enter+0x10", "bpf_trace_run2+0x0"),
        ("bpf_trace_run2+0x4a", "migrate_disable+0x0"),
        ("migrate_disable+0x37", "bpf_trace_run2+0x4f"),
        ("bpf_trace_run2+0x90", "PROG+0x0"),
    ] + COMMON_PROG[2:],
    # user probes: the trap from user mode and its handling on the way back to user mode
    "uprobe": [("USER-0x40", "USER-0x20")] + UPROBE_PATH,
    "usdt": [("USER-0x40", "USER-0x20")] + UPROBE_PATH,
    # a watchpoint on kernel data: the access traps in the writing function
    "mem": [
        ("proc_dointvec+0x22", "__do_proc_dointvec|do_proc_dointvec+0x0"),
        ("__do_proc_dointvec|do_proc_dointvec+0x1fa", "do_proc_dointvec_conv|do_proc_int_conv+0x0"),
        ("*do_proc_dointvec_conv|do_proc_int_conv+0x23", "asm_exc_debug+0x0"),
        ("asm_exc_debug+0x1b", "exc_debug+0x0"),
        ("?exc_debug+0x20", "exc_debug_kernel|noist_exc_debug+0x0"),
        ("?exc_debug_kernel|noist_exc_debug+0x50", "notify_debug+0x0"),
        ("?notify_debug+0x10", "notify_die+0x0"),
        ("?notify_die+0x40", "hw_breakpoint_handler+0x0"),
        ("hw_breakpoint_handler+0x90", "perf_bp_event+0x0"),
        ("perf_bp_event+0x60", "perf_swevent_event+0x0"),
        ("?perf_swevent_event+0x80", "__perf_event_overflow+0x0"),
        ("?__perf_event_overflow+0x90", "bpf_overflow_handler+0x0"),
        ("?bpf_overflow_handler+0x70", "PROG+0x0"),
    ] + COMMON_PROG[2:],
    "mem-user": [
        ("USER-0x40", "USER-0x20"),
        ("*USER", "asm_exc_debug+0x0"),
        ("asm_exc_debug+0x1b", "exc_debug+0x0"),
        ("?exc_debug+0x20", "exc_debug_user|noist_exc_debug+0x0"),
        ("?exc_debug_user+0x50", "notify_debug+0x0"),
        ("?notify_debug+0x10", "notify_die+0x0"),
        ("?notify_die+0x40", "hw_breakpoint_handler+0x0"),
        ("hw_breakpoint_handler+0x90", "perf_bp_event+0x0"),
        ("perf_bp_event+0x60", "perf_swevent_event+0x0"),
        ("?perf_swevent_event+0x80", "__perf_event_overflow+0x0"),
        ("?__perf_event_overflow+0x90", "bpf_overflow_handler+0x0"),
        ("?bpf_overflow_handler+0x70", "PROG+0x0"),
    ] + COMMON_PROG[2:],
}
KIND = {"fexit": "FEXIT", "kprobe": "KPROBE", "kprobe-ibt": "KPROBE", "kretprobe": "KRETPROBE", "raw_tp": "RAW_TP",
        "tp_btf": "TP_BTF", "uprobe": "UPROBE", "usdt": "USDT", "mem": "MEM",
        "mem-user": "MEM"}
TARGET = {"fexit": "do_sys_openat2", "kprobe": "do_sys_openat2", "kprobe-ibt": "do_sys_openat2",
          "kretprobe": "do_sys_openat2", "raw_tp": "sys_exit", "tp_btf": "sys_enter",
          "uprobe": "lbrsnap_up_count", "usdt": "lbrsnap:values", "mem": "panic_timeout",
          "mem-user": "lbrsnap_watched"}


def load_kallsyms(path):
    lines, by_name = [], {}
    with gzip.open(path, "rt") as f:
        for line in f:
            p = line.rstrip("\n").split(None, 3)
            if len(p) < 3 or p[1] not in "tTwW" or int(p[0], 16) == 0:
                continue
            lines.append(line.rstrip("\n"))
    lines.sort(key=lambda l: int(l.split()[0], 16))
    for i, l in enumerate(lines):
        by_name.setdefault(l.split()[2], i)
    return lines, by_name


class Kernel:
    def __init__(self, dump, rel):
        self.lines, self.by_name = load_kallsyms(os.path.join(dump, rel, "kallsyms.gz"))
        self.used = set()
        self.extra = {}		# BPF symbols of the recordings: name -> line

    def find(self, alts):
        for a in alts.split("|"):
            if a in self.by_name:
                return a
        return None

    def use(self, name):
        if name in self.extra:
            return
        i = self.by_name[name]
        self.used.add(i)
        if i + 1 < len(self.lines):
            self.used.add(i + 1)

    def kallsyms(self):
        out = [self.lines[i] for i in sorted(self.used)] + sorted(self.extra.values())
        return out


def resolve_loc(k, loc, prog, tramp, ftrace):
    """'name+0xoff' with alternatives, or None where the kernel lacks every name."""
    if loc.startswith("USER"):
        return "0x%x" % (USER + (-int(loc[5:], 16) if "-" in loc else 0))
    names, off = loc.rsplit("+", 1)
    subst = {"PROG": prog, "TRAMP": tramp, "FTRACE": ftrace}
    if names in subst and subst[names] in k.extra:
        return "%s+%s" % (subst[names], off)
    names = subst.get(names, names)
    n = k.find(names)
    if not n:
        return None
    k.use(n)
    # an offset inside the function, whatever its size on that kernel
    i = k.by_name[n]
    size = int(k.lines[i + 1].split()[0], 16) - int(k.lines[i].split()[0], 16)
    return "%s+0x%x" % (n, min(int(off, 16), size - 1))


def branches(k, kind, prog, tramp, ftrace, variant):
    entries, mark = [], None
    for step in PATHS[kind]:
        frm, to = step[:2]
        if len(step) > 2 and variant not in step[2]:
            continue
        star = frm.startswith("*")
        frm = frm.lstrip("*")
        opt = frm.startswith("?") or to.startswith("?")
        a = resolve_loc(k, frm.lstrip("?"), prog, tramp, ftrace)
        b = resolve_loc(k, to.lstrip("?"), prog, tramp, ftrace)
        if not a or not b:
            if opt or not star:
                continue
            sys.exit("%s: %s -> %s: no such function" % (kind, frm, to))
        if star:
            mark = len(entries)
        entries.append((a, b))
    nr = len(entries)
    text = "".join('\t"[#%02u] %s -> %s\\n"\n' % (nr - 1 - i, a, b)
                   for i, (a, b) in enumerate(entries))
    # newest first: the marked entry's index from the newest end
    return text.rstrip("\n"), nr - 1 - mark


def stack_expect(k, kind, frames, ip):
    """The frames to trim, told from the kind alone (not by trim.c's rules)."""
    names = [f.partition("+")[0] for f in frames]
    if kind in ("uprobe", "usdt", "mem-user"):
        return len(frames)		# a trap from user mode: all of it is the trap's
    if kind in ("fexit", "kprobe", "kretprobe"):
        if "do_sys_openat2" in names:
            return names.index("do_sys_openat2")
        # returned: the program and its trampoline, then the caller
        return next(i for i, n in enumerate(names) if n not in k.extra)
    if kind == "mem":
        start = max(int(l.split()[0], 16) for l in k.lines
                    if int(l.split()[0], 16) <= int(ip, 16))
        fn = next(l.split()[2] for l in k.lines if int(l.split()[0], 16) == start)
        return names.index(fn) if fn in names else 0
    glue = ("bpf_prog_", "bpf_trace_run", "__bpf_trace_", "__traceiter_")
    return next(i for i, n in enumerate(names) if not n.startswith(glue))


def c_name(s):
    return s.replace(".", "_").replace("-", "_")


def main():
    dump = sys.argv[1]
    out = ['/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */',
           '/* Generated by tests/unit/trim-listings.py from guests of Debian\'s kernels: */',
           '/* do not edit, run it again. */', '']
    table = []
    for short, rel in KERNELS:
        k = Kernel(dump, rel)
        listings = []
        # stacks as recorded; the BPF symbols from the recordings (unloaded since)
        prog = tramp = None
        for kind in ["fexit", "kprobe", "kretprobe", "raw_tp", "tp_btf", "uprobe", "usdt",
                     "mem", "mem-user"]:
            path = os.path.join(dump, rel, kind + ".json")
            if not os.path.exists(path):
                continue
            recs = [json.loads(l) for l in open(path) if '"time_ns"' in l]
            if not recs:
                continue
            r = recs[0]
            frames = []
            for f in r["stack"]:
                sym = f["sym"] or ""
                name, _, off = sym.partition("+")
                if not name:
                    frames.append("0x" + f["addr"][2:] if f["addr"].startswith("0x") else f["addr"])
                    continue
                addr = int(f["addr"], 16)
                start = addr - int(off or "0", 16)
                if name in k.by_name and int(k.lines[k.by_name[name]].split()[0], 16) == start:
                    k.use(name)
                else:
                    k.extra[name] = "%016x t %s\t[bpf]" % (start, name)
                    if name.startswith("bpf_prog_") and not prog:
                        prog = name
                    if name.startswith("bpf_trampoline_") and not tramp:
                        tramp = name
                frames.append(sym)
            ip = r.get("args", {}).get("ip") if kind.startswith("mem") else None
            listings.append((kind, frames, ip, stack_expect(k, kind, frames, ip)))
        # 6.12 and 7.2 name no trampoline: its addresses resolved to the program's symbol
        tramp = tramp or prog
        ftrace = k.find("ftrace_regs_caller|ftrace_caller")
        k.use(ftrace)
        if not prog:
            sys.exit(rel + ": no BPF program in the recordings")
        for kind, frames, ip, trim in listings:
            table.append((short, kind, "stack", " ".join(frames), ip, trim))
        for kind in PATHS:
            text, trim = branches(k, kind, prog, tramp, ftrace, short)
            table.append((short, kind, "branches", text, None, trim))
        if short == "6.12":
            text, trim = branches(k, "kprobe", prog, tramp, ftrace, "ibt")
            table.append((short, "kprobe-ibt", "branches", text, None, trim))
        out.append("/* %s */" % rel)
        out.append("static const char kallsyms_%s[] =" % c_name(short))
        out += ['\t"%s\\n"' % l.replace("\t", "\\t") for l in k.kallsyms()]
        out[-1] += ";"
        out.append("")
    out.append("static const struct trim_listing trim_listings[] = {")
    for short, kind, what, text, ip, trim in table:
        out.append("\t{ \"%s %s %s\", kallsyms_%s, LBRSNAP_KIND_%s, \"%s\", %s," %
                   (short, kind, what, c_name(short), KIND[kind], TARGET[kind],
                    ip + "ULL" if ip else "0"))
        if what == "stack":
            out.append('\t  "%s", NULL, %u },' % (text, trim))
        else:
            out.append("\t  NULL,\n%s, %u }," % (text, trim))
    out.append("};")
    print("\n".join(out))


main()
