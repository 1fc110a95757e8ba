-- Hottest cache lines: accesses of filtered_accesses per cache line (where each access starts).
-- ?1: how many rows (default 30); ?2: line size in bytes, a power of two (default 64).  With 64-byte lines it reads the summaries (filtered_lines: sum_lines without a filter, sum_line_class under a dso: or malloc filter; pcs is then NULL: the summaries do not keep them).
WITH per_line AS (
	SELECT addr / coalesce(?2, 64) AS line, count(*) AS accesses,
	       sum(is_write = 0) AS reads, sum(is_write) AS writes,
	       count(DISTINCT pc) AS pcs
	FROM filtered_accesses
	WHERE NOT dg_paged() OR coalesce(?2, 64) <> 64
	GROUP BY 1
	UNION ALL
	SELECT line, reads + writes, reads, writes, NULL
	FROM filtered_lines
	WHERE dg_paged() AND coalesce(?2, 64) = 64
)
SELECT dg_hex(line * coalesce(?2, 64)) AS line, accesses, reads, writes, pcs
FROM per_line
ORDER BY accesses DESC
LIMIT coalesce(?1, 30);
