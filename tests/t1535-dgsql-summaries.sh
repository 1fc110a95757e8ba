#!/bin/sh
# t1535-dgsql-summaries: without a filter, the canned queries by_function,
# hot_pages, hot_lines, by_thread, totals and working_set answer from the
# summary tables
# (dg_filtered() is 0); with a call-stack filter (fn:/file:/dso: in
# --events) by_function, by_thread and totals answer from sum_ctx
# (dg_summed() is 1), and with `--ranges malloc` from sum_heap and
# sum_heap_threads; `accesses WHERE block_id = X` of a block with
# sum_block_chunks rows visits only those chunks and counts without
# decoding.  With only dso: conditions in --events, or only malloc in
# --ranges, hot_pages, hot_lines and working_set answer from the class
# summaries (sum_line_class, sum_window_class: dg_paged(), dg_windowed()
# are 1); with other call-stack filters from lib/dgfsum.c's tables (the
# chunks the filter takes whole from sum_lines and sum_windows, the
# others decoded); with user: or other ranges they decode.  Every such
# answer must equal the same aggregate computed by decoding every access
# of `accesses` / filtered_accesses, on a single- and two multi-threaded
# traces.  t1536
# checks the class summaries on programs of many modules and hand-made logs.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
. "$DG_TESTS/lib-summaries.sh"
need_tool
need_dgsql
trace_db w.db mixed || finish

check_eq "dg_filtered() without a filter" 0 "$(dq w.db 'SELECT dg_filtered()')"
check_eq "dg_filtered() with one" 1 \
	"$(dq w.db --events fn:main 'SELECT dg_filtered()')"

check_eq "hot_pages = accesses grouped by page" \
	"$(dq w.db "SELECT dg_hex(addr / 4096 * 4096), count(*), sum(is_write = 0),
	            sum(is_write), count(DISTINCT addr / 64) FROM accesses GROUP BY addr / 4096" |
	   sort -t'|' -k2,2nr -k1,1)" \
	"$(dq w.db ".q hot_pages 1000" | sort -t'|' -k2,2nr -k1,1)"
check_eq "hot_lines = accesses grouped by line (accesses, reads, writes)" \
	"$(dq w.db "SELECT dg_hex(addr / 64 * 64), count(*), sum(is_write = 0),
	            sum(is_write) FROM accesses GROUP BY addr / 64" | sort -t'|' -k2,2nr -k1,1)" \
	"$(dq w.db ".q hot_lines 100000" | cut -d'|' -f1-4 | sort -t'|' -k2,2nr -k1,1)"
check_eq "by_function = accesses grouped by the function of their pc" \
	"$(dq w.db "SELECT coalesce(f.name, '?'), sum(a.is_write = 0), sum(a.is_write), sum(a.size)
	            FROM accesses a LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id
	            LEFT JOIN functions f ON f.id = p.function_id
	            GROUP BY f.id, p.module_id" | sort)" \
	"$(dq w.db ".q by_function 100000" | cut -d'|' -f1-4 | sort)"

trace_db t.db threads || finish
check_eq "by_thread = accesses grouped by thread" \
	"$(dq t.db "SELECT thread, sum(is_write = 0), sum(is_write), sum(size), min(icount),
	            max(icount) FROM accesses GROUP BY thread ORDER BY thread")" \
	"$(dq t.db ".q by_thread")"

check_eq "dg_summed() with a call-stack filter" 1 \
	"$(dq w.db --events fn:main,dso:libc.so* 'SELECT dg_summed()')"
check_eq "dg_summed() with --ranges range, malloc,range, and fn: with malloc" "0 0 0" \
	"$(dq w.db --ranges range 'SELECT dg_summed()') $(dq w.db --ranges malloc,range \
	   'SELECT dg_summed()') $(dq w.db --events fn:main --ranges malloc 'SELECT dg_summed()')"
check_eq "dg_summed() with --ranges malloc" 1 "$(dq w.db --ranges malloc 'SELECT dg_summed()')"
check_eq "dg_summed() with user:" 0 \
	"$(dq w.db --events fn:main,user:x 'SELECT dg_summed()')"

summed w.db fn:mix
summed w.db fn:main
# an inlined function (ld.so's, from its DWARF): blocks where only some
# accesses are its own, so the per-pc part of the filter counts
summed w.db fn:elf_dynamic_do_Rela
summed w.db 'dso:libc.so*,file:mixed.c'
summed t.db fn:worker
summed t.db fn:main
summed t.db 'dso:*libc*'
trace_db h.db heapshare || finish
for db in w.db t.db h.db; do
	summed $db malloc --ranges
done
check_eq "h.db: the shared block is touched by more than one thread" 1 \
	"$(dq h.db "SELECT count(DISTINCT thread) > 1 FROM accesses WHERE block_id =
	    (SELECT id FROM blocks ORDER BY reads + writes DESC LIMIT 1)")"
check_eq "h.db: sum_heap_threads = decoded" \
	"$(dq h.db "SELECT thread, count(*), min(icount), max(icount) FROM accesses
	    WHERE block_id IS NOT NULL GROUP BY thread")" \
	"$(dq h.db "SELECT * FROM sum_heap_threads")"

