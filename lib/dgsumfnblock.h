/* dgsumfnblock.h: the `sum_fn_block` virtual table (schema 14 on) —
 * accesses and bytes by function x heap block x direction, out of the
 * blocks' fns blobs and the table sum_fn_block_rest.
 *
 * Promise: after dgsumfnblock_register(db), a database made by dg-import
 * answers `SELECT ... FROM sum_fn_block` (schema.sql: CREATE VIRTUAL TABLE
 * sum_fn_block USING dg_sum_fn_block) with the rows the table of that
 * name held up to schema 13, columns in this order:
 *
 *   function_id  NULL: no function known
 *   block_id     NULL: not in a heap block
 *   is_write     0 or 1
 *   accesses, bytes
 *
 * each block's rows (from blocks.fns, lib/dgblockfns.c), blocks by id,
 * then sum_fn_block_rest's.  `block_id = X` is pushed down (one blocks row
 * by rowid and the rest table's index: a join from blocks or a correlated
 * subquery costs a lookup a block), and so is `block_id IS NULL`; anything
 * else scans.  The table reads its own schema's blocks and
 * sum_fn_block_rest, so an attached trace answers too.  Errors are SQL
 * errors: a malformed blob names the block and byte ("blocks.fns: block
 * N: byte B (FIELD): WHAT"), never a crash.
 *
 * Two builds, like dgvtab.c: into programs through libdg.a (dg-import
 * registers it to create the table), and with -DDGVTAB_EXTENSION into
 * build/lib/dgaccess.so.  dgvtab_register registers it too, so everything
 * that has `accesses` has it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSUMFNBLOCK_H
#define DGSUMFNBLOCK_H

#include <sqlite3.h>

/* Register the module `dg_sum_fn_block` on db.  Returns SQLITE_OK, or an
   SQLite error code with *errmsg (if errmsg is not NULL) set to a message
   the caller frees with sqlite3_free. */
int dgsumfnblock_register(sqlite3 *db, char **errmsg);

#endif
