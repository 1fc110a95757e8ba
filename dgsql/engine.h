/* engine.h: which engine runs a statement of a dgsql session.
 *
 * Promise: engine_try decides, for a statement SQLite has prepared, whether
 * DuckDB (duck.h) runs it: never with --engine sqlite; always with
 * --engine duckdb (its errors are the statement's); in auto, when it is
 * a query over the accesses that means the same in both (route.h),
 * DuckDB sees the tables SQLite would (no TEMP object hides one of the
 * trace's, accesses and filtered_accesses are ours), and SQLite's own
 * plan, with its values, reads more than one chunk and more than a
 * sixteenth of them: the statement is stepped once with the accesses
 * table's probe on (dgvtab.h), which decodes nothing.  When DuckDB cannot
 * open or run it, SQLite runs it (and gives the answer or the error).
 * engine_script runs a script in DuckDB's own dialect (--engine duckdb).
 *
 * Ownership: the session's DuckDB (sh->duck) is opened here on first use
 * and freed by shell_free; answers and messages are the caller's.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_ENGINE_H
#define DGSQL_ENGINE_H

#include <sqlite3.h>

#include "shellctx.h"

/* 1 with *answer (DuckDB's rows under st's column names, the caller
   renders and finalizes it), 0 for SQLite to run st, -1 an error with
   *err (--engine duckdb). */
int engine_try(struct shell *sh, sqlite3_stmt *st, char *const *args, int n,
	       sqlite3_stmt **answer, char **err);

/* duck_script on the session's DuckDB.  0, or -1 with *err. */
int engine_script(struct shell *sh, const char *sql, char *const *args, int n,
		  int (*each)(void *arg, sqlite3_stmt *answer, char **err), void *arg, char **err);

#endif
