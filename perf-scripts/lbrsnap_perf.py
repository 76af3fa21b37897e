# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""lbr events in `perf script -s` scripts (perf 6.1).

perf hands the branch stack and the callchain (perf_sample_dict) only to a tracepoint
handler named <system>__<event> whose parameters are exactly the event's fields plus
perf_sample_dict. The lbr events are named after their attach points, so the handlers are
made here, one per lbr event found in the perf.data header (EVENT_DESC), all calling one
function with an LbrSample.

The samples leave out the tracing path's entries, as lbrsnap report does; the RAW fields
tracing_branches and tracing_stack hold them (addresses), symbolized here with the kallsyms
copy lbrsnap perf writes next to the perf.data (else /proc/kallsyms).
"""

import bisect
import os
import re
import struct

FEAT_TRACING_DATA = 1
FEAT_EVENT_DESC = 12
# The lbr tracepoint format (see lbrsnap-perf(1)); perf passes the fields in this order,
# then the attach point's arguments, as its format in the tracing data names them. The list
# is the field schema's (lib/view/record-fields.h, LBR_PERF_FIELDS): t-record-fields
# compares it with what the build's record-fields program prints.
FIELDS = ("ret", "seq", "lbr_ret", "stack_err", "flags", "nr_branches", "nr_stack",
          "trim_branches", "trim_stack", "tracing_branches", "tracing_stack", "ret_str",
          "ret_kind", "call", "cgroup")
# lbr:call, one event per call of a --calls scope: its fields (LBR_PERF_CALL_FIELDS) are
# read from its format in the file (call_fields()), so no list here can drift from them
CALL_EVENT = "lbr:call"


class Kallsyms:
    """Text symbols of a kallsyms file, for the addresses perf did not symbolize."""

    def __init__(self, path):
        syms = []
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split()
                    if len(parts) >= 3 and parts[1] in "tTwW" and int(parts[0], 16):
                        syms.append((int(parts[0], 16), parts[2]))
        except OSError:
            pass
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def find(self, addr):
        """(name, offset) of the symbol holding addr, or None."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        return (self.names[i], addr - self.addrs[i]) if i >= 0 else None

    def branch_end(self, addr):
        """'ksys_read+0x60', as perf's brstacksym writes an address."""
        sym = self.find(addr)
        return "%s+0x%x" % sym if sym else "[unknown]"

    def frame(self, addr):
        """'ksys_read', as perf's callchain names a frame."""
        sym = self.find(addr)
        return sym[0] if sym else "0x%x" % addr


_KALLSYMS = []


def kallsyms():
    if not _KALLSYMS:
        copy = input_path() + ".kallsyms"
        _KALLSYMS.append(Kallsyms(copy if os.path.exists(copy) else "/proc/kallsyms"))
    return _KALLSYMS[0]


