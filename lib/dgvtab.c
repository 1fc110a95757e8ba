/* dgvtab.c: the `accesses` virtual table.  See dgvtab.h.
 *
 * Layout.  A table object (struct dgvt, dgvt_model.h) owns the model of
 * the definitions and the heap blocks.  A cursor (struct cur) owns a chunk codec with
 * every context registered, the statements that bring chunks, the filter
 * built in xFilter, and the current run: its addresses (the codec's array)
 * and `sel`, the indexes of the accesses of the run that pass the filter.
 * xNext moves through `sel`, decoding the next run when it is used up;
 * xColumn reads one field of one access; nothing is allocated per row.
 *
 * The plan (xBestIndex, dgvt_plan.c) is a string of two characters per
 * argument of xFilter, column then operator, so that xFilter needs no
 * other state.
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
#include "dgcellvt.h"
#include "dgchunk.h"
#include "dgvt_db.h"
#include "dgvt_filter.h"
#include "dgvt_model.h"
#include "dgvt_plan.h"
#include "dgvt_source.h"
#include "dgvtab.h"

/* The columns, in enum dgvt_col's order (dgvt_plan.h). */
static const char vt_decl[] =
	"CREATE TABLE x(icount INTEGER, addr INTEGER, size INTEGER,"
	" is_write INTEGER, pc INTEGER, thread INTEGER, context_id INTEGER,"
	" block_id INTEGER, aseq INTEGER, chunk_id INTEGER, module_id INTEGER,"
	" stack_filter HIDDEN)";

struct cur {
	sqlite3_vtab_cursor base;
	struct dgchunk_codec codec;
	int codec_ready;
	struct dgvt_source s;
	/* Counting (a block_id = X plan reading no column): rows without
	   decoding, s.cnts[s.pos] for chunk s.ids[s.pos]; `done` of them
	   given. */
	int counting;
	int64_t done;
	struct dgvt_filter f;
	int eof, in_chunk;
	int64_t chunk, thread, next_icount, run_icount;
	uint32_t next_first, run_first, run_no;
	struct dgchunk_run run;
	const struct dgvt_desc *d;
	uint32_t *sel;
	uint32_t n_sel, k;
};

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
	*out = &t->d.base;
	return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vtab)
{
	dgvt_free((struct dgvt *)vtab);
	sqlite3_free(vtab);
	return SQLITE_OK;
}

/* ------------------------------------------------------------ cursors */

