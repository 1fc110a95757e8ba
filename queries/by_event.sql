-- Reads and writes per user event (DATAGRIND_START_EVENT .. END_EVENT), counted in filtered_accesses.
-- No parameters.  Every thread's accesses inside the interval count.
SELECT e.id AS event, e.label, e.start_icount, e.end_icount,
       count(a.icount) - coalesce(sum(a.is_write), 0) AS reads,
       coalesce(sum(a.is_write), 0) AS writes,
       coalesce(sum(a.size), 0) AS bytes
FROM events e
LEFT JOIN filtered_accesses a
  ON a.icount >= e.start_icount
 AND (e.end_icount IS NULL OR a.icount < e.end_icount)
GROUP BY e.id
ORDER BY e.id;
