/* modules.h: `.modules`, how well each module of a trace is symbolized.
 *
 * Promise: modules_print prints, in the shell's output mode, one row per
 * module with code in the trace, most accessed first: its path, its
 * accesses, how many of them are named by debug information, by a symbol
 * table, by an entry address ("0x10ee88"), and unnamed; where its names
 * came from (modules.symbols_from) and what would improve them (the
 * problem, then the advice).  Accesses outside any module count under "?".
 * It runs its query through the session's sh->ops->exec (shellctx.h), as
 * any SQL the user types.
 *
 * Ownership: nothing kept; the query texts are static.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_MODULES_H
#define DGSQL_MODULES_H

struct shell;

/* 0, or -1 with *err (a database older than schema 4, for one). */
int modules_print(struct shell *sh, char **err);

/* The `.stats` line's query: one value, "N% debug info, N% symbol table,
 * N% entry address, N% unnamed" of all accesses. */
extern const char modules_stats_sql[];

#endif /* DGSQL_MODULES_H */
