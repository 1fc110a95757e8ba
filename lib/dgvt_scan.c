/* dgvt_scan.c: the `accesses` table's rows without SQLite's row engine.
 * See dgvt_scan.h.
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
#include <stdlib.h>
#include <string.h>
#include "dgmem.h"
#include "dgside.h"
#include "dgvt_cursor.h"
#include "dgvt_db.h"
#include "dgvt_model.h"
#include "dgvt_plan.h"
#include "dgvt_scan.h"

#define SCAN_BATCH 4096

_Static_assert(DGVTAB_STACK_COLUMN == DGVT_COL_STACK && DGVTAB_ICOUNT_COLUMN == DGVT_COL_ICOUNT
	       && DGVTAB_ADDR_COLUMN == DGVT_COL_ADDR, "dgvt_scan.h's column numbers");

/* ------------------------------------------------------------ the call's table */

/* The end of a table of the caller's own (dgvtab_scan, dgvtab_count: no
   SQLite statement; dgvt_init made it): *errmsg as the table's errors say
   them, everything freed, rc returned. */
static int solo_end(struct dgvt *t, int rc, char **errmsg)
{
	if (rc != SQLITE_OK && errmsg)
		*errmsg = t->d.base.zErrMsg ? sqlite3_mprintf("%s", t->d.base.zErrMsg)
		          : sqlite3_mprintf("accesses: %s", sqlite3_errstr(rc));
	dgvt_free(t);
	return rc;
}

/* A cursor of t positioned as xFilter would (idx_num, plan, argv as
   dgvt_best_index plans them); the caller closes it (dgvt_cur_close). */
static int solo_cursor(struct dgvt *t, int idx_num, const char *plan, int argc,
		       sqlite3_value **argv, struct dgvt_cur **out)
{
	sqlite3_vtab_cursor *base;
	int rc = dgvt_cur_open(&t->d.base, &base);

	if (rc != SQLITE_OK)
		return rc;
	base->pVtab = &t->d.base;
	if ((rc = dgvt_cur_filter(base, idx_num, plan, argc, argv)) != SQLITE_OK) {
		dgvt_cur_close(base);
		return rc;
	}
	*out = (struct dgvt_cur *)base;
	return SQLITE_OK;
}

/* ------------------------------------------------------------ scan */

/* The selected accesses of the cursor's current run from the k-th on,
   into rows[*n..]; the block looked up as xColumn does (dgvtab.c). */
static void scan_fill(struct dgvt *t, struct dgvt_cur *c, struct dgvtab_row *rows,
		      size_t *n, size_t max)
{
	for (; c->k < c->n_sel && *n < max; c->k++) {
		uint32_t i = c->sel[c->k];
		const struct dgvt_desc *d = &c->d[i];
		struct dgvtab_row *r = &rows[(*n)++];

		r->icount = c->run_icount + d->iseq;
		r->addr = (int64_t)c->run.addrs[i];
		r->size = d->size;
		r->is_write = d->is_write;
		r->pc = d->pc;
		r->thread = c->thread;
		r->context_id = (int64_t)c->run.context;
		if (t->no_blocks)
			r->block_id = 0, r->has_block = 0;
		else
			r->block_id = dgvt_block_at(&t->m, r->addr, r->icount, &r->has_block);
		r->aseq = i;
		r->chunk_id = c->chunk;
		r->module_id = d->module;
	}
}

/* The run marker of the cursor's current run (dgvtab_scan_runs). */
static void scan_mark(struct dgvt_cur *c, struct dgvtab_row *r)
{
	memset(r, 0, sizeof *r);
	r->icount = c->run_icount;
	r->size = c->run.n_instrs;
	r->thread = c->thread;
	r->context_id = (int64_t)c->run.context;
	r->aseq = -1;
	r->chunk_id = c->chunk;
}

/* Runs through the cursor's rows, batch by batch; with runs, each run's
   marker before its rows. */
