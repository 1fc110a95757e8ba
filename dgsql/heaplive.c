/* heaplive.c: a query's allocations and frees as sorted events.  See
 * heaplive.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <stdlib.h>

#include "heaplive.h"
#include "dgmem.h"

static int cmp_ev(const void *pa, const void *pb)
{
	const struct heaplive_ev *a = pa, *b = pb;

	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	return a->d < b->d ? -1 : a->d > b->d;
}

int heaplive_events(sqlite3 *db, const char *sql, const char *what,
                    struct heaplive_ev **ev, size_t *n, char **err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	*ev = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", what, sqlite3_errmsg(db));
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t size = sqlite3_column_int64(st, 2);

		if (dg_grow((void **)ev, &cap, *n + 2, sizeof **ev) < 0)
			break;
		(*ev)[(*n)++] = (struct heaplive_ev){ sqlite3_column_int64(st, 0), size };
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			(*ev)[(*n)++] = (struct heaplive_ev){ sqlite3_column_int64(st, 1), -size };
	}
	if (rc != SQLITE_DONE) {
		*err = rc == SQLITE_ROW ? sqlite3_mprintf("%s: out of memory", what)
		       : sqlite3_mprintf("%s: %s", what, sqlite3_errmsg(db));
		sqlite3_finalize(st);
		free(*ev);
		*ev = NULL;
		*n = 0;
		return -1;
	}
	sqlite3_finalize(st);
	dg_sort(*ev, *n, sizeof **ev, cmp_ev);
	return 0;
}
