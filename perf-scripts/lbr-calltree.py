# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# description: lbrsnap: the --calls tree of each record, as lbrsnap report prints it
# usage: perf script -s lbr-calltree.py
#
# A capture recorded with --calls holds, per record, the calls of its scope; lbrsnap perf and
# lbrsnap inject write them as lbr:call events at their entry times, before the record's own
# sample at the scope's end. For every record with calls this prints the record's header
# line, then its tree as lbrsnap report does: one line per call in entry order, indented by
# depth, with its duration and result, the error's origin marked.

import sys
import lbrsnap_perf

# the bounds a call past which is dropped (bpf/capture.h: LBRSNAP_CALLS_DEPTH, _MAX_CALLS)
CALLS_DEPTH = 64
MAX_CALLS = 64
PENDING = {}
NR_TREES = [0]


def tree_lines(calls):
    calls = sorted(calls, key=lambda c: c.idx)
    origin = [c for c in calls if c.origin]
    lines = ["  calls (origin %s):" % origin[0].func if origin else "  calls (no error origin):"]
    for c in calls:
        indent = 2 * min(c.depth, 20)
        if not c.returned:
            lines.append("    %*s%-*s %13s  %s" % (indent, "", 32 - indent, c.func, "", c.result))
            continue
        lines.append("    %*s%-*s %10.3f us  %s%s" % (indent, "", 32 - indent, c.func,
                                                     c.duration_ns / 1000.0, c.result,
                                                     "  <- origin" if c.origin else ""))
    if calls and calls[0].dropped:
        lines.append("    [%u calls of the scope not recorded: deeper than %d or past %d calls]"
                     % (calls[0].dropped, CALLS_DEPTH, MAX_CALLS))
    return lines


def add_call(c):
    PENDING.setdefault(c.record_key(), []).append(c)


def show(s):
    calls = PENDING.pop(lbrsnap_perf.record_key(s), None)
    if not calls:
        return
    NR_TREES[0] += 1
    print(s.header())
    print("\n".join(tree_lines(calls)))
    print()


def trace_begin():
    if not lbrsnap_perf.install(globals(), show, add_call):
        print("no lbr events in %s" % lbrsnap_perf.input_path(), file=sys.stderr)


def trace_end():
    # calls whose record is not in the input (perf script --time, --cpu, ...)
    for (attach, seq, tid), calls in sorted(PENDING.items(), key=lambda kv: kv[1][0].time):
        NR_TREES[0] += 1
        print("%16s %6d lbr:%s: seq=%d (the record is not in the input)" %
              (calls[0].comm, tid, attach, seq))
        print("\n".join(tree_lines(calls)))
        print()
    print("%d call trees" % NR_TREES[0])


def trace_unhandled(event_name, context, event_fields_dict, *rest):
    pass
