/* dgvt_scan.h: the `accesses` table's rows without SQLite's row engine
 * — dgsql's export (every row, in batches) and count(*) fast paths.
 *
 * Promise: the same model, filter, choice of chunks and decoder as the
 * table's cursors (dgvt_cursor.h), on a table object of the call's own
 * made and freed in the call, so the rows and the errors are the table's.
 * The names keep the dgvtab_ prefix of the table's interface: callers
 * reach them through dgvtab.h, which includes this header.  Uses
 * dgvt_cursor and the modules under it, never dgvtab.c.
 *
 * Ownership: the caller owns the connection, the terms and the rows'
 * consumer; the rows handed to it are valid during the call only.  Error
 * messages are the caller's to sqlite3_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_SCAN_H
#define DGVT_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* One row of SELECT * FROM accesses, dgvtab.h's columns; block_id is
   NULL when has_block is 0. */
struct dgvtab_row {
	int64_t icount, addr, size, is_write, pc, thread, context_id;
	int64_t block_id, aseq, chunk_id, module_id;
	int has_block;
};

/* Called with the next rows (n >= 1, the array valid until it returns);
   a non-zero return stops the scan. */
typedef int dgvtab_rows_fn(void *arg, const struct dgvtab_row *rows, size_t n);

/* The rows of SELECT * FROM SCHEMA.accesses WHERE the n terms, ANDed
   (none: every row), in the table's order, at most limit of them (limit
   < 0: all), given to fn in batches without going through SQLite's row
   engine: the cursor xFilter would run for that WHERE clause (the same
   plan, chunk choice, decoder, block lookup and C evaluation of every
   term, stack_filter's too).  dgsql's export and .cache.  Returns
   SQLITE_OK (also when fn stopped the scan); SQLITE_MISUSE, with nothing
   done, when a term is not one the table evaluates itself
   (dgvtab_term_taken) or n > DGVTAB_COUNT_TERMS; else an SQLite error code
   with *errmsg (sqlite3_free) naming the chunk as the table's errors do. */
struct dgvtab_term;
int dgvtab_scan(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		int64_t limit, dgvtab_rows_fn *fn, void *arg, char **errmsg);

/* The same rows (every one, no limit, block_id NULL: no block looked up)
   from the chunks whose pick[id] is non-zero alone (id < n_pick; the
   others' data is never read; pick NULL: every chunk): a
   question that has the other chunks' answer from their summaries
   (dgplot: the chunks a call-stack filter takes whole, from their
   cells).  parity 1 or 2: of those, the chunks of even or odd ids alone
   (two threads sharing the scan, each on a connection of its own);
   0: all of them. */
int dgvtab_scan_picked(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		       const uint8_t *pick, int64_t n_pick, int parity, dgvtab_rows_fn *fn,
		       void *arg, char **errmsg);

/* dgvtab_scan_picked's rows on two threads: the chunks of even ids on
   this one into fn(arg[0], ...), those of odd ids on a helper thread into
   fn(arg[1], ...), through a read-only connection of its own on the file
   of db's schema, with the call-stack set's temp tables (a stack_filter
   term's, dgvtab.h) copied to it first.  Each thread calls fn with its
   own arg alone, and the helper is joined before the call returns.  A
   trace not worth it (dgvtab_split_worth: no file, few chunks), or a
   helper that cannot start: every row here, into arg[0].  Returns as dgvtab_scan_picked (the first
   error of the two; SQLITE_OK when fn stopped either). */
int dgvtab_scan_split(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		      const uint8_t *pick, int64_t n_pick, dgvtab_rows_fn *fn,
		      void *const arg[2], char **errmsg);

/* Whether a second thread pays for itself on the trace in db's schema:
   a file, and chunk ids up to DGVTAB_SPLIT_CHUNKS or more (a helper's
   thread, connection and model cost milliseconds: more than decoding a
   small trace, where the report's dozens of plots each paid them).
   dgvtab_scan_split asks it; so does dgplot, before it makes a helper's
   grids or page sets (its cells, its decoded accesses). */
#define DGVTAB_SPLIT_CHUNKS 64
int dgvtab_split_worth(sqlite3 *db, const char *schema);

/* The same rows, every access, with a marker row before each run's
   accesses, every run, even one without an access: aseq -1, icount the
   run's first instruction's, size its instructions executed (n_instrs),
   context_id, thread and chunk_id; the other fields 0.  For what needs
   the instruction stream (dgsql's .cache: instruction fetches; a run's
   instructions are its context's bbdef's, `instrs`). */
int dgvtab_scan_runs(sqlite3 *db, const char *schema, dgvtab_rows_fn *fn, void *arg,
		     char **errmsg);

/* A term of a WHERE clause the table takes in C: a column (dgvtab.h's
   order), an operator (SQLITE_INDEX_CONSTRAINT_EQ, _LT, _LE, _GT, _GE)
   and an integer; or stack_filter = text (column DGVTAB_STACK_COLUMN, op EQ,
   text the name P of dgvtab.h's temp.P_ctx and temp.P_pcs, the caller's
   for as long as the term is used). */
struct dgvtab_term {
	int column;
	unsigned char op;
	int64_t value;
	const char *text;
};
#define DGVTAB_COUNT_TERMS 16
/* Column numbers of terms: icount and addr lead SELECT *; stack_filter
   comes after its 11 columns. */
#define DGVTAB_ICOUNT_COLUMN 0
#define DGVTAB_ADDR_COLUMN 1
#define DGVTAB_STACK_COLUMN 11

/* Whether the table evaluates the term itself (SQLite would leave it no
   row to check). */
int dgvtab_term_taken(const struct dgvtab_term *t);

/* *count = the rows of SELECT count(*) FROM SCHEMA.accesses WHERE the n
   terms, ANDed: the same constraints, chunk choice and decoder as the
   table's cursors, counted run by run (a block with sum_block_chunks
   rows: from its counts, nothing decoded; terms on thread, chunk_id and
   icount alone: whole chunks from chunks.n_accesses, only those that
   straddle an end of the icount range decoded) without SQLite stepping
   row by row.  Returns SQLITE_OK; SQLITE_MISUSE, with nothing done, when a term
   is not one the table evaluates itself (the caller lets SQLite run the
   statement) or n > DGVTAB_COUNT_TERMS; else an SQLite error code with
   *errmsg (sqlite3_free) as the table's errors. */
int dgvtab_count(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		 int64_t *count, char **errmsg);
/* The same summed over the icount intervals [bounds[2i], bounds[2i + 1]),
   i < n_iv, each with the terms (n + 2 <= DGVTAB_COUNT_TERMS, else
   SQLITE_MISUSE): one table, its definitions loaded once for them all
   (--events user:, an interval an event). */
int dgvtab_count_in(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		    const int64_t *bounds, size_t n_iv, int64_t *count, char **errmsg);

#endif