static int scan_loop(struct dgvt *t, struct dgvt_cur *c, int64_t limit, int runs,
		     dgvtab_rows_fn *fn, void *arg, struct dgvtab_row *rows)
{
	size_t n = 0, max;
	int rc = SQLITE_OK, marked = 0;

	while (!c->eof && limit != 0) {
		max = limit > 0 && limit < SCAN_BATCH ? (size_t)limit : SCAN_BATCH;
		if (runs && !marked) {  /* a run begins: its marker first */
			scan_mark(c, &rows[n++]);
			marked = 1;
		}
		scan_fill(t, c, rows, &n, max);
		if (n == max) {
			if (fn(arg, rows, n))
				return SQLITE_OK;
			limit -= limit > 0 ? (int64_t)n : 0;
			n = 0;
		}
		if (c->k == c->n_sel) {
			if ((rc = dgvt_cur_run(t, c)) != SQLITE_OK)
				return rc;
			marked = 0;
		}
	}
	if (n && limit != 0)
		fn(arg, rows, n);
	return SQLITE_OK;
}

/* ------------------------------------------------------------ count */

int dgvtab_term_taken(const struct dgvtab_term *t)
{
	struct sqlite3_index_constraint c = { .iColumn = t->column, .op = t->op, .usable = 1 };

	if (t->column == DGVT_COL_STACK)        /* a set's name, nothing else */
		return t->op == SQLITE_INDEX_CONSTRAINT_EQ && t->text != NULL;
	return t->text == NULL && dgvt_usable(&c);
}

/* The terms (all taken: dgvtab_term_taken) as dgvt_best_index would plan
   them, their values as SQLite would pass them: sqlite3_values from a
   statement that selects them. */
static int count_values(sqlite3 *db, const struct dgvtab_term *terms, int n,
			char *plan, sqlite3_value **argv)
{
	sqlite3_str *q;
	sqlite3_stmt *st = NULL;
	char *sql;
	int i, rc;

	for (i = 0; i < n; i++) {
		plan[2 * i] = (char)('0' + terms[i].column);
		plan[2 * i + 1] = dgvt_op_char(terms[i].op);
	}
	plan[2 * n] = 0;
	if (n == 0)
		return SQLITE_OK;
	q = sqlite3_str_new(db);
	sqlite3_str_appendall(q, "SELECT ");
	for (i = 0; i < n; i++)
		if (terms[i].text)
			sqlite3_str_appendf(q, "%s%Q", i ? ", " : "", terms[i].text);
		else
			sqlite3_str_appendf(q, "%s%lld", i ? ", " : "", (long long)terms[i].value);
	sql = sqlite3_str_finish(q);
	rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc == SQLITE_OK && sqlite3_step(st) != SQLITE_ROW)
		rc = sqlite3_errcode(db);
	for (i = 0; i < n && rc == SQLITE_OK; i++)
		if (!(argv[i] = sqlite3_value_dup(sqlite3_column_value(st, i))))
			rc = SQLITE_NOMEM;
	sqlite3_finalize(st);
	return rc;
}

/* Terms on thread and chunk_id alone select whole chunks; with icount
   too (the `with_icount` kind), whole chunks inside its range and the
   few that straddle an end of it. */
static int whole_chunks(const struct dgvtab_term *terms, int n, int with_icount)
{
	int i;

	for (i = 0; i < n; i++)
		if (terms[i].column != DGVT_COL_THREAD && terms[i].column != DGVT_COL_CHUNK
		    && (!with_icount || terms[i].column != DGVT_COL_ICOUNT))
			return 0;
	return 1;
}

/* The icount terms as a closed range [*lo, *hi] (empty: *lo > *hi). */
static void icount_range(const struct dgvtab_term *terms, int n, int64_t *lo, int64_t *hi)
{
	int i;

	*lo = INT64_MIN;
	*hi = INT64_MAX;
	for (i = 0; i < n; i++) {
		int64_t v = terms[i].value;
		char op = dgvt_op_char(terms[i].op);

		if (terms[i].column != DGVT_COL_ICOUNT)
			continue;
		if ((op == '>' && v == INT64_MAX) || (op == '<' && v == INT64_MIN)) {
			*lo = INT64_MAX;        /* nothing is above the top */
			*hi = INT64_MIN;
			return;
		}
		if (op == '>')
			op = 'g', v++;
		else if (op == '<')
			op = 'l', v--;
		if ((op == '=' || op == 'g') && v > *lo)
			*lo = v;
		if ((op == '=' || op == 'l') && v < *hi)
			*hi = v;
	}
}

/* The chunks the thread and chunk_id terms select and `where` (SQL on
   chunks, ?101 and ?102 the icount range) admits: with ids, their ids one
   by one through fn; else their n_accesses (schema.sql) summed into
   *count, without decoding. */
