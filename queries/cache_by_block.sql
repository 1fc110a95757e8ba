-- Cache misses by heap block and level, from the last .cache (dgsql/cache.h; empty before it): each block's size, allocating function, references and misses, most misses first.
-- ?1: how many rows (default 30).
SELECT c.block_id AS block, b.size,
       (SELECT sf.name FROM dg_frames(b.alloc_stack_id) fr
        JOIN pcs sp ON sp.pc = fr.pc AND sp.module_id = fr.module_id
        JOIN functions sf ON sf.id = sp.function_id ORDER BY fr.depth LIMIT 1) AS site,
       l.name AS level, c.reads, c.writes, c.read_misses, c.write_misses
FROM cache_block c JOIN cache_levels l ON l.level = c.level
LEFT JOIN blocks b ON b.id = c.block_id
ORDER BY c.level, c.read_misses + c.write_misses DESC, c.block_id
LIMIT coalesce(?1, 30);
