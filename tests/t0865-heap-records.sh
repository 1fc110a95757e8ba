#!/bin/sh
# t0865-heap-records: heap blocks are written as HEAP_MALLOC and HEAP_FREE
# records (docs/FORMAT.md 2.19: the instruction count, the stack by
# reference, the address as a delta) unless --log-compact=no asks for
# MALLOC_BLOCK and FREE_BLOCK, and read as those.  Both logs of the same
# deterministic program say the same:
#   heap (every C allocation function, realloc, free(NULL)), cxx (every
#   new and delete) and dhatprog (three sites): the same blocks (dg-dump
#   --blocks: address, size, lifetime, reads, writes, allocation stack),
#   the same malloc and free records with their stacks in the same order,
#   and databases with the same blocks (sizes, lifetimes, threads, reads,
#   writes, histograms) and the same allocating and freeing stacks,
#   resolved to pcs;
#   sqlite3 running one INSERT per row (300 rows traced, 2000 heap-only):
#   the same blocks and records; heap-only, every record the same but
#   FINI's count of records (the ICOUNTs the compact log needs no longer),
#   and at most 24 bytes of heap records a block, against more than 200;
#   a forked child's log (its heap stacks written again): the same blocks.
# threads (4 threads allocating at once; the schedule differs from run to
# run): in either form the four workers' blocks have the worker's stack,
# 200 writes each, were allocated each by a thread of its own and freed by
# main, from main's one stack.
. "$DG_TESTS/lib.sh"
. "$DG_TOP/bench/gen.sh"      # gen_sql_rows: the sqlite3 script of bench/real.sh's sqlrows
. "$DG_TESTS/lib-import.sh"
need_tool
need_import
need_prog heap
need_prog cxx
need_prog dhatprog
need_prog threads
need_prog fork

# heap_recs LOG OUT: the malloc and free records of LOG, in order.
heap_recs() {
	dump --records "$1" "$1.all" || return 1
	grep -E '^(malloc|free)_block ' "$1.all" >"$2"
}

# heap_db DB OUT: every block of DB with its stacks as pcs.
heap_db() {
	q "$1" "SELECT b.id, b.addr, b.size, b.alloc_icount, b.free_icount,
		b.alloc_thread, b.free_thread, b.reads, b.writes, b.read_bytes,
		b.write_bytes, b.first_icount, b.last_icount, b.hist_bucket, hex(b.hist),
		(SELECT group_concat(pc, ',') FROM (SELECT pc FROM stack_frames
			WHERE stack_id = b.alloc_stack_id ORDER BY depth)),
		(SELECT group_concat(pc, ',') FROM (SELECT pc FROM stack_frames
			WHERE stack_id = b.free_stack_id ORDER BY depth))
		FROM blocks b ORDER BY b.id" >"$2"
}

# heap_bytes LOG: bytes of the heap records (either form) of LOG.
heap_bytes() {
	"$DG_DUMP" --sizes "$1" |
		awk '$1 ~ /^(malloc_block|free_block|heap_malloc|heap_free)$/ { b += $3 }
			END { print b + 0 }'
}

# both NAME OPTS -- PROG ARGS: the program traced both ways, NAME.c.log
# (compact) and NAME.r.log, by command lines of the same length (written
# as NAME.rr.log): the length moves the client's stack, and with it
# sqlite3's path through its code (the order of blocks it sorts).
both() {
	_n=$1
	shift
	run_dg "$_n.c.log" --log-compact=yes "$@" || return 1
	run_dg "$_n.rr.log" --log-compact=no "$@" || return 1
	mv "$_n.rr.log" "$_n.r.log" || return 1
	check_status "$_n: the compact log is complete and valid" 0 "$DG_DUMP" --check "$_n.c.log"
	check_status "$_n: the full log is complete and valid" 0 "$DG_DUMP" --check "$_n.r.log"
}

# same_heap NAME: the same blocks and heap records from both logs.
same_heap() {
	dump --blocks "$1.c.log" "$1.c.blocks" || return 1
	dump --blocks "$1.r.log" "$1.r.blocks" || return 1
	check_cmp "$1: dg-dump --blocks the same from both logs" "$1.r.blocks" "$1.c.blocks"
	heap_recs "$1.c.log" "$1.c.heap" && heap_recs "$1.r.log" "$1.r.heap" || return 1
	check_cmp "$1: the malloc and free records the same, stacks included" \
		"$1.r.heap" "$1.c.heap"
	check_eq "$1: no MALLOC_BLOCK or FREE_BLOCK in the compact log" 0 \
		"$("$DG_DUMP" --sizes "$1.c.log" | grep -c -E '^(malloc|free)_block ')"
}