static int vt_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	struct cur *c = sqlite3_malloc(sizeof *c);

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	dgchunk_init(&c->codec);
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *base)
{
	struct cur *c = (struct cur *)base;

	dgvt_source_free(&c->s);
	dgchunk_free(&c->codec);
	sqlite3_free(c->sel);
	dgvt_filter_free(&c->f);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* The codec with every context of the model, once per cursor. */
static int cur_ready(struct cur *c, const struct dgvt_model *m)
{
	size_t k;

	if (c->codec_ready)
		return SQLITE_OK;
	dgchunk_set_plain(&c->codec, m->plain);
	for (k = 0; k < m->n_ctx; k++)
		if (dgchunk_add_context(&c->codec, m->ctx_shape[2 * k], m->ctx_shape[2 * k + 1]) < 0)
			return SQLITE_NOMEM;
	c->sel = sqlite3_malloc64(((sqlite3_uint64)m->max_accesses + 1) * sizeof *c->sel);
	if (!c->sel)
		return SQLITE_NOMEM;
	c->codec_ready = 1;
	return SQLITE_OK;
}

static int next_chunk(struct dgvt *t, struct cur *c)
{
	sqlite3_stmt *st;
	const void *data;
	int rc;

	if ((rc = dgvt_source_next(t, &c->s, &c->f, &st)) != SQLITE_OK)
		return rc;
	if (!st)
		return c->eof = 1, SQLITE_OK;
	c->chunk = sqlite3_column_int64(st, 0);
	c->thread = sqlite3_column_int64(st, 1);
	c->next_icount = sqlite3_column_int64(st, 2);
	c->next_first = 0;
	c->run_no = 0;
	data = sqlite3_column_blob(st, 6);
	dgchunk_decode_begin(&c->codec, data ? data : "", (size_t)sqlite3_column_bytes(st, 6));
	c->in_chunk = 1;
	return SQLITE_OK;
}

/* The accesses of the current run that pass the filter, into sel. */
static void select_run(struct cur *c, const struct dgvt_model *m)
{
	const struct dgvt_filter *f = &c->f;
	const struct dgvt_desc *d = m->descs + m->ctx_desc[c->run.context];
	const uint64_t *a = c->run.addrs;
	int64_t base = c->run_icount;
	uint32_t i, n = 0, na = c->run.n_addrs;
	uint64_t x = c->run.context;
	const uint8_t *ok = f->has_stack && !(f->whole_set[x >> 3] & (1u << (x & 7)))
			    ? f->desc_ok + m->ctx_desc[x] : NULL;

	c->d = d;
	c->k = 0;
	if ((f->has_ctx && !(f->ctx_set[c->run.context >> 3] & (1u << (c->run.context & 7))))
	    || base + (int64_t)c->run.n_instrs <= f->ic_lo) {
		c->n_sel = 0;
		return;
	}
	for (i = 0; i < na; i++) {
		int64_t ic = base + d[i].iseq, addr = (int64_t)a[i];
		if ((addr == 0 && d[i].guarded) || (f->is_write >= 0 && d[i].is_write != f->is_write)
		    || ic < f->ic_lo || ic > f->ic_hi || addr < f->a_lo || addr > f->a_hi
		    || (ok && !ok[i]))
			continue;
		if (f->has_block) {
			int found;
			if (dgvt_block_at(m, addr, ic, &found) != f->block || !found)
				continue;
		}
		c->sel[n++] = i;
	}
	c->n_sel = n;
}

/* A partial run's accesses must belong to the instructions it ran. */
static int run_consistent(const struct cur *c, const struct dgvt_model *m)
{
	const struct dgvt_desc *d = m->descs + m->ctx_desc[c->run.context];

	return !c->run.partial || c->run.n_addrs == 0
	       || d[c->run.n_addrs - 1].iseq < c->run.n_instrs;
}

/* Decode runs until one has a selected access, or the end. */
static int next_run(struct dgvt *t, struct cur *c)
{
	int r, rc;

	for (;;) {
		if (!c->in_chunk) {
			if ((rc = next_chunk(t, c)) != SQLITE_OK || c->eof)
				return rc;
		}
		r = dgchunk_next(&c->codec, &c->run);
		if (r > 0 && !run_consistent(c, &t->m))
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: run %u has accesses past its %u instructions",
			                (long long)c->chunk, c->run_no, c->run.n_instrs);
		if (r < 0)
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: malformed data at run %u",
			                (long long)c->chunk, c->run_no);
		if (r == 0) {
			c->in_chunk = 0;
			continue;
		}
		/* icounts of this run and of its instructions (iseq < 256)
		   must be int64_t: the chunk's icount_lo is the database's */
		if (c->next_icount < 0 || c->next_icount > INT64_MAX - 512)
			return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: run %u: icount %lld out of range",
			                (long long)c->chunk, c->run_no, (long long)c->next_icount);
		c->run_no++;
		c->run_icount = c->next_icount;
		c->run_first = c->next_first;
		c->next_icount += c->run.n_instrs;
		c->next_first += c->run.n_addrs;
		if (c->run_icount > c->f.ic_hi) {
			c->in_chunk = 0;        /* the rest of the chunk is later */
			continue;
		}
		select_run(c, &t->m);
		if (c->n_sel)
			return SQLITE_OK;
	}
}

/* ------------------------------------------------------------ counting */

/* From the first chunk with a count, or at the end. */
static void count_skip_empty(struct cur *c)
{
	c->done = 0;
	while (c->s.pos < c->s.n_ids && c->s.cnts[c->s.pos] <= 0)
		c->s.pos++;
	c->eof = c->s.pos == c->s.n_ids;
}

