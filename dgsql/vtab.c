/* vtab.c: see vtab.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "vtab.h"

#ifdef DG_HAVE_DGVTAB
#include "dgvtab.h"

int dgsql_vtab_register(sqlite3 *db, char **err)
{
	return dgvtab_register(db, err) == 0 ? 0 : -1;
}
#else
int dgsql_vtab_register(sqlite3 *db, char **err)
{
	(void)db;
	(void)err;
	return 0;
}
#endif
