-- A type's fields in offset order, as pahole draws them, with their cache lines, holes and heat (accesses).
-- ?1: the type's name ("struct item" or "item").  ?2: the cache line size (default 64); lines are counted
-- from the start of the type.  hole: bytes of padding before the field.  Reads sum_field (every way).
WITH t AS (SELECT id, size FROM types
           WHERE name = ?1 OR name IN ('struct ' || ?1, 'union ' || ?1, 'class ' || ?1)
           ORDER BY id LIMIT 1),
     f AS (SELECT fl.id, fl.path, fl.offset, fl.size, fl.type_name, fl.bit_offset, fl.bit_size,
                  coalesce(fl.array_end, fl.offset + fl.size) AS reach
           FROM fields fl, t WHERE fl.type_id = t.id),
     h AS (SELECT f.*, coalesce(sum(s.reads), 0) AS reads, coalesce(sum(s.writes), 0) AS writes
           FROM f LEFT JOIN sum_field s ON s.field_id = f.id
           GROUP BY f.id),
     m AS (SELECT max(max(reads + writes), 1) AS top FROM h)
SELECT path AS field, type_name AS type, offset,
       CASE WHEN bit_size IS NULL THEN size ELSE ':' || bit_offset || '+' || bit_size END AS size,
       offset / coalesce(?2, 64) AS line,
       max(offset - coalesce(max(reach) OVER (ORDER BY offset, id
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0), 0) AS hole,
       reads, writes,
       substr('################################', 1, (32 * (reads + writes) + top - 1) / top) AS heat
FROM h, m
ORDER BY offset, id;
