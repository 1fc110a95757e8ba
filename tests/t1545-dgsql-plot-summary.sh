#!/bin/sh
# t1545-dgsql-plot-summary: an unfiltered whole-trace plot is drawn from the
# chunk_cells summary (schema.sql) instead of decoding every access; the
# summary holds exactly the accesses, cell for cell per chunk, and the plot
# accounts for every one of them, as the decoding path does.  The summary
# path is taken when a 256-byte cell is at most a pixel wide and a chunk a
# few rows high; an address zoom (here one that keeps everything) makes the
# plot decode the accesses.  Under a call-stack filter (fn:main), zoomed or
# not, and under user: events, the chunks it takes whole come from their
# cells and the others are decoded: every passing access counted, in the
# decoding path's columns.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql
need_cmd gnuplot
need_cmd sqlite3
trace_db s.db sweep 20 || finish

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

# an icount window: the pages and cells of the chunks it overlaps (their
# counts spread over the chunk's rows, so between the accesses in the
# window and those of the chunks overlapping it)
# (sweep 20 makes some 120 chunks, 90 of them in the window: each is
# under 4 of its 200 rows, as summary_usable wants)
half=$(dq s.db 'SELECT max(icount_hi) * 3 / 4 FROM chunks')
dq s.db --size 200x200 --icount-range "0:$half" --plot-data win.dat
check_eq "an icount window: from the summary" "# from: chunk_cells (summary)" \
	"$(grep '^# from:' win.dat)" || diag_file dq.err
in=$(dq s.db "SELECT count(*) FROM accesses WHERE icount < $half")
over=$(dq s.db "SELECT sum(n_accesses) FROM chunks WHERE icount_lo < $half")
got=$(awk '!/^#/ { s += $3 + $4 } END { print s }' win.dat)
check_eq "an icount window: $in <= $got <= $over accesses" yes \
	"$( [ "$in" -le "$got" ] && [ "$got" -le "$over" ] && [ "$in" -lt "$n" ] && echo yes)"

dq s.db --size 200x200 --addr-range 0:0x7fffffffffff --plot-data big.dat
check_eq "a zoomed plot decodes the accesses" "# from: filtered_accesses" \
	"$(grep '^# from:' big.dat)"
check_eq "both paths account for the same accesses" "$n" \
	"$(awk '!/^#/ { s += $3 + $4 } END { print s }' big.dat)"

# A call-stack filter: the chunks it takes whole from their cells, the
# others decoded; every access that passes counted once, in the columns of
# the pages the decoding path finds.
dq s.db --size 200x200 --events fn:main --plot-data main.dat
check_eq "fn:main: the chunks it takes whole from chunk_cells, the rest decoded" \
	"# from: chunk_cells where the filter takes whole chunks, filtered_accesses elsewhere" \
	"$(grep '^# from:' main.dat)" || diag_file dq.err
check_eq "fn:main: the plot counts every access that passes, reads and writes" \
	"$(dq s.db --events fn:main 'SELECT count(*) - sum(is_write), sum(is_write) FROM filtered_accesses' | tr '|' ' ')" \
	"$(awk '!/^#/ { r += $3; w += $4 } END { print r, w }' main.dat)"
dq s.db --size 200x200 --events fn:main --addr-range 0:0x7fffffffffff --plot-data main-dec.dat
check_eq "fn:main: the columns (pages) of the decoding path" \
	"$(awk '!/^#/ { print $1 }' main-dec.dat | sort -u)" "$(awk '!/^#/ { print $1 }' main.dat | sort -u)"
# Zoomed (the viewer's views), the same way: in an address zoom of whole
# pages, every access that passes in it, once; in an icount zoom, the
# chunks that straddle its ends count whole, as without a filter.
M=$(dq s.db "SELECT page FROM sum_pages ORDER BY page LIMIT 1 OFFSET (SELECT count(*) / 2 FROM sum_pages)")
Z="--addr-range $(($(dq s.db 'SELECT min(page) FROM sum_pages') * 4096)):$(((M + 1) * 4096))"
IC=$(dq s.db "SELECT (min(icount_lo) + max(icount_hi)) / 2 FROM chunks")
for z in "$Z" "--icount-range 0:$IC"; do
	# shellcheck disable=SC2086
	dq s.db --size 200x200 --events fn:main $z --plot-data zoom.dat
	check_eq "fn:main $z: whole chunks from chunk_cells, the rest decoded" \
		"# from: chunk_cells where the filter takes whole chunks, filtered_accesses elsewhere" \
		"$(grep '^# from:' zoom.dat)" || diag_file dq.err
	# shellcheck disable=SC2086
	dq s.db --events fn:main $z 'SELECT count(*) - sum(is_write), sum(is_write) FROM filtered_accesses' |
		tr '|' ' ' >zoom.sql
	[ "$z" = "$Z" ] && check_eq "fn:main $z: every access that passes, reads and writes" \
		"$(cat zoom.sql)" "$(awk '!/^#/ { r += $3; w += $4 } END { print r, w }' zoom.dat)"
	[ "$z" = "$Z" ] || check_eq "fn:main $z: reads and writes within 2 % of those that pass" "1 1" \
		"$(awk 'NR == FNR { r = $1; w = $2; next } !/^#/ { pr += $3; pw += $4 }
		   END { print (pr >= r && pr <= r * 1.02), (pw >= w && pw <= w * 1.02) }' zoom.sql zoom.dat)"
