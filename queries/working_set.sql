-- Working set per instruction window: distinct cache lines and pages touched by filtered_accesses in each window of N instructions.
-- ?1: window length N in instructions (default 100000); ?2: line size (default 64).  With the defaults it reads the summaries (filtered_windows: sum_windows without a filter, sum_window_class under a dso: or malloc filter).
SELECT icount / coalesce(?1, 100000) * coalesce(?1, 100000) AS window_start,
       count(*) AS accesses,
       count(DISTINCT addr / coalesce(?2, 64)) AS lines,
       count(DISTINCT addr / 4096) AS pages
FROM filtered_accesses
WHERE NOT (dg_windowed() AND coalesce(?1, 100000) = 100000 AND coalesce(?2, 64) = 64)
GROUP BY icount / coalesce(?1, 100000)
UNION ALL
SELECT window_start, accesses, lines, pages FROM filtered_windows
WHERE dg_windowed() AND coalesce(?1, 100000) = 100000 AND coalesce(?2, 64) = 64
ORDER BY window_start;
