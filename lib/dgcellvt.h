/* dgcellvt.h: the `chunk_cells_v` virtual table — the rows of chunk_cells'
 * blobs (a chunk's accesses by 256-byte cell, schema/schema.sql) for SQL.
 *
 * Promise: after dgcellvt_register(db), `SELECT ... FROM chunk_cells_v`
 * works on a database made by dg-import (schema version 8 on) with nothing
 * created in the file (an eponymous-only table of the schema it is named
 * in).  Columns, in this order:
 *
 *   chunk_id  chunks.id
 *   cell      addr >> 8 of the accesses counted
 *   reads     accesses with is_write 0 that start in the cell
 *   writes    with is_write 1
 *
 * one row per cell with accesses, in (chunk_id, cell) order, which ORDER
 * BY chunk_id [, cell] ascending uses for free.  chunk_id =, <, <=, >, >=
 * are pushed down and decode only those chunks.  Each cursor decodes one
 * blob at a time with lib/dgcells.c and allocates nothing per row.
 *
 * Errors are SQL errors starting "chunk_cells_v: ": a missing or old-style
 * chunk_cells table (version 7 kept a row per cell there: query it
 * directly), and malformed blobs (naming the chunk id and byte offset),
 * never a crash.
 *
 * Two builds, like dgvtab.c: into programs through libdg.a, and with
 * -DDGVTAB_EXTENSION into build/lib/dgaccess.so (lib/ext.mk).  dgvtab_register
 * registers this table too, so everything that has `accesses` has it.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCELLVT_H
#define DGCELLVT_H

#include <sqlite3.h>

/* Register the module `chunk_cells_v` on db.  Returns SQLITE_OK, or an
   SQLite error code with *errmsg (if errmsg is not NULL) set to a message
   the caller frees with sqlite3_free. */
int dgcellvt_register(sqlite3 *db, char **errmsg);

#endif