/* A block_id = X plan that reads no column: the rows are the counts of
   sum_block_chunks, given without decoding a chunk. */
static int count_start(struct dgvt *t, struct cur *c)
{
	int rc = dgvt_source_list(t, &c->s, &c->f);

	if (rc != SQLITE_OK)
		return rc;
	c->counting = 1;
	c->s.pos = 0;
	count_skip_empty(c);
	return SQLITE_OK;
}

static void count_next(struct cur *c)
{
	if (++c->done < c->s.cnts[c->s.pos])
		return;
	c->s.pos++;
	count_skip_empty(c);
}

/* SQLite wants a value after all (a rowid): decode from the current
   chunk on, as if it had been decoding all along, and stand on the row
   counted last. */
static int count_decode(struct dgvt *t, struct cur *c)
{
	int64_t skip = c->done, chunk = c->s.ids[c->s.pos];
	int rc;

	c->counting = 0;
	c->in_chunk = 0;
	if ((rc = dgvt_source_fetch_list(t, &c->s)) != SQLITE_OK || (rc = next_run(t, c)) != SQLITE_OK)
		return rc;
	while (!c->eof && c->chunk == chunk && skip >= c->n_sel) {
		skip -= c->n_sel;
		if ((rc = next_run(t, c)) != SQLITE_OK)
			return rc;
	}
	if (c->eof || c->chunk != chunk)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld holds fewer accesses of block %lld"
		                " than sum_block_chunks counts", (long long)chunk, (long long)c->f.block);
	c->k = (uint32_t)skip;
	return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *base)
{
	struct cur *c = (struct cur *)base;

	if (c->counting)
		return count_next(c), SQLITE_OK;
	if (++c->k < c->n_sel)
		return SQLITE_OK;
	return next_run((struct dgvt *)base->pVtab, c);
}

static int vt_filter(sqlite3_vtab_cursor *base, int idx_num, const char *plan,
                     int argc, sqlite3_value **argv)
{
	struct cur *c = (struct cur *)base;
	struct dgvt *t = (struct dgvt *)base->pVtab;
	int rc;

	c->eof = 1;
	c->in_chunk = 0;
	c->counting = 0;
	c->n_sel = c->k = 0;
	if ((rc = dgvt_model_load(t)) != SQLITE_OK || (rc = cur_ready(c, &t->m)) != SQLITE_OK)
		return rc;
	rc = dgvt_filter_build(t, &c->f, plan, argc, argv);
	if (rc == SQLITE_OK && (idx_num & DGVT_PLAN_BLOCKS || c->f.has_block))
		rc = dgvt_blocks_load(t);
	/* No context with an access: no row can exist, and the codec would
	   have no prediction slots at all, which it does not expect. */
	if (rc != SQLITE_OK || c->f.empty || c->codec.n_slots == 0)
		return rc;
	if (idx_num & DGVT_PLAN_NO_COLUMNS && c->f.block_summed)
		return count_start(t, c);
	if ((rc = dgvt_source_choose(t, &c->s, &c->f)) != SQLITE_OK)
		return rc;
	c->eof = 0;
	return next_run(t, c);
}

static int vt_eof(sqlite3_vtab_cursor *base)
{
	return ((struct cur *)base)->eof;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	struct cur *c = (struct cur *)base;
	struct dgvt *t = (struct dgvt *)base->pVtab;
	uint32_t i;
	const struct dgvt_desc *d;
	int found, rc;
	int64_t b;

	if (c->counting && col == DGVT_COL_BLOCK)
		return sqlite3_result_int64(ctx, c->f.block), SQLITE_OK;
	if (c->counting && (rc = count_decode(t, c)) != SQLITE_OK)
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
	struct cur *c = (struct cur *)base;
	int rc;

	if (c->counting && (rc = count_decode((struct dgvt *)base->pVtab, c)) != SQLITE_OK)
		return rc;
	*rowid = (sqlite3_int64)((uint64_t)c->chunk << 32 | (c->run_first + c->sel[c->k]));
	return SQLITE_OK;
}

