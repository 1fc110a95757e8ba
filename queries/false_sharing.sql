-- False sharing: cache lines where one thread writes a field and another thread touches a different field.
-- ?1: the cache line size (default 64).  Lines are counted from the start of the type (of the variable,
-- for globals), as pahole draws them: objects are assumed to start on a line.  One row per field and
-- thread of each such line.  Reads sum_field; accesses without a field are not seen.
WITH a AS (SELECT s.type_id, coalesce(s.variable_id, 0) AS var, f.offset / coalesce(?1, 64) AS line,
                  s.field_id, f.path, s.thread, sum(s.reads) AS reads, sum(s.writes) AS writes
           FROM sum_field s JOIN fields f ON f.id = s.field_id
           GROUP BY 1, 2, 3, 4, 6),
     l AS (SELECT DISTINCT w.type_id, w.var, w.line FROM a w JOIN a o
           ON o.type_id = w.type_id AND o.var = w.var AND o.line = w.line
          AND o.field_id <> w.field_id AND o.thread <> w.thread
           WHERE w.writes > 0)
SELECT t.name AS type, v.name AS variable, a.line, a.path AS field, a.thread, a.reads, a.writes
FROM l JOIN a ON a.type_id = l.type_id AND a.var = l.var AND a.line = l.line
JOIN types t ON t.id = a.type_id
LEFT JOIN variables v ON v.id = nullif(a.var, 0)
ORDER BY t.name, v.name, a.line, a.path, a.thread;
