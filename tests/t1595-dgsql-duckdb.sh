#!/bin/sh
# t1595-dgsql-duckdb: dgsql's columnar engine (dgsql/duck.h) gives SQLite's
# answers.  On a multi-threaded and a heap-sharing trace (a one-chunk
# trace stays in SQLite): the ad-hoc questions (GROUP BY size, top pcs, windows of
# distinct lines and pages, an address range, joins of accesses with
# blocks, pcs, functions and threads) run in DuckDB (.timer says so) and
# print what --engine sqlite prints, sorted and as printed (GROUP BY's
# order kept); every canned query too.  SQLite keeps what its own plan
# reads little of (a block's accesses) and what only it can run (its own
# functions, a view hiding accesses); --engine duckdb runs DuckDB's
# dialect.  --export parquet writes files DuckDB reads back with the same
# counts and sums, partitioned by thread and window in Hive's layout,
# mode 0600, replacing an old export only when done; bad options and a
# file path with partitions fail with a message.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
"$DGSQL" --version | grep -q DuckDB || bail "dgsql is built with DuckDB (make deps, then make)"
trace_db m.db mixed || finish
trace_db t.db threads || finish
trace_db h.db heapshare || finish

# batch DB ENGINES SQL...: auto's and --engine sqlite's output of all
# the statements equal (as printed) and not empty, and auto ran each in
# the engine ENGINES names (a space-separated list, one a statement).
batch() {
	_db=$1 _want=$2
	shift 2
	"$DGSQL" --header "$_db" .timer\ on "$@" >auto.raw 2>auto.err
	_a=$?
	"$DGSQL" --engine sqlite --header "$_db" "$@" >sq.out 2>sq.err
	check_eq "$_db: $# statements: exit status as SQLite's" "0 0" "$_a $?"
	grep -v '^Run Time:' auto.raw >auto.out
	check_cmp "$_db: $# statements: DuckDB's answers are SQLite's" sq.out auto.out
	check_gt "$_db: $# statements: print rows" $# "$(wc -l <auto.out)"
	check_eq "$_db: each ran in the engine expected" "$_want" \
		"$(sed -n 's/.* engine \([a-z]*\)$/\1/p' auto.raw | tr '\n' ' ' | sed 's/ $//')"
}

for db in t.db h.db; do
	B=$(dq $db "SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1")
	A=$(dq $db "SELECT addr FROM blocks WHERE id = $B")
	N=$(dq $db "SELECT size FROM blocks WHERE id = $B")
	# DuckDB's: the ad-hoc questions; SQLite's: what its plan reads one
	# chunk of (the shortest-lived block, the first instructions), its own
	# functions (printf, max of two)
	batch $db "duckdb duckdb duckdb duckdb duckdb duckdb duckdb duckdb duckdb duckdb duckdb sqlite sqlite sqlite sqlite" \
		"SELECT size, count(*) FROM accesses GROUP BY size" \
		"SELECT count(*) AS n, size FROM accesses GROUP BY size" \
		"SELECT pc, module_id, count(*) AS n FROM accesses GROUP BY pc, module_id ORDER BY n DESC, pc, module_id LIMIT 10" \
		"SELECT icount / 100000 AS w, count(DISTINCT addr >> 6) AS lines, count(DISTINCT addr >> 12) AS pages FROM accesses GROUP BY w" \
		"SELECT count(*), sum(size), min(icount), max(icount) FROM accesses WHERE addr >= $A AND addr < $A + $N AND is_write = 1" \
		"SELECT b.alloc_stack_id, count(*), sum(a.size) FROM accesses a JOIN blocks b ON b.id = a.block_id GROUP BY b.alloc_stack_id" \
		"SELECT f.name, count(*) AS n FROM accesses a JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id JOIN functions f ON f.id = p.function_id GROUP BY f.name ORDER BY n DESC, f.name LIMIT 15" \
		"SELECT t.id, count(*), sum(a.is_write) FROM accesses a JOIN threads t ON t.id = a.thread GROUP BY t.id" \
		"SELECT count(*) FROM accesses a JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id JOIN functions f ON f.id = p.function_id WHERE f.name LIKE 'MAIN%'" \
		"SELECT thread, count(*), count(block_id), count(DISTINCT block_id) FROM filtered_accesses GROUP BY thread" \
		"SELECT block_id, count(*) FROM accesses WHERE block_id IS NOT NULL GROUP BY block_id ORDER BY 2 DESC, 1 LIMIT 20" \
		"SELECT count(*), sum(size), min(icount) FROM accesses WHERE block_id = (SELECT id FROM blocks WHERE reads + writes > 0 ORDER BY coalesce(free_icount, 1 << 62) - alloc_icount, id LIMIT 1)" \
		"SELECT count(*), sum(addr % 1000) FROM accesses WHERE icount < (SELECT min(icount_lo) + 1000 FROM chunks)" \
		"SELECT printf('%x', pc), count(*) FROM accesses GROUP BY pc ORDER BY 2 DESC, 1 LIMIT 5" \
		"SELECT max(size, 4), count(*) FROM accesses GROUP BY 1"
