/* dgstacks.c: the call stacks of a trace database.  See dgstacks.h.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include "dgstacks.h"

#include <string.h>

int dgstacks_is_tree(sqlite3 *db)
{
	sqlite3_stmt *st;
	int tree = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.sqlite_schema WHERE "
			       "type = 'table' AND name = 'callsites'", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	tree = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return tree;
}

/* The view's walk (schema.sql's stack_frames): from the leaf, each parent
   whose depth is below its child's. */
char *dgstacks_with_frame_sql(sqlite3 *db, const char *pcs, int min_depth)
{
	if (!dgstacks_is_tree(db))
		return sqlite3_mprintf("SELECT stack_id FROM stack_frames WHERE "
			"depth >= %d AND (pc, module_id) IN (SELECT pc, module_id "
			"FROM %s)", min_depth, pcs);
	/* the nodes of the set (m), the nodes under them (d: with them at
	   depth 0, from their children on at depth 1), the stacks ending
	   there (stacks_callsite).  A node under two of the set comes twice,
	   which IN does not mind; a child deeper than its parent only, as in
	   the view, so a damaged tree cannot loop. */
	return sqlite3_mprintf("WITH RECURSIVE dgs_m(id, depth) AS (SELECT id, "
		"depth FROM callsites WHERE (pc, module_id) IN (SELECT pc, "
		"module_id FROM %s)), dgs_d(id, depth) AS (%s UNION ALL SELECT "
		"c.id, c.depth FROM callsites c JOIN dgs_d ON c.parent_id = "
		"dgs_d.id WHERE c.depth > dgs_d.depth) SELECT id FROM stacks "
		"WHERE callsite_id IN (SELECT id FROM dgs_d)", pcs,
		min_depth ? "SELECT c.id, c.depth FROM callsites c JOIN dgs_m "
			    "ON c.parent_id = dgs_m.id WHERE c.depth > dgs_m.depth"
			  : "SELECT id, depth FROM dgs_m");
}

/* ---------------------------------------------------------- dg_frames */

enum { F_DEPTH, F_PC, F_MODULE, F_STACK };

struct fvt {
	sqlite3_vtab base;
	sqlite3 *db;
	int tree;               /* -1: not known yet */
	sqlite3_stmt *leaf;     /* tree: the stack's leaf */
	sqlite3_stmt *up;       /* tree: a node, if above its child */
	sqlite3_stmt *rows;     /* schema 9 and older: stack_frames' rows */
};

struct fcur {
	sqlite3_vtab_cursor base;
	sqlite3_int64 stack;
	sqlite3_int64 *v;       /* depth, pc, module_id a frame */
	int n, cap, k;
};

static int f_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		     sqlite3_vtab **vt, char **err)
{
	struct fvt *t;
	int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(depth, pc, "
				      "module_id, stack_id HIDDEN)");

	(void)aux;
	(void)argc;
	(void)argv;
	(void)err;
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->db = db;
	t->tree = -1;
	*vt = &t->base;
	return SQLITE_OK;
}

