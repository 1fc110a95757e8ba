#!/bin/sh
# t1395-import-chunk-index: the tables dg-import's chunk writer thread builds
# beside each chunk (importer/imp_chunk.c) hold what decoding every access
# gives: chunk_regions = the 64 KiB regions each chunk's accesses touch,
# context_chunks = (at least) the contexts with accesses in each chunk,
# sum_lines and sum_pages = the accesses by 64-byte line and 4 KiB page.  On
# a log of many chunks (writes 3000) and on a multi-threaded one, where
# chunks also end at every thread switch.
. "$DG_TESTS/lib.sh"
. "$DG_TESTS/lib-dgsql.sh"
need_tool
need_dgsql

# check_db DB: every check on one database
check_db() {
	check_eq "$1: chunk_regions = regions of the decoded accesses, chunk by chunk" 0 \
		"$(dq "$1" "SELECT count(*) FROM (SELECT DISTINCT addr >> 16 AS region, chunk_id
		     FROM accesses) a FULL JOIN chunk_regions r USING (region, chunk_id)
		   WHERE a.region IS NULL OR r.region IS NULL")"
	cc="WITH cc AS (SELECT c.context_id, j.value AS chunk_id FROM context_chunks c,
		 json_each(dg_chunks(c.chunk_lo, c.chunk_hi, c.data)) j)"
	check_eq "$1: every context with accesses in a chunk is in context_chunks" 0 \
		"$(dq "$1" "$cc SELECT count(*) FROM (SELECT DISTINCT context_id, chunk_id FROM accesses) a
		   LEFT JOIN cc c USING (context_id, chunk_id) WHERE c.chunk_id IS NULL")"
	check_eq "$1: context_chunks names only existing contexts and chunks" 0 \
		"$(dq "$1" "$cc SELECT count(*) FROM cc c
		   WHERE c.context_id NOT IN (SELECT id FROM contexts)
		      OR c.chunk_id NOT IN (SELECT id FROM chunks)")"
	check_eq "$1: a context's rows list disjoint ranges, each chunk once" 0 \
		"$(dq "$1" "SELECT count(*) FROM context_chunks a JOIN context_chunks b
		   ON a.context_id = b.context_id AND a.chunk_lo < b.chunk_lo AND a.chunk_hi >= b.chunk_lo")"
	check_eq "$1: sum_lines = accesses by 64-byte line" 0 \
		"$(dq "$1" "SELECT count(*) FROM (SELECT addr >> 6 AS k, sum(is_write = 0) AS r,
		     sum(is_write) AS w FROM accesses GROUP BY 1) a
		   FULL JOIN (SELECT line AS k, reads, writes FROM sum_lines) s USING (k)
		   WHERE a.r IS NOT s.reads OR a.w IS NOT s.writes")"
	check_eq "$1: sum_pages = accesses by 4 KiB page" 0 \
		"$(dq "$1" "SELECT count(*) FROM (SELECT addr >> 12 AS k, sum(is_write = 0) AS r,
		     sum(is_write) AS w FROM accesses GROUP BY 1) a
		   FULL JOIN (SELECT page AS k, reads, writes FROM sum_pages) s USING (k)
		   WHERE a.r IS NOT s.reads OR a.w IS NOT s.writes")"
}

trace_db w.db writes 3000 || finish
check_gt "writes 3000 makes several chunks" 3 \
	"$(dq w.db 'SELECT count(*) FROM chunks')"
check_db w.db

trace_db t.db threads || finish
check_gt "threads: chunks of more than one thread" 1 \
	"$(dq t.db 'SELECT count(DISTINCT thread) FROM chunks')"
check_db t.db
finish
