#!/bin/sh
# t0105-sym-unit: the C unit test of the symbolizer (lib/dgsym.c), plain and
# under ASan+UBSan: functions, lines and inline chains against addr2line for
# a PIE, a -no-pie and a C++ build, the symbol-table fallbacks, IFUNC PLT
# stubs against objdump, build-id mismatch and bad files, libc.  The
# binaries come from `make unit-tests`.
. "$DG_TESTS/lib.sh"

U=$DG_BUILD/tests/unit
for b in test_dgsym test_dgsym-asan; do
	[ -x "$U/$b" ] || skip "$U/$b not built (make unit-tests)"
done
for t in cc c++ strip nm addr2line objdump; do
	command -v $t >/dev/null 2>&1 || skip "$t not installed"
done

unit_run sym "$U/test_dgsym"
unit_run sym-asan "$U/test_dgsym-asan"

finish