def _u64s(raw):
    return list(struct.unpack("<%dQ" % (len(raw) // 8), bytes(raw[:len(raw) // 8 * 8])))


class LbrSample:
    """One lbr record: where, who, when, and its branches or kernel stack."""

    def __init__(self, event, cpu, secs, nsecs, tid, comm, fields, args, sample):
        self.event = event                     # "lbr:fexit:do_sys_openat2"
        self.cpu = cpu
        self.time = secs * 1000000000 + nsecs
        self.tid = tid
        self.pid = sample.get("sample", {}).get("pid", tid)
        self.comm = comm
        for name, value in zip(FIELDS, fields):
            setattr(self, name, value)
        # the arguments as their types are: int for integers, enums and pointers, str for
        # strings; a syscall's are syscall_nr, syscall and args (its six registers)
        self.args = args
        if isinstance(args.get("args"), (bytes, bytearray)):
            args["args"] = _u64s(args["args"])
        # ret as its type reads ("-2", "true", "ERR_PTR(-ENOENT)"), as lbrsnap report shows it
        self.has_ret = bool(self.ret_kind)
        # [0] most recent, as perf and the LBR give them
        self.branches = sample.get("brstacksym") or []
        self.branch_addrs = sample.get("brstack") or []
        # innermost first, without perf's context marker
        self.stack = [f.get("sym", {}).get("name") or "0x%x" % f["ip"]
                      for f in sample.get("callchain") or []]

    def flow(self, keep_all=False):
        """Branches oldest first, without the tracing path's (newest) entries."""
        if len(self.branches) == self.nr_branches:
            # written with lbrsnap perf --keep-all: the sample holds them all
            return list(reversed(self.branches[0 if keep_all else self.trim_branches:]))
        tracing = []
        if keep_all:
            addrs = _u64s(self.tracing_branches)
            tracing = [{"from": kallsyms().branch_end(addrs[i]),
                        "to": kallsyms().branch_end(addrs[i + 1])}
                       for i in range(0, len(addrs) - 2, 3)]
        return list(reversed(tracing + self.branches))

    def calls(self, keep_all=False):
        """Kernel stack outermost first, without the tracing path's (innermost) frames."""
        if len(self.stack) == self.nr_stack:
            return list(reversed(self.stack[0 if keep_all else self.trim_stack:]))
        tracing = []
        if keep_all:
            tracing = [kallsyms().frame(a) for a in _u64s(self.tracing_stack)]
        return list(reversed(tracing + self.stack))

    def header(self):
        # the call with its arguments first, as perf script's own line has it
        ret = " %s" % self.call if self.call else ""
        ret += " ret=%s" % self.ret_str if self.has_ret else ""
        return "%16s %6d [%03d] %d.%09d: %s:%s" % (self.comm, self.tid, self.cpu,
                                                  self.time // 1000000000,
                                                  self.time % 1000000000, self.event, ret)


class LbrCall:
    """One call of a --calls scope: lbrsnap report's tree line, and the record it is of.
    Its attributes are the lbr:call format's fields (lbrsnap-perf(1)): func, depth,
    duration_ns, ret, result, err, origin, returned, idx, nr, dropped, attach, seq."""

    def __init__(self, cpu, secs, nsecs, tid, comm, names, fields):
        self.cpu = cpu
        self.time = secs * 1000000000 + nsecs      # the call's entry
        self.tid = tid
        self.comm = comm
        for name, value in zip(names, fields):
            setattr(self, name, value)
        self.ret = _signed(self.ret, 8)

    def record_key(self):
        """What names the call's record: (attach point, seq, tid), as record_key(sample)."""
        return (self.attach, self.seq, self.tid)


def record_key(s):
    """The key of an LbrSample's calls (LbrCall.record_key)."""
    return (s.event[len("lbr:"):], s.seq, s.tid)


def input_path():
    """The perf.data that perf script reads: its -i/--input, else perf.data."""
    try:
        with open("/proc/self/cmdline", "rb") as f:
            argv = f.read().decode(errors="replace").split("\0")
    except OSError:
        return "perf.data"
    for i, arg in enumerate(argv):
        if arg in ("-i", "--input") and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--input="):
            return arg[len("--input="):]
        if arg.startswith("-i") and len(arg) > 2 and not arg.startswith("--"):
            return arg[2:]
    return "perf.data"


def _feature(f, header, bit):
    data_off, data_size = struct.unpack_from("<QQ", header, 40)
    features = struct.unpack_from("<4Q", header, 72)
    if not features[bit // 64] & (1 << (bit % 64)):
        return None
    idx = sum(1 for b in range(bit) if features[b // 64] & (1 << (b % 64)))
    f.seek(data_off + data_size + idx * 16)
    off, size = struct.unpack("<QQ", f.read(16))
    f.seek(off)
    return f.read(size)


def event_names(path):
    """Event names from the EVENT_DESC header feature, in attribute order."""
    return [name for name, _ in event_descs(path)]


def event_descs(path):
    """(name, attr.config) of each event of the EVENT_DESC header feature, in attribute
    order; a tracepoint's config is its format's ID."""
    with open(path, "rb") as f:
        header = f.read(104)
        if len(header) < 104 or header[:8] != b"PERFILE2":
            raise ValueError("%s: not a perf.data file" % path)
        desc = _feature(f, header, FEAT_EVENT_DESC)
    descs = []
    if not desc:
        return descs
    nr, attr_size = struct.unpack_from("<II", desc, 0)
    pos = 8
    for _ in range(nr):
        config = struct.unpack_from("<Q", desc, pos + 8)[0]
        pos += attr_size
        nr_ids, slen = struct.unpack_from("<II", desc, pos)
        pos += 8
        descs.append((desc[pos:pos + slen].split(b"\0")[0].decode(errors="replace"), config))
        pos += slen + 8 * nr_ids
    return descs


def handler_name(event):
    """perf's handler name for an lbr event: lbr:fexit:vfs_read -> lbr__fexit__vfs_read."""
    system, spec = event.split(":", 1)
    name = "".join(c if c.isalnum() and c.isascii() else "__" if c == ":" else "_"
                   for c in spec)
    return system + "__" + name


def format_names(path):
    """{format ID: name} of the tracing data's event formats: perf calls an event's handler
    <system>__<its format's name>, which for a user probe is not its spec's (the file's base
    name, not its path: lbrsnap-perf(1))."""
    with open(path, "rb") as f:
        header = f.read(104)
        if len(header) < 104 or header[:8] != b"PERFILE2":
            raise ValueError("%s: not a perf.data file" % path)
        data = _feature(f, header, FEAT_TRACING_DATA) or b""
    return {int(m.group(2)): m.group(1).decode()
            for m in re.finditer(rb"name: (\w+)\nID: (\d+)\nformat:\n", data)}


def call_fields(path):
    """The lbr:call format's field names, in RAW order (the handler's parameters)."""
    fmts = _formats(path)
    descs = dict(event_descs(path))
    return fmts.get(format_names(path).get(descs.get(CALL_EVENT)), [])


def _formats(path):
    """{format name: [field name, ...]} of the tracing data, common fields left out."""
    with open(path, "rb") as f:
        header = f.read(104)
        if len(header) < 104 or header[:8] != b"PERFILE2":
            raise ValueError("%s: not a perf.data file" % path)
        data = _feature(f, header, FEAT_TRACING_DATA) or b""
    return {m.group(1).decode(): [n.decode() for n in
                                  re.findall(rb"field:[^;]*?(\w+)(?:\[\d+\])?;", m.group(2))
                                  if not n.startswith(b"common_")]
            for m in re.finditer(rb"name: (\w+)\nID: \d+\nformat:\n(.*?)\nprint fmt:", data,
                                 re.S)}


def event_arg_fields(path):
    """{format name: [(argument field, size, signed), ...]} of the lbr events, from the
    tracing data."""
    with open(path, "rb") as f:
        header = f.read(104)
        if len(header) < 104 or header[:8] != b"PERFILE2":
            raise ValueError("%s: not a perf.data file" % path)
        data = _feature(f, header, FEAT_TRACING_DATA) or b""
    fields = {}
    for m in re.finditer(rb"name: (\w+)\nID: \d+\nformat:\n(.*?)\nprint fmt:", data, re.S):
        found = re.findall(rb"field:[^;]*?(\w+)(?:\[\d+\])?;\toffset:\d+;\tsize:(\d+);"
                           rb"\tsigned:(\d+);", m.group(2))
        found = [(n.decode(), int(size), signed == b"1") for n, size, signed in found
                 if not n.startswith(b"common_")]
        if tuple(f[0] for f in found[:len(FIELDS)]) == FIELDS:
            fields[m.group(1).decode()] = found[len(FIELDS):]
    return fields


def _signed(value, size):
    # perf reads an int field zero-extended: -100 in an int arrives as 4294967196
    if isinstance(value, int) and size < 8 and value >= 1 << (8 * size - 1):
        return value - (1 << (8 * size))
    return value


def _make_handler(event, callback, arg_fields):
    # perf counts the parameters: exactly the fields, then perf_sample_dict. Argument names
    # may be Python keywords ("from"): the parameters are numbered, the names kept apart.
    nfixed = len(FIELDS)

    def call(common_cpu, common_secs, common_nsecs, common_pid, common_comm, values, sample):
        args = {name: _signed(v, size) if signed else v
                for (name, size, signed), v in zip(arg_fields, values[nfixed:])}
        callback(LbrSample(event, common_cpu, common_secs, common_nsecs, common_pid,
                           common_comm, values[:nfixed], args, sample))
    params = ["p%d" % i for i in range(nfixed + len(arg_fields))]
    src = ("def handler(event_name, context, common_cpu, common_secs, common_nsecs, "
           "common_pid, common_comm, common_callchain, %s, perf_sample_dict):\n"
           "    call(common_cpu, common_secs, common_nsecs, common_pid, common_comm, "
           "(%s,), perf_sample_dict)\n" % (", ".join(params), ", ".join(params)))
    namespace = {"call": call}
    exec(src, namespace)
    return namespace["handler"]


def _make_call_handler(callback, names):
    params = ", ".join("p%d" % i for i in range(len(names)))
    src = ("def handler(event_name, context, common_cpu, common_secs, common_nsecs, "
           "common_pid, common_comm, common_callchain, %s, perf_sample_dict):\n"
           "    call(LbrCall(common_cpu, common_secs, common_nsecs, common_pid, common_comm, "
           "names, (%s,)))\n" % (params, params))
    namespace = {"call": callback, "LbrCall": LbrCall, "names": names}
    exec(src, namespace)
    return namespace["handler"]


def install(namespace, callback, call_callback=None):
    """Defines a handler in namespace for every lbr event of the input; returns their count.
    lbr:call events go to call_callback (an LbrCall each) when given, else are not handled."""
    count = 0
    arg_fields = event_arg_fields(input_path())
    formats = format_names(input_path())
    for event, config in event_descs(input_path()):
        if not event.startswith("lbr:") or event == "lbr:sideband":
            continue
        # the format's name as lbrsnap wrote it, else as perf names one from the event
        fmt = formats.get(config) or handler_name(event)[len("lbr__"):]
        if event == CALL_EVENT:
            if call_callback:
                namespace["lbr__" + fmt] = _make_call_handler(call_callback,
                                                              _formats(input_path()).get(fmt, []))
            continue
        namespace["lbr__" + fmt] = _make_handler(event, callback, arg_fields.get(fmt, []))
        count += 1
    return count


def script_args(argv):
    """Options after the script name: --all keeps tracing-path entries; -n N; --functions."""
    opts = {"all": False, "top": 10, "functions": False}
    args = list(argv[1:])
    while args:
        arg = args.pop(0)
        if arg == "--all":
            opts["all"] = True
        elif arg == "--functions":
            opts["functions"] = True
        elif arg == "-n" and args:
            opts["top"] = int(args.pop(0))
        else:
            raise SystemExit("unknown argument '%s' (known: --all, -n N, --functions)" % arg)
    return opts


def symbol(entry, functions):
    """'ksys_read+0x60' or, with functions, 'ksys_read'."""
    return entry.split("+0x")[0] if functions else entry
