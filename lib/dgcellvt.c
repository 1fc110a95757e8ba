/* dgcellvt.c: the `chunk_cells_v` virtual table.  See dgcellvt.h.
 *
 * A cursor walks `SELECT chunk_id, data FROM chunk_cells` between the
 * chunk ids xBestIndex found bounds for, and decodes the current row's blob
 * in place (the pointer SQLite gives stays valid until the next step).
 * The bounds are a superset when a value is not an integer (a real, text):
 * SQLite checks those constraints again (omit is never set), so the plan
 * needs no exact rules for comparing mixed types.
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
#include "dgcells.h"
#include "dgcellvt.h"

enum { COL_CHUNK, COL_CELL, COL_READS, COL_WRITES };

/* The operators on chunk_id pushed down, in the order of their arguments. */
static const unsigned char ops[] = {
	SQLITE_INDEX_CONSTRAINT_EQ, SQLITE_INDEX_CONSTRAINT_GT,
	SQLITE_INDEX_CONSTRAINT_GE, SQLITE_INDEX_CONSTRAINT_LT,
	SQLITE_INDEX_CONSTRAINT_LE,
};
#define N_OPS (int)sizeof ops

struct cvt {
	sqlite3_vtab base;
	sqlite3 *db;
	char *schema;
};

struct ccur {
	sqlite3_vtab_cursor base;
	sqlite3_stmt *st;
	int64_t chunk;
	struct dgcells_dec dec;
	struct dgcells_cell cell;
	int64_t index;               /* of the cell in its chunk */
	int eof;
};

static int cvt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		       sqlite3_vtab **out, char **err)
{
	struct cvt *t;
	int rc;

	(void)aux;
	(void)argc;
	rc = sqlite3_declare_vtab(db, "CREATE TABLE x(chunk_id INTEGER, cell INTEGER, "
				  "reads INTEGER, writes INTEGER)");
	if (rc != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc(sizeof *t)))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->db = db;
	if (!(t->schema = sqlite3_mprintf("%s", argv[1]))) {
		sqlite3_free(t);
		*err = sqlite3_mprintf("chunk_cells_v: out of memory");
		return SQLITE_NOMEM;
	}
	*out = &t->base;
	return SQLITE_OK;
}

static int cvt_disconnect(sqlite3_vtab *vt)
{
	struct cvt *t = (struct cvt *)vt;

	sqlite3_free(t->schema);
	sqlite3_free(t);
	return SQLITE_OK;
}

static int op_index(unsigned char op)
{
	int k;

	for (k = 0; k < N_OPS; k++)
		if (ops[k] == op)
			return k;
	return -1;
}

/* idxNum: bit k set when ops[k] on chunk_id is an argument (one of each
   kind; the arguments come in the order of ops). */
static int cvt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	int at[N_OPS], i, k, n = 0, mask = 0;

	(void)vt;
	for (k = 0; k < N_OPS; k++)
		at[k] = -1;
	for (i = 0; i < info->nConstraint; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];

		if (c->usable && c->iColumn == COL_CHUNK && (k = op_index(c->op)) >= 0
		    && at[k] < 0)
			at[k] = i;
	}
	for (k = 0; k < N_OPS; k++)
		if (at[k] >= 0) {
			info->aConstraintUsage[at[k]].argvIndex = ++n;
			mask |= 1 << k;
		}
	info->idxNum = mask;
	info->estimatedCost = at[0] >= 0 ? 10 : n ? 1e5 : 1e6;
	info->orderByConsumed = info->nOrderBy >= 1 && info->nOrderBy <= 2
		&& info->aOrderBy[0].iColumn == COL_CHUNK && !info->aOrderBy[0].desc
		&& (info->nOrderBy == 1 || (info->aOrderBy[1].iColumn == COL_CELL
		                            && !info->aOrderBy[1].desc));
	return SQLITE_OK;
}

static int cvt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct ccur *c = sqlite3_malloc(sizeof *c);

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*out = &c->base;
	return SQLITE_OK;
}

