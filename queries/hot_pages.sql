-- Hottest pages: accesses of filtered_accesses per page (where each access starts).
-- ?1: how many rows (default 30); ?2: page size in bytes (default 4096).
SELECT dg_hex(addr / coalesce(?2, 4096) * coalesce(?2, 4096)) AS page,
       count(*) AS accesses, sum(is_write = 0) AS reads,
       sum(is_write) AS writes,
       count(DISTINCT addr / 64) AS lines_touched
FROM filtered_accesses
GROUP BY addr / coalesce(?2, 4096)
ORDER BY accesses DESC
LIMIT coalesce(?1, 30);
