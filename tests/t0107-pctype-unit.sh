#!/bin/sh
# t0107-pctype-unit: the C unit test of the accessing instruction's type
# (lib/dgpctype.c), under ASan+UBSan, on the field oracle
# tests/progs/pctype/fields.c built -O0 (the instruction tracker through
# stack slots) and -O2 (location lists): read_a reads struct rec.a,
# write_b writes .b, local_c writes .c of a frame slot, poke_void's void *
# gets no struct type; a stripped binary gives nothing and no crash.
. "$DG_TESTS/lib.sh"

U=$DG_BUILD/tests/unit
[ -x "$U/test_dgpctype" ] || skip "$U/test_dgpctype not built (make unit-tests)"
command -v nm >/dev/null 2>&1 || skip "nm not installed"
need_prog pctype/fields-O0
need_prog pctype/fields-O2

DGPCTYPE_PROGS=$DG_PROGS/pctype/fields-O0:$DG_PROGS/pctype/fields-O2
export DGPCTYPE_PROGS
unit_run pctype "$U/test_dgpctype"

finish
