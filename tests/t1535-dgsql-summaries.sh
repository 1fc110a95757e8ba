#!/bin/sh
# t1535-dgsql-summaries: without a filter, the canned queries by_function,
# hot_pages, hot_lines, by_thread, totals and working_set answer from the
# summary tables
# (dg_filtered() is 0); with a call-stack filter (fn:/file:/dso: in
# --events) by_function, by_thread and totals answer from sum_ctx
# (dg_summed() is 1).  Every such answer must equal the same aggregate
# computed by decoding every access of `accesses` / filtered_accesses, on
# a single- and a multi-threaded trace.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
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
check_eq "dg_summed() with a --ranges filter" 0 \
	"$(dq w.db --ranges malloc 'SELECT dg_summed()')"
check_eq "dg_summed() with user:" 0 \
	"$(dq w.db --events fn:main,user:x 'SELECT dg_summed()')"

# summed DB FILTER: by_function, by_thread and totals under --events FILTER
# (from sum_ctx) equal the same aggregates of filtered_accesses.
summed() {
	check_eq "$1 --events $2: by_function = decoded" \
		"$(dq $1 --events "$2" "SELECT coalesce(f.name, '?'), sum(a.is_write = 0),
		    sum(a.is_write), sum(a.size) FROM filtered_accesses a
		    LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id LEFT JOIN functions f ON f.id = p.function_id
		    GROUP BY f.id, p.module_id" | sort)" \
		"$(dq $1 --events "$2" ".q by_function 100000" | cut -d'|' -f1-4 | sort)"
	check_eq "$1 --events $2: by_thread = decoded" \
		"$(dq $1 --events "$2" "SELECT thread, sum(is_write = 0), sum(is_write), sum(size),
		    min(icount), max(icount) FROM filtered_accesses GROUP BY thread ORDER BY thread")" \
		"$(dq $1 --events "$2" ".q by_thread")"
	check_eq "$1 --events $2: totals = decoded" \
		"$(dq $1 --events "$2" "SELECT count(*), sum(is_write = 0), sum(is_write),
		    sum(size) FROM filtered_accesses")" \
		"$(dq $1 --events "$2" ".q totals")"
}
summed w.db fn:mix
summed w.db fn:main
# an inlined function (ld.so's, from its DWARF): blocks where only some
# accesses are its own, so the per-pc part of the filter counts
summed w.db fn:elf_dynamic_do_Rela
summed w.db 'dso:libc.so*,file:mixed.c'
summed t.db fn:worker
summed t.db fn:main
summed t.db 'dso:*libc*'
for db in w.db t.db; do
	check_eq "$db: working_set (sum_windows) = accesses grouped by window" \
		"$(dq $db "SELECT icount / 100000 * 100000, count(*), count(DISTINCT addr / 64),
		    count(DISTINCT addr / 4096) FROM accesses GROUP BY icount / 100000 ORDER BY 1")" \
		"$(dq $db ".q working_set")"
done
check_eq "dg_windowed() without a filter, and with one" "1 0" \
	"$(dq w.db 'SELECT dg_windowed()') $(dq w.db --events fn:main 'SELECT dg_windowed()')"
check_eq "totals without a filter = every access" \
	"$(dq t.db "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM accesses")" \
	"$(dq t.db ".q totals")"
finish
