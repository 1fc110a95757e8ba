-- Heap allocation sites: blocks, bytes allocated, accesses inside them, and the allocation stack (innermost first).
-- ?1: how many rows (default 30).  Reads the summary table `blocks` (not filtered).
SELECT s.stack_id AS site, s.blocks, s.bytes_allocated,
       s.reads, s.writes, s.read_bytes, s.write_bytes,
       (SELECT group_concat(name, ' < ') FROM (
		SELECT coalesce(f.name, dg_hex(sf.pc)) AS name
		FROM dg_frames(s.stack_id) sf
		LEFT JOIN pcs p ON p.pc = sf.pc AND p.module_id = sf.module_id
		LEFT JOIN functions f ON f.id = p.function_id
		ORDER BY sf.depth)) AS stack
FROM (SELECT * FROM sum_site ORDER BY reads + writes DESC, bytes_allocated DESC
      LIMIT coalesce(?1, 30)) s
ORDER BY s.reads + s.writes DESC, s.bytes_allocated DESC;
