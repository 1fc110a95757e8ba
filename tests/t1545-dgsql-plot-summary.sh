#!/bin/sh
# t1545-dgsql-plot-summary: an unfiltered whole-trace plot is drawn from the
# chunk_cells summary (schema.sql) instead of decoding every access; the
# summary holds exactly the accesses, cell for cell per chunk, and the plot
# accounts for every one of them, as the decoding path does.  The summary
# path is taken when a 256-byte cell is at most a pixel wide and a chunk a
# few rows high; an address zoom (here one that keeps everything) makes the
# plot decode the accesses.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd gnuplot
trace_db s.db sweep || finish

n=$(dq s.db 'SELECT count(*) FROM accesses')
check_eq "chunk_cells adds up to every access" "$n" \
	"$(dq s.db 'SELECT sum(reads) + sum(writes) FROM chunk_cells_v')"
check_eq "chunk_cells = accesses grouped by chunk and cell" 0 \
	"$(dq s.db "SELECT count(*) FROM (SELECT chunk_id, addr >> 8 AS cell,
	     sum(is_write = 0) AS r, sum(is_write) AS w FROM accesses GROUP BY 1, 2) a
	   FULL JOIN chunk_cells_v c USING (chunk_id, cell)
	   WHERE a.r IS NOT c.reads OR a.w IS NOT c.writes")"
check_eq "one chunk_cells row per chunk with accesses" \
	"$(dq s.db 'SELECT count(*) FROM chunks WHERE n_accesses > 0')" \
	"$(dq s.db 'SELECT count(*) FROM chunk_cells')"
# the pages the plot takes from sum_pages are those of the cells
check_eq "sum_pages = the pages of chunk_cells" 0 \
	"$(dq s.db "SELECT count(*) FROM (SELECT DISTINCT cell >> 4 AS page FROM chunk_cells_v) a
	   FULL JOIN sum_pages p USING (page) WHERE a.page IS NULL OR p.page IS NULL")"
# chunk_id bounds go to chunk_cells_v's xFilter (pushed down); +chunk_id
# hides the column from the plan, so SQLite filters every row itself
last=$(dq s.db 'SELECT max(chunk_id) FROM chunk_cells')
check_eq "chunk_id bounds pushed down: the cells of those chunks" \
	"$(dq s.db "SELECT count(DISTINCT addr >> 8) FROM accesses WHERE chunk_id = 2")
$(dq s.db "SELECT count(*), sum(writes) FROM chunk_cells_v WHERE +chunk_id >= 2 AND +chunk_id < $last")" \
	"$(dq s.db "SELECT count(*) FROM chunk_cells_v WHERE chunk_id = 2")
$(dq s.db "SELECT count(*), sum(writes) FROM chunk_cells_v WHERE chunk_id >= 2 AND chunk_id < $last")"
check_eq "a real bound on chunk_id is a bound" \
	"$(dq s.db "SELECT count(*) FROM chunk_cells_v WHERE +chunk_id > 1 AND +chunk_id <= 2")" \
	"$(dq s.db "SELECT count(*) FROM chunk_cells_v WHERE chunk_id > 1.5 AND chunk_id < 2.5")"

dq s.db --size 200x200 --plot small.png --plot-data sum.dat
check_eq "summary plot exits 0" 0 "$?" || diag_file dq.err
check_eq "the small plot came from the summary" "# from: chunk_cells (summary)" \
	"$(grep '^# from:' sum.dat)"
check_eq "summary plot: every access in some cell" "$n" \
	"$(awk '!/^#/ { s += $3 + $4 } END { print s }' sum.dat)"

dq s.db --size 200x200 --addr-range 0:0x7fffffffffff --plot-data big.dat
check_eq "a zoomed plot decodes the accesses" "# from: filtered_accesses" \
	"$(grep '^# from:' big.dat)"
check_eq "both paths account for the same accesses" "$n" \
	"$(awk '!/^#/ { s += $3 + $4 } END { print s }' big.dat)"
finish
