-- Hottest cache lines: accesses of filtered_accesses per cache line (where each access starts).
-- ?1: how many rows (default 30); ?2: line size in bytes, a power of two (default 64).
SELECT dg_hex(addr / coalesce(?2, 64) * coalesce(?2, 64)) AS line,
       count(*) AS accesses, sum(is_write = 0) AS reads,
       sum(is_write) AS writes, count(DISTINCT pc) AS pcs
FROM filtered_accesses
GROUP BY addr / coalesce(?2, 64)
ORDER BY accesses DESC
LIMIT coalesce(?1, 30);
