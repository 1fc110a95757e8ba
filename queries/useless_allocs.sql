-- Useless allocations (DHAT's): heap blocks never read, per allocation site: never accessed at all, or written but never read.
-- No parameters.  Reads the summary table `blocks`.
SELECT b.alloc_stack_id AS site,
       CASE WHEN b.writes = 0 THEN 'never accessed'
            ELSE 'written, never read' END AS kind,
       count(*) AS blocks, sum(b.size) AS bytes, sum(b.writes) AS writes,
       (SELECT group_concat(name, ' < ') FROM (
		SELECT coalesce(f.name, dg_hex(sf.pc)) AS name
		FROM dg_frames(b.alloc_stack_id) sf
		LEFT JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id
		LEFT JOIN functions f ON f.id = p.function_id
		ORDER BY sf.depth)) AS stack
FROM blocks b
WHERE b.reads = 0
GROUP BY b.alloc_stack_id, b.writes = 0
ORDER BY bytes DESC;
