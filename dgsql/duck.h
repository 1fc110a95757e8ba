/* duck.h: dgsql's columnar engine — DuckDB running a statement over the
 * trace's accesses, decoded in parallel straight from the chunks.
 *
 * Promise: a session's engine (struct duck) is an in-memory DuckDB
 * database opened on first use, in which every table and view of the
 * trace database's main schema answers to its name (a replacement scan
 * reads it through SQLite: table function dg_sqlite(name), on a
 * connection of its own), and `accesses` is the table function dg_accesses(): the rows of
 * lib/dgvtab's table, its columns in its order, decoded by lib/dgvt_par's
 * workers, one a DuckDB thread, only the columns the query reads.  No
 * trace data ever becomes SQL text: names are quoted where they are
 * spliced, values travel as values.
 *
 * duck_run runs a statement (the text as route.h rewrites it for SQLite's
 * meaning) with SQLite's integer division, NULL order and column names,
 * and hands the rows back as a statement of an in-memory SQLite database,
 * so every output mode prints them as it prints SQLite's.
 *
 * Ownership: the caller owns the trace connection; struct duck owns its
 * DuckDB database, connection, decoder model (kept for the session, as
 * the virtual table keeps its own) and the result database.  Errors are
 * messages for the caller to sqlite3_free; nothing here prints.
 *
 * Built only where DuckDB's header is (make deps: scripts/
 * install-duckdb.sh; DG_HAVE_DUCKDB); its library is loaded on first use
 * (dlopen), so a dgsql that never asks DuckDB never maps it.  Without
 * either, the first use fails with a message (--engine duckdb reports
 * it; auto keeps to SQLite) and duck_version is NULL.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_DUCK_H
#define DGSQL_DUCK_H

#include <stdint.h>
#include <sqlite3.h>

struct duck;

/* DuckDB's version when built with it, else NULL. */
const char *duck_version(void);

/* The engine for the trace database at path (a file), opened lazily: the
   first duck_run does the work.  NULL when out of memory or not built
   with DuckDB (*err says). */
struct duck *duck_open(const char *path, char **err);
void duck_free(struct duck *d);

/* Runs st's text in DuckDB, args (n) bound to ?1.. as shell.c binds them
   (integers as integers, the rest as text; missing ones NULL).  1 with
   *answer a statement that gives the rows under st's column names (the
   caller renders and finalizes it); -1 with *err when DuckDB cannot run
   it or fails. */
int duck_run(struct duck *d, sqlite3_stmt *st, char *const *args, int n,
	     sqlite3_stmt **answer, char **err);

/* Runs every statement of sql in DuckDB's own dialect (--engine duckdb),
   args bound as duck_run binds them, handing each one's rows to each
   (names DuckDB's) in turn, which returns 0 or -1 with *err; stops at the
   first error.  0, or -1 with *err. */
int duck_script(struct duck *d, const char *sql, char *const *args, int n,
		int (*each)(void *arg, sqlite3_stmt *answer, char **err), void *arg, char **err);

/* Runs sql in DuckDB for its effect (COPY ... TO: the Parquet export);
   value (if not NULL) gets the first column of the first row as an
   integer (COPY's row count), 0 if none.  0, or -1 with *err (err may
   be NULL: no message wanted). */
int duck_exec(struct duck *d, const char *sql, int64_t *value, char **err);

#endif
