/* dgvt_cursor.c: the `accesses` table's cursor, which decodes chunks.
 * See dgvt_cursor.h.
 *
 * The hot loop (dgvt_cur_run: dgchunk_next decodes a run, select_run
 * passes over its accesses) and its callees are in this file, so that the
 * compiler inlines them as it did before dgvtab.c was split; the calls out
 * are those that were calls then too (dgchunk_next, dgvt_block_at for a
 * block_id = X filter), and dgvt_source_next once a chunk.
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
#include "dgchunk.h"
#include "dgvt_cursor.h"
#include "dgvt_db.h"
#include "dgvt_filter.h"
#include "dgvt_model.h"
#include "dgvt_plan.h"
#include "dgvt_source.h"

/* ------------------------------------------------------------ open, close */

int dgvt_cur_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **out)
{
	struct dgvt_cur *c = sqlite3_malloc(sizeof *c);

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	dgchunk_init(&c->codec);
	c->eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

int dgvt_cur_close(sqlite3_vtab_cursor *base)
{
	struct dgvt_cur *c = (struct dgvt_cur *)base;

	dgvt_source_free(&c->s);
	dgchunk_free(&c->codec);
	sqlite3_free(c->own);
	sqlite3_free(c->ident);
	dgvt_filter_free(&c->f);
	sqlite3_free(c);
	return SQLITE_OK;
}

/* The codec with every context of the model, once per cursor. */
static int cur_ready(struct dgvt_cur *c, const struct dgvt_model *m)
{
	size_t k;

	if (c->codec_ready)
		return SQLITE_OK;
	dgchunk_set_coding(&c->codec, (enum dgchunk_coding)m->coding);
	for (k = 0; k < m->n_ctx; k++)
		if (dgchunk_add_context(&c->codec, m->ctx_shape[2 * k], m->ctx_shape[2 * k + 1]) < 0)
			return SQLITE_NOMEM;
	c->own = sqlite3_malloc64(((sqlite3_uint64)m->max_accesses + 1) * sizeof *c->own);
	c->ident = sqlite3_malloc64(((sqlite3_uint64)m->max_accesses + 1) * sizeof *c->ident);
	if (!c->own || !c->ident)
		return SQLITE_NOMEM;
	for (k = 0; k <= m->max_accesses; k++)
		c->ident[k] = (uint32_t)k;
	c->codec_ready = 1;
	return SQLITE_OK;
}

/* ------------------------------------------------------------ decoding */

static int next_chunk(struct dgvt *t, struct dgvt_cur *c)
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
	dgchunk_skip_addrs(&c->codec, c->no_addrs && c->f.open ? t->m.ctx_guarded : NULL);
	dgchunk_decode_begin(&c->codec, data ? data : "", (size_t)sqlite3_column_bytes(st, 6));
	c->in_chunk = 1;
	return SQLITE_OK;
}

/* The accesses of the current run that pass the filter, into sel. */
static void select_run(struct dgvt_cur *c, const struct dgvt_model *m)
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
	c->sel = c->own;
	if ((f->has_ctx && !(f->ctx_set[c->run.context >> 3] & (1u << (c->run.context & 7))))
	    || base + (int64_t)c->run.n_instrs <= f->ic_lo) {
		c->n_sel = 0;
		return;
	}
	if (f->open) {          /* every access that happened */
		if (!(m->ctx_guarded[x >> 3] & (1u << (x & 7)))) {
			c->sel = c->ident;
			c->n_sel = na;
			return;
		}
		for (i = 0; i < na; i++)
			if (a[i] != 0 || !d[i].guarded)
				c->own[n++] = i;
		c->n_sel = n;
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
		c->own[n++] = i;
	}
	c->n_sel = n;
}

/* A partial run's accesses must belong to the instructions it ran. */
static int run_consistent(const struct dgvt_cur *c, const struct dgvt_model *m)
{
	const struct dgvt_desc *d = m->descs + m->ctx_desc[c->run.context];

	return !c->run.partial || c->run.n_addrs == 0
	       || d[c->run.n_addrs - 1].iseq < c->run.n_instrs;
}

/* Whether the next run's icount and its instructions' (iseq < 256) are
   int64_t: the chunk's icount_lo is the database's, not to be trusted. */
static inline int icount_ok(const struct dgvt_cur *c)
{
	return c->next_icount >= 0 && c->next_icount <= INT64_MAX - 512;
}

/* The run just decoded: its number, first icount and first access in the
   chunk, and the next run's. */
static inline void run_count(struct dgvt_cur *c)
{
	c->run_no++;
	c->run_icount = c->next_icount;
	c->run_first = c->next_first;
	c->next_icount += c->run.n_instrs;
	c->next_first += c->run.n_addrs;
}

/* The run dgchunk_next answered r for, checked, counted and selected:
   SQLITE_OK with *more set when the caller goes on decoding (the chunk
   ended, or the run has nothing selected). */
static int run_take(struct dgvt *t, struct dgvt_cur *c, int r, int *more)
{
	*more = 1;
	if (r > 0 && !run_consistent(c, &t->m))
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: run %u has accesses past its %u instructions",
		                (long long)c->chunk, c->run_no, c->run.n_instrs);
	if (r == -2)
		return dgvt_error(&t->d, SQLITE_NOMEM, "accesses: chunk %lld: out of memory at run %u",
		                (long long)c->chunk, c->run_no);
	if (r < 0)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: malformed data at run %u",
		                (long long)c->chunk, c->run_no);
	if (r == 0) {
		c->in_chunk = 0;
		return SQLITE_OK;
	}
	if (!icount_ok(c))
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld: run %u: icount %lld out of range",
		                (long long)c->chunk, c->run_no, (long long)c->next_icount);
	run_count(c);
	if (c->run_icount > c->f.ic_hi) {
		c->in_chunk = 0;        /* the rest of the chunk is later */
		return SQLITE_OK;
	}
	select_run(c, &t->m);
	*more = !c->n_sel && !t->all_runs;
	return SQLITE_OK;
}

