#!/bin/sh
# t1100-lackey-writes: per-instruction read/write counts of
# tests/progs/writes.c's own code equal Lackey's (--trace-mem=yes).
. "$DG_TESTS/lib.sh"
need_tool
need_prog writes
lackey_compare "$DG_PROGS/writes" 2
finish
