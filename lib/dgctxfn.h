/* dgctxfn.h: context_chunks' rows for SQL — the functions dg_chunks and
 * dg_chunk_in.
 *
 * Promise: after dgctxfn_register(db),
 *   dg_chunks(chunk_lo, chunk_hi, data)        the row's chunk ids, as a
 *                                              JSON array ("[3,7,8]")
 *   dg_chunk_in(chunk_lo, chunk_hi, data, id)  1 if id is one of them, else 0
 * decode a context_chunks row (schema/schema.sql) through lib/dgctxch.c.
 * A malformed row is an SQL error "context_chunks: ...: byte B: WHAT",
 * never a crash.  Both are deterministic and innocuous.  dgvtab_register
 * registers them, so every program and the extension that has `accesses`
 * has them.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGCTXFN_H
#define DGCTXFN_H

#include <sqlite3.h>

/* SQLITE_OK, or an SQLite error code with *errmsg (if not NULL) set to a
   message the caller frees with sqlite3_free. */
int dgctxfn_register(sqlite3 *db, char **errmsg);

#endif
