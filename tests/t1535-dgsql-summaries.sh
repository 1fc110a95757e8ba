#!/bin/sh
# t1535-dgsql-summaries: without a filter, the canned queries by_function,
# hot_pages, hot_lines and by_thread answer from the summary tables (dg_filtered() is
# 0); their answers must equal the same aggregates computed over every
# access of the `accesses` table.  With a filter they decode (dg_filtered()
# is 1).
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
	            FROM accesses a LEFT JOIN pcs p ON p.pc = a.pc
	            LEFT JOIN functions f ON f.id = p.function_id
	            GROUP BY f.id, p.module_id" | sort)" \
	"$(dq w.db ".q by_function 100000" | cut -d'|' -f1-4 | sort)"

trace_db t.db threads || finish
check_eq "by_thread = accesses grouped by thread" \
	"$(dq t.db "SELECT thread, sum(is_write = 0), sum(is_write), sum(size), min(icount),
	            max(icount) FROM accesses GROUP BY thread ORDER BY thread")" \
	"$(dq t.db ".q by_thread")"
finish
