#!/bin/sh
# t0106-types-unit: the C unit test of lib/dgtypes.c, plain and under
# ASan+UBSan: struct, union, bit-field, nested, folded-array and C++
# base-class layouts read from DWARF 5, DWARF 4, DWARF 4 type units,
# compressed sections (-gz) and split units (-gsplit-dwarf) equal what the
# compiler laid out (offsetof/sizeof printed by the program), the
# field at every such offset and in a later array element, padding, type
# names by `struct x`, `x`, typedef and `ns::x`, globals and statics by
# address, unknown names and bogus DIE offsets refused.
. "$DG_TESTS/lib.sh"

U=$DG_BUILD/tests/unit
for b in test_dgtypes test_dgtypes-asan; do
	[ -x "$U/$b" ] || skip "$U/$b not built (make unit-tests)"
done
for t in cc c++; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done

unit_run types "$U/test_dgtypes"
unit_run types-asan "$U/test_dgtypes-asan"

finish
