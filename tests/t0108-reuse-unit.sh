#!/bin/sh
# t0108-reuse-unit: the C unit test of lib/dgreuse.c under ASan+UBSan:
# every distance equals an LRU stack's, kept the slow way, over uniform,
# local, growing and high-numbered lines (the recent lines, renumbering
# and growth all reached).
. "$DG_TESTS/lib.sh"

U=$DG_BUILD/tests/unit
[ -x "$U/test_dgreuse" ] || skip "$U/test_dgreuse not built (make unit-tests)"
unit_run reuse "$U/test_dgreuse"

finish
