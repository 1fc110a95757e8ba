#!/bin/sh
# t1010-real-sort: a real program, sort, on a generated 3000-line file (and
# its numeric reverse): output identical to the native run, valid complete
# logs with accesses.
. "$DG_TESTS/lib.sh"
need_tool
need_cmd sort

awk 'BEGIN { x = 12345; for (i = 0; i < 3000; i++) { x = (x * 1103515245 + 12345) % 2147483648; print x % 100000, "line" i } }' >input
SORT=$(command -v sort)
run_dg s1.log -- "$SORT" input || finish
check_eq "sort: 3000 lines out" 3000 "$(wc -l <dg.out | tr -d ' ')"
check_status "sort: --check passes" 0 "$DG_DUMP" --check s1.log
run_dg s2.log -- "$SORT" -n -r -k1,1 input || finish
check_status "sort -n -r: --check passes" 0 "$DG_DUMP" --check s2.log
for l in s1 s2; do
	dump --stats $l.log $l.stats || finish
	check_eq "$l: complete" 1 "$(stat_of $l.stats complete)"
	check_gt "$l: accesses > 100000" 100000 "$(stat_of $l.stats accesses)"
	check_gt "$l: mallocs > 0" 0 "$(stat_of $l.stats mallocs)"
done
finish
