/* dgvt_db.c: the `accesses` table object's hold on its database.  See
 * dgvt_db.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <stdarg.h>
#include <string.h>
#include "dgvt_db.h"

int dgvt_db_init(struct dgvt_db *d, sqlite3 *db, const char *schema, const char *name)
{
	memset(d, 0, sizeof *d);
	d->db = db;
	d->name = name;
	d->schema = sqlite3_mprintf("%s", schema);
	return d->schema ? SQLITE_OK : SQLITE_NOMEM;
}

void dgvt_db_free(struct dgvt_db *d)
{
	size_t i;

	for (i = 0; i < sizeof d->cache / sizeof *d->cache; i++)
		sqlite3_finalize(d->cache[i].st);
	sqlite3_free(d->schema);
	sqlite3_free(d->base.zErrMsg);
	d->base.zErrMsg = NULL;
}

/* ------------------------------------------------------------ errors */

int dgvt_error(struct dgvt_db *d, int rc, const char *fmt, ...)
{
	va_list ap;

	sqlite3_free(d->base.zErrMsg);
	va_start(ap, fmt);
	d->base.zErrMsg = sqlite3_vmprintf(fmt, ap);
	va_end(ap);
	return rc;
}

int dgvt_sql_error(struct dgvt_db *d, const char *what)
{
	return dgvt_error(d, SQLITE_ERROR, "%s: %s: %s", d->name, what,
	                  sqlite3_errmsg(d->db));
}

/* ------------------------------------------------------------ statements */

int dgvt_prepare(struct dgvt_db *d, sqlite3_stmt **st, const char *fmt)
{
	char *sql = sqlite3_mprintf(fmt, d->schema, d->schema);
	int rc;

	if (!sql)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(d->db, sql, -1, st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return dgvt_sql_error(d, "preparing a query");
	return SQLITE_OK;
}

int dgvt_cached(struct dgvt_db *d, sqlite3_stmt **st, const char *fmt)
{
	size_t i;
	int rc;

	for (i = 0; i < sizeof d->cache / sizeof *d->cache && d->cache[i].fmt; i++)
		if (d->cache[i].fmt == fmt) {
			*st = d->cache[i].st;
			sqlite3_reset(*st);
			return SQLITE_OK;
		}
	if ((rc = dgvt_prepare(d, st, fmt)) != SQLITE_OK || i == sizeof d->cache / sizeof *d->cache)
		return rc;
	d->cache[i].fmt = fmt;
	d->cache[i].st = *st;
	return SQLITE_OK;
}

void dgvt_done(struct dgvt_db *d, sqlite3_stmt *st)
{
	size_t i;

	for (i = 0; i < sizeof d->cache / sizeof *d->cache; i++)
		if (d->cache[i].st == st) {
			sqlite3_reset(st);
			return;
		}
	sqlite3_finalize(st);
}

int dgvt_query_int(struct dgvt_db *d, const char *fmt, int64_t *v)
{
	sqlite3_stmt *st;
	int rc = dgvt_prepare(d, &st, fmt);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : dgvt_sql_error(d, "querying");
	sqlite3_finalize(st);
	return rc;
}

int dgvt_have_bc(struct dgvt_db *d, int *yes)
{
	int64_t n = 0;
	int rc = SQLITE_OK;

	if (!d->has_bc) {
		rc = dgvt_query_int(d, "SELECT count(*) FROM \"%w\".sqlite_schema"
		                       " WHERE name = 'sum_block_chunks' AND type = 'table'", &n);
		if (rc == SQLITE_OK)
			d->has_bc = n ? 2 : 1;
	}
	*yes = d->has_bc == 2;
	return rc;
}

/* ------------------------------------------------------------ memory */

int dgvt_grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp;
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return SQLITE_OK;
	while (n < need)
		n *= 2;
	q = sqlite3_realloc64(*p, (sqlite3_uint64)n * elem);
	if (!q)
		return SQLITE_NOMEM;
	*p = q;
	*cap = n;
	return SQLITE_OK;
}
