#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""perf-grow.py IN OUT BYTES: IN (a perf.data of tracepoint samples with RAW last) with copies
of its last sample appended, each padded to 65528 bytes of zero RAW data, until the data
section exceeds BYTES; the features move behind. The padding is left as holes: OUT is
sparse, a few hundred MB on disk for 4 GiB. Prints the number of samples appended."""
import struct
import sys

REC = 65528                       # largest 8-aligned perf record

src, dst, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
f = open(src, 'rb').read()
data_off, data_size = struct.unpack_from('<2Q', f, 40)
pos, last = data_off, None
while pos < data_off + data_size:
    typ, _, size = struct.unpack_from('<IHH', f, pos)
    if typ == 9:
        last = pos
    pos += size
_, _, size = struct.unpack_from('<IHH', f, last)
rec = bytearray(f[last:last + size])
# RAW is last: its u32 size is the field whose offset + 4 + value ends the record
raw_at = None
for off in range(8, size - 4, 8):
    if off + 4 + struct.unpack_from('<I', rec, off)[0] == size:
        raw_at = off
        break
if raw_at is None:
    sys.exit('perf-grow: no RAW field in the last sample')
struct.pack_into('<H', rec, 6, REC)
struct.pack_into('<I', rec, raw_at, REC - raw_at - 4)
n = (want - data_size) // REC + 1
with open(dst, 'wb') as o:
    o.write(f[:data_off + data_size])
    at = data_off + data_size
    for _ in range(n):
        o.seek(at)
        o.write(rec)
        at += REC
    # the feature table follows the data: its payload offsets move by what was added
    delta = n * REC
    feats = f[data_off + data_size:]
    bits = struct.unpack_from('<4Q', f, 72)
    nfeat = sum(bin(b).count('1') for b in bits)
    table = bytearray(feats[:16 * nfeat])
    for i in range(nfeat):
        off, sz = struct.unpack_from('<2Q', table, 16 * i)
        struct.pack_into('<2Q', table, 16 * i, off + delta, sz)
    o.seek(at)
    o.write(table + feats[16 * nfeat:])
    o.seek(48)
    o.write(struct.pack('<Q', data_size + delta))
print(n)
