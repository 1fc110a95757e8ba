# lib-summaries.sh: the comparisons of t1535 and t1536 (sourced after
# lib-dgsql.sh): an answer from a summary table equals the same aggregate
# of the accesses, decoded.
#
#   decoded DB OPTION FILTER COLUMNS SQL...
#   summed DB FILTER [OPTION]
#   heap_tables DB
#   classed DB OPTION FILTER [SUMMED]
#
# Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.

# decoded DB OPTION FILTER COLUMNS SQL...: each SQL over `fa`, COLUMNS of
# filtered_accesses under OPTION FILTER decoded once (grouped by
# $DEC_GROUP when set), into dec.1, dec.2 ...
decoded() {
	_db=$1 _do=$2 _df=$3
	echo "CREATE TEMP TABLE fa AS SELECT $4 FROM filtered_accesses ${DEC_GROUP:-};" >dec.sql
	shift 4
	for _q; do
		printf "SELECT '@@';\n%s;\n" "$_q" >>dec.sql
	done
	rm -f dec.[0-9]*
	dq $_db $_do "$_df" <dec.sql >dec.out
	awk '/^@@$/ { n++; printf "" >("dec." n); next } { print >("dec." n) }' dec.out
}

# summed DB FILTER [OPTION]: by_function, by_thread and totals under
# OPTION (--events by default) FILTER (from sum_ctx, or sum_heap for
# --ranges malloc) equal the same aggregates of filtered_accesses.
summed() {
	_o=${3:---events}
	decoded $1 $_o "$2" "pc, module_id, is_write, size, thread, icount" \
	    "SELECT coalesce(f.name, '?'), sum(a.is_write = 0),
	    sum(a.is_write), sum(a.size) FROM fa a
	    LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id LEFT JOIN functions f ON f.id = p.function_id
	    GROUP BY f.id, p.module_id" \
	    "SELECT thread, sum(is_write = 0), sum(is_write), sum(size),
	    min(icount), max(icount) FROM fa GROUP BY thread ORDER BY thread" \
	    "SELECT count(*), sum(is_write = 0), sum(is_write), sum(size) FROM fa"
	check_eq "$1 $_o $2: by_function = decoded" "$(sort dec.1)" \
		"$(dq $1 $_o "$2" ".q by_function 100000" | cut -d'|' -f1-4 | sort)"
	check_eq "$1 $_o $2: by_thread = decoded" "$(cat dec.2)" \
		"$(dq $1 $_o "$2" ".q by_thread")"
	check_eq "$1 $_o $2: totals = decoded" "$(cat dec.3)" \
		"$(dq $1 $_o "$2" ".q totals")"
}
# heap_tables DB: sum_heap, sum_heap_threads and sum_block_chunks, row for
# row, equal the same aggregates of the accesses that have a block_id.
heap_tables() {
	check_eq "$1: sum_heap = decoded heap accesses by thread, pc, module, direction" \
		"$(dq $1 "SELECT thread, pc, module_id, is_write, count(*), sum(size) FROM accesses
		    WHERE block_id IS NOT NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4")" \
		"$(dq $1 "SELECT * FROM sum_heap ORDER BY 1, 2, 3, 4")"
	check_eq "$1: sum_heap_threads = decoded" \
		"$(dq $1 "SELECT thread, count(*), min(icount), max(icount) FROM accesses
		    WHERE block_id IS NOT NULL GROUP BY thread")" \
		"$(dq $1 "SELECT * FROM sum_heap_threads")"
	check_eq "$1: sum_block_chunks = decoded, blocks of 65536 accesses or more" \
		"$(dq $1 "SELECT block_id, chunk_id, count(*) FROM accesses WHERE block_id IN
		    (SELECT id FROM blocks WHERE reads + writes >= 65536) GROUP BY 1, 2 ORDER BY 1, 2")" \
		"$(dq $1 "SELECT * FROM sum_block_chunks ORDER BY 1, 2")"
}
# classed DB OPTION FILTER [SUMMED]: hot_pages, hot_lines and working_set
# under OPTION FILTER equal the same aggregates of filtered_accesses,
# decoded; SUMMED (default 1) is what dg_paged() and dg_windowed() must
# say (1: the class summaries answer).
classed() {
	check_eq "$1 $2 $3: dg_paged(), dg_windowed()" "${4:-1}|${4:-1}" \
		"$(dq $1 $2 "$3" 'SELECT dg_paged(), dg_windowed()')"
	# the accesses counted by window, line and direction (fa.n) once:
	# a page is a line / 64, so pages, lines and windows all come from
	# these rows, one sort of the accesses instead of three
	DEC_GROUP="GROUP BY 1, 2, 3"
	decoded $1 $2 "$3" "icount / 100000 AS w, addr / 64 AS l, is_write,
	    count(*) AS n" "SELECT count(*) > 0 FROM fa" \
	    "SELECT dg_hex(l / 64 * 4096), sum(n), sum(n * (is_write = 0)),
	    sum(n * is_write), count(DISTINCT l) FROM fa GROUP BY l / 64" \
	    "SELECT dg_hex(l * 64), sum(n), sum(n * (is_write = 0)),
	    sum(n * is_write) FROM fa GROUP BY l" \
	    "SELECT w * 100000, sum(n), count(DISTINCT l),
	    count(DISTINCT l / 64) FROM fa GROUP BY w ORDER BY 1"
	DEC_GROUP=
	check_eq "$1 $2 $3: the filter selects accesses" 1 "$(cat dec.1)"
	check_eq "$1 $2 $3: hot_pages = decoded" "$(sort -t'|' -k2,2nr -k1,1 dec.2)" \
		"$(dq $1 $2 "$3" ".q hot_pages 100000000" | sort -t'|' -k2,2nr -k1,1)"
	check_eq "$1 $2 $3: hot_lines = decoded (accesses, reads, writes)" \
		"$(sort -t'|' -k2,2nr -k1,1 dec.3)" \
		"$(dq $1 $2 "$3" ".q hot_lines 100000000" | cut -d'|' -f1-4 | sort -t'|' -k2,2nr -k1,1)"
	check_eq "$1 $2 $3: working_set = decoded" "$(cat dec.4)" \
		"$(dq $1 $2 "$3" ".q working_set")"
}
