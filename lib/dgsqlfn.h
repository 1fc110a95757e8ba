/* dgsqlfn.h: SQL functions for reading a trace database.
 *
 * Promise: dgsqlfn_register adds to a connection the functions that
 * dgsql's filters, canned queries and users need and SQLite lacks:
 *
 *   dg_hex(X)                 '0x...' for an integer (NULL stays NULL)
 *   dg_fn_base(NAME)          a C++ name without its argument list and
 *                             qualifiers: 'ns::C::m(int) const' -> 'ns::C::m'
 *   dg_match_fn(NAME, PAT)    1 when a function name matches a fn: pattern:
 *                             equal, equal without arguments, or (PAT with
 *                             * ? [) a glob on either form
 *   dg_match_path(PATH, PAT)  1 when PATH ends with PAT on a path component
 *                             boundary ('foo.c' matches '/src/foo.c', not
 *                             '/src/xfoo.c'), or PAT globs PATH or a suffix
 *   dg_hist(HIST, BUCKET)     table-valued: one row per non-empty bucket of
 *                             a blocks.hist blob (LEB128 pairs, schema.sql):
 *                             columns bucket, offset, reads, writes; a
 *                             malformed blob is an SQL error
 *
 * The pure helpers below are exported for C callers (the shell's
 * completion uses dgsqlfn_fn_base).  Nothing here owns the connection.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQLFN_H
#define DGSQLFN_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* Registers every function above; 0, or -1 with *errmsg (sqlite3_free). */
int dgsqlfn_register(sqlite3 *db, char **errmsg);

/* Length of the base of a function name (see dg_fn_base). */
size_t dgsqlfn_fn_base_len(const char *name);
int dgsqlfn_match_fn(const char *name, const char *pat);
int dgsqlfn_match_path(const char *path, const char *pat);
/* 1 when S contains glob characters (* ? [). */
int dgsqlfn_is_glob(const char *s);

/* The first column of the first row of SQL as an integer, or -1 when the
   statement fails or gives no row (a count, a PRAGMA). */
int64_t dgsqlfn_int(sqlite3 *db, const char *sql);

#endif
