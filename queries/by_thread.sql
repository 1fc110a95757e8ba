-- Accesses by thread: reads, writes, bytes and icount span of filtered_accesses per Valgrind thread.
-- No parameters.  Without a filter it reads the summary in `threads`.
SELECT thread, reads, writes, bytes, first_icount, last_icount FROM (
	SELECT thread, sum(is_write = 0) AS reads, sum(is_write) AS writes,
	       sum(size) AS bytes, min(icount) AS first_icount,
	       max(icount) AS last_icount
	FROM filtered_accesses WHERE dg_filtered()
	GROUP BY thread
	UNION ALL
	SELECT id, reads, writes, read_bytes + write_bytes, first_access_icount,
	       last_access_icount
	FROM threads WHERE NOT dg_filtered() AND reads + writes > 0
)
ORDER BY thread;
