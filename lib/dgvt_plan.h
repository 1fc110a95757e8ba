/* dgvt_plan.h: planning the `accesses` table's queries (xBestIndex) —
 * which constraints the table takes, and the plan xFilter gets.
 *
 * Promise: dgvt_best_index takes every constraint the table evaluates
 * exactly itself (lib/dgvtab.h lists them), sets omit so that SQLite does
 * not check them again, consumes an ascending ORDER BY chunk_id, icount,
 * aseq prefix, and estimates the cost from the part of the trace the
 * constraints leave.  The plan is idxStr, two characters per argument of
 * xFilter: the column ('0' + enum dgvt_col) then the operator ('=', '<',
 * 'l' <=, '>', 'g' >=, 'I' an IN list of context_id), so that xFilter
 * needs no other state; and idxNum, the DGVT_PLAN_ bits.  Reads no data:
 * depends on nothing but SQLite's types.
 *
 * Ownership: idxStr is sqlite3_malloc'd and SQLite frees it
 * (needToFreeIdxStr); nothing else is allocated.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_PLAN_H
#define DGVT_PLAN_H

#include <sqlite3.h>

/* The table's columns, in the order of its declaration (dgvtab.c). */
enum dgvt_col {
	DGVT_COL_ICOUNT, DGVT_COL_ADDR, DGVT_COL_SIZE, DGVT_COL_IS_WRITE,
	DGVT_COL_PC, DGVT_COL_THREAD, DGVT_COL_CONTEXT, DGVT_COL_BLOCK,
	DGVT_COL_ASEQ, DGVT_COL_CHUNK, DGVT_COL_MODULE, DGVT_COL_STACK,
	DGVT_N_COLS
};

/* xBestIndex's idxNum bits. */
enum {
	DGVT_PLAN_BLOCKS = 1,           /* block_id is read or constrained */
	DGVT_PLAN_NO_COLUMNS = 2        /* no column but block_id is used at all */
};

/* xBestIndex. */
int dgvt_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info);

/* The plan's character for an SQLITE_INDEX_CONSTRAINT_ operator; 0 for
   an operator the table does not take. */
char dgvt_op_char(unsigned char op);
/* Whether the table takes the constraint itself. */
int dgvt_usable(const struct sqlite3_index_constraint *c);
/* The plan's idxNum from the columns the statement uses (SQLite's
   colUsed: those of the WHERE clause too). */
int dgvt_plan_idx_num(sqlite3_uint64 used);

#endif
