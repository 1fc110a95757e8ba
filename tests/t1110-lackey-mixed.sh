#!/bin/sh
# t1110-lackey-mixed: per-instruction read/write counts of
# tests/progs/mixed.c's own code equal Lackey's: plain loads and stores of
# 1-8 bytes, memory-destination add, lock add / xadd, lock cmpxchg, xchg,
# struct copy, rep movsb.  A Lackey "M" (modify) is one read plus one write.
. "$DG_TESTS/lib.sh"
need_tool
need_prog mixed
lackey_compare "$DG_PROGS/mixed"
# The interesting instructions really are there and were compared.
mix=$(sym_range "$DG_PROGS/mixed" mix)
check_ge "lackey saw read-modify-writes in mix (40 iterations x 5)" 200 \
	"$(dgawk -v lo=${mix% *} -v hi=${mix#* } '$1 == "I" { split($2, a, ","); c = hex(a[1]) } $1 == "M" && c >= lo && c < hi { n++ } END { print n + 0 }' lackey.log)"
finish
