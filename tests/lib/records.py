#!/usr/bin/python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Summarises `lbrsnap report --json` (stdin) as key=value lines for shell tests.

count        number of record objects
pids tids comms attachs rets ret_types errnos   sorted distinct values, comma separated
min_stack    fewest stack frames in a record
sorted       1 if time_ns never decreases
fields       1 if every record has every documented field with the right type (time_ns a
             string of decimal digits: jq would round a number above 2^53)
ringbuf clobbered recursion   summed losses from the summary object
summary_records   "records" from the summary object
"""
import json
import sys

FIELDS = {"time_ns": str, "cpu": int, "pid": int, "tid": int, "comm": str, "ap": int,
          "attach": str, "target": str, "flags": int, "clobbered": bool, "lbr_ret": int,
          "stack_err": int, "seq": int, "branches": list, "stack": list}
FIELDS["lbr_stale"] = bool      # LBR was off on the record's CPU when it was taken

recs, summary = [], None
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    obj = json.loads(line)
    if "losses" in obj:
        summary = obj
    else:
        recs.append(obj)


def distinct(key):
    return ",".join(str(v) for v in sorted({r.get(key) for r in recs}, key=str))


print("count=%d" % len(recs))
for key in ("pid", "tid", "comm", "attach", "ret", "ret_type", "errno"):
    print("%ss=%s" % (key, distinct(key)))
print("min_stack=%d" % min((len(r["stack"]) for r in recs), default=0))
times = [int(r["time_ns"]) for r in recs]
print("sorted=%d" % (times == sorted(times)))
print("fields=%d" % all(all(isinstance(r.get(k), t) for k, t in FIELDS.items()) and
                        r["time_ns"].isdigit() for r in recs))
for cause in ("ringbuf", "clobbered", "recursion"):
    print("%s=%d" % (cause, sum(l[cause] for l in summary["losses"]) if summary else -1))
print("summary_records=%d" % (summary["records"] if summary else -1))
