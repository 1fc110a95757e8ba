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
#include <stdlib.h>
#include <string.h>

#include "dgside.h"
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
	int64_t *desc_fn, *desc_field;  /* per descriptor; -1: NULL */
	int64_t *site;                  /* by block id; -1: NULL */
	size_t n_site;
};

struct dgvt_par_scan {
	struct dgvt_par *p;
	uint32_t want;
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

/* A read-only connection on path for one thread (dgside_open). */
static int open_ro(const char *path, sqlite3 **db, char **errmsg)
{
	char *why;
	int rc = dgside_open(path, db, &why);

	if (rc != SQLITE_OK)
		*errmsg = sqlite3_mprintf("accesses: %s: %s", path, why ? why : "out of memory");
	sqlite3_free(why);
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
	sqlite3_free(p->desc_fn);
	sqlite3_free(p->desc_field);
	sqlite3_free(p->site);
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

/* Per descriptor, the first column of sql's rows (pc, module_id, id):
   -1 where none.  The descriptors are few (one an accessing instruction
   of a bbdef); a sorted copy of the rows is searched for each. */
struct pcid { int64_t pc, module, id; };

static int pcid_cmp(const void *pa, const void *pb)
{
	const struct pcid *a = pa, *b = pb;

	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	return a->module < b->module ? -1 : a->module > b->module;
}

static int per_desc(struct dgvt_par *p, const char *sql, int64_t **out)
{
	struct dgvt_model *m = &p->t.m;
	struct pcid *rows = NULL, key;
	size_t n = 0, cap = 0, i;
	sqlite3_stmt *st;
	int64_t *v;
	int rc = dgvt_prepare(&p->t.d, &st, sql);

	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue;
		if ((rc = dgvt_grow(&rows, &cap, n + 1, sizeof *rows)) != SQLITE_OK)
			break;
		rows[n].pc = sqlite3_column_int64(st, 0);
		rows[n].module = sqlite3_column_int64(st, 1);
		rows[n++].id = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sqlite3_free(rows);
		return rc == SQLITE_NOMEM ? rc : dgvt_sql_error(&p->t.d, "reading ids by pc");
	}
	if (!(v = sqlite3_malloc64((m->n_descs + 1) * sizeof *v))) {
		sqlite3_free(rows);
		return SQLITE_NOMEM;
	}
	if (n)
		qsort(rows, n, sizeof *rows, pcid_cmp);
	for (i = 0; i < m->n_descs; i++) {
		struct pcid *hit;
		key.pc = m->descs[i].pc, key.module = m->descs[i].module;
		hit = n ? bsearch(&key, rows, n, sizeof *rows, pcid_cmp) : NULL;
		v[i] = hit ? hit->id : -1;
	}
	sqlite3_free(rows);
	*out = v;
	return SQLITE_OK;
}

/* Blocks' allocation stacks by block id (ids are dense: dg-import numbers
   them from 1). */
static int load_sites(struct dgvt_par *p)
{
	sqlite3_stmt *st;
	int64_t max = 0;
	int rc = dgvt_query_int(&p->t.d, "SELECT coalesce(max(id), 0) FROM \"%w\".blocks", &max);

	if (rc != SQLITE_OK)
		return rc;
	if (max < 0 || max > 4 * (int64_t)p->t.m.n_blk + 1024)
		return dgvt_error(&p->t.d, SQLITE_CORRUPT_VTAB, "accesses: blocks: ids far sparser than the rows");
	if (!(p->site = sqlite3_malloc64(((size_t)max + 1) * sizeof *p->site)))
		return SQLITE_NOMEM;
	memset(p->site, 0xff, ((size_t)max + 1) * sizeof *p->site);   /* -1 */
	p->n_site = (size_t)max + 1;
	if ((rc = dgvt_prepare(&p->t.d, &st, "SELECT id, alloc_stack_id FROM \"%w\".blocks")) != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		if (id >= 0 && (size_t)id < p->n_site && sqlite3_column_type(st, 1) != SQLITE_NULL)
			p->site[id] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : dgvt_sql_error(&p->t.d, "reading the blocks' sites");
}

static const char sql_fn[] = "SELECT pc, module_id, function_id FROM \"%w\".pcs";
/* pc_types' field (way 3): its path in the type of that name and size. */
static const char sql_field[] =
	"SELECT p.pc, p.module_id, (SELECT min(f.id) FROM \"%w\".types t JOIN \"%w\".fields f"
	" ON f.type_id = t.id WHERE t.name = p.type AND t.size = p.type_size AND f.path = p.field)"
	" FROM pc_types p";     /* the par's connection has main alone */

int dgvt_par_scan_begin(struct dgvt_par *p, uint32_t want, struct dgvt_par_scan **out,
			char **errmsg)
{
	struct dgvt_par_scan *s;
	int with_blocks = (want & (1u << DGVT_COL_BLOCK | 1u << DGVT_PAR_COL_SITE)) != 0;
	int rc = SQLITE_OK;

	*out = NULL;
	if (with_blocks)
		rc = dgvt_blocks_load(&p->t);
	/* Without the order, workers search the sorted blocks instead. */
	if (rc == SQLITE_OK && with_blocks && !p->order.by_alloc)
		dgvt_live_order_make(&p->t.m, &p->order);
	if (rc == SQLITE_OK && want & 1u << DGVT_PAR_COL_SITE && !p->site)
		rc = load_sites(p);
	if (rc == SQLITE_OK && want & 1u << DGVT_PAR_COL_FUNCTION && !p->desc_fn)
		rc = per_desc(p, sql_fn, &p->desc_fn);
	if (rc == SQLITE_OK && want & 1u << DGVT_PAR_COL_FIELD && !p->desc_field)
		rc = per_desc(p, sql_field, &p->desc_field);
	if (rc != SQLITE_OK)
		return t_error(&p->t, rc, errmsg);
	if (!(s = sqlite3_malloc(sizeof *s)))
		return SQLITE_NOMEM;
	s->p = p;
	s->want = want;
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
		w->c->no_addrs = !(s->want & (1u << DGVT_COL_ADDR | 1u << DGVT_COL_BLOCK
		                              | 1u << DGVT_PAR_COL_SITE));
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
   the columns from row *n on, a column at a time (tight loops over the
   run's selection, no test a row for the columns not wanted). */
static void fill_run(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *const *nulls,
		     size_t max, size_t *n)
{
	struct dgvt_cur *c = w->c;
	const struct dgvt_par *p = w->p;
	const struct dgvt_desc *d = c->d;
	const uint32_t *sel = c->sel + c->k;
	const uint64_t *addrs = c->run.addrs;
	size_t r = *n, m = c->n_sel - c->k, j, base = d - w->t.m.descs;
	int64_t *v;

	if (m > max - r)
		m = max - r;
	if ((v = cols[DGVT_COL_ICOUNT]))
		for (j = 0; j < m; j++)
			v[r + j] = c->run_icount + d[sel[j]].iseq;
	if ((v = cols[DGVT_COL_ADDR]))
		for (j = 0; j < m; j++)
			v[r + j] = (int64_t)addrs[sel[j]];
	if ((v = cols[DGVT_COL_SIZE]))
		for (j = 0; j < m; j++)
			v[r + j] = d[sel[j]].size;
	if ((v = cols[DGVT_COL_IS_WRITE]))
		for (j = 0; j < m; j++)
			v[r + j] = d[sel[j]].is_write;
	if ((v = cols[DGVT_COL_PC]))
		for (j = 0; j < m; j++)
			v[r + j] = d[sel[j]].pc;
	if ((v = cols[DGVT_COL_THREAD]))
		for (j = 0; j < m; j++)
			v[r + j] = c->thread;
	if ((v = cols[DGVT_COL_CONTEXT]))
		for (j = 0; j < m; j++)
			v[r + j] = (int64_t)c->run.context;
	if ((v = cols[DGVT_COL_ASEQ]))
		for (j = 0; j < m; j++)
			v[r + j] = sel[j];
	if ((v = cols[DGVT_COL_CHUNK]))
		for (j = 0; j < m; j++)
			v[r + j] = c->chunk;
	if ((v = cols[DGVT_COL_MODULE]))
		for (j = 0; j < m; j++)
			v[r + j] = d[sel[j]].module;
	if ((v = cols[DGVT_PAR_COL_FUNCTION]))
		for (j = 0; j < m; j++) {
			v[r + j] = p->desc_fn[base + sel[j]];
			nulls[DGVT_PAR_COL_FUNCTION][r + j] = v[r + j] < 0;
		}
	if ((v = cols[DGVT_PAR_COL_FIELD]))
		for (j = 0; j < m; j++) {
			v[r + j] = p->desc_field[base + sel[j]];
			nulls[DGVT_PAR_COL_FIELD][r + j] = v[r + j] < 0;
		}
	if (cols[DGVT_COL_BLOCK] || cols[DGVT_PAR_COL_SITE])
		for (j = 0; j < m; j++) {
			int found;
			int64_t b = dgvt_live_block_at(&w->live, (int64_t)addrs[sel[j]],
						       c->run_icount + d[sel[j]].iseq, &found);
			if ((v = cols[DGVT_COL_BLOCK])) {
				v[r + j] = b;
				nulls[DGVT_COL_BLOCK][r + j] = !found;
			}
			if ((v = cols[DGVT_PAR_COL_SITE])) {
				v[r + j] = found && b >= 0 && (size_t)b < p->n_site ? p->site[b] : -1;
				nulls[DGVT_PAR_COL_SITE][r + j] = v[r + j] < 0;
			}
		}
	c->k += (uint32_t)m;
	*n = r + m;
}

/* Whole runs taken by fill_open, written column by column at the end. */
struct whole_run {
	const struct dgvt_desc *d;
	int64_t icount, thread, chunk;
	uint64_t context;
	uint32_t n;
};

#define WHOLE_RUNS 1024

/* The rows of runs[0..nr), rows r to end, into the columns wanted: one
   loop a column over every run, not a test of every column a run (sort's
   runs have 1.4 accesses). */
static void fill_whole(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *const *nulls,
		       const struct whole_run *runs, size_t nr, size_t r, size_t end)
{
	const struct dgvt_desc *descs = w->t.m.descs;
	const struct dgvt_par *p = w->p;
	size_t i, j, k;
	int64_t *v;

#define EACH(expr) for (i = 0, k = r; i < nr; i++) \
			   for (j = 0; j < runs[i].n; j++, k++) v[k] = (expr)
	if ((v = cols[DGVT_COL_ICOUNT]))
		EACH(runs[i].icount + runs[i].d[j].iseq);
	if ((v = cols[DGVT_COL_SIZE]))
		EACH(runs[i].d[j].size);
	if ((v = cols[DGVT_COL_IS_WRITE]))
		EACH(runs[i].d[j].is_write);
	if ((v = cols[DGVT_COL_PC]))
		EACH(runs[i].d[j].pc);
	if ((v = cols[DGVT_COL_THREAD]))
		EACH(runs[i].thread);
	if ((v = cols[DGVT_COL_CONTEXT]))
		EACH((int64_t)runs[i].context);
	if ((v = cols[DGVT_COL_ASEQ]))
		EACH((int64_t)j);
	if ((v = cols[DGVT_COL_CHUNK]))
		EACH(runs[i].chunk);
	if ((v = cols[DGVT_COL_MODULE]))
		EACH(runs[i].d[j].module);
	if ((v = cols[DGVT_PAR_COL_FUNCTION])) {
		EACH(p->desc_fn[runs[i].d + j - descs]);
		for (k = r; k < end; k++)
			nulls[DGVT_PAR_COL_FUNCTION][k] = v[k] < 0;
	}
	if ((v = cols[DGVT_PAR_COL_FIELD])) {
		EACH(p->desc_field[runs[i].d + j - descs]);
		for (k = r; k < end; k++)
			nulls[DGVT_PAR_COL_FIELD][k] = v[k] < 0;
	}
#undef EACH
}

/* An open filter that reads no address: whole runs taken from the cursor's
   lean step while they fit, their rows written column by column; the
   cursor is left on a run not taken (the general fill's), or at the end. */
static int fill_open(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *const *nulls,
		     size_t max, size_t *n)
{
	struct whole_run runs[WHOLE_RUNS];
	struct dgvt_cur *c = w->c;
	size_t nr = 0, rows = *n;
	int rc;

	for (;;) {
		if ((rc = dgvt_cur_run_open(&w->t, c)) != SQLITE_OK || c->eof)
			break;
		if (c->sel != c->ident || rows + c->n_sel > max || nr == WHOLE_RUNS)
			break;
		runs[nr++] = (struct whole_run){ c->d, c->run_icount, c->thread, c->chunk,
						 c->run.context, c->n_sel };
		rows += c->n_sel;
		c->k = c->n_sel;
	}
	fill_whole(w, cols, nulls, runs, nr, *n, rows);
	*n = rows;
	return rc;
}

int dgvt_par_fill(struct dgvt_par_worker *w, int64_t *const *cols, uint8_t *const *nulls,
		  size_t max, size_t *n, char **errmsg)
{
	struct dgvt_cur *c = w->c;
	int rc = SQLITE_OK, done, open;

	*n = 0;
	while (*n < max) {
		if (!w->active || c->eof) {
			if ((rc = take_batch(w, &done)) != SQLITE_OK)
				break;
			if (done)
				return SQLITE_OK;
			continue;
		}
		open = c->f.open && !c->f.has_ctx;     /* a batch's: chunk ids only */
		fill_run(w, cols, nulls, max, n);
		if (open && c->no_addrs && c->k == c->n_sel && *n < max
		    && ((rc = fill_open(w, cols, nulls, max, n)) != SQLITE_OK))
			break;
		while (!c->eof && c->k == c->n_sel) {
			if ((rc = open ? dgvt_cur_run_open(&w->t, c) : dgvt_cur_run(&w->t, c)) != SQLITE_OK
			    || c->eof || *n == max)
				break;
			fill_run(w, cols, nulls, max, n);
		}
		if (rc != SQLITE_OK)
			break;
	}
	return rc == SQLITE_OK ? rc : t_error(&w->t, rc, errmsg);
}
