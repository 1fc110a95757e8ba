/* dgvt_db.h: the `accesses` table object's hold on its database — the
 * lowest layer of the table (lib/dgvtab.h says what the table promises).
 *
 * Promise: errors are put in the sqlite3_vtab's zErrMsg, where SQLite
 * (or dgvtab_scan and dgvtab_count, which run no statement) read them; the
 * statements are prepared on the table's schema ("%w" in a statement's
 * text is replaced by it), and those xFilter runs each time are prepared
 * once a table and cached by their text.  Calls nothing of the other
 * dgvt_ modules.
 *
 * Ownership: struct dgvt_db owns its schema string, its cached
 * statements and its error message; dgvt_db_free releases them, not the
 * object itself (it is embedded in struct dgvt, dgvt_model.h).  The
 * connection is the caller's.
 *
 * Two builds, as lib/dgvtab.c: with -DDGVTAB_EXTENSION, calls to SQLite
 * go through the host's API table (lib/ext.mk).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGVT_DB_H
#define DGVT_DB_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

struct dgvt_db {
	sqlite3_vtab base;      /* first: SQLite's handle on the table */
	sqlite3 *db;
	char *schema;
	const char *name;       /* the table's, first word of its messages */
	struct {                /* statements xFilter runs, by their text */
		const char *fmt;
		sqlite3_stmt *st;
	} cache[12];
	int has_bc;             /* sum_block_chunks: 0 not looked, 1 no, 2 yes */
};

/* d, zeroed, on db's schema, for the table called name in messages (a
   string that outlives d); SQLITE_NOMEM when the schema's name cannot be
   copied (d then owns nothing). */
int dgvt_db_init(struct dgvt_db *d, sqlite3 *db, const char *schema, const char *name);
/* What d owns (not d itself). */
void dgvt_db_free(struct dgvt_db *d);

/* The error message of d from fmt (sqlite3_mprintf's); returns rc. */
int dgvt_error(struct dgvt_db *d, int rc, const char *fmt, ...);
/* An error of an SQL statement the table ran while doing `what`:
   "NAME: WHAT: SQLite's message". */
int dgvt_sql_error(struct dgvt_db *d, const char *what);

/* Prepare fmt, each %w in it (at most two) replaced by the schema. */
int dgvt_prepare(struct dgvt_db *d, sqlite3_stmt **st, const char *fmt);
/* A statement run to its end each time, prepared once per table (a
   nested-loop join calls xFilter once per outer row), keyed by the
   address of fmt; hand it back with dgvt_done. */
int dgvt_cached(struct dgvt_db *d, sqlite3_stmt **st, const char *fmt);
void dgvt_done(struct dgvt_db *d, sqlite3_stmt *st);

/* One value of a query (fmt as dgvt_prepare's): a max id, a count. */
int dgvt_query_int(struct dgvt_db *d, const char *fmt, int64_t *v);
/* Whether the database has the table sum_block_chunks (asked once). */
int dgvt_have_bc(struct dgvt_db *d, int *yes);

/* Make the sqlite3_malloc'd array *pp (elements of elem bytes, capacity
   *cap) hold need, doubling: SQLITE_OK or SQLITE_NOMEM. */
int dgvt_grow(void *pp, size_t *cap, size_t need, size_t elem);

#endif
