-- Cache misses by allocation site and level, from the last .cache (dgsql/cache.h; empty before it): each site's allocating function, blocks, references and misses, most misses first.
-- ?1: how many rows (default 30).
SELECT c.site,
       (SELECT sf.name FROM dg_frames(c.site) fr
        JOIN pcs sp ON sp.pc = fr.pc AND sp.module_id = fr.module_id
        JOIN functions sf ON sf.id = sp.function_id ORDER BY fr.depth LIMIT 1) AS function,
       l.name AS level, c.blocks, c.reads, c.writes, c.read_misses, c.write_misses
FROM cache_site c JOIN cache_levels l ON l.level = c.level
ORDER BY c.level, c.read_misses + c.write_misses DESC, c.site
LIMIT coalesce(?1, 30);
