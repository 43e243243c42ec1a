#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ktraceb developers
"""ktr_inside.py IN OUT syscall|span: a ktraceb trace (docs/FORMAT.md) made to
start and end inside what a timeline draws as slices, for the kdump -P tests.

  syscall   the first CALL dropped, the file cut before the last RET
  span      the first span enter dropped, the file cut after the last enter
"""
import struct
import sys

KTR_SYSCALL, KTR_SYSRET, KTR_USER = 1, 2, 7
KTR_UREC_SPAN_ENTER = 2


def records(data):
    out, off = [], 0
    while off + 64 <= len(data):
        n = struct.unpack_from("<i", data, off)[0]
        out.append(data[off:off + 64 + n])
        off += 64 + n
    return out


def rtype(r):
    return struct.unpack_from("<h", r, 4)[0]


def main(argv):
    if len(argv) != 4 or argv[3] not in ("syscall", "span"):
        print(__doc__, file=sys.stderr)
        return 2
    recs = records(open(argv[1], "rb").read())
    if argv[3] == "syscall":
        types = [rtype(r) for r in recs]
        first = types.index(KTR_SYSCALL)
        end = len(types) - 1 - types[::-1].index(KTR_SYSRET)
    else:
        enters = [i for i, r in enumerate(recs) if rtype(r) == KTR_USER and
                  r[64:68] == b"KTRU" and r[69] == KTR_UREC_SPAN_ENTER]
        first, end = enters[0], enters[-1] + 1
    keep = [r for i, r in enumerate(recs[:end]) if i != first]
    open(argv[2], "wb").write(b"".join(keep))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
