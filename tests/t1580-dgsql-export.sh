#!/bin/sh
# t1580-dgsql-export: `SELECT * FROM accesses [LIMIT n]` in list, csv,
# tsv and json (dgsql -m, --csv, .mode) is printed by the export fast
# path (dgsql/export.h: decoded straight to the output, gdb sees
# dgvtab_scan called) byte for byte as SQLite's row loop prints the same
# rows (the statement with a trailing comment, which the fast path does
# not take), with and without headers, NULL and non-NULL block_id, LIMITs
# inside a batch, across batches (4096) and chunks (65536), and 0; the
# rows are count(*) of them; filtered_accesses without a filter is taken
# too, and under a call-stack filter (terms the table takes), not under
# one with SQL it does not take (the same bytes either way); a temp view named
# accesses hides the table from the fast path too; on a single- and a
# multi-threaded trace, and on one of several chunks.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db m.db mixed || finish
trace_db t.db threads || finish
trace_db s.db sweep || finish

# same DB MODE HEADER SQL: fast and SQLite's output equal, and not empty
# unless the SQL says LIMIT 0.
same() {
	"$DGSQL" -m "$2" "$3" "$1" "$4" >fast.out 2>fast.err
	_f=$?
	"$DGSQL" -m "$2" "$3" "$1" "$4 -- through SQLite" >slow.out 2>slow.err
	check_eq "$1 -m $2 $3 '$4': exit status as SQLite's" "0 0" "$_f $?"
	check_cmp "$1 -m $2 $3 '$4': output as SQLite's" slow.out fast.out
	case $4 in
	*"LIMIT 0") check_empty "$1 '$4' prints nothing" fast.out ;;
	*) check_gt "$1 -m $2 '$4' prints lines" 0 "$(wc -l <fast.out)" ;;
	esac
}

for db in m.db t.db s.db; do
	for mode in list csv tsv json; do
		for h in --header --no-header; do
			same $db $mode $h "SELECT * FROM accesses"
		done
	done
	n=$(dq $db "SELECT count(*) FROM accesses")
	check_eq "$db: rows of the fast path = count(*)" "$n" \
		"$("$DGSQL" -c --no-header $db "SELECT * FROM accesses" | wc -l)"
	check_gt "$db: some accesses in a heap block" 0 \
		"$(dq $db "SELECT count(*) FROM accesses WHERE block_id IS NOT NULL")"
	check_gt "$db: some accesses outside" 0 \
		"$(dq $db "SELECT count(*) FROM accesses WHERE block_id IS NULL")"
done
check_gt "s.db holds several chunks" 2 "$(dq s.db "SELECT count(*) FROM chunks")"

for q in "select  *  from  main.accesses limit 1;" "SELECT * FROM accesses LIMIT 4095" \
	 "SELECT * FROM accesses LIMIT 4097" "SELECT * FROM accesses LIMIT 65537" \
	 "SELECT * FROM accesses LIMIT 0"; do
	same s.db csv --header "$q"
	same s.db json --no-header "$q"
done

# filtered_accesses without a filter is every access: the fast path too;
# with one, SQLite (the same bytes either way).
same t.db csv --header "SELECT * FROM filtered_accesses"
"$DGSQL" -c --events fn:worker t.db "SELECT * FROM filtered_accesses" >fast.out 2>fast.err
"$DGSQL" -c --events fn:worker t.db "SELECT * FROM filtered_accesses -- x" >slow.out 2>slow.err
check_cmp "filtered_accesses under fn:worker = SQLite's" slow.out fast.out
check_eq "filtered_accesses under fn:worker: as many rows as its count(*)" \
	"$(dq t.db --events fn:worker "SELECT count(*) FROM filtered_accesses")" "$(wc -l <fast.out)"
check_gt "fn:worker keeps some accesses" 0 "$(wc -l <fast.out)"

# .mode in a script takes it too.
printf '.mode tsv\n.headers on\nSELECT * FROM accesses LIMIT 5000;\n' >mode.sql
"$DGSQL" t.db <mode.sql >fast.out 2>fast.err
"$DGSQL" -m tsv --header t.db "SELECT * FROM accesses WHERE 1 LIMIT 5000" >slow.out 2>slow.err
check_cmp ".mode tsv in a script = SQLite's" slow.out fast.out

# A view of that name hides the virtual table: its rows, not accesses'.
check_eq "temp view named accesses" "x
1" "$(printf 'CREATE TEMP VIEW accesses AS SELECT 1 AS x;\nSELECT * FROM accesses;\n' |
	"$DGSQL" --csv --header m.db 2>&1)"

# The fast path is what ran (and not for other text).
if command -v gdb >/dev/null 2>&1; then
	for f in "" "--events fn:main"; do
		# shellcheck disable=SC2086
		printf '%s\n' "SELECT * FROM accesses LIMIT 1" "SELECT * FROM accesses WHERE 1 LIMIT 1" \
			"SELECT * FROM filtered_accesses LIMIT 1" |
			gdb_hits dgvtab_scan m.db -c $f | sed "s/^-c //" >>gdb.all
	done
	check_eq "dgvtab_scan runs for the export and a call-stack filter's, not for a WHERE" \
		"SELECT * FROM accesses LIMIT 1: 1
SELECT * FROM accesses WHERE 1 LIMIT 1: 0
SELECT * FROM filtered_accesses LIMIT 1: 1
--events fn:main SELECT * FROM accesses LIMIT 1: 1
--events fn:main SELECT * FROM accesses WHERE 1 LIMIT 1: 0
--events fn:main SELECT * FROM filtered_accesses LIMIT 1: 1" "$(cat gdb.all)"
else
	skip "gdb is not installed: which path ran is not checked"
fi
finish
