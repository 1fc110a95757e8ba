-- Accesses by thread: reads, writes, bytes and icount span of filtered_accesses per Valgrind thread.
-- No parameters.  Without a filter it reads the summary in `threads`, with a call-stack filter (fn:/file:/dso: in --events) or --ranges malloc filtered_sum and filtered_span; else it decodes.
SELECT thread, reads, writes, bytes, first_icount, last_icount FROM (
	SELECT thread, sum(is_write = 0) AS reads, sum(is_write) AS writes,
	       sum(size) AS bytes, min(icount) AS first_icount,
	       max(icount) AS last_icount
	FROM filtered_accesses WHERE NOT dg_summed()
	GROUP BY thread
	UNION ALL
	SELECT s.thread, sum(s.accesses * (s.is_write = 0)),
	       sum(s.accesses * s.is_write), sum(s.bytes), p.first_icount,
	       p.last_icount
	FROM filtered_sum s JOIN filtered_span p ON p.thread = s.thread
	WHERE dg_summed() AND dg_filtered()
	GROUP BY s.thread HAVING sum(s.accesses) > 0
	UNION ALL
	SELECT id, reads, writes, read_bytes + write_bytes, first_access_icount,
	       last_access_icount
	FROM threads WHERE NOT dg_filtered() AND reads + writes > 0
)
ORDER BY thread;
