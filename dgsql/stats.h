/* stats.h: `.stats`, what a trace database contains.
 *
 * Promise: stats_print prints one "name: value" line per fact (program,
 * instructions, accesses by direction, threads, heap blocks, ranges,
 * events, modules, icount span, completeness), each from one small query
 * on the tables of schema.sql; a fact whose query fails (an older or
 * partial database) prints "?" instead of failing the command.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_STATS_H
#define DGSQL_STATS_H

#include <stdio.h>
#include <sqlite3.h>

/* 0 (the facts are printed even when some are unknown). */
int stats_print(sqlite3 *db, FILE *out, char **err);

#endif
