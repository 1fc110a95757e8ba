/* render.h: printing the rows of a statement in dgsql's output modes.
 *
 * Promise: render_stmt steps a prepared statement to its end and prints
 * every row to `out` in one of the modes below, with column names when
 * `headers` is set, like the sqlite3 shell's modes of the same names
 * (NULL prints as the empty string):
 *
 *   list    values separated by '|'                 (sqlite3's default)
 *   table   boxed with +---+ rules, numbers right-aligned
 *   column  aligned columns, a dashed rule under the headers
 *   csv     RFC 4180 quoting, one row per line
 *   tsv     tab-separated, no quoting
 *   json    one JSON array of objects, one object per line
 *   line    one "name = value" line per column, rows separated by a blank
 *
 * Values come from the trace (labels, paths, symbol names) and may hold
 * any bytes.  The modes read on a terminal (list, table, column, tsv,
 * line) print them and column names through dgesc_text: controls and
 * invalid UTF-8 as \xHH, a backslash as \\ (as dg-dump does), so nothing
 * reaches the terminal raw; widths count characters.  csv and json keep
 * the bytes: csv quotes fields with , " CR LF or edge blanks; json writes
 * controls as \u00XX and bytes outside valid UTF-8 as \udcXX (PEP 383).
 *
 * table and column buffer the whole result to size the columns; the others
 * stream.  The statement stays owned by the caller (not finalized).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_RENDER_H
#define DGSQL_RENDER_H

#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>

enum render_mode {
	RENDER_LIST, RENDER_TABLE, RENDER_COLUMN, RENDER_CSV, RENDER_TSV,
	RENDER_JSON, RENDER_LINE, RENDER_NMODES
};

/* The mode named NAME, or -1. */
int render_mode_by_name(const char *name);
const char *render_mode_name(enum render_mode m);

/* Steps st to the end; returns SQLITE_DONE, or the failing step's code
   (the message is the connection's).  *nrows gets the rows printed. */
int render_stmt(sqlite3_stmt *st, enum render_mode mode, int headers,
		FILE *out, long *nrows);

/* Rows whose cells are all integers or NULL, printed without a statement
 * exactly as render_stmt prints the same values under the same column
 * names (dgsql's export fast path, export.h): begin, one call per row
 * (null[i] set: cell i is NULL), end.  Only the streaming modes that take
 * one line or object per row: render_ints_mode says which.  names (ncol
 * of them) stay the caller's until the end.  begin returns NULL when out
 * of memory; row and end return 0, or -1 when out of memory; end frees r
 * and gives the rows printed. */
struct render_ints;
int render_ints_mode(enum render_mode m);
struct render_ints *render_ints_begin(enum render_mode m, int headers, FILE *out,
				      const char *const *names, int ncol);
int render_ints_row(struct render_ints *r, const int64_t *v,
		    const unsigned char *null);
int render_ints_end(struct render_ints *r, long *nrows);

#endif
