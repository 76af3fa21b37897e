# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# description: lbrsnap: most frequent branch paths per attach point
# usage: perf script -s lbr-paths.py [-- [-n N] [--functions] [--all]]
#
# Groups the lbr samples of each attach point by their path (branches oldest first, or the
# kernel call path for stack records, tracing-path entries left out unless --all) and prints
# the N most frequent (default 10) with count and share. --functions drops the offsets, so
# paths through the same functions count as one.

import sys
import collections
import lbrsnap_perf

OPTS = lbrsnap_perf.script_args(sys.argv)
PATHS = collections.defaultdict(collections.Counter)


def count(s):
    fn = OPTS["functions"]
    flow = s.flow(OPTS["all"])
    if flow:
        path = tuple("%s -> %s" % (lbrsnap_perf.symbol(b["from"], fn),
                                   lbrsnap_perf.symbol(b["to"], fn)) for b in flow)
    else:
        path = tuple(lbrsnap_perf.symbol(f, fn) for f in s.calls(OPTS["all"]))
    PATHS[s.event][path] += 1


def trace_begin():
    if not lbrsnap_perf.install(globals(), count):
        print("no lbr events in %s" % lbrsnap_perf.input_path(), file=sys.stderr)


def trace_end():
    for event in sorted(PATHS):
        paths = PATHS[event]
        total = sum(paths.values())
        print("%s: %d samples, %d distinct paths" % (event, total, len(paths)))
        for path, n in paths.most_common(OPTS["top"]):
            print("  %8d %6.2f%%" % (n, 100.0 * n / total))
            for step in path or ("(empty)",):
                print("           %s" % step)
        print()


def trace_unhandled(event_name, context, event_fields_dict, *rest):
    pass