for p in heap cxx dhatprog; do
	both "$p" -- "$DG_PROGS/$p" || continue
	same_heap "$p"
	check_gt "$p: blocks" 2 "$(wc -l <"$p.c.blocks")"
	check_gt "$p: a free record with a stack" 0 \
		"$(grep -c '^free_block .*stack=0x' "$p.c.heap")"
	import_ok "$p.c.log" "$p.c.db" && import_ok "$p.r.log" "$p.r.db" || continue
	heap_db "$p.c.db" "$p.c.dbheap"
	heap_db "$p.r.db" "$p.r.dbheap"
	check_cmp "$p: the databases' blocks and their stacks the same" \
		"$p.r.dbheap" "$p.c.dbheap"
	check_eq "$p: every block in the database" "$(wc -l <"$p.c.blocks")" \
		"$(wc -l <"$p.c.dbheap")"
done

# sqlite3: a block or more per row.
gen_sql_rows 2000 >rows.sql
gen_sql_rows 300 >rows300.sql
if command -v sqlite3 >/dev/null 2>&1; then
	DG_STDIN=rows300.sql
	both sqlite -- sqlite3 :memory: -init /dev/null && same_heap sqlite
	DG_STDIN=rows.sql
	both sqlh --trace-at-start=no -- sqlite3 :memory: -init /dev/null && same_heap sqlh
	DG_STDIN=
	dump --records sqlh.c.log sqlh.c.recs && dump --records sqlh.r.log sqlh.r.recs &&
		grep -v -E '^(process|mmap|fini) ' sqlh.c.recs >sqlh.c.cmp &&
		grep -v -E '^(process|mmap|fini) ' sqlh.r.recs >sqlh.r.cmp &&
		check_cmp "sqlh: heap-only, every record the same (ICOUNTs included) but fini" \
			sqlh.r.cmp sqlh.c.cmp
	dump --stats sqlh.c.log sqlh.stats
	n=$(stat_of sqlh.stats mallocs)
	check_gt "sqlh: a block a row at least" 2000 "$n"
	c=$(heap_bytes sqlh.c.log) r=$(heap_bytes sqlh.r.log)
	check_le "sqlh: compact heap records at most 24 bytes a block ($c for $n)" 24 \
		"$((c / n))"
	check_gt "sqlh: full heap records more than 200 bytes a block ($r for $n)" 200 \
		"$((r / n))"
else
	skip "sqlite3 is not installed"
fi

# threads: every worker's block has the worker's stack and its thread.
for l in c r; do
	opt=yes; [ $l = r ] && opt=no
	run_dg "thr.$l.log" --log-compact=$opt -- "$DG_PROGS/threads" || continue
	dump --blocks "thr.$l.log" "thr.$l.blocks" || continue
	blocks_from "thr.$l.blocks" "$DG_PROGS/threads" worker >"thr.$l.worker"
	check_eq "threads ($l): four blocks from worker, one stack" "4 1" \
		"$(wc -l <"thr.$l.worker" | tr -d ' ') $(awk '{ print $9 }' "thr.$l.worker" | sort -u | wc -l | tr -d ' ')"
	import_ok "thr.$l.log" "thr.$l.db" || continue
	check_eq "threads ($l): each worker's block allocated by a thread of its own, freed by main" \
		"4 4" "$(q "thr.$l.db" "SELECT count(*), count(DISTINCT alloc_thread)
			FROM blocks WHERE size BETWEEN 804 AND 816 AND alloc_thread > 1
			AND free_thread = 1 AND writes = 200" | tr '|' ' ')"
	check_eq "threads ($l): main frees them where it frees (one stack), not the workers" \
		"1 0" "$(q "thr.$l.db" "SELECT count(DISTINCT free_stack_id),
			sum(free_stack_id = alloc_stack_id) FROM blocks WHERE size BETWEEN 804 AND 816" |
			tr '|' ' ')"
done
if [ -s thr.c.worker ] && [ -s thr.r.worker ]; then
	check_eq "threads: the workers' stack the same either way" \
		"$(awk '{ print $9; exit }' thr.r.worker)" "$(awk '{ print $9; exit }' thr.c.worker)"
fi

# A forked child's log: its live blocks and heap stacks written again.
cpid_of() { cat child.pid 2>/dev/null; }
for l in c r; do
	opt=yes; [ $l = r ] && opt=no
	rm -f child.pid
	"$DATAGRIND" --datagrind-out-file="f.$l.%p.log" --log-compact=$opt "$DG_PROGS/fork" >f.out 2>f.err
	check_eq "fork ($l): traced exit status" 0 "$?" || diag_file f.err
	child=f.$l.$(cpid_of).log
	check_status "fork ($l): the child's log is valid" 0 "$DG_DUMP" --check "$child"
	"$DG_DUMP" --blocks "$child" >"f.$l.child"
done
check_gt "fork: the child's log has blocks" 0 "$(wc -l <f.c.child)"
check_cmp "fork: the child's blocks the same either way" f.r.child f.c.child
finish