static int chunks_select(struct dgvt *t, const struct dgvtab_term *terms, int n,
                         const char *where, int64_t lo, int64_t hi, int ids,
                         int (*fn)(void *, int64_t), void *arg, int64_t *count)
{
	static const char *const op_sql[] = { ['='] = "=", ['<'] = "<", ['l'] = "<=", ['>'] = ">", ['g'] = ">=" };
	sqlite3_str *q = sqlite3_str_new(t->d.db);
	sqlite3_stmt *st = NULL;
	char *sql;
	int i, rc;

	sqlite3_str_appendf(q, "SELECT %s FROM \"%w\".chunks WHERE %s",
	                    ids ? "id" : "coalesce(sum(n_accesses), 0)", t->d.schema, where);
	for (i = 0; i < n; i++)
		if (terms[i].column != DGVT_COL_ICOUNT)
			sqlite3_str_appendf(q, " AND %s %s ?%d",
			                    terms[i].column == DGVT_COL_THREAD ? "thread" : "id",
			                    op_sql[(unsigned char)dgvt_op_char(terms[i].op)], i + 1);
	if (!(sql = sqlite3_str_finish(q)))
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->d.db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return dgvt_sql_error(&t->d, "counting the chunks' accesses");
	for (i = 0; i < n; i++)
		if (terms[i].column != DGVT_COL_ICOUNT)
			sqlite3_bind_int64(st, i + 1, terms[i].value);
	sqlite3_bind_int64(st, 101, lo);
	sqlite3_bind_int64(st, 102, hi);
	sqlite3_bind_int64(st, 103, t->m.chunk_span);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!ids) {
			*count = sqlite3_column_int64(st, 0);
			continue;
		}
		if ((rc = fn(arg, sqlite3_column_int64(st, 0))) != SQLITE_OK) {
			sqlite3_finalize(st);
			return rc;             /* the decoder's error, said */
		}
	}
	rc = rc == SQLITE_DONE ? SQLITE_OK : dgvt_sql_error(&t->d, "counting the chunks' accesses");
	sqlite3_finalize(st);
	return rc;
}

/* dgvt_best_index's idxNum for count(*) WHERE terms. */
static int count_idx_num(const struct dgvtab_term *terms, int n)
{
	sqlite3_uint64 used = 0;
	int i;

	for (i = 0; i < n; i++)
		used |= (sqlite3_uint64)1 << terms[i].column;
	return dgvt_plan_idx_num(used);
}

/* count(*) WHERE the n terms by decoding, through a cursor as xFilter
   would run it. */
static int count_decoding(struct dgvt *t, const struct dgvtab_term *terms, int n, int64_t *count)
{
	sqlite3_value *argv[DGVTAB_COUNT_TERMS] = { NULL };
	char plan[2 * DGVTAB_COUNT_TERMS + 1];
	struct dgvt_cur *c;
	int i, rc;

	if ((rc = count_values(t->d.db, terms, n, plan, argv)) == SQLITE_OK
	    && (rc = solo_cursor(t, count_idx_num(terms, n), plan, n, argv, &c)) == SQLITE_OK) {
		rc = dgvt_cur_count(t, c, count);
		dgvt_cur_close(&c->base);
	}
	for (i = 0; i < n; i++)
		sqlite3_value_free(argv[i]);
	return rc;
}

/* A chunk straddling an end of the icount range: its accesses that pass
   the terms, decoded (the terms and chunk_id = id). */
struct straddle {
	struct dgvt *t;
	struct dgvtab_term terms[DGVTAB_COUNT_TERMS];
	int n;
	int64_t count;
};

static int straddle_count(void *arg, int64_t id)
{
	struct straddle *x = arg;
	int64_t k = 0;
	int rc;

	x->terms[x->n] = (struct dgvtab_term){ DGVT_COL_CHUNK, SQLITE_INDEX_CONSTRAINT_EQ, id, NULL };
	rc = count_decoding(x->t, x->terms, x->n + 1, &k);
	x->count += k;
	return rc;
}