for log in "$DG_TESTS"/fixtures/*.dg; do
	n=$(basename "$log" .dg)
	rm -f "fx-$n.db"
	if "$DG_IMPORT" -q "$log" "fx-$n.db" >import.out 2>import.err; then
		heap_tables "fx-$n.db"
	else
		not_ok "dg-import $log"
		diag_file import.err 10
	fi
done

# Blocks with sum_block_chunks rows: the rows equal the decoded accesses
# per chunk (icount >= 0 makes the plan read a column, so it decodes);
# count(*) equals that count; a rowid asked for in the middle of a chunk
# (OFFSET: the rows before it are only counted) is the decoded one.
trace_db s.db sweep || finish
for db in w.db t.db h.db s.db; do
	heap_tables $db
done
check_eq "s.db, h.db: blocks with sum_block_chunks rows" "1 1" \
	"$(dq s.db 'SELECT count(DISTINCT block_id) FROM sum_block_chunks') $(dq h.db \
	   'SELECT count(DISTINCT block_id) FROM sum_block_chunks')"
for db in s.db h.db; do
	for b in $(dq $db 'SELECT DISTINCT block_id FROM sum_block_chunks'); do
		check_eq "$db: block $b: sum_block_chunks = decoded per chunk" \
			"$(dq $db "SELECT chunk_id, count(*) FROM accesses WHERE block_id = $b
			    AND icount >= 0 GROUP BY chunk_id")" \
			"$(dq $db "SELECT chunk_id, accesses FROM sum_block_chunks WHERE block_id = $b")"
		check_eq "$db: block $b: count(*) = decoded" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b AND icount >= 0")" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b")"
		check_eq "$db: block $b: count(*) with a condition SQLite checks = decoded" \
			"$(dq $db "SELECT count(*) FROM (SELECT icount FROM accesses WHERE
			    block_id = $b AND icount >= 0) WHERE icount % 3 = 1")" \
			"$(dq $db "SELECT count(*) FROM accesses WHERE block_id = $b AND icount % 3 = 1")"
		for off in 0 1 $(dq $db "SELECT accesses, accesses + 7, (SELECT sum(accesses)
		    FROM sum_block_chunks WHERE block_id = $b) - 1 FROM sum_block_chunks
		    WHERE block_id = $b LIMIT 1"); do
			check_eq "$db: block $b: rowid at offset $off = decoded" \
				"$(dq $db "SELECT rowid FROM accesses WHERE block_id = $b AND icount >= 0
				    LIMIT 1 OFFSET $off")" \
				"$(dq $db "SELECT rowid FROM accesses WHERE block_id = $b LIMIT 1 OFFSET $off")"
		done
	done
done
for db in w.db t.db; do
	check_eq "$db: working_set (sum_windows) = accesses grouped by window" \
		"$(dq $db "SELECT icount / 100000 * 100000, count(*), count(DISTINCT addr / 64),
		    count(DISTINCT addr / 4096) FROM accesses GROUP BY icount / 100000 ORDER BY 1")" \
		"$(dq $db ".q working_set")"
done
check_eq "dg_windowed() without a filter, with fn:, and with user:" "1 1 0" \
	"$(dq w.db 'SELECT dg_windowed()') $(dq w.db --events fn:main 'SELECT dg_windowed()'
	   ) $(dq w.db --events fn:main,user:x 'SELECT dg_windowed()')"
for db in w.db t.db h.db; do
	classed $db --events 'dso:libc.so*'
	classed $db --ranges malloc
done
classed w.db --events 'dso:libc.so*,dso:ld-linux*'
classed t.db --events 'dso:*libc*,dso:*threads*'
# call-stack filters (dgf_stack_lines, dgf_stack_windows): broad ones
# from the complement of sum_lines and mixed windows decoded, narrow ones
# decoded; an inlined function's blocks are taken in part
classed w.db --events fn:main
classed w.db --events fn:elf_dynamic_do_Rela
classed w.db --events 'dso:libc.so*,file:mixed.c'
classed t.db --events fn:worker
classed t.db --events fn:main
classed h.db --events 'fn:*'
classed w.db --events fn:main,user:x 0
# user: alone (dgf_user_lines, dgf_user_windows): chunks inside an event
# from the summaries, the others decoded: events of one chunk, one never
# ended (decoded); a trace of 80 chunks (tests/progs/phases.c:
# bench/workload.c's phases as events), four phases of five (sum_lines
# less the rest, windows inside an event from sum_windows)
trace_db e.db reuse_events || finish
classed e.db --events 'user:*'
trace_db wl.db phases 2 || finish
classed wl.db --events user:matmul,user:stencil,user:hash,user:chase
classed t.db --ranges malloc,range 0
check_eq "dg_paged() with dso: and malloc together" 0 \
	"$(dq h.db --events 'dso:*libc*' --ranges malloc 'SELECT dg_paged()')"

# sum_class_modules: every module of a class is on the call stack of some
# access of that class (its pc's module, or a caller frame's).
check_eq "t.db: the classes' modules are on their accesses' stacks" 0 \
	"$(dq t.db "SELECT count(*) FROM sum_class_modules m WHERE m.set_id IN
	    (SELECT class_id >> 1 FROM sum_line_class) AND m.module_id NOT IN
	    (SELECT module_id FROM access_descs UNION SELECT module_id FROM stack_frames)")"

check_eq "totals without a filter = every access" \
	"$(dq t.db "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM accesses")" \
	"$(dq t.db ".q totals")"
finish
