# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""tracedat-edit.py IN OUT EDIT: a copy of a trace.dat version 6 file (little-endian, 64-bit,
flyrecord, as `trace-cmd record --file-version 6` writes it) with one edit, for the tests of
damaged inputs and for the fuzz seeds:

  length0     the first event of the top buffer becomes one whose length word is 0
  truncate    the file cut in the middle of its last CPU's data
  clock       the trace clock text after the CPU table becomes "[]" (no clock name)
  clock-option  the TRACECLOCK option's text becomes "[]"
  uname REL   the UNAME option's release becomes REL (another kernel build)
  small       kallsyms and printk formats left out, the CPU data moved up (a small seed)
"""
import struct
import sys


def parse(d):
    """Offsets of the parts of a v6 file."""
    f = {}
    p = 10
    e = d.index(b'\0', p)
    assert d[p:e] == b'6', 'not a version 6 file'
    p = e + 1 + 2
    f['page_size'] = struct.unpack_from('<I', d, p)[0]
    p += 4
    for _ in range(2):			# header_page, header_event
        p = d.index(b'\0', p) + 1
        p += 8 + struct.unpack_from('<Q', d, p)[0]
    n = struct.unpack_from('<I', d, p)[0]	# ftrace formats
    p += 4
    for _ in range(n):
        p += 8 + struct.unpack_from('<Q', d, p)[0]
    n = struct.unpack_from('<I', d, p)[0]	# event systems
    p += 4
    for _ in range(n):
        p = d.index(b'\0', p) + 1
        m = struct.unpack_from('<I', d, p)[0]
        p += 4
        for _ in range(m):
            p += 8 + struct.unpack_from('<Q', d, p)[0]
    f['kallsyms'] = p
    p += 4 + struct.unpack_from('<I', d, p)[0]
    f['printk'] = p
    p += 4 + struct.unpack_from('<I', d, p)[0]
    p += 8 + struct.unpack_from('<Q', d, p)[0]	# cmdlines
    f['nr_cpus'] = struct.unpack_from('<I', d, p)[0]
    p += 4
    f['options'] = []
    if d[p:p + 7] == b'options':
        p += 10
        while True:
            oid = struct.unpack_from('<H', d, p)[0]
            if oid == 0:
                p += 2
                break
            size = struct.unpack_from('<I', d, p + 2)[0]
            f['options'].append((oid, p + 6, size))
            p += 6 + size
    assert d[p:p + 9] == b'flyrecord'
    p += 10
    f['cpu_table'] = p
    f['cpus'] = [struct.unpack_from('<QQ', d, p + 16 * c) for c in range(f['nr_cpus'])]
    p += 16 * f['nr_cpus']
    f['clock'] = p
    return f


def option(d, f, oid):
    return next((o for o in f['options'] if o[0] == oid), None)


def length0(d, f):
    ps = f['page_size']
    for off, size in f['cpus']:
        for page in range(off, off + size, ps):
            commit = struct.unpack_from('<Q', d, page + 8)[0] & ((1 << 27) - 1)
            if commit >= 8:
                ev = page + 16
                w = struct.unpack_from('<I', d, ev)[0]
                # type_len 0: the length is in the next word, which says 0
                struct.pack_into('<II', d, ev, w & ~31, 0)
                return
    sys.exit('tracedat-edit: no event to damage')


def truncate(d, f):
    off, size = max(f['cpus'])
    return d[:off + size // 2]


def clock(d, f):
    size = struct.unpack_from('<Q', d, f['clock'])[0]
    p = f['clock'] + 8
    d[p:p + size] = b'[]' + b'\0' * (size - 2)


def clock_option(d, f):
    oid, p, size = option(d, f, 4)
    d[p:p + size] = b'[]' + b'\0' * (size - 2)


def uname(d, f, rel):
    oid, p, size = option(d, f, 5)
    words = bytes(d[p:p + size]).rstrip(b'\0').split(b' ')
    words[2] = rel.encode()
    new = b' '.join(words) + b'\0'
    # the UNAME option comes before the CPU data: they move by the difference, and stay
    # page-aligned when it is padded to a multiple of the page size
    return resize(d, f, p - 6, 6 + size, struct.pack('<HI', 5, len(new)) + new)


def resize(d, f, at, old_len, new):
    """Replaces d[at:at+old_len] (before the CPU data) by new, moving the CPU data."""
    ps = f['page_size']
    first = min(o for o, s in f['cpus'] if s) if any(s for o, s in f['cpus']) else len(d)
    head = bytes(d[:at]) + new + bytes(d[at + old_len:f['clock']])
    clock_len = 8 + struct.unpack_from('<Q', d, f['clock'])[0]
    table = head.index(b'flyrecord\0', len(head) - 16 * f['nr_cpus'] - 10) + 10
    head += bytes(d[f['clock']:f['clock'] + clock_len])
    start = (len(head) + ps - 1) // ps * ps
    shift = start - first
    out = bytearray(head + b'\0' * (start - len(head)) + bytes(d[first:]))
    for c, (o, s) in enumerate(f['cpus']):
        struct.pack_into('<QQ', out, table + 16 * c, o + shift if s else 0, s)
    return out


def small(d, f):
    ks = f['kallsyms']
    ks_len = 4 + struct.unpack_from('<I', d, ks)[0]
    pk_len = 4 + struct.unpack_from('<I', d, f['printk'])[0]
    return resize(d, f, ks, ks_len + pk_len, struct.pack('<II', 0, 0))


def main():
    src, dst, edit = sys.argv[1:4]
    d = bytearray(open(src, 'rb').read())
    f = parse(d)
    if edit == 'uname':
        out = uname(d, f, sys.argv[4])
    else:
        out = {'length0': length0, 'truncate': truncate, 'clock': clock,
               'clock-option': clock_option, 'small': small}[edit](d, f)
    open(dst, 'wb').write(out if out is not None else d)


main()
