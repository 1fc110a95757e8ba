/* vtab.h: the `accesses` virtual table, as dgsql gets it.
 *
 * Promise: dgsql_vtab_register makes `accesses` queryable on a connection:
 * it registers lib/dgvtab's module when the build has it (DG_HAVE_DGVTAB);
 * without it, it does nothing, and only databases with a real table named
 * accesses (test databases) can be queried.  Temporary, until dgvtab lands.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifndef DGSQL_VTAB_H
#define DGSQL_VTAB_H

#include <sqlite3.h>

/* 0, or -1 with *err (sqlite3_free). */
int dgsql_vtab_register(sqlite3 *db, char **err);

#endif
