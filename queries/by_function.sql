-- Accesses by function: reads, writes and bytes of filtered_accesses per function (the innermost, inlined or not, at the access's pc).
-- ?1: how many rows (default 30).  Without a filter it reads the summary sum_pc, with a call-stack filter (fn:/file:/dso: in --events) or --ranges malloc filtered_sum; else it decodes.
WITH per_pc AS (
	SELECT pc, module_id, sum(is_write = 0) AS reads,
	       sum(is_write) AS writes, sum(size) AS bytes
	FROM filtered_accesses WHERE NOT dg_summed() GROUP BY pc, module_id
	UNION ALL
	SELECT pc, module_id, sum(accesses * (is_write = 0)),
	       sum(accesses * is_write), sum(bytes)
	FROM filtered_sum WHERE dg_summed() AND dg_filtered()
	GROUP BY pc, module_id
	UNION ALL
	SELECT pc, module_id, sum(accesses * (is_write = 0)),
	       sum(accesses * is_write), sum(bytes)
	FROM sum_pc WHERE NOT dg_filtered() GROUP BY pc, module_id
)
SELECT coalesce(f.name, '?') AS function,
       sum(a.reads) AS reads, sum(a.writes) AS writes,
       sum(a.bytes) AS bytes,
       coalesce(m.path, '?') AS module
FROM per_pc a
LEFT JOIN pcs p ON p.pc = a.pc AND p.module_id = a.module_id
LEFT JOIN functions f ON f.id = p.function_id
LEFT JOIN modules m ON m.id = a.module_id
GROUP BY f.id, m.id
ORDER BY sum(a.reads) + sum(a.writes) DESC
LIMIT coalesce(?1, 30);
