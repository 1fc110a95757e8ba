-- Cache misses by function and level, from the last .cache (dgsql/cache.h: run it first, as .cache D1=32k:8:64 LL=8M:16:64; before that the table is empty): references and misses of each level per function (the innermost, inlined or not, at the access's pc), most misses first.
-- ?1: how many rows (default 30).
SELECT function, name AS level, reads, writes, read_misses, write_misses,
       printf('%.2f%%', 100.0 * (read_misses + write_misses) / max(1, reads + writes)) AS miss_rate
FROM cache_fn
ORDER BY level, read_misses + write_misses DESC, function
LIMIT coalesce(?1, 30);
