/* shape.h: recognizing the few statements dgsql answers without SQLite's
 * row engine (export.h's SELECT *, count.h's SELECT count(*)).
 *
 * Promise: shape_word matches one word of SQL text the way SQLite's
 * tokenizer would split it (any case, blanks before it, not the start of
 * a longer identifier); shape_table reads `[main.]accesses` or
 * `filtered_accesses`; shape_table_is_ours says whether that name is
 * really the accesses virtual table (or the view dgfilter installs with
 * no filter), not a table or view of the user's that hides it.  Nothing
 * here owns memory.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_SHAPE_H
#define DGSQL_SHAPE_H

#include <sqlite3.h>

/* The columns of SELECT * FROM accesses, in lib/dgvtab's order (its
   COL_ numbers, struct dgvtab_row). */
#define SHAPE_NCOL 11
extern const char *const shape_columns[SHAPE_NCOL];

/* Skips blanks, then the word w (any case) if it is next and ends there:
   the text after it, or NULL. */
const char *shape_word(const char *s, const char *w);

/* Reads [main.]accesses or filtered_accesses after blanks: the text after
   it (*view 1 for the view), or NULL. */
const char *shape_table(const char *s, int *view);

/* Reads the end of a statement: blanks, an optional ';', blanks, the end.
   1 if that is all that is left. */
int shape_end(const char *s);

/* No table or view named accesses in temp or main hides the virtual
   table; with view, filtered_accesses is dgfilter's view without a
   filter and nothing in main shares its name. */
int shape_table_is_ours(sqlite3 *db, int view);

#endif
