-- Hottest pages: accesses of filtered_accesses per page (where each access starts).
-- ?1: how many rows (default 30); ?2: page size in bytes (default 4096).  With 4 KiB pages it reads the summaries (filtered_pages: sum_pages and sum_lines without a filter, sum_line_class under a dso: or malloc filter).
WITH per_page AS (
	SELECT addr / coalesce(?2, 4096) AS page, count(*) AS accesses,
	       sum(is_write = 0) AS reads, sum(is_write) AS writes,
	       count(DISTINCT addr / 64) AS lines_touched
	FROM filtered_accesses
	WHERE NOT dg_paged() OR coalesce(?2, 4096) <> 4096
	GROUP BY 1
	UNION ALL
	SELECT page, reads + writes, reads, writes, lines
	FROM filtered_pages
	WHERE dg_paged() AND coalesce(?2, 4096) = 4096
)
SELECT dg_hex(page * coalesce(?2, 4096)) AS page, accesses, reads, writes,
       lines_touched
FROM per_page
ORDER BY accesses DESC
LIMIT coalesce(?1, 30);
