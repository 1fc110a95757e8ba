/* dgaccess_ext.c: the loadable SQLite extension build/lib/dgaccess.so,
 * which registers the `accesses` virtual table (lib/dgvtab.h) on the
 * connection that loads it:
 *
 *     sqlite3 trace.db '.load build/lib/dgaccess' 'SELECT count(*) FROM accesses'
 *
 * This file defines the API table pointer `sqlite3_api` (hidden, like every
 * symbol of the extension but the entry point); the copy of lib/dgvtab.c
 * compiled with -DDGVTAB_EXTENSION calls SQLite through it.  It lives in
 * lib/ext/ so that libdg.a, which programs link together with libsqlite3,
 * never holds it (lib/ext.mk).
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "dgvtab.h"

int sqlite3_dgaccess_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
	__attribute__((visibility("default")));

int sqlite3_dgaccess_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
	SQLITE_EXTENSION_INIT2(api);
	return dgvtab_register(db, errmsg);
}
