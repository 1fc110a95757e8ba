-- Totals of filtered_accesses: accesses, reads, writes and bytes.
-- No parameters.  Without a filter, with a call-stack filter (fn:/file:/dso: in --events) or with --ranges malloc it reads the summaries (filtered_sum); else it decodes.
SELECT sum(accesses) AS accesses, sum(reads) AS reads, sum(writes) AS writes,
       sum(bytes) AS bytes FROM (
	SELECT count(*) AS accesses, sum(is_write = 0) AS reads,
	       sum(is_write) AS writes, sum(size) AS bytes
	FROM filtered_accesses WHERE NOT dg_summed()
	UNION ALL
	SELECT sum(accesses), sum(accesses * (is_write = 0)),
	       sum(accesses * is_write), sum(bytes)
	FROM filtered_sum WHERE dg_summed()
);