/* Decode runs until one has a selected access, or the end. */
int dgvt_cur_run(struct dgvt *t, struct dgvt_cur *c)
{
	int rc, more;

	for (;;) {
		if (!c->in_chunk) {
			if ((rc = next_chunk(t, c)) != SQLITE_OK || c->eof)
				return rc;
		}
		rc = run_take(t, c, dgchunk_next(&c->codec, &c->run), &more);
		if (rc != SQLITE_OK || !more)
			return rc;
	}
}

int dgvt_cur_run_open(struct dgvt *t, struct dgvt_cur *c)
{
	const struct dgvt_model *m = &t->m;
	uint64_t x;
	int r, rc, more;

	for (;;) {
		if (!c->in_chunk)
			return dgvt_cur_run(t, c);
		r = dgchunk_next(&c->codec, &c->run);
		x = c->run.context;
		if (r <= 0 || m->ctx_guarded[x >> 3] & (1u << (x & 7)) || !run_consistent(c, m)
		    || !icount_ok(c)) {
			rc = run_take(t, c, r, &more);
			return rc != SQLITE_OK || !more ? rc : dgvt_cur_run(t, c);
		}
		run_count(c);
		if (c->run.n_addrs) {
			c->d = m->descs + m->ctx_desc[x];
			c->sel = c->ident;
			c->n_sel = c->run.n_addrs;
			c->k = 0;
			return SQLITE_OK;
		}
	}
}

/* ------------------------------------------------------------ counting */

/* From the first chunk with a count, or at the end. */
static void count_skip_empty(struct dgvt_cur *c)
{
	c->done = 0;
	while (c->s.pos < c->s.n_ids && c->s.cnts[c->s.pos] <= 0)
		c->s.pos++;
	c->eof = c->s.pos == c->s.n_ids;
}

/* A block_id = X plan that reads no column: the rows are the counts of
   sum_block_chunks, given without decoding a chunk. */
static int count_start(struct dgvt *t, struct dgvt_cur *c)
{
	int rc = dgvt_source_list(t, &c->s, &c->f);

	if (rc != SQLITE_OK)
		return rc;
	c->counting = 1;
	c->s.pos = 0;
	count_skip_empty(c);
	return SQLITE_OK;
}

static void count_next(struct dgvt_cur *c)
{
	if (++c->done < c->s.cnts[c->s.pos])
		return;
	c->s.pos++;
	count_skip_empty(c);
}

/* SQLite wants a value after all (a rowid): decode from the current
   chunk on, as if it had been decoding all along, and stand on the row
   counted last. */
int dgvt_cur_count_decode(struct dgvt *t, struct dgvt_cur *c)
{
	int64_t skip = c->done, chunk = c->s.ids[c->s.pos];
	int rc;

	c->counting = 0;
	c->in_chunk = 0;
	if ((rc = dgvt_source_fetch_list(t, &c->s)) != SQLITE_OK || (rc = dgvt_cur_run(t, c)) != SQLITE_OK)
		return rc;
	while (!c->eof && c->chunk == chunk && skip >= c->n_sel) {
		skip -= c->n_sel;
		if ((rc = dgvt_cur_run(t, c)) != SQLITE_OK)
			return rc;
	}
	if (c->eof || c->chunk != chunk)
		return dgvt_error(&t->d, SQLITE_CORRUPT_VTAB, "accesses: chunk %lld holds fewer accesses of block %lld"
		                " than sum_block_chunks counts", (long long)chunk, (long long)c->f.block);
	c->k = (uint32_t)skip;
	return SQLITE_OK;
}

/* ------------------------------------------------------------ moving */

int dgvt_cur_next(sqlite3_vtab_cursor *base)
{
	struct dgvt_cur *c = (struct dgvt_cur *)base;

	if (c->counting)
		return count_next(c), SQLITE_OK;
	if (++c->k < c->n_sel)
		return SQLITE_OK;
	return dgvt_cur_run((struct dgvt *)base->pVtab, c);
}

/* A probe (dgvtab.h): the chunks this cursor would read, counted; no row.
   A summed block's count reads none. */
static int probe_count(struct dgvt *t, struct dgvt_cur *c, int counted)
{
	int64_t n = 0;
	int rc = counted ? SQLITE_OK : dgvt_source_estimate(t, &c->s, &c->f, &n);

	t->probe->chunks += n;
	c->eof = 1;
	return rc;
}

int dgvt_cur_filter(sqlite3_vtab_cursor *base, int idx_num, const char *plan,
                     int argc, sqlite3_value **argv)
{
	struct dgvt_cur *c = (struct dgvt_cur *)base;
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
	/* No context with an access: no row can exist. */
	if (rc != SQLITE_OK || c->f.empty || t->m.max_accesses == 0)
		return rc;
	if (idx_num & DGVT_PLAN_NO_COLUMNS && c->f.block_summed) {
		if (t->probe && t->probe->on)
			return probe_count(t, c, 1);
		return count_start(t, c);
	}
	if ((rc = dgvt_source_choose(t, &c->s, &c->f)) != SQLITE_OK)
		return rc;
	if (t->probe && t->probe->on)
		return probe_count(t, c, 0);
	c->eof = 0;
	return dgvt_cur_run(t, c);
}

/* ------------------------------------------------------------ counting all */

int dgvt_cur_count(struct dgvt *t, struct dgvt_cur *c, int64_t *count)
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
		rc = dgvt_cur_run(t, c);
	}
	return rc;
}
