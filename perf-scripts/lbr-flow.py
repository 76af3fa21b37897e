# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# description: lbrsnap: each lbr sample's branch flow, oldest to newest
# usage: perf script -s lbr-flow.py [-- --all]
#
# For every lbr sample (from lbrsnap perf / lbrsnap inject) prints its header line, then its
# branches oldest first as "from -> to", or, for kernel-stack records, the call path
# outermost first. Entries of the tracing path itself (trampoline, BPF program: the newest
# ones) are left out as lbrsnap report does; --all keeps them.

import sys
import lbrsnap_perf

OPTS = lbrsnap_perf.script_args(sys.argv)
NR_SAMPLES = [0]


def show(s):
    NR_SAMPLES[0] += 1
    print(s.header())
    flow = s.flow(OPTS["all"])
    for br in flow:
        print("    %s -> %s" % (br["from"], br["to"]))
    if not flow:
        for i, frame in enumerate(s.calls(OPTS["all"])):
            print("    %s%s" % ("  " * i, frame))
    print()


def trace_begin():
    if not lbrsnap_perf.install(globals(), show):
        print("no lbr events in %s" % lbrsnap_perf.input_path(), file=sys.stderr)


def trace_end():
    print("%d lbr samples" % NR_SAMPLES[0])


def trace_unhandled(event_name, context, event_fields_dict, *rest):
    pass