done

# Under user: alone the same: the chunks inside an event from their
# cells, those an event's end falls in decoded (tests/progs/phases.c,
# each phase of bench/workload.c an event).
trace_db ph.db phases 2 || finish
for u in user:matmul user:matmul,user:hash,user:tree; do
	dq ph.db --size 200x200 --events $u --plot-data user.dat
	check_eq "$u: whole chunks from chunk_cells, the rest decoded" \
		"# from: chunk_cells where the filter takes whole chunks, filtered_accesses elsewhere" \
		"$(grep '^# from:' user.dat)" || diag_file dq.err
	check_eq "$u: the plot counts every access that passes, reads and writes" \
		"$(dq ph.db --events $u 'SELECT count(*) - sum(is_write), sum(is_write) FROM filtered_accesses' | tr '|' ' ')" \
		"$(awk '!/^#/ { r += $3; w += $4 } END { print r, w }' user.dat)"
	dq ph.db --size 200x200 --events $u --addr-range 0:0x7fffffffffff --plot-data user-dec.dat
	check_eq "$u: the columns (pages) of the decoding path" \
		"$(awk '!/^#/ { print $1 }' user-dec.dat | sort -u)" "$(awk '!/^#/ { print $1 }' user.dat | sort -u)"
done

# A bad blob is an error naming the table, the chunk and the byte (exit 1),
# in the plot and in chunk_cells_v: chunk 2's blob is cell 5, 1 read, then
# a writes count whose uleb is cut (entries of three ulebs: cell delta,
# reads, writes).
cp s.db bad.db
sqlite3 bad.db "UPDATE chunk_cells SET data = x'050183' WHERE chunk_id = 2" ||
	bail "tampering bad.db"
dq bad.db --size 200x200 --plot-data bad.dat
check_eq "bad blob: the plot fails (exit 1)" 1 "$?"
check_eq "bad blob: the plot names table, chunk, byte and field" \
	"dgsql: plot: chunk_cells: chunk 2: byte 2 (writes): the blob ends inside the number" \
	"$(cat dq.err)"
# The odd chunks' cells are binned by dgplot's helper thread: its error is
# the same, and is the plot's.
cp s.db bad3.db
sqlite3 bad3.db "UPDATE chunk_cells SET data = x'050183' WHERE chunk_id = 3" ||
	bail "tampering bad3.db"
dq bad3.db --size 200x200 --plot-data bad3.dat
check_eq "bad blob, odd chunk: the plot fails (exit 1)" 1 "$?"
check_eq "bad blob, odd chunk: the plot names table, chunk, byte and field" \
	"dgsql: plot: chunk_cells: chunk 3: byte 2 (writes): the blob ends inside the number" \
	"$(cat dq.err)"
dq bad.db 'SELECT count(*) FROM chunk_cells_v' >/dev/null
check_eq "bad blob: chunk_cells_v fails (exit 1)" 1 "$?"
check_eq "bad blob: chunk_cells_v says where" 1 \
	"$(grep -c "chunk_cells_v: chunk_cells: chunk 2: byte 2 (writes)" dq.err)" || diag_file dq.err
sqlite3 bad.db "UPDATE chunk_cells SET data = x'050100000100' WHERE chunk_id = 2"
dq bad.db 'SELECT count(*) FROM chunk_cells_v' >/dev/null
check_eq "cells out of order: said so, at byte 3" 1 \
	"$(grep -c "chunk 2: byte 3 (cell delta): a cell delta of 0" dq.err)" || diag_file dq.err

# A database of schema version 7 (chunk_cells a row per cell, made here
# from chunk_cells_v through the extension) still plots, by decoding the
# accesses: the same accesses counted; chunk_cells_v says to query the old
# table itself.
cp s.db v7.db
ext=$DG_BUILD/lib/dgaccess.so
sqlite3 v7.db ".load ${ext%.so}" "CREATE TABLE old AS SELECT * FROM chunk_cells_v;
	DROP TABLE chunk_cells;
	CREATE TABLE chunk_cells (chunk_id INTEGER NOT NULL, cell INTEGER NOT NULL,
	reads INTEGER NOT NULL, writes INTEGER NOT NULL, PRIMARY KEY (chunk_id, cell)) WITHOUT ROWID;
	INSERT INTO chunk_cells SELECT * FROM old; DROP TABLE old;
	PRAGMA user_version = 7" || bail "making v7.db"
check_eq "v7 database: the old rows hold every access" "$n" \
	"$(sqlite3 v7.db 'SELECT sum(reads) + sum(writes) FROM chunk_cells')"
dq v7.db --size 200x200 --plot-data v7.dat
check_eq "v7 database: plots (exit 0)" 0 "$?" || diag_file dq.err
check_eq "v7 database: by decoding the accesses" "# from: filtered_accesses" \
	"$(grep '^# from:' v7.dat)"
check_eq "v7 database: every access in some cell" "$n" \
	"$(awk '!/^#/ { s += $3 + $4 } END { print s }' v7.dat)"
dq v7.db 'SELECT count(*) FROM chunk_cells_v' >/dev/null
check_eq "v7 database: chunk_cells_v is a clear error" 1 \
	"$(grep -c "chunk_cells_v: .*schema version 7 or older has a row per cell" dq.err)" ||
	diag_file dq.err
finish
