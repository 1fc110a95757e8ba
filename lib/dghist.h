/* dghist.h: the codec of a heap block's offset histogram (blocks.hist in
 * schema/schema.sql): the reads and the writes that started in each bucket
 * of hist_bucket bytes.
 *
 * Two forms, told apart by their first two bytes:
 *
 *   sparse (schema 12 on; what dghist_encode writes): the bytes 0x80 0x00,
 *          then for each touched bucket, in order, three unsigned LEB128
 *          numbers: the untouched buckets skipped since the last touched
 *          one (since bucket 0 for the first), the reads, the writes.
 *   dense  (schema 11 and before): for bucket 0, 1, ... two numbers, the
 *          reads then the writes, up to the last touched bucket.
 *
 * 0x80 0x00 is a zero written in two bytes, which the dense form's encoder
 * never wrote (its numbers took the fewest bytes), so no dense histogram
 * starts with it.  A block has up to 1024 buckets and most are untouched:
 * the sparse form took sqlrows' histograms from 184 to 40 MB.
 *
 * Nothing is allocated: the caller owns every buffer.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGHIST_H
#define DGHIST_H

#include <stddef.h>
#include <stdint.h>

#include "dgcodec.h"

/* The most bytes dghist_encode writes for n buckets: three numbers below
   2^32 a bucket, five bytes each at most. */
#define DGHIST_MAX_BYTES(n) (2 + 3 * 5 * (size_t)(n))

/* The sparse form of counts[2k] reads and counts[2k + 1] writes of
   buckets k < n into out (DGHIST_MAX_BYTES(n) bytes); its length.  An
   untouched histogram is the marker alone. */
size_t dghist_encode(const uint32_t *counts, uint32_t n, uint8_t *out);

/* A reader of either form; dghist_begin, then dghist_next until it
   returns 0 (the end) or an error. */
struct dghist_cur {
	const uint8_t *p, *end;
	int sparse;
	uint64_t bucket;        /* the next bucket the dense form reads */
};

void dghist_begin(struct dghist_cur *c, const void *blob, size_t len);

/* The next touched bucket: 1 with its number, reads and writes; 0 at the
   end; a negative DGHIST_E_* or DGC_E_* (dghist_error names it) when the
   bytes are malformed. */
int dghist_next(struct dghist_cur *c, uint64_t *bucket, uint64_t *reads,
                uint64_t *writes);

enum {
	DGHIST_E_CUT = -20,     /* a bucket's numbers cut short */
	DGHIST_E_FAR = -21,     /* a bucket number past 2^32 */
	DGHIST_E_EMPTY = -22,   /* sparse: a bucket with no reads and no writes */
};

/* What a negative dghist_next means, in a few words. */
const char *dghist_error(int e);

#endif
