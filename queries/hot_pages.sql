-- Hottest pages: accesses of filtered_accesses per page (where each access starts).
-- ?1: how many rows (default 30); ?2: page size in bytes (default 4096).  Without a filter and with 4 KiB pages it reads the summaries sum_pages and sum_lines.
WITH per_page AS (
	SELECT addr / coalesce(?2, 4096) AS page, count(*) AS accesses,
	       sum(is_write = 0) AS reads, sum(is_write) AS writes,
	       count(DISTINCT addr / 64) AS lines_touched
	FROM filtered_accesses
	WHERE dg_filtered() OR coalesce(?2, 4096) <> 4096
	GROUP BY 1
	UNION ALL
	SELECT p.page, p.reads + p.writes, p.reads, p.writes,
	       (SELECT count(*) FROM sum_lines l
	        WHERE l.line >= p.page * 64 AND l.line < (p.page + 1) * 64)
	FROM sum_pages p
	WHERE NOT dg_filtered() AND coalesce(?2, 4096) = 4096
)
SELECT dg_hex(page * coalesce(?2, 4096)) AS page, accesses, reads, writes,
       lines_touched
FROM per_page
ORDER BY accesses DESC
LIMIT coalesce(?1, 30);
