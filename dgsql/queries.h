/* queries.h: the canned queries, queries/NAME.sql.
 *
 * Promise: queries_find_dir locates the directory of query files: the
 * environment's DGSQL_QUERIES, else beside the executable in the build
 * tree (bin/../../queries), else the installed PREFIX/share/datagrind/
 * queries (bin/../share/datagrind/queries, then the compiled-in
 * DGSQL_QUERYDIR).  A query file starts with "--" comment lines; the first
 * says what it answers (shown by .queries), the others its parameters.
 *
 * Ownership: returned strings are malloc'd and the caller's (free).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_QUERIES_H
#define DGSQL_QUERIES_H

#include <stdio.h>

/* The directory, or NULL when none exists. */
char *queries_find_dir(void);

/* Prints "NAME  first comment line" per query.  0, or -1 with *err. */
int queries_list(const char *dir, FILE *out, char **err);

/* The text of query NAME, or NULL with *err (sqlite3_free). */
char *queries_load(const char *dir, const char *name, char **err);

#endif
