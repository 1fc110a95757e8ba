-- Offset histogram of one heap block: reads and writes per bucket of offsets (from blocks.hist).
-- ?1: the block id (blocks.id; see .q by_block).  Empty buckets are left out.
SELECT h.bucket, h.offset, h.offset + b.hist_bucket - 1 AS last_offset,
       h.reads, h.writes
FROM blocks b, dg_hist(b.hist, b.hist_bucket) h
WHERE b.id = ?1
ORDER BY h.bucket;