static int cvt_close(sqlite3_vtab_cursor *cur)
{
	struct ccur *c = (struct ccur *)cur;

	sqlite3_finalize(c->st);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int cvt_fail(struct ccur *c, char *msg)
{
	sqlite3_vtab *vt = c->base.pVtab;

	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = msg;
	return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The next chunk's row, its blob ready to decode; c->eof at the end. */
static int next_chunk(struct ccur *c)
{
	int rc = sqlite3_step(c->st);

	if (rc == SQLITE_DONE) {
		c->eof = 1;
		return SQLITE_OK;
	}
	if (rc != SQLITE_ROW)
		return cvt_fail(c, sqlite3_mprintf("chunk_cells_v: %s",
			sqlite3_errmsg(((struct cvt *)c->base.pVtab)->db)));
	c->chunk = sqlite3_column_int64(c->st, 0);
	dgcells_begin(&c->dec, sqlite3_column_blob(c->st, 1),
		      (size_t)sqlite3_column_bytes(c->st, 1));
	c->index = -1;
	return SQLITE_OK;
}

/* The next cell, from this chunk or the ones after. */
static int cvt_next(sqlite3_vtab_cursor *cur)
{
	struct ccur *c = (struct ccur *)cur;
	int e, rc;

	while (!c->eof) {
		if ((e = dgcells_next(&c->dec, &c->cell)) > 0) {
			c->index++;
			return SQLITE_OK;
		}
		if (e < 0) {
			char msg[256];

			dgcells_error(&c->dec, e, "chunk_cells_v: chunk_cells", c->chunk,
				      msg, sizeof msg);
			return cvt_fail(c, sqlite3_mprintf("%s", msg));
		}
		if ((rc = next_chunk(c)) != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* Bounds [lo, hi] on chunk_id from one argument; a value that is not an
   integer widens to the integers around it, or bounds nothing (text). */
static void bound(sqlite3_value *v, int op, int64_t *lo, int64_t *hi)
{
	int64_t a, b;

	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER:
		a = b = sqlite3_value_int64(v);
		break;
	case SQLITE_FLOAT: {
		double d = sqlite3_value_double(v);

		if (!(d > -9.2e18 && d < 9.2e18))
			return;
		a = (int64_t)d;          /* toward 0, then down: floor */
		a -= (double)a > d;
		b = a + ((double)a < d); /* ceil */
		break;
	}
	default:
		return;
	}
	if (op != SQLITE_INDEX_CONSTRAINT_LT && op != SQLITE_INDEX_CONSTRAINT_LE && a > *lo)
		*lo = a;
	if (op != SQLITE_INDEX_CONSTRAINT_GT && op != SQLITE_INDEX_CONSTRAINT_GE && b < *hi)
		*hi = b;
}

static int cvt_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str,
		      int argc, sqlite3_value **argv)
{
	struct ccur *c = (struct ccur *)cur;
	struct cvt *t = (struct cvt *)cur->pVtab;
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	int k, n = 0;
	char *sql;

	(void)idx_str;
	for (k = 0; k < N_OPS; k++)
		if ((idx_num >> k & 1) && n < argc)
			bound(argv[n++], ops[k], &lo, &hi);
	sqlite3_finalize(c->st);
	c->st = NULL;
	c->eof = 0;
	sql = sqlite3_mprintf("SELECT chunk_id, data FROM \"%w\".chunk_cells WHERE "
			      "chunk_id BETWEEN ?1 AND ?2 ORDER BY chunk_id", t->schema);
	if (!sql)
		return SQLITE_NOMEM;
	if (sqlite3_prepare_v2(t->db, sql, -1, &c->st, NULL) != SQLITE_OK) {
		char *msg = sqlite3_mprintf("chunk_cells_v: %s (chunk_cells of schema "
			"version 7 or older has a row per cell: query it directly)",
			sqlite3_errmsg(t->db));

		sqlite3_free(sql);
		return cvt_fail(c, msg);
	}
	sqlite3_free(sql);
	sqlite3_bind_int64(c->st, 1, lo);
	sqlite3_bind_int64(c->st, 2, hi);
	dgcells_begin(&c->dec, NULL, 0);
	return cvt_next(cur);
}

static int cvt_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct ccur *)cur)->eof;
}

static int cvt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct ccur *c = (struct ccur *)cur;
	int64_t v[] = { c->chunk, (int64_t)c->cell.cell, c->cell.reads, c->cell.writes };

	if (col >= 0 && col < (int)(sizeof v / sizeof *v))
		sqlite3_result_int64(ctx, v[col]);
	return SQLITE_OK;
}

/* chunk_id << 32 | the cell's index in its chunk (a chunk has fewer than
   2^32 cells: it holds fewer accesses than that). */
static int cvt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	struct ccur *c = (struct ccur *)cur;

	*rowid = (int64_t)((uint64_t)c->chunk << 32 | (uint64_t)(c->index & 0xFFFFFFFF));
	return SQLITE_OK;
}

static const sqlite3_module cvt_module = {
	.iVersion = 0,
	.xCreate = NULL,              /* eponymous only */
	.xConnect = cvt_connect,
	.xBestIndex = cvt_best_index,
	.xDisconnect = cvt_disconnect,
	.xDestroy = cvt_disconnect,
	.xOpen = cvt_open,
	.xClose = cvt_close,
	.xFilter = cvt_filter,
	.xNext = cvt_next,
	.xEof = cvt_eof,
	.xColumn = cvt_column,
	.xRowid = cvt_rowid,
};

int dgcellvt_register(sqlite3 *db, char **errmsg)
{
	int rc = sqlite3_create_module_v2(db, "chunk_cells_v", &cvt_module, NULL, NULL);

	if (rc != SQLITE_OK && errmsg)
		*errmsg = sqlite3_mprintf("chunk_cells_v: cannot register the module: %s",
					  sqlite3_errmsg(db));
	return rc;
}
