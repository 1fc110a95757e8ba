-- Reads and writes per user event (DATAGRIND_START_EVENT .. END_EVENT), counted in filtered_accesses.
-- No parameters.  Every thread's accesses inside the interval count.
-- Without a filter the counts are the events table's own (the importer
-- counted them as it went); with one, the accesses are joined.
SELECT e.id AS event, e.label, e.start_icount, e.end_icount,
       count(a.icount) - coalesce(sum(a.is_write), 0) AS reads,
       coalesce(sum(a.is_write), 0) AS writes,
       coalesce(sum(a.size), 0) AS bytes
FROM events e
LEFT JOIN filtered_accesses a
  ON a.icount >= e.start_icount
 AND (e.end_icount IS NULL OR a.icount < e.end_icount)
WHERE dg_filtered()
GROUP BY e.id
UNION ALL
SELECT id, label, start_icount, end_icount, reads, writes,
       read_bytes + write_bytes
FROM events
WHERE NOT dg_filtered()
ORDER BY 1;