done
# a one-chunk trace: SQLite reads it all as fast
batch m.db sqlite "SELECT size, count(*) FROM accesses GROUP BY size"

# every canned query, in both engines
set --
for q in $("$DGSQL" t.db .queries | awk '{ print $1 }'); do
	set -- "$@" ".q $q"
done
check_gt "the canned queries are listed" 10 $#
for db in t.db h.db; do
	"$DGSQL" --header $db "$@" >auto.out 2>auto.err
	_a=$?
	"$DGSQL" --engine sqlite --header $db "$@" >sq.out 2>sq.err
	check_eq "$db: every canned query: exit status as SQLite's" "0 0" "$_a $?"
	check_cmp "$db: every canned query: output as SQLite's" sq.out auto.out
done

# a view of the user's hiding accesses: SQLite alone sees it
"$DGSQL" t.db "CREATE TEMP VIEW accesses AS SELECT 1 AS size" .timer\ on \
	"SELECT size, count(*) FROM accesses GROUP BY size" >hide.out 2>&1
check_eq "a temp view named accesses: SQLite answers from it" "1|1" "$(head -1 hide.out)"
check_eq "... and says so" "sqlite" "$(sed -n 's/.* engine \([a-z]*\)$/\1/p' hide.out)"

# --engine duckdb: DuckDB's dialect, its errors reported
check_eq "--engine duckdb runs DuckDB's SQL (FILTER, //)" \
	"$(dq m.db "SELECT count(*) FROM accesses WHERE is_write = 1") $(dq m.db "SELECT max(icount) / 7 FROM accesses")" \
	"$("$DGSQL" --engine duckdb m.db "SELECT count(*) FILTER (WHERE is_write = 1) FROM accesses") $("$DGSQL" --engine duckdb m.db "SELECT max(icount) // 7 FROM accesses")"
"$DGSQL" --engine duckdb m.db "SELECT nosuch FROM accesses" >bad.out 2>bad.err
check_eq "--engine duckdb: an error exits 1" 1 $?
check_eq "... with DuckDB's message" 1 "$(grep -c 'duckdb: .*nosuch' bad.err)"
"$DGSQL" --engine magic m.db "SELECT 1" >/dev/null 2>bad.err
check_eq "--engine magic: usage error" 2 $?
"$DGSQL" m.db ".engine" ".engine duckdb" ".engine" >eng.out 2>&1
check_eq ".engine shows and sets" "auto duckdb" "$(tr '\n' ' ' <eng.out | sed 's/ $//')"

