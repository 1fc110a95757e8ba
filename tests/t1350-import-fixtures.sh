#!/bin/sh
# t1350-import-fixtures: every golden log in tests/fixtures/ imports with
# dg-import: exit 0, meta complete 1, and meta accesses, runs, icount and
# the numbers of heap blocks, ranges and events equal the recorded
# --stats of the fixture (tests/fixtures/NAME.stats); the summaries add up
# to meta accesses; the threads rows are the threads the log names (in a
# THREAD record or a run).  No Valgrind run needed.
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
	# threads: every thread the log names has a row, so that blocks.alloc_thread
	# and trace_states.thread join even for a thread none of whose code was traced
	check_eq "$name: threads rows = thread ids of THREAD records and runs (dg-dump --records)" \
		"$("$DG_DUMP" --records "$fx" | awk '$1 == "run" { sub(/^thread=/, "", $2); print $2 } $1 == "thread" { sub(/^tid=/, "", $2); print $2 }' | sort -un | paste -sd ' ' -)" \
		"$(q $DB 'SELECT id FROM threads ORDER BY id' | paste -sd ' ' -)"
	a=$(meta $DB accesses)
	check_eq "$name: sum_pages, sum_lines, sum_pc, threads, chunks add up to meta accesses" "$a $a $a $a $a" \
		"$(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_pages') $(q $DB 'SELECT sum(reads) + sum(writes) FROM sum_lines') $(q $DB 'SELECT sum(accesses) FROM sum_pc') $(q $DB 'SELECT sum(accesses) FROM threads') $(q $DB 'SELECT sum(n_accesses) FROM chunks')"
	check_eq "$name: reads and writes = recorded" "$(stat_of $st reads) $(stat_of $st writes)" \
		"$(q $DB 'SELECT sum(reads), sum(writes) FROM sum_lines' | tr '|' ' ')"
done
check_ge "at least 3 fixtures" 3 "$n"
finish
