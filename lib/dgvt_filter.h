/* dgvt_filter.h: what an `accesses` cursor lets through — the
 * constraints of xFilter's arguments as bounds and sets that the decoder
 * and the choice of chunks apply.
 *
 * Promise: dgvt_filter_build reads the arguments as the plan names them
 * (dgvt_plan.h) and compares as SQLite compares an INTEGER column
 * (numeric text converted, a number below any text, NULL matching
 * nothing), so that the rows it lets through are exactly those SQLite
 * would keep: icount, addr and chunk_id become closed ranges; is_write,
 * thread and block_id single values (two different ones: empty);
 * context_id a bitmap over the model's contexts (= or IN, intersected
 * when repeated); stack_filter = P the contexts of temp.P_ctx with, for
 * those not whole, a flag per descriptor from temp.P_pcs (dgvtab.h);
 * block_id = X also X's address range and lifetime from the blocks
 * table, and whether X has sum_block_chunks rows.  `empty` set: no row
 * can match.  Uses dgvt_db, dgvt_model (the context and descriptor
 * counts) and dgvt_plan (the column numbers).
 *
 * Ownership: the filter owns its three arrays, kept across builds (a
 * cursor's xFilter runs once per outer row of a join) and released by
 * dgvt_filter_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_FILTER_H
#define DGVT_FILTER_H

#include <stdint.h>
#include <sqlite3.h>

#include "dgvt_model.h"

/* Blocks with at least this many accesses have sum_block_chunks rows
   (schema.sql; dg-import's IMP_BC_MIN), each counting 1 to DGVT_BC_MAX (a
   chunk's most accesses, dg-import's IMP_CHUNK_MAX): a larger count is a
   tampered database, refused rather than counted out row by row. */
#define DGVT_BC_MIN 65536
#define DGVT_BC_MAX 65536

struct dgvt_filter {
	int64_t ic_lo, ic_hi, a_lo, a_hi, ch_lo, ch_hi;
	int64_t thread, block;
	int has_thread, has_block, has_ctx, is_write, empty;
	int block_summed;       /* the block has sum_block_chunks rows */
	uint8_t *ctx_set;       /* bitmap over contexts when has_ctx */
	int has_stack;          /* stack_filter = P (dgvtab.h) */
	int open;               /* no constraint on an access but its chunk
	                           and context: every one that happened passes */
	uint8_t *whole_set;     /* contexts whose accesses all pass */
	uint8_t *desc_ok;       /* per descriptor: its pc is in P_pcs */
};

/* f from xFilter's argc arguments as plan (idxStr) names them, with t's
   model loaded; then block_id's ranges from the blocks table. */
int dgvt_filter_build(struct dgvt *t, struct dgvt_filter *f, const char *plan,
		      int argc, sqlite3_value **argv);
/* What f owns (not f itself). */
void dgvt_filter_free(struct dgvt_filter *f);

#endif