/* t->m.chunk_span, read once a table object. */
static int chunk_span(struct dgvt *t)
{
	sqlite3_stmt *st;
	int rc;

	if (t->m.chunk_span >= 0)
		return SQLITE_OK;
	if ((rc = dgvt_prepare(&t->d, &st, "SELECT coalesce(max(icount_hi - icount_lo), 0) "
			       "FROM \"%w\".chunks")) != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		t->m.chunk_span = sqlite3_column_int64(st, 0) > 0 ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : dgvt_sql_error(&t->d, "reading the chunks' spans");
}

/* Terms on icount, thread and chunk_id: the chunks inside the icount range
   count whole (chunks of a thread follow each other in icount, and
   icount_hi is one past a chunk's last instruction), the few that
   straddle an end of it are decoded.  --icount-range at 1.5 x 10^9
   accesses: milliseconds, where decoding took 16 s. */
static int count_by_icount(struct dgvt *t, const struct dgvtab_term *terms, int n, int64_t *count)
{
	struct straddle x;
	int64_t lo, hi, whole = 0;
	int rc;

	icount_range(terms, n, &lo, &hi);
	*count = 0;
	if (lo > hi)
		return SQLITE_OK;
	if (n >= DGVTAB_COUNT_TERMS)     /* no room for chunk_id = id */
		return count_decoding(t, terms, n, count);
	memcpy(x.terms, terms, (size_t)n * sizeof *terms);
	x.t = t;
	x.n = n;
	x.count = 0;
	if ((rc = chunk_span(t)) != SQLITE_OK)
		return rc;
	/* both ranges bound icount_lo on both sides, so that the index
	   chunks_icount reads only the chunks near [lo, hi]: --events user:
	   counts an interval an event, and an open end read every chunk
	   from there on (1 024 intervals: 16 s) */
	rc = chunks_select(t, terms, n, "icount_lo >= ?101 AND icount_lo <= ?102 "
	                   "AND icount_hi - 1 <= ?102", lo, hi, 0, NULL, NULL, &whole);
	if (rc == SQLITE_OK)
		rc = chunks_select(t, terms, n, "icount_lo <= ?102 AND icount_lo >= ?101 - ?103 "
		                   "AND icount_hi - 1 >= ?101 "
		                   "AND NOT (icount_lo >= ?101 AND icount_hi - 1 <= ?102)",
		                   lo, hi, 1, straddle_count, &x, NULL);
	*count = whole + x.count;
	return rc;
}

/* The terms checked as dgvtab_count promises: SQLITE_OK, or SQLITE_MISUSE. */
static int terms_taken(const struct dgvtab_term *terms, int n)
{
	int i;

	if (n < 0 || n > DGVTAB_COUNT_TERMS)
		return SQLITE_MISUSE;
	for (i = 0; i < n; i++)
		if (!dgvtab_term_taken(&terms[i]))
			return SQLITE_MISUSE;
	return SQLITE_OK;
}

/* count(*) WHERE the terms, the cheapest way they allow. */
static int count_terms(struct dgvt *t, const struct dgvtab_term *terms, int n, int64_t *count)
{
	if (whole_chunks(terms, n, 0))
		return chunks_select(t, terms, n, "1", 0, 0, 0, NULL, NULL, count);
	if (whole_chunks(terms, n, 1))
		return count_by_icount(t, terms, n, count);
	return count_decoding(t, terms, n, count);
}

int dgvtab_count(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		 int64_t *count, char **errmsg)
{
	struct dgvt t;
	int rc = terms_taken(terms, n);

	if (rc != SQLITE_OK)
		return rc;
	rc = dgvt_init(&t, db, schema);
	if (rc == SQLITE_OK)
		rc = count_terms(&t, terms, n, count);
	return solo_end(&t, rc, errmsg);
}

int dgvtab_count_in(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		    const int64_t *bounds, size_t n_iv, int64_t *count, char **errmsg)
{
	struct dgvtab_term all[DGVTAB_COUNT_TERMS];
	struct dgvt t;
	int64_t k;
	size_t i;
	int rc = terms_taken(terms, n);

	if (rc != SQLITE_OK || n + 2 > DGVTAB_COUNT_TERMS)
		return SQLITE_MISUSE;
	memcpy(all, terms, (size_t)n * sizeof *terms);
	all[n] = (struct dgvtab_term){ DGVT_COL_ICOUNT, SQLITE_INDEX_CONSTRAINT_GE, 0, NULL };
	all[n + 1] = (struct dgvtab_term){ DGVT_COL_ICOUNT, SQLITE_INDEX_CONSTRAINT_LT, 0, NULL };
	*count = 0;
	rc = dgvt_init(&t, db, schema);
	for (i = 0; i < n_iv && rc == SQLITE_OK; i++) {
		all[n].value = bounds[2 * i];
		all[n + 1].value = bounds[2 * i + 1];
		if ((rc = count_terms(&t, all, n + 2, &k)) == SQLITE_OK)
			*count += k;
	}
	return solo_end(&t, rc, errmsg);
}

/* ------------------------------------------------------------ scan with terms */

/* A table of the call's own, a cursor as xFilter would run it for the
   terms, and scan_loop; with runs, every run (dgvtab_scan_runs). */
static int scan_with(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		     int no_blocks, const uint8_t *pick, int64_t n_pick, int parity, int64_t limit,
		     int runs, dgvtab_rows_fn *fn, void *arg, char **errmsg)
{
	sqlite3_value *argv[DGVTAB_COUNT_TERMS] = { NULL };
	char plan[2 * DGVTAB_COUNT_TERMS + 1];
	struct dgvtab_row *rows;
	struct dgvt_cur *c;
	struct dgvt t;
	int i, rc = terms_taken(terms, n);

	if (rc != SQLITE_OK)
		return rc;
	rows = sqlite3_malloc64(SCAN_BATCH * sizeof *rows);
	rc = dgvt_init(&t, db, schema);
	t.all_runs = runs;
	t.pick = pick;
	t.n_pick = n_pick;
	t.parity = parity;
	t.no_blocks = no_blocks;
	if (rc == SQLITE_OK && !rows)
		rc = SQLITE_NOMEM;
	/* every column is read, block_id too unless no_blocks (DGVT_PLAN_BLOCKS) */
	if (rc == SQLITE_OK && (rc = count_values(db, terms, n, plan, argv)) == SQLITE_OK
	    && (rc = solo_cursor(&t, t.no_blocks ? 0 : DGVT_PLAN_BLOCKS, plan, n, argv, &c))
	       == SQLITE_OK) {
		rc = scan_loop(&t, c, limit, runs, fn, arg, rows);
		dgvt_cur_close(&c->base);
	}
	for (i = 0; i < n; i++)
		sqlite3_value_free(argv[i]);
	sqlite3_free(rows);
	return solo_end(&t, rc, errmsg);
}

int dgvtab_scan(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		int64_t limit, dgvtab_rows_fn *fn, void *arg, char **errmsg)
{
	return scan_with(db, schema, terms, n, 0, NULL, 0, 0, limit, 0, fn, arg, errmsg);
}

int dgvtab_scan_picked(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		       const uint8_t *pick, int64_t n_pick, int parity, dgvtab_rows_fn *fn,
		       void *arg, char **errmsg)
{
	return scan_with(db, schema, terms, n, 1, pick, n_pick, parity, -1, 0, fn, arg, errmsg);
}

/* ------------------------------------------------------------ two threads */

/* A call-stack set's two tables (temp.P_ctx, temp.P_pcs), read on the
   caller's connection and made again on the helper's, whose temp schema
   is its own: two integers a row. */
struct set_copy {
	const char *name;       /* P; NULL: no set */
	int64_t *v[2];          /* P_ctx's (id, whole), P_pcs' (pc, module_id) */
	size_t n[2];
};

static const char *const set_reads[2] = {
	"SELECT id, whole FROM temp.\"%w_ctx\"",
	"SELECT pc, module_id FROM temp.\"%w_pcs\"",
};
static const char *const set_makes[2] = {
	"CREATE TEMP TABLE \"%w_ctx\"(id INTEGER PRIMARY KEY, whole INTEGER NOT NULL)",
	"CREATE TEMP TABLE \"%w_pcs\"(pc INTEGER, module_id INTEGER, PRIMARY KEY (pc, module_id))"
	" WITHOUT ROWID",
};
static const char *const set_fills[2] = {
	"INSERT INTO temp.\"%w_ctx\" VALUES (?1, ?2)",
	"INSERT INTO temp.\"%w_pcs\" VALUES (?1, ?2)",
};

static int set_read(sqlite3 *db, struct set_copy *c, int k)
{
	char *sql = sqlite3_mprintf(set_reads[k], c->name);
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;

	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (dg_grow((void **)&c->v[k], &cap, 2 * c->n[k] + 2, sizeof *c->v[k]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		c->v[k][2 * c->n[k]] = sqlite3_column_int64(st, 0);
		c->v[k][2 * c->n[k]++ + 1] = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int set_write(sqlite3 *db, const struct set_copy *c, int k)
{
	char *make = sqlite3_mprintf(set_makes[k], c->name);
	char *fill = sqlite3_mprintf(set_fills[k], c->name);
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = !make || !fill ? SQLITE_NOMEM : sqlite3_exec(db, make, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, fill, -1, &st, NULL);
	for (i = 0; rc == SQLITE_OK && i < c->n[k]; i++) {
		sqlite3_bind_int64(st, 1, c->v[k][2 * i]);
		sqlite3_bind_int64(st, 2, c->v[k][2 * i + 1]);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	sqlite3_free(make);
	sqlite3_free(fill);
	return rc;
}

/* The helper's share: the set made again, then the odd chunks. */
struct split_job {
	const struct dgvtab_term *terms;
	int n;
	const uint8_t *pick;
	int64_t n_pick;
	const struct set_copy *set;
	dgvtab_rows_fn *fn;
	void *arg;
};

static int split_job(sqlite3 *db, void *v, char **msg)
{
	struct split_job *j = v;
	int k, rc = SQLITE_OK;

	if (j->set->name) {
		rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
		for (k = 0; k < 2 && rc == SQLITE_OK; k++)
			rc = set_write(db, j->set, k);
		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			*msg = sqlite3_mprintf("accesses: copying the call-stack set: %s",
					       sqlite3_errmsg(db));
			return rc;
		}
	}
	return scan_with(db, "main", j->terms, j->n, 1, j->pick, j->n_pick, 2, -1, 0, j->fn,
			 j->arg, msg);
}

int dgvtab_split_worth(sqlite3 *db, const char *schema)
{
	const char *path = sqlite3_db_filename(db, schema);
	char *sql = sqlite3_mprintf("SELECT max(id) FROM \"%w\".chunks", schema);
	sqlite3_stmt *st;
	int worth = 0;

	if (path && *path && sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		worth = sqlite3_step(st) == SQLITE_ROW
		        && sqlite3_column_int64(st, 0) >= DGVTAB_SPLIT_CHUNKS;
		sqlite3_finalize(st);
	}
	sqlite3_free(sql);
	return worth;
}

int dgvtab_scan_split(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		      const uint8_t *pick, int64_t n_pick, dgvtab_rows_fn *fn,
		      void *const arg[2], char **errmsg)
{
	const char *path = sqlite3_db_filename(db, schema);
	struct set_copy set = { NULL, { NULL, NULL }, { 0, 0 } };
	struct split_job j = { terms, n, pick, n_pick, &set, fn, arg[1] };
	struct dgside side;
	char *side_msg;
	int k, rc = SQLITE_OK, side_rc;

	if (!dgvtab_split_worth(db, schema))
		return dgvtab_scan_picked(db, schema, terms, n, pick, n_pick, 0, fn, arg[0], errmsg);
	for (k = 0; k < n; k++)
		if (terms[k].column == DGVTAB_STACK_COLUMN)
			set.name = terms[k].text;
	for (k = 0; set.name && k < 2 && rc == SQLITE_OK; k++)
		rc = set_read(db, &set, k);
	if (rc != SQLITE_OK || dgside_start(&side, path, split_job, &j) < 0) {
		free(set.v[0]);
		free(set.v[1]);
		return dgvtab_scan_picked(db, schema, terms, n, pick, n_pick, 0, fn, arg[0], errmsg);
	}
	rc = scan_with(db, schema, terms, n, 1, pick, n_pick, 1, -1, 0, fn, arg[0], errmsg);
	side_rc = dgside_join(&side, &side_msg);
	if (rc == SQLITE_OK && side_rc != SQLITE_OK) {
		rc = side_rc;
		*errmsg = side_msg;
		side_msg = NULL;
	}
	sqlite3_free(side_msg);
	free(set.v[0]);
	free(set.v[1]);
	return rc;
}

int dgvtab_scan_runs(sqlite3 *db, const char *schema, dgvtab_rows_fn *fn, void *arg,
		     char **errmsg)
{
	return scan_with(db, schema, NULL, 0, 0, NULL, 0, 0, -1, 1, fn, arg, errmsg);
}
