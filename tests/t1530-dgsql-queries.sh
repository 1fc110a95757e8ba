#!/bin/sh
# t1530-dgsql-queries: every canned query (queries/*.sql) runs on real
# traces (writes.c, ranges.c, threads.c) and gives the programs' known
# figures: the 400-byte block read 100 and written 100 times by sum and
# fill, 100 one-int histogram buckets; arr's 96 R / 128 W while tracked;
# the loop event's 64 R / 64 W of arr; 4 worker threads writing 200 ints
# each; the never-read stdio buffer among the useless allocations;
# by_event and by_range from the events and ranges tables as joined.
# .queries lists each file with its first comment line.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
trace_db w.db writes || finish
trace_db r.db ranges || finish
trace_db t.db threads || finish

dq w.db .queries >list.out
check_eq ".queries lists every file" "$(ls "$DG_TOP"/queries/*.sql | wc -l | tr -d ' ')" \
	"$(wc -l <list.out | tr -d ' ')"
for f in "$DG_TOP"/queries/*.sql; do
	n=$(basename "$f" .sql)
	check_eq "$n: its first line is a comment saying what it answers" 1 \
		"$(head -n 1 "$f" | grep -c '^-- [A-Z]')"
	for db in w.db r.db t.db; do
		arg=""
		[ "$n" = block_hist ] && arg=1
		"$DGSQL" "$db" ".q $n $arg" >"$n.$db.out" 2>"$n.$db.err"
		check_eq "$n runs on $db" "0:" "$?:$(head -c 200 "$n.$db.err")"
	done
done

B=$(dq w.db "SELECT id FROM blocks WHERE size = 400")
check_eq "by_block: the 400-byte block, its counts and functions" \
	"400|100|100|fill 100, sum 100" \
	"$(dq w.db ".q by_block 100" | awk -F'|' -v b="$B" '$1 == b { print $3 "|" $6 "|" $7 "|" $8 }' |
	   sed 's/sum 100, fill 100/fill 100, sum 100/')"
check_eq "block_hist: 100 buckets, 100 R, 100 W" "100 100 100" \
	"$(dq w.db ".q block_hist $B" | awk -F'|' '{ n++; r += $4; w += $5 } END { print n, r, w }')"
check_eq "by_site: main's site holds the block" 1 \
	"$(dq w.db '.q by_site' | awk -F'|' '$3 == 400 && $4 == 100 && $5 == 100 && $8 ~ /^main/' | wc -l | tr -d ' ')"
check_eq "useless_allocs: the stdio buffer, written never read" 1 \
	"$(dq w.db '.q useless_allocs' | grep -c '|written, never read|1|4096|')"
check_eq "by_function: fill's accesses" \
	"$(dq w.db --events fn:fill 'SELECT count(*) FROM filtered_accesses WHERE (pc, module_id) IN (SELECT pc, module_id FROM pcs WHERE function_id IN (SELECT id FROM functions WHERE name = '"'fill'"'))')" \
	"$(dq w.db '.q by_function 1000' | awk -F'|' '$1 == "fill" { print $2 + $3 }')"
check_eq "by_function follows the filter" "fill|0|100|400|$DG_PROGS/writes" \
	"$(dq w.db --events fn:fill --ranges malloc '.q by_function')" ||
	diag_file dq.err
check_eq "by_range: arr" "arr|96|128" \
	"$(dq r.db '.q by_range' | awk -F'|' '{ print $2 "|" $8 "|" $9 }')"
check_eq "by_range under --ranges range: the same" "arr|96|128" \
	"$(dq r.db --ranges range '.q by_range' | awk -F'|' '{ print $2 "|" $8 "|" $9 }')"
check_eq "by_event with --ranges user:arr: loop's accesses to arr" "loop|64|64" \
	"$(dq r.db --ranges user:arr '.q by_event' | awk -F'|' '{ print $2 "|" $5 "|" $6 }')"
# without a filter by_event and by_range read the importer's counts (the
# events and ranges tables); joined with the accesses (a filter that
# takes every one) they must be the same
trace_db e.db reuse_events || finish
ALL="--icount-range 0:9223372036854775807"
for db in r.db e.db; do
	for q in by_event by_range; do
		check_eq "$db: $q from the table = joined with every access" \
			"$(dq $db $ALL ".q $q")" "$(dq $db ".q $q")"
	done
done
check_eq "e.db: by_event has its 4 events" 4 "$(dq e.db '.q by_event' | wc -l | tr -d ' ')"
check_eq "by_thread: 5 threads" 5 "$(dq t.db '.q by_thread' | wc -l | tr -d ' ')"
check_eq "by_thread on the heap: 4 workers x 200 writes" "4 800" \
	"$(dq t.db --ranges malloc --events fn:worker '.q by_thread' | awk -F'|' '$3 == 200 { n++; w += $3 } END { print n, w }')"
check_eq "hot_lines: the top line's count is the maximum" \
	"$(dq w.db 'SELECT max(n) FROM (SELECT count(*) n FROM accesses GROUP BY addr / 64)')" \
	"$(dq w.db '.q hot_lines 1' | cut -d'|' -f2)"
check_eq "hot_pages with ?1 = 3: 3 rows" 3 "$(dq w.db '.q hot_pages 3' | wc -l | tr -d ' ')"
check_eq "working_set: windows add up to every access" \
	"$(dq w.db 'SELECT count(*) FROM accesses')" \
	"$(dq w.db '.q working_set 10000' | awk -F'|' '{ s += $2 } END { print s }')"
dq w.db '.q nosuch' >/dev/null
check_eq "an unknown query fails" 1 "$?"
dq w.db '.q ../etc/passwd' >/dev/null
check_eq "a path is not a query name" 1 "$?"
finish
