/* dgvt_par.c: the `accesses` rows for several threads.  See dgvt_par.h.
 *
 * Each worker is a table object of its own (struct dgvt on its own
 * connection) whose model is the scan's, borrowed: it is copied in when
 * the worker opens and zeroed before dgvt_free, so only dgvt_par_close
 * frees it.  A batch is a range of chunk ids handed to the worker's
 * cursor as the constraint chunk_id >= lo AND chunk_id <= hi, so the rows
 * and errors are the cursor's own.
 *
 * Copyright (C) 2026 the Datagrind authors.  GPL-2.0-or-later.
 */
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "dgvt_cursor.h"
#include "dgvt_db.h"
#include "dgvt_live.h"
#include "dgvt_model.h"
#include "dgvt_par.h"
#include "dgvt_plan.h"

/* Chunks a batch: a chunk holds up to 65536 accesses, so four keep two
   threads busy to the end of a trace of a few hundred chunks and make
   the cursor's set-up (one xFilter) rare. */
#define PAR_BATCH 4

struct dgvt_par {
	char *path;
	sqlite3 *db;
	struct dgvt t;          /* owns the model the workers borrow */
	int64_t *ids;           /* chunk ids, ascending */
	size_t n_ids;
	int64_t rows;
	struct dgvt_live_order order;   /* made with the blocks, once */
};

struct dgvt_par_scan {
	struct dgvt_par *p;
	int with_blocks;
	atomic_size_t next;     /* the next batch's first index into ids */
};

struct dgvt_par_worker {
	struct dgvt_par *p;
	struct dgvt_par_scan *s;
	sqlite3 *db;
	struct dgvt t;          /* its model borrowed from p */
	struct dgvt_cur *c;
	sqlite3_stmt *range;    /* SELECT ?1, ?2: the batch's bounds as values */
	struct dgvt_live live;  /* block_id's lookup (with_blocks) */
	int active;             /* the cursor stands in a batch */
};

/* A read-only connection on path for one thread. */
static int open_ro(const char *path, sqlite3 **db, char **errmsg)
{
	int rc = sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);

	if (rc != SQLITE_OK) {
		*errmsg = sqlite3_mprintf("accesses: %s: %s", path, *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
		sqlite3_close(*db);
		*db = NULL;
	}
	return rc;
}

/* The table object's message, or the code's. */
static int t_error(struct dgvt *t, int rc, char **errmsg)
{
	*errmsg = t->d.base.zErrMsg ? sqlite3_mprintf("%s", t->d.base.zErrMsg)
	          : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
	return rc;
}

static int load_ids(struct dgvt_par *p)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc = dgvt_prepare(&p->t.d, &st, "SELECT id, n_accesses FROM \"%w\".chunks ORDER BY id");

	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((rc = dgvt_grow(&p->ids, &cap, p->n_ids + 1, sizeof *p->ids)) != SQLITE_OK)
			break;
		p->ids[p->n_ids++] = sqlite3_column_int64(st, 0);
		p->rows += sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc == SQLITE_NOMEM ? rc
	       : dgvt_sql_error(&p->t.d, "reading the chunk ids");
}

int dgvt_par_open(const char *path, struct dgvt_par **out, char **errmsg)
{
	struct dgvt_par *p = sqlite3_malloc(sizeof *p);
	int rc;

	*out = NULL;
	if (!p)
		return SQLITE_NOMEM;
	memset(p, 0, sizeof *p);
	if (!(p->path = sqlite3_mprintf("%s", path))) {
		sqlite3_free(p);
		return SQLITE_NOMEM;
	}
	if ((rc = open_ro(path, &p->db, errmsg)) != SQLITE_OK) {
		sqlite3_free(p->path);
		sqlite3_free(p);
		return rc;
	}
	rc = dgvt_init(&p->t, p->db, "main");
	if (rc == SQLITE_OK && (rc = dgvt_model_load(&p->t)) == SQLITE_OK)
		rc = load_ids(p);
	if (rc != SQLITE_OK) {
		t_error(&p->t, rc, errmsg);
		dgvt_par_close(p);
		return rc;
	}
	*out = p;
	return SQLITE_OK;
}

void dgvt_par_close(struct dgvt_par *p)
{
	if (!p)
		return;
	dgvt_live_order_free(&p->order);
	dgvt_free(&p->t);
	sqlite3_close(p->db);
	sqlite3_free(p->ids);
	sqlite3_free(p->path);
	sqlite3_free(p);
}

int64_t dgvt_par_rows(const struct dgvt_par *p)
{
	return p->rows;
}

int dgvt_par_scan_begin(struct dgvt_par *p, int with_blocks, struct dgvt_par_scan **out,
			char **errmsg)
{
	struct dgvt_par_scan *s;
	int rc;

	*out = NULL;
	if (with_blocks && (rc = dgvt_blocks_load(&p->t)) != SQLITE_OK)
		return t_error(&p->t, rc, errmsg);
	/* Without the order, workers search the sorted blocks instead. */
	if (with_blocks && !p->order.by_alloc)
		dgvt_live_order_make(&p->t.m, &p->order);
	if (!(s = sqlite3_malloc(sizeof *s)))
		return SQLITE_NOMEM;
	s->p = p;
	s->with_blocks = with_blocks;
	atomic_init(&s->next, 0);
	*out = s;
	return SQLITE_OK;
}

void dgvt_par_scan_end(struct dgvt_par_scan *s)
{
	sqlite3_free(s);
}

/* ------------------------------------------------------------ workers */