/* ------------------------------------------------------------ scan */

#define SCAN_BATCH 4096

/* The selected accesses of the cursor's current run from the k-th on,
   into rows[*n..]; the block looked up as vt_column does. */
static void scan_fill(struct dgvt *t, struct cur *c, struct dgvtab_row *rows,
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
		r->block_id = dgvt_block_at(&t->m, r->addr, r->icount, &r->has_block);
		r->aseq = i;
		r->chunk_id = c->chunk;
		r->module_id = d->module;
	}
}

/* Runs through the cursor's rows, batch by batch. */
static int scan_loop(struct dgvt *t, struct cur *c, int64_t limit,
		     dgvtab_rows_fn *fn, void *arg, struct dgvtab_row *rows)
{
	size_t n = 0, max;
	int rc = SQLITE_OK;

	while (!c->eof && limit != 0) {
		max = limit > 0 && limit < SCAN_BATCH ? (size_t)limit : SCAN_BATCH;
		scan_fill(t, c, rows, &n, max);
		if (n == max) {
			if (fn(arg, rows, n))
				return SQLITE_OK;
			limit -= limit > 0 ? (int64_t)n : 0;
			n = 0;
		}
		if (c->k == c->n_sel && (rc = next_run(t, c)) != SQLITE_OK)
			return rc;
	}
	if (n && limit != 0)
		fn(arg, rows, n);
	return SQLITE_OK;
}

/* The end of a table of the caller's own (dgvtab_scan, dgvtab_count: no
   SQLite statement; vt_init made it): *errmsg as the table's errors say
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
   dgvt_best_index plans them); the caller closes it (vt_close). */
static int solo_cursor(struct dgvt *t, int idx_num, const char *plan, int argc,
		       sqlite3_value **argv, struct cur **out)
{
	sqlite3_vtab_cursor *base;
	int rc = vt_open(&t->d.base, &base);

	if (rc != SQLITE_OK)
		return rc;
	base->pVtab = &t->d.base;
	if ((rc = vt_filter(base, idx_num, plan, argc, argv)) != SQLITE_OK) {
		vt_close(base);
		return rc;
	}
	*out = (struct cur *)base;
	return SQLITE_OK;
}

int dgvtab_scan(sqlite3 *db, const char *schema, int64_t limit,
		dgvtab_rows_fn *fn, void *arg, char **errmsg)
{
	struct dgvt t;
	struct cur *c;
	struct dgvtab_row *rows = sqlite3_malloc64(SCAN_BATCH * sizeof *rows);
	int rc = dgvt_init(&t, db, schema);

	if (rc == SQLITE_OK && !rows)
		rc = SQLITE_NOMEM;
	if (rc == SQLITE_OK && (rc = solo_cursor(&t, DGVT_PLAN_BLOCKS, "", 0, NULL, &c)) == SQLITE_OK) {
		rc = scan_loop(&t, c, limit, fn, arg, rows);
		vt_close(&c->base);
	}
	sqlite3_free(rows);
	return solo_end(&t, rc, errmsg);
}

/* The rows a cursor positioned by vt_filter would give, summed run by
   run (or chunk by chunk when it counts a summed block), never stepping
   row by row. */
static int count_rows(struct dgvt *t, struct cur *c, int64_t *count)
{
	int rc = SQLITE_OK;

	*count = 0;
	if (c->counting) {
		for (; c->s.pos < c->s.n_ids; c->s.pos++)
			*count += c->s.cnts[c->s.pos] > 0 ? c->s.cnts[c->s.pos] : 0;
		return SQLITE_OK;
	}
	while (!c->eof && rc == SQLITE_OK) {
		*count += c->n_sel;
		rc = next_run(t, c);
	}
	return rc;
}

