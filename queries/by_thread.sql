-- Accesses by thread: reads, writes, bytes and icount span of filtered_accesses per Valgrind thread.
-- No parameters.
SELECT thread, sum(is_write = 0) AS reads, sum(is_write) AS writes,
       sum(size) AS bytes, min(icount) AS first_icount,
       max(icount) AS last_icount
FROM filtered_accesses
GROUP BY thread
ORDER BY thread;
