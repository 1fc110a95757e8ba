-- Hot and cold fields of a type: accesses per field, most accessed first, never-accessed ("cold") last.
-- ?1: the type's name ("struct item", or "item"; a typedef's name).  Reads the summary table sum_field
-- (every way: how says which gave the fields), so filters do not apply; see .q field_layout for offsets.
WITH t AS (SELECT id FROM types
           WHERE name = ?1 OR name IN ('struct ' || ?1, 'union ' || ?1, 'class ' || ?1)),
     f AS (SELECT * FROM fields WHERE type_id IN (SELECT id FROM t)),
     c AS (SELECT f.path, f.offset, f.size, f.type_name, s.function_id, s.how,
                  coalesce(s.reads, 0) AS reads, coalesce(s.writes, 0) AS writes,
                  coalesce(s.read_bytes + s.write_bytes, 0) AS bytes
           FROM f LEFT JOIN sum_field s ON s.field_id = f.id)
SELECT path AS field, offset, size, type_name AS type, sum(reads) AS reads, sum(writes) AS writes,
       sum(bytes) AS bytes, group_concat(DISTINCT how) AS how,
       CASE WHEN sum(reads + writes) = 0 THEN 'cold' ELSE '' END AS heat,
       (SELECT group_concat(name, ', ') FROM (
		SELECT coalesce(fn.name, '?') || ' ' || sum(x.reads + x.writes) AS name
		FROM c x LEFT JOIN functions fn ON fn.id = x.function_id
		WHERE x.path = c.path AND x.offset = c.offset AND x.reads + x.writes > 0
		GROUP BY x.function_id ORDER BY sum(x.reads + x.writes) DESC LIMIT 5)) AS functions
FROM c
GROUP BY path, offset
ORDER BY sum(reads + writes) DESC, offset, path;
