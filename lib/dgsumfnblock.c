/* dgsumfnblock.c: the `sum_fn_block` virtual table.  See dgsumfnblock.h.
 *
 * A cursor runs two statements one after the other: the blocks with a
 * fns blob (all, or the one the plan names), each blob decoded in place
 * (SQLite's pointer stays good until the statement steps), then the rows
 * of sum_fn_block_rest.  Constraints are never omitted: SQLite checks them
 * again, so binding the value as given (whatever its type) only has to
 * find a superset.  The table is a struct dgvt_db (dgvt_db.h): its
 * schema, its statements' %w and its messages, as the accesses table's.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#ifdef DGVTAB_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#include <stdint.h>
#include <string.h>
#include "dgblockfns.h"
#include "dgsumfnblock.h"
#include "dgvt_db.h"

enum { COL_FUNCTION, COL_BLOCK, COL_IS_WRITE, COL_ACCESSES, COL_BYTES };

enum { PLAN_ALL, PLAN_BLOCK, PLAN_NO_BLOCK };   /* idxNum */

/* Per plan: the blocks to decode (NULL: none), the rest table's rows. */
static const char *const plan_sql[][2] = {
	[PLAN_ALL] = {
		"SELECT id, fns FROM \"%w\".blocks WHERE fns IS NOT NULL ORDER BY id",
		"SELECT function_id, block_id, is_write, accesses, bytes FROM \"%w\".sum_fn_block_rest" },
	[PLAN_BLOCK] = {
		"SELECT id, fns FROM \"%w\".blocks WHERE id = ?1 AND fns IS NOT NULL",
		"SELECT function_id, block_id, is_write, accesses, bytes FROM \"%w\".sum_fn_block_rest "
		"WHERE block_id = ?1" },
	[PLAN_NO_BLOCK] = {
		NULL,
		"SELECT function_id, block_id, is_write, accesses, bytes FROM \"%w\".sum_fn_block_rest "
		"WHERE block_id IS NULL" },
};

struct scur {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *blk, *rest;
	int in_rest;                 /* stepping rest (blk is done) */
	int eof;
	int64_t block, row;
	struct dgbf_dec dec;
	struct dgbf_entry e;
};

static int sfb_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                       sqlite3_vtab **out, char **err)
{
	struct dgvt_db *t;
	int rc;

	(void)aux;
	if (argc > 3) {
		*err = sqlite3_mprintf("sum_fn_block: the module takes no arguments");
		return SQLITE_ERROR;
	}
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(function_id INTEGER, block_id INTEGER, "
	                          "is_write INTEGER, accesses INTEGER, bytes INTEGER)");
	if (rc != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc(sizeof *t)))
		return SQLITE_NOMEM;
	if (dgvt_db_init(t, db, argv[1], "sum_fn_block") != SQLITE_OK) {
		sqlite3_free(t);
		return SQLITE_NOMEM;
	}
	*out = &t->base;
	return SQLITE_OK;
}

static int sfb_disconnect(sqlite3_vtab *vt)
{
	dgvt_db_free((struct dgvt_db *)vt);
	sqlite3_free(vt);
	return SQLITE_OK;
}

static int sfb_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int i, eq = -1, isnull = -1;

	(void)vt;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		if (!c->usable || c->iColumn != COL_BLOCK)
			continue;
		if (c->op == SQLITE_INDEX_CONSTRAINT_EQ)
			eq = i;
		else if (c->op == SQLITE_INDEX_CONSTRAINT_ISNULL)
			isnull = i;
	}
	if (eq >= 0) {
		info->aConstraintUsage[eq].argvIndex = 1;
		info->idxNum = PLAN_BLOCK;
		info->estimatedCost = 20;
		info->estimatedRows = 10;
	} else if (isnull >= 0) {
		info->idxNum = PLAN_NO_BLOCK;
		info->estimatedCost = 1e3;
		info->estimatedRows = 1000;
	} else {
		info->idxNum = PLAN_ALL;
		info->estimatedCost = 1e7;
		info->estimatedRows = 1000000;
	}
	return SQLITE_OK;
}

static int sfb_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct scur *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*out = &c->base;
	return SQLITE_OK;
}

static void stmts_free(struct scur *c)
{
	sqlite3_finalize(c->blk);
	sqlite3_finalize(c->rest);
	c->blk = c->rest = NULL;
}

