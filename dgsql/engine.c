/* engine.c: which engine runs a statement.  See engine.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>

#include "duck.h"
#include "engine.h"
#include "route.h"
#include "shape.h"

/* Whether DuckDB sees the tables st names as SQLite would: accesses and
   filtered_accesses are ours (shape.h), and no TEMP table or view (which
   DuckDB does not see) hides one of the trace's. */
static int duck_sees_same(struct shell *sh)
{
	sqlite3_stmt *q = NULL;
	int hidden = 1;

	if (!shape_table_is_ours(sh->db, !sh->events && !sh->ranges))
		return 0;
	if (sqlite3_prepare_v2(sh->db, "SELECT EXISTS (SELECT 1 FROM temp.sqlite_schema"
			       " WHERE name IN (SELECT name FROM main.sqlite_schema) COLLATE NOCASE)",
			       -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		hidden = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return !hidden;
}

/* The probe's budget: a statement whose other tables take longer than
   this to go through (2 x 10^6 VM steps) is not a narrow one. */
static int probe_budget(void *arg)
{
	return ++*(int *)arg > 2000;
}

/* Whether SQLite's own plan for st, with its values, reads a small part
   of the trace: st is stepped once with the table's probe on (dgvtab.h:
   cursors count the chunks they would read and give no row), then reset.
   Small: at most 1/16 of the chunks, or one, where SQLite's row engine
   (some 10^7 rows a second) beats DuckDB decoding them all (some 10^8).
   An error is not small: DuckDB fails too, and SQLite then reports it. */
static int sqlite_reads_little(struct shell *sh, sqlite3_stmt *st)
{
	int steps = 0, rc;

	if (sh->n_chunks < 0) {
		sqlite3_stmt *q = NULL;
		sh->n_chunks = 0;
		if (sqlite3_prepare_v2(sh->db, "SELECT count(*) FROM main.chunks", -1, &q, NULL) == SQLITE_OK
		    && sqlite3_step(q) == SQLITE_ROW)
			sh->n_chunks = sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	sh->probe.on = 1;
	sh->probe.chunks = 0;
	sqlite3_progress_handler(sh->db, 1000, probe_budget, &steps);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_progress_handler(sh->db, 0, NULL, NULL);
	sh->probe.on = 0;
	sqlite3_reset(st);
	return rc == SQLITE_DONE && (sh->probe.chunks <= 1 || sh->probe.chunks <= sh->n_chunks / 16);
}

int engine_try(struct shell *sh, sqlite3_stmt *st, char *const *args, int n,
	       sqlite3_stmt **answer, char **err)
{
	int forced = sh->engine == ENGINE_DUCKDB;
	char *msg = NULL;

	if (sh->engine == ENGINE_SQLITE || !sh->db_path || (!forced && sh->duck_broken))
		return 0;
	if (!forced && (!sqlite3_stmt_readonly(st)
			|| route_query(sqlite3_sql(st), sh->events || sh->ranges) != ROUTE_DUCKDB
			|| !duck_sees_same(sh) || sqlite_reads_little(sh, st)))
		return 0;
	if (!sh->duck && !(sh->duck = duck_open(sh->db_path, &msg))) {
		sh->duck_broken = 1;
		if (forced)
			return *err = msg, -1;
		sqlite3_free(msg);
		return 0;
	}
	if (duck_run(sh->duck, st, args, n, answer, &msg) < 0) {
		if (forced)
			return *err = msg, -1;
		sqlite3_free(msg);      /* SQLite gives the answer, or the error */
		return 0;
	}
	return 1;
}

int engine_script(struct shell *sh, const char *sql, char *const *args, int n,
		  int (*each)(void *arg, sqlite3_stmt *answer, char **err), void *arg, char **err)
{
	if (!sh->db_path) {
		*err = sqlite3_mprintf("--engine duckdb: the database is not a file");
		return -1;
	}
	if (!sh->duck && !(sh->duck = duck_open(sh->db_path, err)))
		return -1;
	return duck_script(sh->duck, sql, args, n, each, arg, err);
}
