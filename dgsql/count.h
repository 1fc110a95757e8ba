/* count.h: dgsql's fast path for counting accesses.
 *
 * Promise: count_try answers a prepared statement whose text is exactly
 *
 *     SELECT count(*) FROM [main.]accesses [WHERE TERM [AND TERM]...] [;]
 *
 * (or FROM filtered_accesses: with no filter installed as accesses; under
 * a filter whose condition is such terms, --icount-range and
 * --addr-range, with them added; under --events user: alone (and such
 * terms), interval by interval of temp.dgf_ev_iv; under one the
 * summaries count, fn:, file:, dso: and malloc, from the filter's
 * filtered_sum_rows when the terms are on thread and is_write alone;
 * under fn:, file:, dso: otherwise, with the call-stack set as a term
 * that the table evaluates in C, terms.h),
 * each TERM
 * `COLUMN OP INTEGER` or `INTEGER OP COLUMN` with OP one of = == < <= > >=
 * and a column the table evaluates in C (icount, addr, is_write, thread,
 * context_id, block_id, chunk_id; lib/dgvtab), INTEGER decimal or 0x hex,
 * by counting with dgvtab_count instead of letting SQLite step through
 * every row (about 13 ns a row: a block of 4 * 10^8 accesses takes 5 s
 * that way, milliseconds from sum_block_chunks; whole chunks count from
 * chunks.n_accesses, those inside an icount range too, the rest run by
 * run).  The answer is a new
 * statement `SELECT N AS "<the statement's column name>"` that the caller
 * renders as it would have rendered the original, in any mode; the
 * caller finalizes it.  Any other text goes through SQLite as usual, and
 * so does `accesses` when a table or view of the user's hides it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_COUNT_H
#define DGSQL_COUNT_H

#include <sqlite3.h>

#include "dgvtab.h"

/* Whether sql has that shape (the text only; whether the name is the
   table is count_try's business): 1 with the *n terms in terms (room
   for DGVTAB_COUNT_TERMS) and *view 1 for filtered_accesses, else 0. */
int count_parse(const char *sql, struct dgvtab_term *terms, int *n, int *view);

/* 1 with *answer prepared, 0 not such a statement (nothing done), -1 an
   error with *err (sqlite3_free). */
int count_try(sqlite3_stmt *st, sqlite3_stmt **answer, char **err);

#endif
