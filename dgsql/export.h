/* export.h: dgsql's fast path for handing the accesses to another engine.
 *
 * Promise: export_try prints the rows of a prepared statement whose text
 * is exactly
 *
 *     SELECT * FROM [main.]accesses [LIMIT n] [;]
 *
 * (keywords in any case, any blanks between words, n a decimal integer),
 * or the same FROM filtered_accesses while no filter is installed (the
 * view is then every access: dgfilter.c's text with no condition) or
 * while its condition is terms the table takes (terms.h: fn:, file:,
 * dso: in --events, --icount-range, --addr-range), in
 * the modes list, csv, tsv and json, byte for byte as render_stmt would,
 * but decoded straight into the output buffer (dgvtab_scan and
 * render_ints) instead of row by row through SQLite's engine: about 3.5
 * times as fast (1 400 instructions a CSV row against 3 900).  Any other
 * text -- a WHERE clause, a column list, a comment, filtered_accesses
 * under another filter -- and the other modes go through SQLite as usual, and
 * so does `accesses` when a table or view of that name in main or temp
 * hides the virtual table.  The statement stays the caller's and is not
 * stepped.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_EXPORT_H
#define DGSQL_EXPORT_H

#include <stdio.h>
#include <sqlite3.h>

#include "render.h"

/* 1 printed (*nrows the rows), 0 not such a statement or mode (nothing
   printed), -1 an error with *err (sqlite3_free). */
int export_try(sqlite3_stmt *st, enum render_mode m, int headers, FILE *out,
	       long *nrows, char **err);

#endif
