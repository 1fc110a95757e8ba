-- Heap blocks: size, lifetime, accesses, and the functions that touched each block.
-- ?1: how many rows (default 30).  Reads the summary tables `blocks` and `sum_fn_block`.
-- The blocks are picked first: their functions are looked up for those rows only.
WITH top AS (
	SELECT id, addr, size, alloc_icount, free_icount, reads, writes
	FROM blocks
	ORDER BY reads + writes DESC, id
	LIMIT coalesce(?1, 30))
SELECT b.id AS block, dg_hex(b.addr) AS addr, b.size,
       b.alloc_icount, b.free_icount, b.reads, b.writes,
       (SELECT group_concat(name, ', ') FROM (
		SELECT coalesce(f.name, '?') || ' ' || sum(x.accesses) AS name
		FROM sum_fn_block x LEFT JOIN functions f ON f.id = x.function_id
		WHERE x.block_id = b.id
		GROUP BY x.function_id ORDER BY sum(x.accesses) DESC)) AS functions
FROM top b
ORDER BY b.reads + b.writes DESC, b.id;
