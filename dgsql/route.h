/* route.h: which engine a statement's text is for, and the text DuckDB
 * runs for SQLite's answer.
 *
 * Promise: route_query reads SQL text as SQLite's tokenizer splits it
 * (words, "quoted" [bracketed] `quoted` names, 'strings', numbers, -- and
 * block comments) and says whether DuckDB may run it: one query (SELECT or
 * WITH) that reads accesses, or filtered_accesses while no filter is set,
 * and calls only functions whose meaning is the same in both engines on a
 * trace's values (count, sum, avg, min and max of one argument, abs,
 * coalesce, ifnull, nullif, lower, upper, length, substr, replace, trim,
 * ltrim, rtrim, instr, round, cast).  route_rewrite gives the text DuckDB
 * runs for SQLite's answer: LIKE as ILIKE (SQLite's ignores ASCII case)
 * and a top-level GROUP BY without ORDER BY ordered by its terms (SQLite
 * gives the groups in that order).  Any text is safe to give: nothing
 * here reads past its NUL.
 *
 * Ownership: route_rewrite's text is the caller's to sqlite3_free.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_ROUTE_H
#define DGSQL_ROUTE_H

enum route_verdict {
	ROUTE_SQLITE,           /* it does not read the accesses */
	ROUTE_DUCKDB,
	ROUTE_UNSAFE            /* reads them, but SQLite must run it: a
	                           function or form whose meaning differs */
};

/* filtered: a filter is set (filtered_accesses is not all accesses). */
enum route_verdict route_query(const char *sql, int filtered);

/* NULL when out of memory. */
char *route_rewrite(const char *sql);

#endif
