-- Reads and writes per tracked range (DATAGRIND_TRACK_RANGE), counted in filtered_accesses.
-- No parameters.  An access counts for a range while the range is tracked.
SELECT r.id AS range, r.label, r.type_name, dg_hex(r.addr) AS addr, r.len,
       r.start_icount, r.end_icount,
       count(a.icount) - coalesce(sum(a.is_write), 0) AS reads,
       coalesce(sum(a.is_write), 0) AS writes,
       coalesce(sum(a.size), 0) AS bytes
FROM ranges r
LEFT JOIN filtered_accesses a
  ON a.addr >= r.addr AND a.addr < r.addr + r.len
 AND a.icount >= r.start_icount
 AND (r.end_icount IS NULL OR a.icount < r.end_icount)
GROUP BY r.id
ORDER BY r.id;
