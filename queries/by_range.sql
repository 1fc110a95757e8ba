-- Reads and writes per tracked range (DATAGRIND_TRACK_RANGE), counted in filtered_accesses.
-- No parameters.  An access counts for a range while the range is tracked.
-- Without a filter the counts are the ranges table's own (the importer
-- counted them as it went); with one, the accesses are joined.
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
WHERE dg_filtered()
GROUP BY r.id
UNION ALL
SELECT id, label, type_name, dg_hex(addr), len, start_icount, end_icount,
       reads, writes, read_bytes + write_bytes
FROM ranges
WHERE NOT dg_filtered()
ORDER BY 1;
