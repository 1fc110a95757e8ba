#!/usr/bin/env python3
# dhat_sites.py DHAT_JSON EXE_LO EXE_HI: per allocation site of the test
# executable, DHAT's totals, one line each, sorted:
#     SITE-PC-HEX BLOCKS BYTES READ_BYTES WRITTEN_BYTES
# SITE-PC is the first frame after the allocator (fs[1]) when it lies in
# [EXE_LO, EXE_HI) (decimal); other allocation points (libc's own, such as
# stdio buffers) are left out.
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
import json
import sys

def main():
    d = json.load(open(sys.argv[1]))
    lo, hi = int(sys.argv[2]), int(sys.argv[3])
    ftbl = d["ftbl"]
    sites = {}
    for pp in d["pps"]:
        fs = pp["fs"]
        if len(fs) < 2:
            continue
        pc = int(ftbl[fs[1]].split(":", 1)[0], 16)
        if not lo <= pc < hi:
            continue
        t = sites.setdefault(pc, [0, 0, 0, 0])
        for i, k in enumerate(("tbk", "tb", "rb", "wb")):
            t[i] += pp[k]
    for pc in sorted(sites):
        print("%x %d %d %d %d" % ((pc,) + tuple(sites[pc])))

main()
