/* imp_ctxch.h: the chunks of each context, held and written as
 * context_chunks rows (schema/schema.sql, lib/dgctxch.h).
 *
 * Promise: the writer thread adds each chunk's contexts as it writes the
 * chunk (chunk ids ascending); the index keeps, per context, the chunk
 * ids since it was last flushed, as dgctxch deltas in small linked blocks
 * of one pool.  When the pool passes its budget (imp_ctxch_full) and at
 * the end, imp_ctxch_flush hands each context's row to the caller in
 * context order, so the rows land on context_chunks' b-tree in key order:
 * a single sweep, where rows of (context, chunk) written chunk by chunk
 * landed all over it.  A context flushed twice has two rows, told apart
 * by chunk_lo.  The writer thread owns it; nothing here is shared.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_CTXCH_H
#define IMP_CTXCH_H

#include <stddef.h>
#include <stdint.h>

struct imp_ctxch_blk;

struct imp_ctxch_ctx {
	uint32_t lo, hi;             /* its first and last chunk held, 0: none */
	uint32_t head, tail;         /* its blocks (pool index + 1), 0: none */
};

struct imp_ctxch {
	struct imp_ctxch_ctx *ctx;   /* by context id */
	size_t cap_ctx;
	uint32_t max_ctx;            /* 1 + the largest context id held */
	struct imp_ctxch_blk *pool;
	size_t n_blk, cap_blk, max_blk;   /* max_blk: the budget */
	uint8_t *row;                /* a row's data, gathered */
	size_t cap_row;
	uint64_t rows, flushes;      /* written so far */
};

/* budget: bytes of blocks held before imp_ctxch_full says so. */
void imp_ctxch_init(struct imp_ctxch *x, size_t budget);
void imp_ctxch_free(struct imp_ctxch *x);

/* Context ctx has runs in chunk `chunk` (>= 1; per context, ascending, each
   once).  Returns 0, or -1 when out of memory. */
int imp_ctxch_add(struct imp_ctxch *x, uint32_t ctx, uint32_t chunk);

/* 1 when the blocks held passed the budget: flush before adding more. */
int imp_ctxch_full(const struct imp_ctxch *x);

/* row(arg, ...) for each context held, ascending, then nothing is held.
   Returns 0, or the first nonzero return of row(), or -1 when out of
   memory (then *oom is set). */
typedef int imp_ctxch_row_fn(void *arg, uint32_t ctx, uint32_t lo, uint32_t hi,
                             const uint8_t *data, size_t len);
int imp_ctxch_flush(struct imp_ctxch *x, imp_ctxch_row_fn *row, void *arg, int *oom);

#endif