static int f_disconnect(sqlite3_vtab *vt)
{
	struct fvt *t = (struct fvt *)vt;

	sqlite3_finalize(t->leaf);
	sqlite3_finalize(t->up);
	sqlite3_finalize(t->rows);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* stack_id must be given, as an equality; rows come in depth order. */
static int f_best_index(sqlite3_vtab *vt, sqlite3_index_info *ii)
{
	int i, have = 0;

	for (i = 0; i < ii->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &ii->aConstraint[i];

		if (c->iColumn != F_STACK || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
			continue;
		if (!c->usable)
			return SQLITE_CONSTRAINT;
		ii->aConstraintUsage[i].argvIndex = 1;
		ii->aConstraintUsage[i].omit = 1;
		have = 1;
	}
	if (!have) {
		sqlite3_free(vt->zErrMsg);
		vt->zErrMsg = sqlite3_mprintf("dg_frames: usage: dg_frames(stack_id)");
		return SQLITE_ERROR;
	}
	if (ii->nOrderBy == 1 && ii->aOrderBy[0].iColumn == F_DEPTH
	    && !ii->aOrderBy[0].desc)
		ii->orderByConsumed = 1;
	ii->estimatedCost = 20;
	ii->estimatedRows = 20;
	return SQLITE_OK;
}

static int f_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **cur)
{
	struct fcur *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*cur = &c->base;
	return SQLITE_OK;
}

static int f_close(sqlite3_vtab_cursor *cur)
{
	struct fcur *c = (struct fcur *)cur;

	sqlite3_free(c->v);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int f_push(struct fcur *c, sqlite3_int64 depth, sqlite3_int64 pc,
		  sqlite3_int64 module)
{
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 32;
		sqlite3_int64 *v = sqlite3_realloc64(c->v, 3 * sizeof *v * (sqlite3_uint64)cap);

		if (!v)
			return SQLITE_NOMEM;
		c->v = v;
		c->cap = cap;
	}
	c->v[3 * c->n] = depth;
	c->v[3 * c->n + 1] = pc;
	c->v[3 * c->n + 2] = module;
	c->n++;
	return SQLITE_OK;
}

static int f_prepare(struct fvt *t, sqlite3_stmt **st, const char *sql)
{
	if (*st)
		return SQLITE_OK;
	if (sqlite3_prepare_v3(t->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
			       NULL) == SQLITE_OK)
		return SQLITE_OK;
	sqlite3_free(t->base.zErrMsg);
	t->base.zErrMsg = sqlite3_mprintf("dg_frames: %s", sqlite3_errmsg(t->db));
	return SQLITE_ERROR;
}

/* Schema 10: the leaf, then each parent whose depth is below its child's
   (?3 for the leaf: no child). */
static int f_walk(struct fvt *t, struct fcur *c)
{
	sqlite3_int64 node;
	int rc, k;

	if ((rc = f_prepare(t, &t->leaf, "SELECT callsite_id FROM main.stacks "
			    "WHERE id = ?1")) != SQLITE_OK
	    || (rc = f_prepare(t, &t->up, "SELECT parent_id, pc, module_id, "
				"depth FROM main.callsites WHERE id = ?1 AND "
				"(?3 OR depth < ?2)")) != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(t->leaf, 1, c->stack);
	rc = sqlite3_step(t->leaf);
	if (rc != SQLITE_ROW || sqlite3_column_type(t->leaf, 0) == SQLITE_NULL) {
		sqlite3_reset(t->leaf);
		return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	node = sqlite3_column_int64(t->leaf, 0);
	sqlite3_reset(t->leaf);
	sqlite3_bind_int(t->up, 3, 1);
	for (k = 0;; k++) {
		sqlite3_value *depth;
		int root;

		sqlite3_bind_int64(t->up, 1, node);
		if ((rc = sqlite3_step(t->up)) != SQLITE_ROW)
			break;
		if ((rc = f_push(c, k, sqlite3_column_int64(t->up, 1),
				 sqlite3_column_int64(t->up, 2))) != SQLITE_OK)
			break;
		root = sqlite3_column_type(t->up, 0) == SQLITE_NULL;
		node = sqlite3_column_int64(t->up, 0);
		depth = sqlite3_value_dup(sqlite3_column_value(t->up, 3));
		sqlite3_reset(t->up);
		if (root || !depth) {
			sqlite3_value_free(depth);
			rc = root ? SQLITE_DONE : SQLITE_NOMEM;
			break;
		}
		sqlite3_bind_value(t->up, 2, depth);
		sqlite3_bind_int(t->up, 3, 0);
		sqlite3_value_free(depth);
	}
	sqlite3_reset(t->up);
	sqlite3_clear_bindings(t->up);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Schema 9 and older: the table's rows. */
static int f_rows(struct fvt *t, struct fcur *c)
{
	int rc = f_prepare(t, &t->rows, "SELECT depth, pc, module_id FROM "
			   "main.stack_frames WHERE stack_id = ?1 ORDER BY depth");

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(t->rows, 1, c->stack);
	while ((rc = sqlite3_step(t->rows)) == SQLITE_ROW
	       && (rc = f_push(c, sqlite3_column_int64(t->rows, 0),
			       sqlite3_column_int64(t->rows, 1),
			       sqlite3_column_int64(t->rows, 2))) == SQLITE_OK)
		;
	sqlite3_reset(t->rows);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int f_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs,
		    int argc, sqlite3_value **argv)
{
	struct fcur *c = (struct fcur *)cur;
	struct fvt *t = (struct fvt *)cur->pVtab;
	int rc;

	(void)idx;
	(void)idxs;
	c->n = c->k = 0;
	if (argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL)
		return SQLITE_OK;
	c->stack = sqlite3_value_int64(argv[0]);
	if (t->tree < 0)
		t->tree = dgstacks_is_tree(t->db);
	rc = t->tree ? f_walk(t, c) : f_rows(t, c);
	if (rc != SQLITE_OK && !t->base.zErrMsg)
		t->base.zErrMsg = sqlite3_mprintf("dg_frames: %s",
						  sqlite3_errmsg(t->db));
	return rc;
}

static int f_next(sqlite3_vtab_cursor *cur)
{
	((struct fcur *)cur)->k++;
	return SQLITE_OK;
}

static int f_eof(sqlite3_vtab_cursor *cur)
{
	const struct fcur *c = (const struct fcur *)cur;

	return c->k >= c->n;
}

static int f_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct fcur *c = (const struct fcur *)cur;

	if (col == F_STACK)
		sqlite3_result_int64(ctx, c->stack);
	else
		sqlite3_result_int64(ctx, c->v[3 * c->k + col]);
	return SQLITE_OK;
}

static int f_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((const struct fcur *)cur)->k;
	return SQLITE_OK;
}

static const sqlite3_module frames_module = {
	.xConnect = f_connect,
	.xBestIndex = f_best_index,
	.xDisconnect = f_disconnect,
	.xOpen = f_open,
	.xClose = f_close,
	.xFilter = f_filter,
	.xNext = f_next,
	.xEof = f_eof,
	.xColumn = f_column,
	.xRowid = f_rowid,
};

int dgstacks_register(sqlite3 *db, char **err)
{
	if (sqlite3_create_module(db, "dg_frames", &frames_module, NULL) == SQLITE_OK)
		return 0;
	*err = sqlite3_mprintf("dg_frames: %s", sqlite3_errmsg(db));
	return -1;
}
