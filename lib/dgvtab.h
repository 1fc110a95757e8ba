/* dgvtab.h: the `accesses` virtual table — every access of a trace
 * database as a row, decoded on the fly from `chunks`.
 *
 * Promise: after dgvtab_register(db), `SELECT ... FROM accesses` works on a
 * database made by dg-import (schema/schema.sql) with no CREATE VIRTUAL
 * TABLE in the file (an eponymous table of the "main" schema); `CREATE
 * VIRTUAL TABLE x USING accesses` works too, and reads the tables of the
 * schema it is created in.  Columns, in this order:
 *
 *   icount      instruction count of the accessing instruction
 *   addr        address (as a signed 64-bit INTEGER, like the schema)
 *   size        bytes
 *   is_write    0 read, 1 write
 *   pc          address of the accessing instruction
 *   thread      Valgrind thread id
 *   context_id  contexts.id of the run
 *   block_id    blocks.id of the heap block holding addr at icount
 *               (addr in [addr, addr+size), alloc_icount <= icount <
 *               free_icount or free_icount NULL), NULL if none.  When
 *               blocks nest (VALGRIND_MALLOCLIKE_BLOCK inside a malloc'd
 *               pool) the innermost one: highest start address, then the
 *               latest allocated
 *   aseq        index of the access in its bbdef (access_descs.aseq)
 *   chunk_id    chunks.id holding it
 *   module_id   the module mapped at pc when the access was made
 *               (access_descs.module_id; 0: none): join pcs and sum_pc on
 *               (pc, module_id), as a library dlclose'd and another mapped
 *               at its address share pcs
 *   stack_filter  HIDDEN (not in SELECT *), always NULL; only for the
 *               constraint stack_filter = 'P': the rows whose context is
 *               in the TEMP table P_ctx(id, whole) and, for contexts
 *               whose whole is 0, whose (pc, module_id) is in the TEMP
 *               table P_pcs(pc, module_id).  Evaluated in C per access (dgfilter.c's
 *               call-stack filters use it, with P = dgf_ev), and only the
 *               chunks holding those contexts are decoded
 *
 * Rows come in execution order (chunk id, then run, then aseq), which is
 * icount order; ORDER BY icount [, aseq] or chunk_id [, icount [, aseq]]
 * ascending costs nothing.  Guarded accesses that did not happen (address
 * 0, access_descs.flags bit 0) are not rows.  rowid is chunk_id << 32 | the
 * access's index in its chunk: stable across queries.
 *
 * Constraints pushed down, each applied exactly (so SQLite does not check
 * them again): icount =, <, <=, >, >= (chunks chosen through chunks_icount);
 * addr the same (chunks through chunk_regions when the range spans at most
 * 4096 regions and starts at or above 0, else by chunks.addr_lo/addr_hi);
 * thread =; context_id = and IN (through chunk_contexts); block_id =
 * (turned into the block's address and lifetime ranges, and for a block
 * with sum_block_chunks rows, its chunks alone; a plan that reads no
 * other column, as SELECT count(*), then gives that table's counts as
 * rows without decoding, and decodes from where it stands only if SQLite
 * asks for a rowid); chunk_id =, <,
 * <=, >, >=; is_write =; stack_filter =.  When several ways to choose chunks apply, the
 * one with the fewest chunks (counted in the indexes) is taken.
 *
 * Memory and lifetime: on first use, each table object (one per connection
 * for the eponymous table) loads contexts, bbdefs and access_descs into
 * memory, and blocks too when block_id is read or constrained; that copy is
 * kept until the connection closes: a connection that rewrites those
 * tables after querying `accesses` must reopen to see the change.  Each
 * cursor owns its own decoder state, so self-joins work.
 *
 * Errors are SQL errors with a message starting "accesses: ": missing
 * tables, inconsistent definitions, and malformed chunk blobs (naming the
 * chunk id and run), never a crash.
 *
 * Two builds of this one file.  Linked into programs (libdg.a, dgsql), it
 * calls the sqlite3_* functions of the libsqlite3 the program links.
 * Compiled with -DDGVTAB_EXTENSION (lib/ext.mk, for build/lib/dgaccess.so)
 * it includes sqlite3ext.h and calls SQLite through the host's API table
 * `sqlite3_api`, which lib/ext/dgaccess_ext.c defines and fills; the
 * extension never links libsqlite3.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVTAB_H
#define DGVTAB_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* Register the module `accesses` on db.  Returns SQLITE_OK, or an SQLite
   error code with *errmsg (if errmsg is not NULL) set to a message that the
   caller frees with sqlite3_free. */
int dgvtab_register(sqlite3 *db, char **errmsg);

/* One row of SELECT * FROM accesses, the columns above; block_id is
   NULL when has_block is 0. */
struct dgvtab_row {
	int64_t icount, addr, size, is_write, pc, thread, context_id;
	int64_t block_id, aseq, chunk_id, module_id;
	int has_block;
};

/* Called with the next rows (n >= 1, the array valid until it returns);
   a non-zero return stops the scan. */
typedef int dgvtab_rows_fn(void *arg, const struct dgvtab_row *rows, size_t n);

/* The rows of SELECT * FROM SCHEMA.accesses, in the table's order, at most
   limit of them (limit < 0: all), given to fn in batches without going
   through SQLite's row engine: the same decoder, model and block lookup
   as the table's cursors, with no constraint (dgsql's export fast path).
   Returns SQLITE_OK (also when fn stopped the scan), or an SQLite error
   code with *errmsg (sqlite3_free) naming the chunk as the table's
   errors do. */
int dgvtab_scan(sqlite3 *db, const char *schema, int64_t limit,
		dgvtab_rows_fn *fn, void *arg, char **errmsg);

/* A term of a WHERE clause the table takes in C: a column (the order
   above), an operator (SQLITE_INDEX_CONSTRAINT_EQ, _LT, _LE, _GT, _GE) and
   an integer. */
struct dgvtab_term {
	int column;
	unsigned char op;
	int64_t value;
};
#define DGVTAB_COUNT_TERMS 16

/* Whether the table evaluates the term itself (SQLite would leave it no
   row to check). */
int dgvtab_term_taken(const struct dgvtab_term *t);

/* *count = the rows of SELECT count(*) FROM SCHEMA.accesses WHERE the n
   terms, ANDed: the same constraints, chunk choice and decoder as the
   table's cursors, counted run by run (a block with sum_block_chunks
   rows: from its counts, nothing decoded) without SQLite stepping row by
   row.  Returns SQLITE_OK; SQLITE_MISUSE, with nothing done, when a term
   is not one the table evaluates itself (the caller lets SQLite run the
   statement) or n > DGVTAB_COUNT_TERMS; else an SQLite error code with
   *errmsg (sqlite3_free) as the table's errors. */
int dgvtab_count(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		 int64_t *count, char **errmsg);

#endif