# --export parquet: files DuckDB reads back with dgsql's sums
sums="count(*), sum(icount), sum(addr % 1000003), sum(size), sum(is_write), sum(pc % 1000003), sum(thread), sum(context_id), count(block_id), sum(block_id), sum(module_id)"
for db in t.db h.db; do
	rm -rf ex.$db
	check_run "$db --export parquet DIR" "$DGSQL" $db --export parquet ex.$db
	check_eq "$db: the export's accesses, counted and summed by DuckDB, are dgsql's" \
		"$("$DGSQL" --engine sqlite $db "SELECT $sums FROM accesses")" \
		"$("$DGSQL" --engine duckdb $db "SELECT $sums FROM read_parquet('ex.$db/accesses.parquet')")"
	check_eq "$db: function_id, site_id and field_id as the tables say" \
		"$("$DGSQL" --engine sqlite $db "SELECT count(p.function_id), sum(p.function_id), count(b.alloc_stack_id), sum(b.alloc_stack_id), count(pf.fid), sum(pf.fid) FROM accesses a LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id LEFT JOIN blocks b ON b.id = a.block_id LEFT JOIN (SELECT p.pc, p.module_id, (SELECT min(f.id) FROM types t JOIN fields f ON f.type_id = t.id WHERE t.name = p.type AND t.size = p.type_size AND f.path = p.field) AS fid FROM pc_types p) pf ON pf.pc = a.pc AND pf.module_id = a.module_id")" \
		"$("$DGSQL" --engine duckdb $db "SELECT count(function_id), sum(function_id), count(site_id), sum(site_id), count(field_id), sum(field_id) FROM read_parquet('ex.$db/accesses.parquet')")"
	check_eq "$db: functions, blocks, pcs, threads, stack_frames, meta: each file holds the table's rows" \
		"$(dq $db "SELECT (SELECT count(*) FROM functions) || ' ' || (SELECT count(*) FROM blocks) || ' ' || (SELECT count(*) FROM pcs) || ' ' || (SELECT count(*) FROM threads) || ' ' || (SELECT count(*) FROM stack_frames) || ' ' || (SELECT count(*) FROM meta)")" \
		"$("$DGSQL" --engine duckdb $db "SELECT (SELECT count(*) FROM 'ex.$db/functions.parquet') || ' ' || (SELECT count(*) FROM 'ex.$db/blocks.parquet') || ' ' || (SELECT count(*) FROM 'ex.$db/pcs.parquet') || ' ' || (SELECT count(*) FROM 'ex.$db/threads.parquet') || ' ' || (SELECT count(*) FROM 'ex.$db/stack_frames.parquet') || ' ' || (SELECT count(*) FROM 'ex.$db/meta.parquet')")"
	check_eq "$db: no chunk storage exported" 0 "$(ls ex.$db | grep -c '^chunk')"
	check_eq "$db: every file mode 0600" "" "$(find ex.$db -type f ! -perm 600)"
done
rm -rf ex.t.db.p
check_run "t.db --export parquet DIR --partition thread,window" \
	"$DGSQL" t.db --export parquet ex.t.db.p --partition thread,window --window-size 200000
check_gt "... one directory a thread and window" 2 "$(find ex.t.db.p/accesses -name '*.parquet' | wc -l)"
check_eq "... read back with hive_partitioning: by thread and window as dgsql counts" \
	"$("$DGSQL" --engine sqlite t.db "SELECT thread, icount / 200000, count(*), sum(addr % 1000003) FROM accesses GROUP BY 1, 2 ORDER BY 1, 2")" \
	"$("$DGSQL" --engine duckdb t.db "SELECT thread, \"window\", count(*), sum(addr % 1000003) FROM read_parquet('ex.t.db.p/accesses/*/*/*.parquet', hive_partitioning = true) GROUP BY 1, 2 ORDER BY 1, 2")"
check_run "an existing export is replaced" "$DGSQL" m.db --export parquet ex.t.db.p
check_eq "... by the new one alone" "0 1" \
	"$(ls ex.t.db.p | grep -c '^accesses$') $(ls ex.t.db.p | grep -c '^accesses.parquet$')"
check_run "--export parquet FILE.parquet" "$DGSQL" m.db --export parquet one.parquet
check_eq "... the accesses alone" "$(dq m.db "SELECT count(*) FROM accesses")" \
	"$("$DGSQL" --engine duckdb m.db "SELECT count(*) FROM read_parquet('one.parquet')")"
"$DGSQL" m.db --export parquet two.parquet --partition thread >/dev/null 2>bad.err
check_eq "a .parquet file with partitions fails" "1 1" "$? $(grep -c 'partitions need a directory' bad.err)"
check_eq "... and leaves nothing" 0 "$(ls | grep -c '^two.parquet')"
"$DGSQL" m.db --export csv x >/dev/null 2>bad.err
check_eq "--export csv: usage error" 2 $?
"$DGSQL" m.db --export parquet x --partition size >/dev/null 2>bad.err
check_eq "--partition size: usage error" 2 $?
"$DGSQL" m.db --export parquet x --events fn:main >/dev/null 2>bad.err
check_eq "--export with a filter: usage error" 2 $?
finish
