#!/bin/sh
# t0150-fixtures: the golden logs in tests/fixtures/ (written by the tool,
# see regen.sh) still read as valid, complete logs with the same counts.  A
# reader change that misreads a real log, or a format change that old logs
# no longer survive, fails here without running Valgrind.
. "$DG_TESTS/lib.sh"
F=$DG_TESTS/fixtures
for fx in "$F"/*.dg; do
	name=$(basename "$fx" .dg)
	check_status "$name: dg-dump --check accepts it" 0 "$DG_DUMP" --check "$fx"
	"$DG_DUMP" --stats "$fx" >"$name.stats" 2>"$name.err"
	check_cmp "$name: --stats as recorded in $name.stats" "$F/$name.stats" "$name.stats"
	check_eq "$name: complete" 1 "$(stat_of "$name.stats" complete)"
	check_gt "$name: has accesses" 0 "$(stat_of "$name.stats" accesses)"
done
finish