int dgvtab_term_taken(const struct dgvtab_term *t)
{
	struct sqlite3_index_constraint c = { .iColumn = t->column, .op = t->op, .usable = 1 };

	return dgvt_usable(&c) && c.iColumn != DGVT_COL_STACK;
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

/* Terms on thread and chunk_id alone select whole chunks. */
static int whole_chunks(const struct dgvtab_term *terms, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (terms[i].column != DGVT_COL_THREAD && terms[i].column != DGVT_COL_CHUNK)
			return 0;
	return 1;
}

/* Whole chunks' rows are their n_accesses (schema.sql), summed without
   decoding. */
static int count_from_chunks(struct dgvt *t, const struct dgvtab_term *terms, int n, int64_t *count)
{
	static const char *const op_sql[] = { ['='] = "=", ['<'] = "<", ['l'] = "<=", ['>'] = ">", ['g'] = ">=" };
	sqlite3_str *q = sqlite3_str_new(t->d.db);
	sqlite3_stmt *st = NULL;
	char *sql;
	int i, rc;

	sqlite3_str_appendf(q, "SELECT coalesce(sum(n_accesses), 0) FROM \"%w\".chunks WHERE 1", t->d.schema);
	for (i = 0; i < n; i++)
		sqlite3_str_appendf(q, " AND %s %s ?%d", terms[i].column == DGVT_COL_THREAD ? "thread" : "id",
		                    op_sql[(unsigned char)dgvt_op_char(terms[i].op)], i + 1);
	if (!(sql = sqlite3_str_finish(q)))
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(t->d.db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return dgvt_sql_error(&t->d, "counting the chunks' accesses");
	for (i = 0; i < n; i++)
		sqlite3_bind_int64(st, i + 1, terms[i].value);
	if (sqlite3_step(st) == SQLITE_ROW)
		*count = sqlite3_column_int64(st, 0);
	else
		rc = dgvt_sql_error(&t->d, "counting the chunks' accesses");
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

int dgvtab_count(sqlite3 *db, const char *schema, const struct dgvtab_term *terms, int n,
		 int64_t *count, char **errmsg)
{
	struct dgvt t;
	struct cur *c;
	sqlite3_value *argv[DGVTAB_COUNT_TERMS] = { NULL };
	char plan[2 * DGVTAB_COUNT_TERMS + 1];
	int i, rc;

	if (n < 0 || n > DGVTAB_COUNT_TERMS)
		return SQLITE_MISUSE;
	for (i = 0; i < n; i++)
		if (!dgvtab_term_taken(&terms[i]))
			return SQLITE_MISUSE;
	rc = dgvt_init(&t, db, schema);
	if (rc == SQLITE_OK && whole_chunks(terms, n))
		rc = count_from_chunks(&t, terms, n, count);
	else if (rc == SQLITE_OK && (rc = count_values(db, terms, n, plan, argv)) == SQLITE_OK
	         && (rc = solo_cursor(&t, count_idx_num(terms, n), plan, n, argv, &c)) == SQLITE_OK) {
		rc = count_rows(&t, c, count);
		vt_close(&c->base);
	}
	for (i = 0; i < n; i++)
		sqlite3_value_free(argv[i]);
	return solo_end(&t, rc, errmsg);
}

/* ------------------------------------------------------------ module */

static const sqlite3_module vt_module = {
	.iVersion = 0,
	.xCreate = vt_connect,
	.xConnect = vt_connect,
	.xBestIndex = dgvt_best_index,
	.xDisconnect = vt_disconnect,
	.xDestroy = vt_disconnect,
	.xOpen = vt_open,
	.xClose = vt_close,
	.xFilter = vt_filter,
	.xNext = vt_next,
	.xEof = vt_eof,
	.xColumn = vt_column,
	.xRowid = vt_rowid,
};

int dgvtab_register(sqlite3 *db, char **errmsg)
{
	int rc = sqlite3_create_module_v2(db, "accesses", &vt_module, NULL, NULL);

	if (rc != SQLITE_OK) {
		if (errmsg)
			*errmsg = sqlite3_mprintf("accesses: cannot register the module: %s",
						  sqlite3_errmsg(db));
		return rc;
	}
	/* the summary's own table goes wherever accesses goes */
	return dgcellvt_register(db, errmsg);
}
