/* dgvtab.c: the `accesses` virtual table.  See dgvtab.h.
 *
 * The table's methods and its registration; the work is done by the
 * dgvt_ modules below, each of which calls only those under it:
 *
 *   dgvt_scan    dgvtab_scan and dgvtab_count: the rows without SQLite's
 *                row engine, through a cursor
 *   dgvt_cursor  a cursor (xOpen, xClose, xFilter, xNext): the chunks it
 *                reads, decoded run by run, and `sel`, the accesses of the
 *                run that pass the filter.  xColumn, here, reads one field
 *                of the access sel[k]; nothing is allocated per row
 *   dgvt_source  which chunks a cursor reads, in what order
 *   dgvt_filter  the constraints of xFilter's arguments
 *   dgvt_plan    xBestIndex: the constraints taken, the plan string
 *   dgvt_model   the table object (struct dgvt), the definitions it loads
 *                and checks, the heap blocks
 *   dgvt_db      the table object's statements and errors
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
#include "dgcellvt.h"
#include "dgctxfn.h"
#include "dgsumfnblock.h"
#include "dgvt_cursor.h"
#include "dgvt_db.h"
#include "dgvt_model.h"
#include "dgvt_plan.h"
#include "dgvtab.h"

/* The columns, in enum dgvt_col's order (dgvt_plan.h). */
static const char vt_decl[] =
	"CREATE TABLE x(icount INTEGER, addr INTEGER, size INTEGER,"
	" is_write INTEGER, pc INTEGER, thread INTEGER, context_id INTEGER,"
	" block_id INTEGER, aseq INTEGER, chunk_id INTEGER, module_id INTEGER,"
	" stack_filter HIDDEN)";

/* ------------------------------------------------------------ connect */

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
	struct dgvt *t;
	int rc = sqlite3_declare_vtab(db, vt_decl);

	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	if (dgvt_init(t, db, argc > 1 ? argv[1] : "main") != SQLITE_OK) {
		sqlite3_free(t);
		return SQLITE_NOMEM;
	}
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	t->probe = aux;
	*out = &t->d.base;
	return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vtab)
{
	dgvt_free((struct dgvt *)vtab);
	sqlite3_free(vtab);
	return SQLITE_OK;
}

/* ------------------------------------------------------------ rows */

static int vt_eof(sqlite3_vtab_cursor *base)
{
	return ((struct dgvt_cur *)base)->eof;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	struct dgvt_cur *c = (struct dgvt_cur *)base;
	struct dgvt *t = (struct dgvt *)base->pVtab;
	uint32_t i;
	const struct dgvt_desc *d;
	int found, rc;
	int64_t b;

	if (c->counting && col == DGVT_COL_BLOCK)
		return sqlite3_result_int64(ctx, c->f.block), SQLITE_OK;
	if (c->counting && (rc = dgvt_cur_count_decode(t, c)) != SQLITE_OK)
		return rc;
	i = c->sel[c->k];
	d = &c->d[i];
	switch (col) {
	case DGVT_COL_ICOUNT: sqlite3_result_int64(ctx, c->run_icount + d->iseq); break;
	case DGVT_COL_ADDR: sqlite3_result_int64(ctx, (int64_t)c->run.addrs[i]); break;
	case DGVT_COL_SIZE: sqlite3_result_int(ctx, d->size); break;
	case DGVT_COL_IS_WRITE: sqlite3_result_int(ctx, d->is_write); break;
	case DGVT_COL_PC: sqlite3_result_int64(ctx, d->pc); break;
	case DGVT_COL_MODULE: sqlite3_result_int64(ctx, d->module); break;
	case DGVT_COL_THREAD: sqlite3_result_int64(ctx, c->thread); break;
	case DGVT_COL_CONTEXT: sqlite3_result_int64(ctx, (int64_t)c->run.context); break;
	case DGVT_COL_BLOCK:
		if ((rc = dgvt_blocks_load(t)) != SQLITE_OK)
			return rc;
		b = dgvt_block_at(&t->m, (int64_t)c->run.addrs[i], c->run_icount + d->iseq, &found);
		if (found)
			sqlite3_result_int64(ctx, b);
		break;
	case DGVT_COL_ASEQ: sqlite3_result_int(ctx, (int)i); break;
	case DGVT_COL_CHUNK: sqlite3_result_int64(ctx, c->chunk); break;
	}
	return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	struct dgvt_cur *c = (struct dgvt_cur *)base;
	int rc;

	if (c->counting && (rc = dgvt_cur_count_decode((struct dgvt *)base->pVtab, c)) != SQLITE_OK)
		return rc;
	*rowid = (sqlite3_int64)((uint64_t)c->chunk << 32 | (c->run_first + c->sel[c->k]));
	return SQLITE_OK;
}

/* ------------------------------------------------------------ module */

static const sqlite3_module vt_module = {
	.iVersion = 0,
	.xCreate = vt_connect,
	.xConnect = vt_connect,
	.xBestIndex = dgvt_best_index,
	.xDisconnect = vt_disconnect,
	.xDestroy = vt_disconnect,
	.xOpen = dgvt_cur_open,
	.xClose = dgvt_cur_close,
	.xFilter = dgvt_cur_filter,
	.xNext = dgvt_cur_next,
	.xEof = vt_eof,
	.xColumn = vt_column,
	.xRowid = vt_rowid,
};

int dgvtab_register(sqlite3 *db, char **errmsg)
{
	return dgvtab_register_probe(db, NULL, errmsg);
}

int dgvtab_register_probe(sqlite3 *db, struct dgvtab_probe *probe, char **errmsg)
{
	int rc = sqlite3_create_module_v2(db, "accesses", &vt_module, probe, NULL);

	if (rc != SQLITE_OK) {
		if (errmsg)
			*errmsg = sqlite3_mprintf("accesses: cannot register the module: %s",
						  sqlite3_errmsg(db));
		return rc;
	}
	/* the summaries' own table and functions go wherever accesses goes */
	rc = dgcellvt_register(db, errmsg);
	if (rc == SQLITE_OK)
		rc = dgsumfnblock_register(db, errmsg);
	return rc == SQLITE_OK ? dgctxfn_register(db, errmsg) : rc;
}