static int sfb_close(sqlite3_vtab_cursor *cur)
{
	struct scur *c = (struct scur *)cur;

	stmts_free(c);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* The table's half of the cursor: its schema, its messages. */
static struct dgvt_db *table_of(struct scur *c)
{
	return (struct dgvt_db *)c->base.pVtab;
}

/* The next row: the current blob's next entry, else the next block's
   first, else the next row of the rest table. */
static int sfb_next(sqlite3_vtab_cursor *cur)
{
	struct scur *c = (struct scur *)cur;
	int e, rc;

	c->row++;
	while (!c->in_rest && c->blk) {
		if ((e = dgbf_next(&c->dec, &c->e)) > 0)
			return SQLITE_OK;
		if (e < 0) {
			char msg[256];

			dgbf_error(&c->dec, e, c->block, msg, sizeof msg);
			return dgvt_error(table_of(c), SQLITE_ERROR, "sum_fn_block: %s", msg);
		}
		rc = sqlite3_step(c->blk);
		if (rc == SQLITE_ROW) {
			c->block = sqlite3_column_int64(c->blk, 0);
			dgbf_begin(&c->dec, sqlite3_column_blob(c->blk, 1),
			           (size_t)sqlite3_column_bytes(c->blk, 1));
		} else if (rc == SQLITE_DONE) {
			c->in_rest = 1;
		} else {
			return dgvt_sql_error(table_of(c), "reading blocks");
		}
	}
	c->in_rest = 1;
	rc = sqlite3_step(c->rest);
	if (rc == SQLITE_DONE)
		c->eof = 1;
	else if (rc != SQLITE_ROW)
		return dgvt_sql_error(table_of(c), "reading sum_fn_block_rest");
	return SQLITE_OK;
}

/* One of the plan's statements, its argument bound. */
static int prepare(struct scur *c, const char *fmt, sqlite3_value *arg, sqlite3_stmt **st)
{
	int rc = dgvt_prepare(table_of(c), st, fmt);

	if (rc == SQLITE_OK && arg)
		sqlite3_bind_value(*st, 1, arg);
	return rc;
}

static int sfb_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str,
                      int argc, sqlite3_value **argv)
{
	struct scur *c = (struct scur *)cur;
	sqlite3_value *arg = idx_num == PLAN_BLOCK && argc >= 1 ? argv[0] : NULL;
	int rc;

	(void)idx_str;
	if (idx_num < PLAN_ALL || idx_num > PLAN_NO_BLOCK)
		idx_num = PLAN_ALL;
	stmts_free(c);
	c->eof = c->in_rest = 0;
	c->row = -1;
	c->block = 0;
	dgbf_begin(&c->dec, NULL, 0);
	if (plan_sql[idx_num][0]
	    && (rc = prepare(c, plan_sql[idx_num][0], arg, &c->blk)) != SQLITE_OK)
		return rc;
	if ((rc = prepare(c, plan_sql[idx_num][1], arg, &c->rest)) != SQLITE_OK)
		return rc;
	return sfb_next(cur);
}

static int sfb_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct scur *)cur)->eof;
}

static int sfb_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct scur *c = (struct scur *)cur;

	if (c->in_rest) {
		sqlite3_result_value(ctx, sqlite3_column_value(c->rest, col));
		return SQLITE_OK;
	}
	switch (col) {
	case COL_FUNCTION:
		if (c->e.fn)
			sqlite3_result_int64(ctx, c->e.fn);
		break;
	case COL_BLOCK:
		sqlite3_result_int64(ctx, c->block);
		break;
	case COL_IS_WRITE:
		sqlite3_result_int(ctx, c->e.is_write);
		break;
	case COL_ACCESSES:
		sqlite3_result_int64(ctx, (int64_t)c->e.accesses);
		break;
	case COL_BYTES:
		sqlite3_result_int64(ctx, (int64_t)c->e.bytes);
		break;
	}
	return SQLITE_OK;
}

static int sfb_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct scur *)cur)->row;
	return SQLITE_OK;
}

static const sqlite3_module sfb_module = {
	.iVersion = 0,
	.xCreate = sfb_connect,       /* nothing to create: the data is blocks' */
	.xConnect = sfb_connect,
	.xBestIndex = sfb_best_index,
	.xDisconnect = sfb_disconnect,
	.xDestroy = sfb_disconnect,
	.xOpen = sfb_open,
	.xClose = sfb_close,
	.xFilter = sfb_filter,
	.xNext = sfb_next,
	.xEof = sfb_eof,
	.xColumn = sfb_column,
	.xRowid = sfb_rowid,
};

int dgsumfnblock_register(sqlite3 *db, char **errmsg)
{
	int rc = sqlite3_create_module_v2(db, "dg_sum_fn_block", &sfb_module, NULL, NULL);

	if (rc != SQLITE_OK && errmsg)
		*errmsg = sqlite3_mprintf("sum_fn_block: cannot register the module: %s",
		                          sqlite3_errmsg(db));
	return rc;
}
