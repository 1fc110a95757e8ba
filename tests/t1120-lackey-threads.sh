#!/bin/sh
# t1120-lackey-threads: per-instruction read/write counts of
# tests/progs/threads.c's own code (main and 4 workers) equal Lackey's.
. "$DG_TESTS/lib.sh"
need_tool
need_prog threads
lackey_compare "$DG_PROGS/threads"
finish
