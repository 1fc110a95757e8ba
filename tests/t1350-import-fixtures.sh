#!/bin/sh
# t1350-import-fixtures: every golden log in tests/fixtures/ imports with
# dg-import: exit 0, meta complete 1, and meta accesses, runs, icount and
# the numbers of heap blocks, ranges and events equal the recorded
# --stats of the fixture (tests/fixtures/NAME.stats); the summaries add up
# to meta accesses.  No Valgrind run needed.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-import.sh"
need_import
F=$DG_TESTS/fixtures
n=0
for fx in "$F"/*.dg; do
	name=$(basename "$fx" .dg)
	st=$F/$name.stats
	n=$((n + 1))
	import_ok "$fx" "$name.db" || continue
	DB=$name.db
	check_eq "$name: meta complete" 1 "$(meta $DB complete)"
	check_eq "$name: meta accesses runs icount = recorded stats" \
		"$(stat_of $st accesses) $(stat_of $st runs) $(stat_of $st icount)" \
		"$(meta $DB accesses) $(meta $DB runs) $(meta $DB icount)"
	check_eq "$name: blocks ranges events = recorded mallocs track_ranges start_events" \
		"$(stat_of $st mallocs) $(stat_of $st track_ranges) $(stat_of $st start_events)" \
		"$(q $DB 'SELECT count(*) FROM blocks') $(q $DB 'SELECT count(*) FROM ranges') $(q $DB 'SELECT count(*) FROM events')"
	check_eq "$name: threads rows = recorded threads (ids of THREAD records and runs)" "$(stat_of $st threads)" "$(q $DB 'SELECT count(*) FROM threads')"
	check_eq "$name: every thread id the database refers to has a threads row" "" \
		"$(q $DB 'SELECT DISTINCT t FROM (SELECT alloc_thread AS t FROM blocks UNION SELECT free_thread FROM blocks
		          UNION SELECT thread FROM trace_states UNION SELECT thread FROM ranges UNION SELECT thread FROM events
		          UNION SELECT thread FROM chunks) WHERE t IS NOT NULL AND t NOT IN (SELECT id FROM threads)' | paste -sd ' ' -)"
	a=$(meta $DB accesses)
	check_eq "$name: sum_pages, sum_lines, sum_pc, threads, chunks add up to meta accesses" "$a $a $a $a $a" \
		"$(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_pages') $(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_lines') $(q $DB 'SELECT sum(accesses) FROM sum_pc') $(q $DB 'SELECT sum(accesses) FROM threads') $(q $DB 'SELECT sum(n_accesses) FROM chunks')"
	check_eq "$name: reads and writes = recorded" "$(stat_of $st reads) $(stat_of $st writes)" \
		"$(q $DB 'SELECT sum(reads), sum(writes) FROM sum_lines' | tr '|' ' ')"
done
check_ge "at least 3 fixtures" 3 "$n"
finish
