/* imp_hsum.h: the heap summaries of the import (sum_heap, sum_heap_threads
 * and sum_block_chunks in schema/schema.sql).
 *
 * Promise: fed every access inside a live heap block (imp_hsum_touch, from
 * imp_run's access loop), the import writes
 *   - sum_heap: those accesses by thread x pc x direction, so that dgsql's
 *     `--ranges malloc` counts (totals, by function, by thread) are a read
 *     of a few thousand rows instead of a decode of every access;
 *   - sum_heap_threads: each thread's first and last heap access (the span
 *     by_thread shows);
 *   - sum_block_chunks: for each block with at least IMP_BC_MIN accesses,
 *     its accesses in each chunk (imp_hsum_block, when the block's row is
 *     written), so that `accesses WHERE block_id = X` visits only those
 *     chunks and counts without decoding them.
 *
 * Cost: per heap access, two compares and three increments; a hash insert
 * when an instruction's heap accesses change thread, and an array append
 * when a block's accesses move to a new chunk.
 *
 * Ownership: the state hangs off struct importer (imp->hsum, made on first
 * use) and each block's chunk list off its struct imp_block; imp_hsum_finish
 * writes what is left, imp_hsum_free releases it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef IMP_HSUM_H
#define IMP_HSUM_H

#include <stdint.h>
#include "imp.h"

/* Blocks with fewer accesses get no sum_block_chunks rows: decoding their
   chunks (at most this many accesses' worth of runs) is cheap already. */
#define IMP_BC_MIN 65536

/* Slow paths of imp_hsum_touch: 0 or -1 (imp_fail). */
int imp_hsum_new_chunk(struct importer *imp, struct imp_block *x);
int imp_hsum_new_thread(struct importer *imp, struct imp_desc *d);

/* An access of d at icount, inside block x, made by the run's thread
   (imp->run_thread, imp->run_t).  0 or -1. */
static inline int imp_hsum_touch(struct importer *imp, struct imp_block *x,
                                 struct imp_desc *d, uint64_t icount)
{
	struct imp_thread *t = imp->run_t;

	if (x->bc_chunk != imp->chunk_id && imp_hsum_new_chunk(imp, x) < 0)
		return -1;
	x->bc_n++;
	if (d->heap_thread != imp->run_thread && imp_hsum_new_thread(imp, d) < 0)
		return -1;
	d->heap_n++;
	if (!t->heap_n++)
		t->heap_first = icount;
	t->heap_last = icount;
	return 0;
}

/* Block x's row is being written (database lock held): its
   sum_block_chunks rows if it has IMP_BC_MIN accesses; its list freed. */
int imp_hsum_block(struct importer *imp, struct imp_block *x);

/* After the last block's row (the chunk writer stopped): sum_heap and
   sum_heap_threads.  0 or -1. */
int imp_hsum_finish(struct importer *imp);

void imp_hsum_free(struct importer *imp);

#endif