int dgvt_par_worker_open(struct dgvt_par_scan *s, struct dgvt_par_worker **out, char **errmsg)
{
	struct dgvt_par *p = s->p;
	struct dgvt_par_worker *w = sqlite3_malloc(sizeof *w);
	sqlite3_vtab_cursor *base;
	int rc;

	*out = NULL;
	if (!w)
		return SQLITE_NOMEM;
	memset(w, 0, sizeof *w);
	w->p = p;
	w->s = s;
	if ((rc = open_ro(p->path, &w->db, errmsg)) != SQLITE_OK) {
		sqlite3_free(w);
		return rc;
	}
	rc = dgvt_init(&w->t, w->db, "main");
	if (rc == SQLITE_OK) {
		w->t.m = p->t.m;
		dgvt_live_init(&w->live, &w->t.m, &p->order);
	}
	if (rc == SQLITE_OK && (rc = dgvt_cur_open(&w->t.d.base, &base)) == SQLITE_OK) {
		base->pVtab = &w->t.d.base;
		w->c = (struct dgvt_cur *)base;
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(w->db, "SELECT ?1, ?2", -1, &w->range, NULL);
	if (rc != SQLITE_OK) {
		if (!*errmsg)
			t_error(&w->t, rc, errmsg);
		dgvt_par_worker_close(w);
		return rc;
	}
	*out = w;
	return SQLITE_OK;
}

void dgvt_par_worker_close(struct dgvt_par_worker *w)
{
	if (!w)
		return;
	if (w->c)
		dgvt_cur_close(&w->c->base);
	sqlite3_finalize(w->range);
	dgvt_live_free(&w->live);
	memset(&w->t.m, 0, sizeof w->t.m);      /* borrowed */
	dgvt_free(&w->t);
	sqlite3_close(w->db);
	sqlite3_free(w);
}

/* The cursor on the next batch of chunks; *done when there is none. */
static int take_batch(struct dgvt_par_worker *w, int *done)
{
	struct dgvt_par *p = w->p;
	size_t i = atomic_fetch_add(&w->s->next, PAR_BATCH), j;
	sqlite3_value *argv[2];
	char plan[5] = { '0' + DGVT_COL_CHUNK, 'g', '0' + DGVT_COL_CHUNK, 'l', 0 };
	int rc;

	*done = i >= p->n_ids;
	if (*done)
		return SQLITE_OK;
	j = i + PAR_BATCH <= p->n_ids ? i + PAR_BATCH - 1 : p->n_ids - 1;
	sqlite3_reset(w->range);
	sqlite3_bind_int64(w->range, 1, p->ids[i]);
	sqlite3_bind_int64(w->range, 2, p->ids[j]);
	if (sqlite3_step(w->range) != SQLITE_ROW)
		return dgvt_sql_error(&w->t.d, "setting a batch's bounds");
	argv[0] = sqlite3_column_value(w->range, 0);
	argv[1] = sqlite3_column_value(w->range, 1);
	rc = dgvt_cur_filter(&w->c->base, w->s->with_blocks ? DGVT_PLAN_BLOCKS : 0, plan, 2, argv);
	w->active = rc == SQLITE_OK;
	return rc;
}

/* The cursor's selected accesses of its current run from the k-th on, into
   the columns from row *n on. */
static void fill_run(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *block_null,
		     size_t max, size_t *n)
{
	struct dgvt_cur *c = w->c;
	size_t r = *n;

	for (; c->k < c->n_sel && r < max; c->k++, r++) {
		uint32_t i = c->sel[c->k];
		const struct dgvt_desc *d = &c->d[i];
		int64_t icount = c->run_icount + d->iseq, addr = (int64_t)c->run.addrs[i];

		if (cols[DGVT_COL_ICOUNT])
			cols[DGVT_COL_ICOUNT][r] = icount;
		if (cols[DGVT_COL_ADDR])
			cols[DGVT_COL_ADDR][r] = addr;
		if (cols[DGVT_COL_SIZE])
			cols[DGVT_COL_SIZE][r] = d->size;
		if (cols[DGVT_COL_IS_WRITE])
			cols[DGVT_COL_IS_WRITE][r] = d->is_write;
		if (cols[DGVT_COL_PC])
			cols[DGVT_COL_PC][r] = d->pc;
		if (cols[DGVT_COL_THREAD])
			cols[DGVT_COL_THREAD][r] = c->thread;
		if (cols[DGVT_COL_CONTEXT])
			cols[DGVT_COL_CONTEXT][r] = (int64_t)c->run.context;
		if (cols[DGVT_COL_BLOCK]) {
			int found;
			cols[DGVT_COL_BLOCK][r] = dgvt_live_block_at(&w->live, addr, icount, &found);
			block_null[r] = !found;
		}
		if (cols[DGVT_COL_ASEQ])
			cols[DGVT_COL_ASEQ][r] = i;
		if (cols[DGVT_COL_CHUNK])
			cols[DGVT_COL_CHUNK][r] = c->chunk;
		if (cols[DGVT_COL_MODULE])
			cols[DGVT_COL_MODULE][r] = d->module;
	}
	*n = r;
}

int dgvt_par_fill(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *block_null,
		  size_t max, size_t *n, char **errmsg)
{
	struct dgvt_cur *c = w->c;
	int rc = SQLITE_OK, done;

	*n = 0;
	while (*n < max) {
		if (!w->active || c->eof) {
			if ((rc = take_batch(w, &done)) != SQLITE_OK)
				break;
			if (done)
				return SQLITE_OK;
			continue;
		}
		fill_run(w, cols, block_null, max, n);
		if (c->k == c->n_sel && (rc = dgvt_cur_run(&w->t, c)) != SQLITE_OK)
			break;
	}
	return rc == SQLITE_OK ? rc : t_error(&w->t, rc, errmsg);
}
